#!/bin/bash
# txts_burst.sh - netd's TX time stamps at grandmaster scale (issue 15,
# Done-when 3; netd/tstamp_tx.c, netd/port.c port_quiet_*).
#
# netd in namespace A (L2, software time stamps), the test client
# (tests/integration/netd_client) playing clockd; B the far end.
#   1. a burst of 2,000 two-step Syncs with want_tx_ts to the primary
#      multicast address, in NetdBatches of 8 as clockd sends a
#      grandmaster's Syncs: every one gets exactly one TxTimestamp, OK,
#      with its own cookie, the time stamps in the order the frames were
#      sent, and 2,000 Syncs reach B (before: 32 stamps could be owed per
#      socket, the rest refused, "too many TX timestamps outstanding");
#   2. the same burst unicast to B (heard once) under the default
#      per-peer limit (unicast_peer_tx_burst 64, unicast_peer_tx_rate
#      640/s): every frame is answered, OK within the limit, the rest
#      SEND_FAILED and counted RATE_LIMITED by `ptpctl netd`, the
#      connection kept; none is reported OK beyond the limit.
#
#   BUILD=build/default bash tests/integration/txts_burst.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: txts_burst.sh needs root"
	exit 77
fi
PTPCTL=$BUILD/ctl/ptpctl
CLIENT=$BUILD/tests/integration/netd_client
N=${TXTS_BURST_N:-2000}
for f in "$NETD" "$PTPCTL" "$CLIENT"; do
	[ -x "$f" ] || { echo "FAIL: $f not built (make check first)"; exit 1; }
done
id -u ptpsep-netd >/dev/null 2>&1 ||
	useradd --system --no-create-home --home-dir /nonexistent \
		--shell /usr/sbin/nologin ptpsep-netd

tag="tb$$"
A="${tag}a"; B="${tag}b"
itest_pair "$A" "$B" || exit 1
itest_tmpdir W
itest_conf "$W/ptp.conf" "$W" network_transport L2
itest_start "$A" "$W/netd.log" "$NETD" -m -f "$W/ptp.conf"
netd_pid=${itest_pids[-1]}
itest_wait_file "$W/netd.sock" 10 || { fail "netd did not start"; cat "$W/netd.log"; exit 1; }
itest_wait_log "$W/netd.log" 'ready' 10 || true

inA() { ip netns exec "$A" "$@"; }
inB() { ip netns exec "$B" "$@"; }
alive() {
	kill -0 "$netd_pid" 2>/dev/null && return 0
	fail "netd died"; tail -20 "$W/netd.log"; exit 1
}
# refused REASON: netd's count of refused requests on port 0
refused() {
	inA "$PTPCTL" -n "$W/netd-ctl.sock" --json netd | python3 -c '
import json, sys
p = json.load(sys.stdin)["ports"][0]
print(p.get("refused", {}).get(sys.argv[1], 0))' "$1"
}
field() { sed -n "s/.*[ ^]$1=\([0-9]*\).*/\1/p" "$2" | head -1; }

# 1. multicast: no per-peer limit, the port's (port_tx_rate) far above.
# What reached B: its interface's count (a sniffer's socket would drop
# some of a burst this fast).
rxb() { inB cat /sys/class/net/eth0/statistics/rx_packets; }
rx0=$(rxb)
inA "$CLIENT" send "$W/netd.sock" --msg sync --seq 1000 --want-ts \
	--cookie 0x100000 --count "$N" >"$W/burst1.out" 2>&1
rc=$?
line=$(grep '^TXBURST' "$W/burst1.out")
echo "INFO: multicast: $line"
ok=$(field ok "$W/burst1.out"); failed=$(field failed "$W/burst1.out")
missing=$(field missing "$W/burst1.out"); order=$(field order "$W/burst1.out")
wire=$(($(rxb) - rx0))
if [ "$rc" = 0 ] && [ "${ok:-0}" = "$N" ] && [ "$order" = 1 ]; then
	pass "multicast: $N want_ts Syncs in NetdBatches, $ok TxTimestamps OK, each cookie once, in send order"
else
	fail "multicast: rc=$rc $line"
	tail -5 "$W/burst1.out"
fi
if [ "$wire" -ge "$N" ] && [ "$wire" -le $((N + 10)) ]; then
	pass "multicast: $wire frames reached B for $N Syncs"
else
	fail "multicast: $wire frames reached B for $N Syncs"
fi
if grep -q 'too many TX timestamps outstanding' "$W/netd.log"; then
	fail "netd refused TX time stamps: $(grep -c 'too many' "$W/netd.log") lines"
else
	pass "netd refused no TX time stamp"
fi
alive

# 2. unicast to B under the default per-peer limit
macb=$(inB cat /sys/class/net/eth0/address)
inB "$CLIENT" inject eth0 --msg announce --seq 1 >/dev/null
sleep 0.3
before=$(refused rate_limited)
inA "$CLIENT" send "$W/netd.sock" --msg sync --seq 5000 --want-ts \
	--dest "unicast:$macb" --cookie 0x200000 --count "$N" \
	>"$W/burst2.out" 2>&1
rc=$?
line=$(grep '^TXBURST' "$W/burst2.out")
echo "INFO: unicast: $line"
ok=$(field ok "$W/burst2.out"); failed=$(field failed "$W/burst2.out")
us=$(field elapsed_us "$W/burst2.out")
after=$(refused rate_limited)
# what the bucket lets through: its burst and the rate over the time
max=$((64 + 640 * ${us:-0} / 1000000 + 1))
if [ "$rc" = 0 ] && [ $((ok + failed)) = "$N" ] && [ "$ok" -ge 64 ] &&
    [ "$ok" -le "$max" ] && [ $((after - before)) -ge "$failed" ]; then
	pass "unicast: every frame answered: $ok OK (<= $max), $failed refused RATE_LIMITED ($((after - before)) counted)"
else
	fail "unicast: rc=$rc $line, max $max, rate_limited $before -> $after"
	tail -5 "$W/burst2.out"
fi
if grep -q '^ANSWER' "$W/burst2.out"; then
	fail "unicast: netd answered: $(grep '^ANSWER' "$W/burst2.out")"
fi
alive

itest_stop
if [ "$itest_fails" != 0 ]; then
	echo "--- netd.log (tail)"; tail -20 "$W/netd.log"
	echo "txts_burst.sh: $itest_fails check(s) failed"
	exit 1
fi
echo "txts_burst.sh: all checks passed"
exit 0
