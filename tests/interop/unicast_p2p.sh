#!/bin/bash
# unicast_p2p.sh - unicast peer delay (IEEE 1588-2019 16.1: Pdelay_Resp is
# negotiable) against linuxptp's ptp4l, UDPv4, software time stamps, a
# pair of network namespaces over one veth per case.  A port whose
# unicast master table names a peer_address asks that peer for
# PDELAY_RESP grants and sends its Pdelay_Req unicast to it; a unicast
# Pdelay_Req is answered by a unicast Pdelay_Resp and Follow_Up.
#
#   sl   ptp4l with Debian's UNICAST-SLAVE.cfg, its port on table 3
#        (peer_address and UDPv4 both made our address; its [eth1]
#        section dropped; delay_mechanism P2P; free_running 1) negotiates
#        with our grandmaster (unicast_listen 1, delay_mechanism P2P,
#        priority1 100).  Checks: ptp4l logs no rejected grant, its
#        offsets over MEASURE s meet sync.sh's bounds for a free-running
#        ptp4l slave (itest_measure free); the wire: every frame decodes,
#        none malformed; we GRANT PDELAY_RESP (durationField > 0); ptp4l's
#        Pdelay_Req all unicast to us, each answered by our Pdelay_Resp
#        and Pdelay_Resp_Follow_Up unicast to ptp4l with the unicastFlag;
#        `ptpctl status --json` shows the grants and one client.
#   gm   our client (a table with peer_address and UDPv4 both ptp4l's
#        address, delay_mechanism P2P, clientOnly 1, virtual clock 1.5 s
#        and +80 ppm off) against ptp4l running UNICAST-MASTER.cfg with
#        delay_mechanism P2P: it locks within LOCK_TIMEOUT s and stays
#        within itest_measure's servo bounds; the wire: none malformed; we
#        REQUEST PDELAY_RESP, ptp4l grants it; every Pdelay_Req of ours
#        goes unicast to ptp4l, and ptp4l answers them unicast.
#
#   rf   a refusal: our grandmaster as in sl but unicast_min_log_interval 1:
#        ptp4l's Sync and PDELAY_RESP requests (2^0 s) are refused (ptp4l
#        logs them rejected), ptpctl counts them as refused for the period,
#        and ptp4l's unicast Pdelay_Req are still answered unicast.
#   l2   sl over L2: UNICAST-SLAVE.cfg's L2 table made our MAC, with a
#        peer_address line of it (the file has none for L2): ptp4l's
#        Pdelay_Req all unicast to our MAC, each answered unicast to its MAC.
#   l2gm gm over L2: our client's table names ptp4l's MAC as master and
#        peer_address; it locks, and its Pdelay_Req all go to that MAC,
#        answered unicast.
#   Each case reads `ptpctl --json status`, `ptpctl status` and `ptpctl
#   metrics` and checks the port's unicast service (sl, rf) or its
#   client's masters and peer (gm) there.
#
#   BUILD=build/default tests/interop/unicast_p2p.sh [sl|gm|rf|l2|l2gm]...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

MEASURE=${MEASURE:-30}
SETTLE=${SETTLE:-10}
LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
FREE_SKIP=${FREE_SKIP:-10}
CONFIGS=${LINUXPTP_CONFIGS:-/usr/share/doc/linuxptp/configs}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
MASTER_IP=10.201.0.1	# itest_pair's first namespace
SLAVE_IP=10.201.0.2

for f in UNICAST-SLAVE.cfg UNICAST-MASTER.cfg; do
	[ -r "$CONFIGS/$f" ] || { echo "FAIL: $CONFIGS/$f missing (linuxptp)"; exit 1; }
done

# debian_cfg FILE DIR SRC SED...: ptp4l's safety and path settings
# (iop_ptp4l_conf), Debian's file SRC with the sed expressions applied,
# delay_mechanism P2P, and free_running 1 last.
debian_cfg() {
	local f=$1 dir=$2 src=$3
	shift 3
	iop_ptp4l_conf "$f" "$dir"
	sed "$@" -e '/^\[eth1\]/,$d' "$CONFIGS/$src" >>"$f"
	# A second [global] section is ptp4l's own syntax for "back to global".
	grep -v '^free_running\|^kernel_leap' "$f" >"$f.tmp"
	printf '[global]\ndelay_mechanism P2P\nfree_running 1\nkernel_leap 0\n' \
		>>"$f.tmp"
	mv "$f.tmp" "$f"
}

# wait_samples LOG PATTERN N SECONDS: until LOG has N lines matching.
wait_samples() {
	local t0=$SECONDS
	until [ "$(grep -c -- "$2" "$1" 2>/dev/null)" -ge "$3" ]; do
		((SECONDS - t0 > $4)) && return 1
		sleep 1
	done
}

# expect_count TAG FILE FILTER OP N: the number of frames FILTER matches.
expect_count() {
	local n
	n=$(iop_count "$2" "$3") || { fail "$1: wire: tshark failed on '$3'"; return; }
	if [ "$n" "$4" "$5" ]; then
		pass "$1: wire: $n frames [$3] ($4 $5)"
	else
		fail "$1: wire: $n frames [$3], expected $4 $5"
	fi
}

case_sl() {
	local pns=iop$$p ons=iop$$o pd od cap capid cid gm n r j
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	debian_cfg "$pd/ptp4l.conf" "$pd" UNICAST-SLAVE.cfg \
		-e "s/192\.168\.4\.44$/$MASTER_IP/" \
		-e '/^\[eth0\]/,/^\[/s/^\(unicast_master_table[[:space:]]*\)1$/\13/'
	grep -q "^unicast_master_table[[:space:]]*3$" "$pd/ptp4l.conf" ||
		{ fail "sl: UNICAST-SLAVE.cfg: no [eth0] table line to point at table 3"; return; }
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 priority1 100 \
		unicast_listen 1 delay_mechanism P2P
	cap=$pd/capture.pcapng
	iop_capture_start "$ons" eth0 "$cap" || return
	capid=$iop_capture_pid
	itest_daemons "$pns" "$od" "$od/ptp.conf" || return
	iop_ptp4l "$ons" "$pd" eth0 || return
	if ! wait_samples "$pd/ptp4l.log" 'master offset' "$FREE_SKIP" \
	    "$LOCK_TIMEOUT"; then
		fail "sl: ptp4l printed no $FREE_SKIP offsets in ${LOCK_TIMEOUT}s"
		tail -20 "$pd/ptp4l.log"; tail -20 "$od/clockd.log"
		return
	fi
	local from
	from=$(grep -n 'master offset' "$pd/ptp4l.log" | sed -n "${FREE_SKIP}p" |
		cut -d: -f1)
	sleep "$MEASURE"
	itest_measure "sl: ptp4l unicast P2P client" "$pd/ptp4l.log" \
		"$((from - 1))" free
	if grep -q 'rejected\|refused' "$pd/ptp4l.log"; then
		fail "sl: ptp4l logged a refusal"; grep 'rejected\|refused' "$pd/ptp4l.log"
	else
		pass "sl: ptp4l logged no rejected grant"
	fi
	cid=$(iop_status "$pns" "$od" clock_identity)
	gm=$(iop_pmc_field "$ons" "$pd" 'GET PARENT_DATA_SET' grandmasterIdentity)
	[ -n "$cid" ] && [ "$gm" = "$cid" ] &&
		pass "sl: ptp4l's grandmaster is ours ($gm)" ||
		fail "sl: ptp4l's grandmaster '$gm', ours '$cid'"
	uni_check sl "$pns" "$od" '
s = u["server"]
assert "client" not in u, u
assert s["clients"] == 1 and s["max_clients"] == 1024, s
assert s["grants"] >= 3, s
assert s["refused"]["total"] == 0, s' \
		'^ptpsep_unicast_clients{port="1",iface="eth0"} 1$' \
		'^ptpsep_unicast_refused_total{port="1",iface="eth0",reason="period"} 0$'
	iop_capture_stop "$capid"
	local ours="ip.src == $MASTER_IP"
	iop_wire_check "sl" "$cap" "$ours" 12 3 10
	# our GRANT of PDELAY_RESP (messageType 3 in the TLV's high nibble)
	expect_count "sl" "$cap" "$ours && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField > 0" -gt 0
	n=$(iop_count "$cap" "ip.src == $SLAVE_IP && ptp.v2.messagetype == 2 && ip.dst == $MASTER_IP && ptp.v2.flags.unicast == 1")
	r=$(iop_count "$cap" "$ours && ptp.v2.messagetype == 3 && ip.dst == $SLAVE_IP && ptp.v2.flags.unicast == 1")
	if [ "${n:-0}" -gt 10 ] && [ "${r:-0}" -ge $((n - 2)) ]; then
		pass "sl: wire: $n unicast Pdelay_Req from ptp4l, $r unicast Pdelay_Resp of ours"
	else
		fail "sl: wire: ${n:-?} unicast Pdelay_Req from ptp4l, ${r:-?} unicast Pdelay_Resp of ours"
	fi
	expect_count "sl" "$cap" "ip.src == $SLAVE_IP && ptp.v2.messagetype == 2 && ip.dst != $MASTER_IP" -eq 0
	expect_count "sl" "$cap" "$ours && ptp.v2.messagetype == 10 && ip.dst == $SLAVE_IP && ptp.v2.flags.unicast == 1" -ge "$((n - 2))"
	itest_stop
}

# uni_check TAG NS DIR PYTHON [REGEX]...: `ptpctl --json status` of the
# daemons in DIR, its first port's "unicast" object as u, passes the
# asserts in PYTHON; `ptpctl status` shows the port's unicast lines; and
# `ptpctl metrics` has a line matching each REGEX.
uni_check() {
	local tag=$1 ns=$2 dir=$3 py=$4 j out re
	shift 4
	j=$(ip netns exec "$ns" "$BUILD/ctl/ptpctl" -f "$dir/ptp.conf" --json status 2>&1)
	if out=$(python3 -c "
import json, sys
u = json.loads(sys.argv[1])['ports'][0]['unicast']
$py
print(json.dumps(u))" "$j" 2>&1); then
		pass "$tag: ptpctl --json status: $out"
	else
		fail "$tag: ptpctl --json status: $out"; echo "$j"
	fi
	out=$(ip netns exec "$ns" "$BUILD/ctl/ptpctl" -f "$dir/ptp.conf" status 2>&1)
	if grep -q '^      unicast \(service\|master\|peer\)' <<<"$out"; then
		pass "$tag: ptpctl status: $(grep '^      unicast' <<<"$out" | tr -s ' ' | tr '\n' ';')"
	else
		fail "$tag: ptpctl status shows no unicast line"; echo "$out"
	fi
	out=$(ip netns exec "$ns" "$BUILD/ctl/ptpctl" -f "$dir/ptp.conf" metrics 2>&1)
	# the OpenMetrics parser ptpctl.sh uses (Debian's python3-prometheus-client)
	# takes it whole
	if "$PY" -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
f = [m.name for m in text_string_to_metric_families(sys.stdin.read())
     if m.name.startswith("ptpsep_unicast")]
assert f, "no ptpsep_unicast family"
print(" ".join(f))' <<<"$out" >"$dir/om.txt" 2>&1; then
		pass "$tag: ptpctl metrics parse as OpenMetrics: $(cat "$dir/om.txt")"
	else
		fail "$tag: ptpctl metrics: $(tail -1 "$dir/om.txt")"
	fi
	for re in "$@"; do
		if grep -q -- "$re" <<<"$out"; then
			pass "$tag: ptpctl metrics: $(grep -- "$re" <<<"$out")"
		else
			fail "$tag: ptpctl metrics: nothing matches $re"
			grep ptpsep_unicast <<<"$out"
		fi
	done
}

# A refusal: our grandmaster grants nothing faster than 2^1 s
# (unicast_min_log_interval 1); ptp4l (as in sl) asks Announce at 2^1 s,
# granted, Sync and Pdelay_Resp at 2^0 s, refused: ptp4l logs both
# rejected, the counters show them, and ptp4l's unicast Pdelay_Req are
# still answered unicast (as ptp4l's responder does).
case_rf() {
	local pns=iop$$q ons=iop$$r pd od cap capid n r
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	debian_cfg "$pd/ptp4l.conf" "$pd" UNICAST-SLAVE.cfg \
		-e "s/192\.168\.4\.44$/$MASTER_IP/" \
		-e '/^\[eth0\]/,/^\[/s/^\(unicast_master_table[[:space:]]*\)1$/\13/'
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 priority1 100 \
		unicast_listen 1 delay_mechanism P2P unicast_min_log_interval 1
	cap=$pd/capture.pcapng
	iop_capture_start "$ons" eth0 "$cap" || return
	capid=$iop_capture_pid
	itest_daemons "$pns" "$od" "$od/ptp.conf" || return
	iop_ptp4l "$ons" "$pd" eth0 || return
	# Sync is asked once ptp4l's BMCA chose us (after an Announce or two)
	if wait_samples "$pd/ptp4l.log" 'PDELAY_RESP rejected' 2 "$LOCK_TIMEOUT" &&
	    wait_samples "$pd/ptp4l.log" 'SYNC rejected' 1 "$LOCK_TIMEOUT"; then
		pass "rf: ptp4l: $(grep -c 'rejected' "$pd/ptp4l.log") grants rejected ($(grep -o 'grant of [A-Z_]* rejected' "$pd/ptp4l.log" | sort -u | tr '\n' ';'))"
	else
		fail "rf: ptp4l did not log two PDELAY_RESP and one SYNC refusals in ${LOCK_TIMEOUT}s"
		tail -20 "$pd/ptp4l.log"
	fi
	uni_check rf "$pns" "$od" '
s = u["server"]
assert s["refused"]["period"] >= 3 and s["refused"]["total"] == s["refused"]["period"], s
assert s["grants"] >= 1 and s["clients"] == 1, s' \
		'^ptpsep_unicast_refused_total{port="1",iface="eth0",reason="period"} [1-9][0-9]*$' \
		'^ptpsep_unicast_grants_total{port="1",iface="eth0"} [1-9][0-9]*$'
	iop_capture_stop "$capid"
	iop_wire_check "rf" "$cap" "ip.src == $MASTER_IP" 12 3
	expect_count "rf" "$cap" "ip.src == $MASTER_IP && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField == 0" -gt 1
	n=$(iop_count "$cap" "ip.src == $SLAVE_IP && ptp.v2.messagetype == 2 && ip.dst == $MASTER_IP && ptp.v2.flags.unicast == 1")
	r=$(iop_count "$cap" "ip.src == $MASTER_IP && ptp.v2.messagetype == 3 && ip.dst == $SLAVE_IP && ptp.v2.flags.unicast == 1")
	if [ "${n:-0}" -gt 3 ] && [ "${r:-0}" -ge $((n - 2)) ]; then
		pass "rf: wire: $n unicast Pdelay_Req from ptp4l, $r unicast Pdelay_Resp of ours"
	else
		fail "rf: wire: ${n:-?} unicast Pdelay_Req from ptp4l, ${r:-?} unicast Pdelay_Resp of ours"
	fi
	itest_stop
}

# The sl case over L2: UNICAST-SLAVE.cfg's L2 table (2) with our MAC and a
# peer_address line of it (the file has no L2 peer table), network_transport
# L2: ptp4l's Pdelay_Req go to our MAC, our Pdelay_Resp and Follow_Up to
# its MAC, all with the unicastFlag.
case_l2() {
	local pns=iop$$u ons=iop$$v pd od cap capid gmac cmac n r from
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	gmac=$(ip -n "$pns" -br link show dev eth0 | awk '{ print $3 }')
	cmac=$(ip -n "$ons" -br link show dev eth0 | awk '{ print $3 }')
	debian_cfg "$pd/ptp4l.conf" "$pd" UNICAST-SLAVE.cfg \
		-e "s/^L2\([[:space:]]*\)00:11:22:33:44:55\$/peer_address $gmac\nL2\1$gmac/" \
		-e '/^\[eth0\]/,/^\[/s/^\(unicast_master_table[[:space:]]*\)1$/\12/'
	printf 'network_transport L2\n' >>"$pd/ptp4l.conf"
	grep -q "^peer_address $gmac$" "$pd/ptp4l.conf" ||
		{ fail "l2: UNICAST-SLAVE.cfg: no L2 table line to make ours"; return; }
	itest_conf "$od/ptp.conf" "$od" network_transport L2 priority1 100 \
		unicast_listen 1 delay_mechanism P2P
	cap=$pd/capture.pcapng
	iop_capture_start "$ons" eth0 "$cap" || return
	capid=$iop_capture_pid
	itest_daemons "$pns" "$od" "$od/ptp.conf" || return
	iop_ptp4l "$ons" "$pd" eth0 || return
	if ! wait_samples "$pd/ptp4l.log" 'master offset' "$FREE_SKIP" \
	    "$LOCK_TIMEOUT"; then
		fail "l2: ptp4l printed no $FREE_SKIP offsets in ${LOCK_TIMEOUT}s"
		tail -20 "$pd/ptp4l.log"; tail -20 "$od/clockd.log"
		return
	fi
	from=$(grep -n 'master offset' "$pd/ptp4l.log" | sed -n "${FREE_SKIP}p" |
		cut -d: -f1)
	sleep "$MEASURE"
	itest_measure "l2: ptp4l unicast P2P client over L2" "$pd/ptp4l.log" \
		"$((from - 1))" free
	if grep -q 'rejected\|refused' "$pd/ptp4l.log"; then
		fail "l2: ptp4l logged a refusal"; grep 'rejected\|refused' "$pd/ptp4l.log"
	else
		pass "l2: ptp4l logged no rejected grant"
	fi
	iop_capture_stop "$capid"
	local ours="eth.src == $gmac"
	iop_wire_check "l2" "$cap" "$ours" 12 3 10
	expect_count "l2" "$cap" "$ours && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField > 0" -gt 0
	n=$(iop_count "$cap" "eth.src == $cmac && ptp.v2.messagetype == 2 && eth.dst == $gmac && ptp.v2.flags.unicast == 1")
	r=$(iop_count "$cap" "$ours && ptp.v2.messagetype == 3 && eth.dst == $cmac && ptp.v2.flags.unicast == 1")
	if [ "${n:-0}" -gt 10 ] && [ "${r:-0}" -ge $((n - 2)) ]; then
		pass "l2: wire: $n unicast Pdelay_Req from ptp4l, $r unicast Pdelay_Resp of ours"
	else
		fail "l2: wire: ${n:-?} unicast Pdelay_Req from ptp4l, ${r:-?} unicast Pdelay_Resp of ours"
	fi
	expect_count "l2" "$cap" "eth.src == $cmac && ptp.v2.messagetype == 2 && eth.dst != $gmac" -eq 0
	expect_count "l2" "$cap" "$ours && ptp.v2.messagetype == 10 && eth.dst == $cmac && ptp.v2.flags.unicast == 1" -ge "$((n - 2))"
	itest_stop
}

# The gm case over L2: our client's table names ptp4l's MAC as its master
# and peer_address; our Pdelay_Req all go to that MAC, answered unicast.
case_l2gm() {
	local pns=iop$$w ons=iop$$x pd od cap capid gmac cmac n r from
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	gmac=$(ip -n "$pns" -br link show dev eth0 | awk '{ print $3 }')
	cmac=$(ip -n "$ons" -br link show dev eth0 | awk '{ print $3 }')
	debian_cfg "$pd/ptp4l.conf" "$pd" UNICAST-MASTER.cfg -e ''
	printf 'priority1 100\nnetwork_transport L2\n' >>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport L2 clientOnly 1 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000 \
		unicast_req_duration 60 delay_mechanism P2P
	sed -i '/^\[eth0\]$/d' "$od/ptp.conf"
	printf '[unicast_master_table]\ntable_id 2\nlogQueryInterval 2\npeer_address %s\nL2 %s\n[eth0]\nunicast_master_table 2\n' \
		"$gmac" "$gmac" >>"$od/ptp.conf"
	cap=$pd/capture.pcapng
	iop_capture_start "$pns" eth0 "$cap" || return
	capid=$iop_capture_pid
	iop_ptp4l "$pns" "$pd" eth0 || return
	itest_daemons "$ons" "$od" "$od/ptp.conf" || return
	if ! wait_samples "$od/clockd.log" ' s2 freq' 1 "$LOCK_TIMEOUT"; then
		fail "l2gm: our slave did not lock in ${LOCK_TIMEOUT}s"
		tail -20 "$od/clockd.log"; tail -20 "$pd/ptp4l.log"
		return
	fi
	pass "l2gm: our unicast P2P slave locked to ptp4l over L2"
	sleep "$SETTLE"
	from=$(wc -l <"$od/clockd.log")
	sleep "$MEASURE"
	itest_measure "l2gm: our unicast P2P slave over L2" "$od/clockd.log" \
		"$from" servo
	iop_capture_stop "$capid"
	local ours="eth.src == $cmac"
	iop_wire_check "l2gm" "$cap" "$ours" 12 2
	expect_count "l2gm" "$cap" "eth.src == $gmac && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField > 0" -gt 0
	n=$(iop_count "$cap" "$ours && ptp.v2.messagetype == 2 && eth.dst == $gmac && ptp.v2.flags.unicast == 1")
	r=$(iop_count "$cap" "eth.src == $gmac && ptp.v2.messagetype == 3 && eth.dst == $cmac && ptp.v2.flags.unicast == 1")
	if [ "${n:-0}" -gt 10 ] && [ "${r:-0}" -ge $((n - 2)) ]; then
		pass "l2gm: wire: $n unicast Pdelay_Req of ours, $r unicast Pdelay_Resp from ptp4l"
	else
		fail "l2gm: wire: ${n:-?} unicast Pdelay_Req of ours, ${r:-?} unicast Pdelay_Resp from ptp4l"
	fi
	expect_count "l2gm" "$cap" "$ours && (ptp.v2.messagetype == 2 || ptp.v2.messagetype == 12) && eth.dst != $gmac" -eq 0
	itest_stop
}

case_gm() {
	local pns=iop$$m ons=iop$$s pd od cap capid steps from n r
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	debian_cfg "$pd/ptp4l.conf" "$pd" UNICAST-MASTER.cfg -e ''
	echo "priority1 100" >>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 clientOnly 1 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000 \
		unicast_req_duration 60 delay_mechanism P2P
	# our table, in ptp4l's syntax (UNICAST-SLAVE.cfg's table 3), and the
	# port that uses it
	sed -i '/^\[eth0\]$/d' "$od/ptp.conf"
	printf '[unicast_master_table]\ntable_id 3\nlogQueryInterval 2\npeer_address %s\nUDPv4 %s\n[eth0]\nunicast_master_table 3\n' \
		"$MASTER_IP" "$MASTER_IP" >>"$od/ptp.conf"
	cap=$pd/capture.pcapng
	iop_capture_start "$pns" eth0 "$cap" || return
	capid=$iop_capture_pid
	iop_ptp4l "$pns" "$pd" eth0 || return
	itest_daemons "$ons" "$od" "$od/ptp.conf" || return
	if ! wait_samples "$od/clockd.log" ' s2 freq' 1 "$LOCK_TIMEOUT"; then
		fail "gm: our slave did not lock in ${LOCK_TIMEOUT}s"
		tail -20 "$od/clockd.log"; tail -20 "$pd/ptp4l.log"
		return
	fi
	pass "gm: our unicast P2P slave locked to ptp4l"
	sleep "$SETTLE"
	from=$(wc -l <"$od/clockd.log")
	sleep "$MEASURE"
	itest_measure "gm: our unicast P2P slave" "$od/clockd.log" "$from" servo
	if grep -q 'refused' "$od/clockd.log"; then
		fail "gm: our client logged a refusal"; grep 'refused' "$od/clockd.log"
	else
		pass "gm: our client logged no refused grant"
	fi
	uni_check gm "$ons" "$od" '
c = u["client"]
assert "server" not in u, u
m = c["masters"][0]
assert c["masters_total"] == 1 and m["address"] == "'"$MASTER_IP"'", c
assert m["state"] == "have_sydy" and m["port_identity"], c
assert {g["message"] for g in m["grants"]} == {"announce", "sync"}, c
p = c["peer"]
assert p["address"] == "'"$MASTER_IP"'" and p["grants"] >= 1, p
assert p["grant"]["message"] == "pdelay_resp" and p["grant"]["expires_in_s"] > 0, p
assert p["refusals"] == 0 and c["refusals"] == 0, c' \
		'^ptpsep_unicast_peer_granted{port="1",iface="eth0",address="'"$MASTER_IP"'"} 1$' \
		'^ptpsep_unicast_master_state{port="1",iface="eth0",address="'"$MASTER_IP"'"} 4$'
	iop_capture_stop "$capid"
	local ours="ip.src == $SLAVE_IP" theirs="ip.src == $MASTER_IP"
	iop_wire_check "gm" "$cap" "$ours" 12 2
	expect_count "gm" "$cap" "$ours && ptp.v2.sig.tlv.tlvType == 4 && ptp.v2.sig.tlv.messageType == 3" -gt 0
	expect_count "gm" "$cap" "$theirs && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField > 0" -gt 0
	n=$(iop_count "$cap" "$ours && ptp.v2.messagetype == 2 && ip.dst == $MASTER_IP && ptp.v2.flags.unicast == 1")
	r=$(iop_count "$cap" "$theirs && ptp.v2.messagetype == 3 && ip.dst == $SLAVE_IP && ptp.v2.flags.unicast == 1")
	if [ "${n:-0}" -gt 10 ] && [ "${r:-0}" -ge $((n - 2)) ]; then
		pass "gm: wire: $n unicast Pdelay_Req of ours, $r unicast Pdelay_Resp from ptp4l"
	else
		fail "gm: wire: ${n:-?} unicast Pdelay_Req of ours, ${r:-?} unicast Pdelay_Resp from ptp4l"
	fi
	# ptp4l's own Pdelay_Req are multicast (it has no table): answered so
	expect_count "gm" "$cap" "$ours && (ptp.v2.messagetype == 2 || ptp.v2.messagetype == 12) && ip.dst != $MASTER_IP" -eq 0
	itest_stop
}

itest_tmpdir st
iop_wire_selftest "$st"
for c in ${1:-sl gm rf l2 l2gm}; do
	"case_$c"
done
[ "$itest_fails" = 0 ] && echo "PASS: unicast_p2p" && exit 0
echo "FAIL: unicast_p2p ($itest_fails)"
exit 1
