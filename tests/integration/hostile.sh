#!/bin/bash
# hostile.sh - both daemons against hostile input (issue 11, items 3 and 8),
# meant to run against the ASan+UBSan build.
#
# One node (netd + clockd, peer-to-peer delay) in namespace A with three
# links to namespace B: eth0 over L2, eth1 over UDPv4, eth2 over UDPv6
# with an MTU of 1280.  B is hostile:
#   1. a hostile clockd (tests/integration/netd_client) before the real
#      one connects: a 44-octet Announce, a 48-octet Management (no TLV),
#      1473/1500-octet UDPv4 and 1453-octet UDPv6 payloads (they would
#      fragment) are refused with REFUSE_BAD_PAYLOAD and the connection
#      closed; a 1400-octet UDPv6 payload (under netd's cap, over the
#      link's MTU) fails in the kernel (IPV6_DONTFRAG) and no fragment
#      reaches B; netd's other hostile client cases; netd stays up;
#   2. a rogue grandmaster and peer-delay responder on both links
#      (hostile_peer.py rogue): Follow_Ups with preciseOriginTimestamp
#      2^48-1 s, Pdelay_Resp + Pdelay_Resp_Follow_Up with t2 = t3 =
#      2^48-1 s; clockd drops them (its log says so) and does not abort;
#   3. 10,000 malformed frames on L2 and 10,000 on UDPv4
#      (hostile_peer.py malformed: random bytes, truncated headers, wrong
#      versions, reserved types, lying messageLength, bad TLVs, bad time
#      stamps, every messageType);
#   4. management abuse over L2 (mgmt_send.py: each bad case, a flood).
# Afterwards both daemons are alive, `ptpctl status` and `ptpctl netd`
# answer, and no sanitizer wrote a report.
#
#   BUILD=build/default bash tests/integration/hostile.sh
#   BUILD=build/default SAN_BUILD=build/sanitizers bash tests/integration/hostile.sh
#
# With SAN_BUILD the daemons are that build's (configure
# --enable-sanitizers: -fsanitize=address,undefined -fno-sanitize-recover);
# ASAN_OPTIONS/UBSAN_OPTIONS make any report abort the daemon and write
# a file into the test's directory; any such file, or a dead daemon, fails
# the test.  The test client and ptpctl come from BUILD.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# SAN_BUILD alone: the helpers from there too.
BUILD=${BUILD:-${SAN_BUILD:-}}
. "$here/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: hostile.sh needs root"
	exit 77
fi
DBUILD=${SAN_BUILD:-$BUILD}
NETD=$DBUILD/netd/ptp-netd
CLOCKD=$DBUILD/clockd/ptp-clockd
PTPCTL=$BUILD/ctl/ptpctl
CLIENT=$BUILD/tests/integration/netd_client
PEER=$here/hostile_peer.py
MGMT=$here/mgmt_send.py
FLOOD=${HOSTILE_FLOOD:-10000}
for f in "$NETD" "$CLOCKD" "$PTPCTL" "$CLIENT"; do
	[ -x "$f" ] || { echo "FAIL: $f not built (make check first)"; exit 1; }
done
echo "INFO: daemons from $DBUILD${SAN_BUILD:+ (sanitizers)}"

for u in ptpsep-netd ptpsep-clockd; do
	id -u "$u" >/dev/null 2>&1 ||
		useradd --system --no-create-home --home-dir /nonexistent \
			--shell /usr/sbin/nologin "$u"
done

tag="ho$$"
A="${tag}a"; B="${tag}b"
itest_pair "$A" "$B"
itest_link "$A" eth1 "$B" eth1
ip -n "$A" addr add 10.202.0.1/24 dev eth1
ip -n "$B" addr add 10.202.0.2/24 dev eth1
# eth2: UDPv6 with the IPv6 minimum MTU, 1280: what fits netd's cap (1452)
# but not the link must be refused by the kernel, not fragmented.
itest_link "$A" eth2 "$B" eth2
for ns in "$A" "$B"; do ip -n "$ns" link set eth2 mtu 1280; done
ip -n "$A" addr add fd21::1/64 dev eth2 nodad
ip -n "$B" addr add fd21::2/64 dev eth2 nodad
itest_tmpdir W

# Reports of the daemons (which run as their own users) land here; GCC's
# UBSan prints its "runtime error" to stderr whatever log_path says, so
# the daemons' logs are searched too.
san=$W/san
mkdir -p "$san"
chmod 1777 "$san"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=0:log_path=$san/asan"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$san/ubsan"

# logging_level 7: every argument of every debug line is evaluated, as
# it was at any level before log_debug() became lazy (the overflow of
# issue 11 item 3 was in such an argument).
ITEST_PORTS="eth0 eth1 eth2" itest_conf "$W/ptp.conf" "$W" \
	delay_mechanism P2P logMinPdelayReqInterval -2 \
	logging_level 7
sed -i -e 's/^\[eth0\]$/[eth0]\nnetwork_transport L2/' \
	-e 's/^\[eth1\]$/[eth1]\nnetwork_transport UDPv4/' \
	-e 's/^\[eth2\]$/[eth2]\nnetwork_transport UDPv6/' "$W/ptp.conf"

itest_start "$A" "$W/netd.log" "$NETD" -m -f "$W/ptp.conf"
netd_pid=${itest_pids[-1]}
itest_wait_file "$W/netd.sock" 10 || { fail "netd did not start"; cat "$W/netd.log"; exit 1; }

alive() {	# name pid
	if kill -0 "$2" 2>/dev/null; then return 0; fi
	fail "$1 died"
	return 1
}
reports() {	# the sanitizer reports so far, or nothing
	ls "$san" 2>/dev/null
	grep -lE 'runtime error|ERROR: AddressSanitizer|SUMMARY: (Address|Undefined)' \
		"$W/netd.log" "$W/clockd.log" 2>/dev/null
}
# hexmsg TYPE LEN: a PTPv2 message of TYPE with messageLength LEN, zeros.
hexmsg() {
	python3 -c 'import sys
t, n = int(sys.argv[1], 0), int(sys.argv[2])
b = bytearray(n); b[0] = t; b[1] = 2; b[2:4] = n.to_bytes(2, "big")
print(b.hex())' "$1" "$2"
}
# port index of an interface in netd
port_of() {
	"$PTPCTL" -n "$W/netd-ctl.sock" --json netd | python3 -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    if p["iface"] == sys.argv[1]:
        print(p.get("index", p.get("port", 0)))' "$1"
}

# ---- 1. hostile clockd ------------------------------------------------------
l2=$(port_of eth0); u4=$(port_of eth1); u6=$(port_of eth2)
echo "INFO: netd ports: eth0 (L2) $l2, eth1 (UDPv4) $u4, eth2 (UDPv6, MTU 1280) $u6"
# refused PORT CLASS TYPE LEN WHY...: netd refuses the TxFrame and says why.
refused() {
	local port=$1 cls=$2 type=$3 len=$4 why=$5 out
	out=$(ip netns exec "$A" "$CLIENT" send "$W/netd.sock" --port "$port" \
		--class "$cls" --hex "$(hexmsg "$type" "$len")" 2>&1)
	if grep -q "ANSWER error code=.*$why" <<<"$out"; then
		pass "hostile clockd: $len-octet type $type on port $port refused ($why)"
	else
		fail "hostile clockd: $len-octet type $type on port $port not refused"
		echo "$out"
	fi
	alive netd "$netd_pid"
}
refused "$l2" general 0xB 44 "shorter than its messageType's minimum"
refused "$u4" general 0xB 63 "shorter than its messageType's minimum"
refused "$l2" general 0xD 48 "shorter than its messageType's minimum"
refused "$u4" general 0xC 1473 "larger than one unfragmented frame"
refused "$u4" general 0xB 1500 "larger than one unfragmented frame"
refused "$u6" general 0xC 1453 "larger than one unfragmented frame"
# at the limits they go out
for c in "$u4 0xC 1472" "$l2 0xB 64" "$l2 0xD 54"; do
	set -- $c
	out=$(ip netns exec "$A" "$CLIENT" send "$W/netd.sock" --port "$1" \
		--class general --hex "$(hexmsg "$2" "$3")" 2>&1)
	if grep -q '^ANSWER' <<<"$out"; then
		fail "hostile clockd: $3-octet type $2 on port $1 refused"; echo "$out"
	else
		pass "hostile clockd: $3-octet type $2 on port $1 accepted"
	fi
done
# Below netd's cap, above the link's MTU: the kernel refuses the datagram
# (IPV6_DONTFRAG), netd reports the send failed, and nothing - no
# fragment - reaches the peer.  1200 octets fit and arrive.
# v6sniff SECONDS: IPv6 fragments and UDP datagrams to 319/320 seen on B.
v6sniff() {
	ip netns exec "$B" python3 -c '
import socket, struct, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x86DD))
s.bind(("eth2", 0x86DD))
end = time.monotonic() + float(sys.argv[1]); frag = udp = 0
print("READY", flush=True)
while True:
    left = end - time.monotonic()
    if left <= 0:
        break
    s.settimeout(left)
    try:
        f = s.recv(4096)
    except socket.timeout:
        break
    nh = f[14 + 6]
    if nh == 44:
        frag += 1
    elif nh == 17 and struct.unpack(">H", f[14 + 40 + 2:14 + 40 + 4])[0] in (319, 320):
        udp += 1
print("SNIFF frag=%d ptp=%d" % (frag, udp))' "$1"
}
for c in "1400 TXTS_SEND_FAILED frag=0 ptp=0" "1200 TXTS_OK frag=0 ptp=1"; do
	set -- $c
	v6sniff 3 >"$W/sniff6.out" 2>&1 &
	sp=$!
	itest_wait_log "$W/sniff6.out" READY 5 || true
	out=$(ip netns exec "$A" "$CLIENT" send "$W/netd.sock" --port "$u6" \
		--class event --want-ts --hex "$(hexmsg 0x0 "$1")" 2>&1)
	wait "$sp"
	if grep -q "status=$2" <<<"$out" && grep -q "SNIFF $3 $4" "$W/sniff6.out"; then
		pass "UDPv6 MTU 1280: a $1-octet payload: $2, peer saw $3 $4"
	else
		fail "UDPv6 MTU 1280: a $1-octet payload"; echo "$out"; cat "$W/sniff6.out"
	fi
done
alive netd "$netd_pid"
for c in nonptp wrongclass badport badlen oversize garbage nohello version \
    unicast nan gents empty; do
	if out=$(ip netns exec "$A" "$CLIENT" hostile "$W/netd.sock" "$c" 2>&1); then
		pass "hostile clockd $c: $(grep '^RESULT' <<<"$out" | sed 's/^RESULT //')"
	else
		fail "hostile clockd $c"; echo "$out"
	fi
	alive netd "$netd_pid" || break
done

# ---- the real clockd ------------------------------------------------------
itest_start "$A" "$W/clockd.log" "$CLOCKD" -m -f "$W/ptp.conf"
clockd_pid=${itest_pids[-1]}
if ! itest_wait_log "$W/clockd.log" 'port 3 .* to ' 15; then
	fail "clockd did not bring its ports up"; tail -20 "$W/clockd.log"; exit 1
fi

# ---- 2. rogue grandmaster, overflow peer delay ------------------------------
ip netns exec "$B" python3 "$PEER" rogue eth0 l2 8 >"$W/rogue-l2.out" 2>&1 &
r1=$!
ip netns exec "$B" python3 "$PEER" rogue eth1 udp4 8 >"$W/rogue-u4.out" 2>&1 &
r2=$!
wait "$r1" "$r2"
cat "$W/rogue-l2.out" "$W/rogue-u4.out" | sed 's/^/INFO: /'
for f in rogue-l2 rogue-u4; do
	n=$(sed -n 's/.*answered=\([0-9]*\).*/\1/p' "$W/$f.out")
	if [ "${n:-0}" -ge 5 ]; then
		pass "$f: answered ${n} Pdelay_Req with t2 = t3 = 2^48-1 s"
	else
		fail "$f: the rogue answered ${n:-no} Pdelay_Req"
	fi
done
if grep -q 'dropped PDELAY_RESP: requestReceiptTimestamp 281474976710655' "$W/clockd.log"; then
	pass "clockd dropped the overflow Pdelay_Resp: $(grep -m1 'dropped PDELAY_RESP' "$W/clockd.log" | sed 's/.*port/port/')"
else
	fail "clockd did not log the overflow Pdelay_Resp"; tail -20 "$W/clockd.log"
fi
if grep -q 'dropped FOLLOW_UP: preciseOriginTimestamp 281474976710655' "$W/clockd.log"; then
	pass "clockd dropped the rogue's overflow Follow_Up"
else
	fail "clockd did not log the overflow Follow_Up"; tail -20 "$W/clockd.log"
fi
alive netd "$netd_pid"; alive clockd "$clockd_pid"
check_state() {
	ip netns exec "$A" "$PTPCTL" -f "$W/ptp.conf" status 2>&1
}
echo "INFO: after the rogue: $(check_state | tr '\n' ' ')"

# ---- 3. malformed frames ------------------------------------------------
t0=$SECONDS
ip netns exec "$B" python3 "$PEER" malformed eth0 l2 "$FLOOD" 1 >"$W/mal-l2.out" 2>&1 &
r1=$!
ip netns exec "$B" python3 "$PEER" malformed eth1 udp4 "$FLOOD" 2 >"$W/mal-u4.out" 2>&1 &
r2=$!
wait "$r1"; rc1=$?
wait "$r2"; rc2=$?
if [ $rc1 = 0 ] && [ $rc2 = 0 ] && grep -q "^SENT $FLOOD" "$W/mal-l2.out" &&
    grep -q "^SENT $FLOOD" "$W/mal-u4.out"; then
	pass "sent $FLOOD malformed messages on L2 and $FLOOD on UDPv4 in $((SECONDS - t0)) s"
else
	fail "malformed senders"; cat "$W/mal-l2.out" "$W/mal-u4.out"
fi
sleep 1
alive netd "$netd_pid"; alive clockd "$clockd_pid"
ip netns exec "$A" "$PTPCTL" -f "$W/ptp.conf" --json netd >"$W/netd.json" 2>&1 &&
python3 - "$W/netd.json" <<'PYEOF' | sed 's/^/INFO: /'
import json, sys
j = json.load(open(sys.argv[1]))
for p in j.get("ports", []):
    c = p.get("counters", p)
    print(p.get("iface"), " ".join("%s=%s" % (k, v) for k, v in sorted(c.items())
        if k.startswith("rx") and isinstance(v, int) and v))
PYEOF

# ---- 4. management abuse ----------------------------------------------------
cid=$(ip netns exec "$A" "$PTPCTL" -f "$W/ptp.conf" --json status |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["clock_identity"])')
for c in get_current unknown_id bad_length set_getonly set_priority1 command \
    no_such_port truncated_tlv odd_tlv short_tlv no_tlv trailing msglen_over \
    bad_action; do
	ip netns exec "$B" python3 "$MGMT" eth0 "$cid" "$c" >>"$W/mgmt.out" 2>&1
done
ip netns exec "$B" python3 "$MGMT" eth0 "$cid" flood 3000 >>"$W/mgmt.out" 2>&1
if grep -q '^SENT 3000' "$W/mgmt.out"; then
	pass "management abuse: 14 bad requests and 3000 corrupted ones sent"
else
	fail "management abuse sender"; cat "$W/mgmt.out"
fi
sleep 1

# ---- verdict ------------------------------------------------------------
alive netd "$netd_pid" && alive clockd "$clockd_pid"
if out=$(ip netns exec "$A" "$PTPCTL" -f "$W/ptp.conf" status 2>&1); then
	pass "ptpctl status answers after all of it"
	sed 's/^/INFO: /' <<<"$out"
else
	fail "ptpctl status: $out"
fi
if ip netns exec "$A" "$PTPCTL" -f "$W/ptp.conf" netd >/dev/null 2>&1; then
	pass "ptpctl netd answers after all of it"
else
	fail "ptpctl netd does not answer"
fi
itest_stop
r=$(reports)
if [ -z "$r" ]; then
	pass "no sanitizer report${SAN_BUILD:+ (ASan+UBSan daemons)}"
else
	fail "sanitizer reports: $r"
	for f in "$san"/*; do [ -e "$f" ] && head -40 "$f"; done
	grep -h -A20 -E 'runtime error|ERROR: AddressSanitizer' "$W/netd.log" "$W/clockd.log" | head -60
fi
if [ "$itest_fails" != 0 ]; then
	echo "--- netd.log (tail)"; tail -20 "$W/netd.log"
	echo "--- clockd.log (tail)"; tail -30 "$W/clockd.log"
	echo "hostile.sh: $itest_fails check(s) failed"
	exit 1
fi
echo "hostile.sh: all checks passed"
exit 0
