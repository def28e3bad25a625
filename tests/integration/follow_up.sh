#!/bin/bash
# follow_up.sh - netd completes and sends the two-step follow-up itself
# (netd.proto TxFrame.follow_up): clockd hands it over with the Sync or
# Pdelay_Resp and is not woken for the TX timestamp.
#
#   e2e  our master alone on an L2 link (logSyncInterval -4: 16 Syncs/s).
#        For PERIOD s, strace counts master clockd's receiving system
#        calls while tshark in the peer namespace captures.  Checks: every
#        Sync captured is followed by a Follow_Up of its sequenceId, none
#        malformed; each preciseOriginTimestamp (13.8.2) is non-zero and
#        the Follow_Ups' timestamps advance as the Syncs' capture times do
#        (within 1 ms: the TX stamp really is that Sync's); and clockd
#        received fewer messages than Syncs went out (before: one
#        TxTimestamp per Sync woke it).
#   p2p  two of our nodes, delay_mechanism P2P, L2: every Pdelay_Resp is
#        followed by a Pdelay_Resp_Follow_Up of its sequenceId with a
#        non-zero responseOriginTimestamp (13.11.2), none malformed, and
#        the slave measures its neighbour delay (it locks).
#   netd netd alone, tests/integration/netd_client as clockd: a Sync with
#        a follow_up gets no TxTimestamp and its Follow_Up leaves with a
#        timestamp; a follow_up of another sequenceId closes the
#        connection and is not sent; the next client is served.
#
# Needs root, strace and tshark.  Removes its namespaces and files on EXIT.
#   BUILD=build/default tests/integration/follow_up.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

PERIOD=${PERIOD:-4}
TSHARK=${TSHARK:-tshark}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: follow_up.sh needs root"
	exit 77
fi
for t in strace "$TSHARK"; do
	command -v "$t" >/dev/null ||
		{ echo "FAIL: $t is not installed"; exit 1; }
done
for u in ptpsep-netd ptpsep-clockd; do
	id -u "$u" >/dev/null 2>&1 ||
		useradd --system --no-create-home --home-dir /nonexistent \
			--shell /usr/sbin/nologin "$u"
done

# fields FILE FILTER FIELD...: one line per matching frame.
fields() {
	local f=$1 y=$2 a=() x
	shift 2
	for x in "$@"; do a+=(-e "$x"); done
	"$TSHARK" -r "$f" -n -Y "$y" -T fields -E separator=' ' "${a[@]}" \
		2>/dev/null
}

# capture NS FILE: tshark in NS until stopped; sets cap_pid.
capture() {
	touch "$2"
	itest_start "$1" "$2.log" "$TSHARK" -q -n -i eth0 -w "$2"
	cap_pid=${itest_pids[$((${#itest_pids[@]} - 1))]}
	itest_wait_log "$2.log" 'Capturing on' 20 ||
		{ fail "tshark did not start in $1"; return 1; }
}

stop_capture() {
	kill -INT "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# pairs FILE EVTYPE FUTYPE TSFIELD: the event messages' sequenceIds with
# capture time, and the follow-ups' sequenceIds with their timestamp
# (s.ns), checked: every event followed by its follow-up, timestamps
# non-zero and advancing with the capture times.  Prints a summary.
pairs() {
	local f=$1 ev=$2 fu=$3 tsf=$4
	{
		fields "$f" "ptp.v2.messagetype == $ev" frame.time_epoch \
			ptp.v2.sequenceid | sed 's/^/E /'
		fields "$f" "ptp.v2.messagetype == $fu" ptp.v2.sequenceid \
			"$tsf.seconds" "$tsf.nanoseconds" | sed 's/^/F /'
	} | awk '
	$1 == "E" { t[$3] = $2; n++ }
	$1 == "F" { ts[$2] = $3 + $4 / 1e9; zero += ($3 == 0 && $4 == 0) }
	END {
		bad = 0; k = 0
		for (s in t) {
			if (!(s in ts)) { missing++; continue }
			if (k == 0) { s0 = s; k = 1; continue }
			d = (ts[s] - ts[s0]) - (t[s] - t[s0])
			if (d < 0) d = -d
			if (d > 0.001) bad++
			if (d > worst) worst = d
		}
		# the capture may stop between the last event and its follow-up
		printf "events=%d missing=%d zero=%d off=%d worst_us=%.0f\n",
		    n, (missing > 1 ? missing : 0), zero + 0, bad, worst * 1e6
	}'
}

# ---- e2e: a lone master, strace on its clockd ----
itest_pair fum$$ fup$$
itest_tmpdir md
itest_conf "$md/ptp.conf" "$md" network_transport L2 priority1 100 \
	logSyncInterval -4 logAnnounceInterval -2 announceReceiptTimeout 2
itest_daemons fum$$ "$md" "$md/ptp.conf" || exit 1
cpid=${itest_pids[$((${#itest_pids[@]} - 1))]}
if ! itest_wait_log "$md/clockd.log" 'to MASTER' 20; then
	fail "e2e: the master did not become MASTER"
	tail -20 "$md/clockd.log"
	exit 1
fi
sleep 1
capture fup$$ "$md/cap.pcapng" || exit 1
# epoll_wait too: clockd's timers wake it (the Syncs), so a count of
# them shows strace was attached even when nothing was received.
timeout -s INT "$PERIOD" strace -c -f \
	-e trace=read,recvmsg,recvfrom,epoll_wait \
	-o "$md/strace.txt" -p "$cpid" >/dev/null 2>&1
stop_capture "$cap_pid"
# strace -c's rows: "% SECONDS USECS/CALL CALLS [ERRORS] SYSCALL"
calls=$(awk '$NF ~ /^(read|recvmsg|recvfrom)$/ { c += $4 } END { print c + 0 }' \
	"$md/strace.txt")
waits=$(awk '$NF == "epoll_wait" { print $4 }' "$md/strace.txt")
syncs=$(fields "$md/cap.pcapng" 'ptp.v2.messagetype == 0' frame.number | grep -c .)
mal=$(fields "$md/cap.pcapng" '_ws.malformed || _ws.expert.severity >= error' \
	frame.number | grep -c .)
r=$(pairs "$md/cap.pcapng" 0 8 ptp.v2.fu.preciseorigintimestamp)
echo "INFO: e2e: $r; clockd receiving calls in ${PERIOD} s: $calls"
sed 's/^/    /' "$md/strace.txt"
if [ "$syncs" -ge $((PERIOD * 8)) ] &&
   grep -q " missing=0 zero=0 off=0 " <<<"$r "; then
	pass "e2e: $syncs Syncs, each with its Follow_Up, timestamps of the Syncs"
else
	fail "e2e: Syncs and Follow_Ups: $syncs Syncs, $r"
fi
if [ "$mal" = 0 ]; then
	pass "e2e: no malformed frame"
else
	fail "e2e: $mal malformed frames"
fi
# Before, clockd read a TxTimestamp per Sync (>= syncs calls, the strace
# window covers the capture's); now only the odd clock reply.
if [ "${waits:-0}" -lt $((PERIOD * 8)) ]; then
	fail "e2e: strace saw ${waits:-no} epoll_wait calls of clockd"
elif [ "$syncs" -gt 0 ] && [ "$calls" -lt $((syncs / 4)) ]; then
	pass "e2e: master clockd made $calls receiving calls ($waits wake-ups) for $syncs Syncs: no TxTimestamp"
else
	fail "e2e: master clockd made $calls receiving calls for $syncs Syncs"
fi
itest_stop

# ---- p2p: Pdelay_Resp_Follow_Up ----
itest_pair fua$$ fub$$
itest_tmpdir ad
itest_tmpdir bd
itest_conf "$ad/ptp.conf" "$ad" network_transport L2 delay_mechanism P2P \
	priority1 100 logMinPdelayReqInterval -3
itest_conf "$bd/ptp.conf" "$bd" network_transport L2 delay_mechanism P2P \
	clientOnly 1 logMinPdelayReqInterval -3
capture fub$$ "$bd/cap.pcapng" || exit 1
itest_daemons fua$$ "$ad" "$ad/ptp.conf" || exit 1
itest_daemons fub$$ "$bd" "$bd/ptp.conf" || exit 1
if itest_wait_log "$bd/clockd.log" ' s2 freq' 60; then
	pass "p2p: the slave locked"
else
	fail "p2p: the slave did not lock"
	tail -20 "$bd/clockd.log"
fi
sleep 2
stop_capture "$cap_pid"
r=$(pairs "$bd/cap.pcapng" 3 10 ptp.v2.pdfu.responseorigintimestamp)
mal=$(fields "$bd/cap.pcapng" '_ws.malformed || _ws.expert.severity >= error' \
	frame.number | grep -c .)
echo "INFO: p2p: $r"
n=$(sed -n 's/^events=\([0-9]*\).*/\1/p' <<<"$r")
if [ "${n:-0}" -ge 8 ] && grep -q " missing=0 zero=0 off=0 " <<<"$r "; then
	pass "p2p: $n Pdelay_Resps, each with its Pdelay_Resp_Follow_Up"
else
	fail "p2p: Pdelay_Resp and its follow-up: $r"
fi
if [ "$mal" = 0 ]; then
	pass "p2p: no malformed frame"
else
	fail "p2p: $mal malformed frames"
fi
if ! grep -q 'no TX timestamp' "$ad/clockd.log" "$bd/clockd.log"; then
	pass "p2p: no missing TX timestamp reported"
else
	fail "p2p: TX timestamps missing"
	grep 'no TX timestamp' "$ad/clockd.log" "$bd/clockd.log" | head -5
fi
itest_stop

# ---- netd alone: the test client plays clockd ----
# A TxFrame with a follow_up gets no TxTimestamp and the Follow_Up leaves
# with the Sync's sequenceId; one whose Follow_Up has another sequenceId
# closes the connection (check.c), and netd serves the next client.
CLIENT=$BUILD/tests/integration/netd_client
itest_pair fun$$ fuo$$
itest_tmpdir nd
chmod 0755 "$nd"
itest_conf "$nd/ptp.conf" "$nd" network_transport L2
itest_start fun$$ "$nd/netd.log" "$NETD" -m -f "$nd/ptp.conf"
itest_wait_file "$nd/netd.sock" 10 || { fail "netd did not start"; exit 1; }
capture fuo$$ "$nd/cap.pcapng" || exit 1
ip netns exec fun$$ "$CLIENT" send "$nd/netd.sock" --msg sync --seq 777 \
	--follow-up >"$nd/send.out" 2>&1
rc=$?
ip netns exec fun$$ "$CLIENT" hostile "$nd/netd.sock" badfu \
	>"$nd/badfu.out" 2>&1
hrc=$?
ip netns exec fun$$ "$CLIENT" send "$nd/netd.sock" --msg sync --seq 778 \
	--follow-up >"$nd/send2.out" 2>&1
rc2=$?
sleep 0.5
stop_capture "$cap_pid"
r=$(fields "$nd/cap.pcapng" 'ptp.v2.messagetype == 8' ptp.v2.sequenceid \
	ptp.v2.fu.preciseorigintimestamp.seconds | tr '\n' ' ')
echo "INFO: netd: Follow_Ups (seq s): $r"
if [ $rc = 0 ] && grep -q '^TXTS none' "$nd/send.out" &&
   grep -qE '(^| )777 [1-9]' <<<"$r"; then
	pass "netd: Follow_Up 777 completed and sent, no TxTimestamp"
else
	fail "netd: Follow_Up 777"
	cat "$nd/send.out"
fi
if [ $hrc = 0 ] && grep -q 'closed=1' "$nd/badfu.out" &&
   ! grep -qE '(^| )2 ' <<<"$r"; then
	pass "netd: a Follow_Up of another sequenceId closes the connection, not sent"
else
	fail "netd: hostile badfu"
	cat "$nd/badfu.out"
fi
if [ $rc2 = 0 ] && grep -qE '(^| )778 [1-9]' <<<"$r"; then
	pass "netd: serves the next client (Follow_Up 778)"
else
	fail "netd: the client after badfu"
	cat "$nd/send2.out"
fi
itest_stop
[ "$itest_fails" = 0 ]
