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

iop_unicast_setup
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# p2p_addrs TRANSPORT PNS ONS: for the wire checks, f the display filter's
# protocol (ip or eth) and ga / ca the addresses of the first namespace
# (PNS, the grandmaster) and the second (ONS, the client) in it.
p2p_addrs() {
	if [ "$1" = L2 ]; then
		f=eth
		ga=$(ip -n "$2" -br link show dev eth0 | awk '{ print $3 }')
		ca=$(ip -n "$3" -br link show dev eth0 | awk '{ print $3 }')
	else
		f=ip; ga=$MASTER_IP; ca=$SLAVE_IP
	fi
}

# p2p_answered TAG FILE F REQ RESP MIN: more than MIN unicast Pdelay_Req
# from REQ to RESP (addresses of protocol F: ip or eth), all but two
# answered by a unicast Pdelay_Resp from RESP to REQ.  Sets the caller's n
# to the number of Pdelay_Req.
p2p_answered() {
	local tag=$1 cap=$2 f=$3 req=$4 rsp=$5 min=$6 r
	n=$(iop_count "$cap" "$f.src == $req && ptp.v2.messagetype == 2 && $f.dst == $rsp && ptp.v2.flags.unicast == 1")
	r=$(iop_count "$cap" "$f.src == $rsp && ptp.v2.messagetype == 3 && $f.dst == $req && ptp.v2.flags.unicast == 1")
	if [ "${n:-0}" -gt "$min" ] && [ "${r:-0}" -ge $((n - 2)) ]; then
		pass "$tag: wire: $n unicast Pdelay_Req from $req to $rsp, $r unicast Pdelay_Resp back"
	else
		fail "$tag: wire: ${n:-?} unicast Pdelay_Req from $req to $rsp, ${r:-?} unicast Pdelay_Resp back"
	fi
}

# p2p_sl TAG TRANSPORT PNS ONS: the sl case (UDPv4) or l2 (L2).  ptp4l on
# UNICAST-SLAVE.cfg: over UDPv4 its [eth0] port on table 3 (peer_address
# and UDPv4 made our address), over L2 on table 2 (its L2 address made our
# MAC, with a peer_address line of it: the file has no L2 peer table).
p2p_sl() {
	local tag=$1 tr=$2 pns=$3 ons=$4 pd od cap capid n f ga ca ours
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	p2p_addrs "$tr" "$pns" "$ons"
	if [ "$tr" = L2 ]; then
		iop_debian_cfg "$pd/ptp4l.conf" "$pd" "$CONFIGS/UNICAST-SLAVE.cfg" \
			"delay_mechanism P2P" \
			-e "s/^L2\([[:space:]]*\)00:11:22:33:44:55\$/peer_address $ga\nL2\1$ga/" \
			-e '/^\[eth0\]/,/^\[/s/^\(unicast_master_table[[:space:]]*\)1$/\12/'
		printf 'network_transport L2\n' >>"$pd/ptp4l.conf"
		grep -q "^peer_address $ga$" "$pd/ptp4l.conf" ||
			{ fail "$tag: UNICAST-SLAVE.cfg: no L2 table line to make ours"; return; }
	else
		iop_debian_cfg "$pd/ptp4l.conf" "$pd" "$CONFIGS/UNICAST-SLAVE.cfg" \
			"delay_mechanism P2P" -e "s/192\.168\.4\.44$/$MASTER_IP/" \
			-e '/^\[eth0\]/,/^\[/s/^\(unicast_master_table[[:space:]]*\)1$/\13/'
		grep -q "^unicast_master_table[[:space:]]*3$" "$pd/ptp4l.conf" ||
			{ fail "$tag: UNICAST-SLAVE.cfg: no [eth0] table line to point at table 3"; return; }
	fi
	itest_conf "$od/ptp.conf" "$od" network_transport "$tr" priority1 100 \
		unicast_listen 1 delay_mechanism P2P
	cap=$pd/capture.pcapng
	iop_start_pair ours "$ons" "$pns" "$ons" "$pd" "$od" || return
	capid=$iop_capture_pid
	iop_measure_free "$tag" "ptp4l unicast P2P client over $tr" "$pd" "$od" ||
		return
	iop_no_refusal "$tag" "$pd/ptp4l.log"
	if [ "$tr" = UDPv4 ]; then
		iop_ptp4l_parent "$tag" "$ons" "$pd" \
			"$(iop_status "$pns" "$od" clock_identity)"
		uni_check "$tag" "$pns" "$od" '
s = u["server"]
assert "client" not in u, u
assert s["clients"] == 1 and s["max_clients"] == 1024, s
assert s["grants"] >= 3, s
assert s["refused"]["total"] == 0, s' \
			'^ptpsep_unicast_clients{port="1",iface="eth0"} 1$' \
			'^ptpsep_unicast_refused_total{port="1",iface="eth0",reason="period"} 0$'
	fi
	iop_capture_stop "$capid"
	ours="$f.src == $ga"
	iop_wire_check "$tag" "$cap" "$ours" 12 3 10
	# our GRANT of PDELAY_RESP (messageType 3 in the TLV's high nibble)
	iop_expect_count "$tag" "$cap" "$ours && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField > 0" -gt 0
	p2p_answered "$tag" "$cap" "$f" "$ca" "$ga" 10
	iop_expect_count "$tag" "$cap" "$f.src == $ca && ptp.v2.messagetype == 2 && $f.dst != $ga" -eq 0
	iop_expect_count "$tag" "$cap" "$ours && ptp.v2.messagetype == 10 && $f.dst == $ca && ptp.v2.flags.unicast == 1" -ge "$((n - 2))"
	itest_stop
}

# p2p_gm TAG TRANSPORT PNS ONS: the gm case (UDPv4) or l2gm (L2).  ptp4l
# on UNICAST-MASTER.cfg with delay_mechanism P2P and priority1 100; our
# client's table (UNICAST-SLAVE.cfg's table 3 over UDPv4, 2 over L2) names
# ptp4l's address as master and peer_address.
p2p_gm() {
	local tag=$1 tr=$2 pns=$3 ons=$4 pd od cap capid n f ga ca ours theirs
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	p2p_addrs "$tr" "$pns" "$ons"
	iop_debian_cfg "$pd/ptp4l.conf" "$pd" "$CONFIGS/UNICAST-MASTER.cfg" \
		"delay_mechanism P2P" -e ''
	echo "priority1 100" >>"$pd/ptp4l.conf"
	[ "$tr" = L2 ] && echo "network_transport L2" >>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport "$tr" clientOnly 1 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000 \
		unicast_req_duration 60 delay_mechanism P2P
	# our table, in ptp4l's syntax, and the port that uses it
	sed -i '/^\[eth0\]$/d' "$od/ptp.conf"
	if [ "$tr" = L2 ]; then
		iop_utab "$od/ptp.conf" 2 eth0 "$(printf 'peer_address %s\nL2 %s' "$ga" "$ga")"
	else
		iop_utab "$od/ptp.conf" 3 eth0 "$(printf 'peer_address %s\nUDPv4 %s' "$ga" "$ga")"
	fi
	cap=$pd/capture.pcapng
	iop_start_pair ptp4l "$pns" "$pns" "$ons" "$pd" "$od" || return
	capid=$iop_capture_pid
	iop_measure_servo "$tag" "our unicast P2P slave over $tr" "$od" "$pd" ||
		return
	if [ "$tr" = UDPv4 ]; then
		iop_no_refusal "$tag" "$od/clockd.log" refused
		uni_check "$tag" "$ons" "$od" '
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
	fi
	iop_capture_stop "$capid"
	ours="$f.src == $ca" theirs="$f.src == $ga"
	iop_wire_check "$tag" "$cap" "$ours" 12 2
	[ "$tr" = UDPv4 ] &&
		iop_expect_count "$tag" "$cap" "$ours && ptp.v2.sig.tlv.tlvType == 4 && ptp.v2.sig.tlv.messageType == 3" -gt 0
	iop_expect_count "$tag" "$cap" "$theirs && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField > 0" -gt 0
	p2p_answered "$tag" "$cap" "$f" "$ca" "$ga" 10
	# ptp4l's own Pdelay_Req are multicast (it has no table): answered so
	iop_expect_count "$tag" "$cap" "$ours && (ptp.v2.messagetype == 2 || ptp.v2.messagetype == 12) && $f.dst != $ga" -eq 0
	itest_stop
}

case_sl() { p2p_sl sl UDPv4 "iop$$p" "iop$$o"; }
case_l2() { p2p_sl l2 L2 "iop$$u" "iop$$v"; }
case_gm() { p2p_gm gm UDPv4 "iop$$m" "iop$$s"; }
case_l2gm() { p2p_gm l2gm L2 "iop$$w" "iop$$x"; }

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
	local pns=iop$$q ons=iop$$r pd od cap capid n
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	iop_debian_cfg "$pd/ptp4l.conf" "$pd" "$CONFIGS/UNICAST-SLAVE.cfg" \
		"delay_mechanism P2P" -e "s/192\.168\.4\.44$/$MASTER_IP/" \
		-e '/^\[eth0\]/,/^\[/s/^\(unicast_master_table[[:space:]]*\)1$/\13/'
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 priority1 100 \
		unicast_listen 1 delay_mechanism P2P unicast_min_log_interval 1
	cap=$pd/capture.pcapng
	iop_start_pair ours "$ons" "$pns" "$ons" "$pd" "$od" || return
	capid=$iop_capture_pid
	# Sync is asked once ptp4l's BMCA chose us (after an Announce or two)
	if iop_wait_samples "$pd/ptp4l.log" 'PDELAY_RESP rejected' 2 "$LOCK_TIMEOUT" &&
	    iop_wait_samples "$pd/ptp4l.log" 'SYNC rejected' 1 "$LOCK_TIMEOUT"; then
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
	iop_expect_count "rf" "$cap" "ip.src == $MASTER_IP && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.messageType == 3 && ptp.v2.sig.tlv.durationField == 0" -gt 1
	p2p_answered rf "$cap" ip "$SLAVE_IP" "$MASTER_IP" 3
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
