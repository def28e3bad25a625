#!/bin/bash
# peers.sh - netd's unicast peers at scale, still strict (issue 15,
# Deliver 4; netd/transport_peer.c).
#
# netd in namespace A with two ports to namespace B: eth0 over L2, eth1
# over UDPv4 (A 10.203.0.1/16, B 10.203.0.2/16).  The hostile test client
# (tests/integration/netd_client) plays clockd.  B is a legitimate peer
# and then a hostile host:
#   1. B's MAC and address are learned from one Announce each; a unicast
#      frame to them leaves with B's MAC as destination (L2: the MAC
#      learned from B's frames, Annex E) and arrives; one to an address
#      never heard is refused BAD_DESTINATION (the connection closed);
#   2. B spoofs 20,000 source MACs on eth0 and 20,000 source addresses on
#      eth1 (tests/integration/peers_spoof.py), twice with other sources:
#      netd's RssAnon grows by at most the two tables
#      (max_unicast_peers 16384: 44 + 4 octets a peer) plus 256 KiB, in
#      the second flood by at most 128 KiB (what the first left untouched
#      of the tables) and still within that bound (ptpctl netd shows both
#      tables full); netd is alive; B, served before the flood, is still
#      reachable on both ports;
#   3. a burst of 2,000 frames to B (clockd gone hostile): what reaches B
#      is within unicast_peer_tx_burst + unicast_peer_tx_rate x the time
#      (defaults 64 and 640/s), the rest is counted RATE_LIMITED by
#      `ptpctl netd`, and the connection stays up;
#   4. netd restarted with port_tx_rate 200: of a burst of 1,000 multicast
#      frames at most the port's burst (84) + 200/s leave, the rest are
#      counted RATE_LIMITED;
#   5. with unicast_peer_timeout 10, B is refused BAD_DESTINATION 11 s after
#      it was last heard, although netd sent to it meanwhile, and reachable
#      once heard again.
#
#   BUILD=build/default bash tests/integration/peers.sh
#   BUILD=build/default SAN_BUILD=build/sanitizers bash tests/integration/peers.sh
#
# With SAN_BUILD netd is that build's (ASan+UBSan): any report aborts it
# (a dead netd fails the test), and the memory bounds are not checked
# (shadow memory and redzones are not netd's own).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: peers.sh needs root"
	exit 77
fi
NETD=${SAN_BUILD:-$BUILD}/netd/ptp-netd
PTPCTL=$BUILD/ctl/ptpctl
CLIENT=$BUILD/tests/integration/netd_client
SPOOF=$here/peers_spoof.py
FLOOD=${PEERS_FLOOD:-20000}
for f in "$NETD" "$PTPCTL" "$CLIENT"; do
	[ -x "$f" ] || { echo "FAIL: $f not built (make check first)"; exit 1; }
done
id -u ptpsep-netd >/dev/null 2>&1 ||
	useradd --system --no-create-home --home-dir /nonexistent \
		--shell /usr/sbin/nologin ptpsep-netd

tag="pe$$"
A="${tag}a"; B="${tag}b"
itest_pair "$A" "$B"
itest_link "$A" eth1 "$B" eth1
ip -n "$A" addr add 10.203.0.1/16 dev eth1
ip -n "$B" addr add 10.203.0.2/16 dev eth1
# The spoofed sources are on-link for A; no reverse-path filter either way.
for ns in "$A" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.eth1.rp_filter=0
done
itest_tmpdir W

ITEST_PORTS="eth0 eth1" itest_conf "$W/ptp.conf" "$W"
sed -i -e 's/^\[eth0\]$/[eth0]\nnetwork_transport L2/' \
	-e 's/^\[eth1\]$/[eth1]\nnetwork_transport UDPv4/' "$W/ptp.conf"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=0"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
itest_start "$A" "$W/netd.log" "$NETD" -m -f "$W/ptp.conf"
netd_pid=${itest_pids[-1]}
itest_wait_file "$W/netd.sock" 10 || { fail "netd did not start"; cat "$W/netd.log"; exit 1; }
itest_wait_log "$W/netd.log" 'ready' 10 || true

alive() {
	kill -0 "$netd_pid" 2>/dev/null && return 0
	fail "netd died"; tail -20 "$W/netd.log"; exit 1
}
inA() { ip netns exec "$A" "$@"; }
inB() { ip netns exec "$B" "$@"; }
netd_json() { inA "$PTPCTL" -n "$W/netd-ctl.sock" --json netd; }
port_of() {
	netd_json | python3 -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    if p["iface"] == sys.argv[1]:
        print(p.get("index", p.get("port", 0)))' "$1"
}
# refused IFACE REASON: netd's count of refused requests on that port
refused() {
	netd_json | python3 -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    if p["iface"] == sys.argv[1]:
        print(p.get("refused", {}).get(sys.argv[2], 0))' "$1" "$2"
}
# the netd process's RssAnon, kB (its main thread's pid is the daemon's:
# itest_start runs it under ip netns exec, which execs)
rss_kb() { awk '$1 == "RssAnon:" { print $2 }' "/proc/$netd_pid/status"; }
# send DEST COUNT SEQ [PORT]: netd_client send as clockd; its output
send() {
	inA "$CLIENT" send "$W/netd.sock" --port "${4:-$l2}" --class general \
		--msg announce --dest "unicast:$1" --count "$2" --seq "$3" 2>&1
}
# counted SECONDS CMD...: runs CMD while B counts what reaches its MACs;
# the counts of both links in $W/count.eth0 / count.eth1
counted() {
	local s=$1 p0 p1
	shift
	inB python3 "$SPOOF" count eth0 "$s" >"$W/count.eth0" 2>&1 &
	p0=$!
	inB python3 "$SPOOF" count eth1 "$s" >"$W/count.eth1" 2>&1 &
	p1=$!
	itest_wait_log "$W/count.eth0" READY 5 || true
	itest_wait_log "$W/count.eth1" READY 5 || true
	"$@" >"$W/counted.out" 2>&1
	wait "$p0" "$p1"
}
got() {	# got IFACE KIND: frames counted
	sed -n "s/.*$2=\([0-9]*\).*/\1/p" "$W/count.$1"
}

l2=$(port_of eth0); u4=$(port_of eth1)
macb=$(inB cat /sys/class/net/eth0/address)
ipb=10.203.0.2
echo "INFO: netd ports: eth0 (L2) $l2, eth1 (UDPv4) $u4; B is $macb / $ipb"

# ---- 1. learned from traffic only ---------------------------------------
# refused_unicast IFACE DEST SEQ [PORT] WHAT: netd closes the connection
# and counts the TxFrame refused BAD_DESTINATION
refused_unicast() {
	local before out
	before=$(refused "$1" bad_destination)
	out=$(send "$2" 1 "$3" "$4")
	if grep -q 'ANSWER error .*has not heard from' <<<"$out" &&
	    [ "$(refused "$1" bad_destination)" = $((before + 1)) ]; then
		pass "unicast to $5: refused BAD_DESTINATION, the connection closed"
	else
		fail "unicast to $5 was not refused"; echo "$out"
	fi
}
refused_unicast eth0 "$macb" 100 "$l2" "B's MAC before B sent anything"
inB "$CLIENT" inject eth0 --msg announce --seq 1 >/dev/null
inB "$CLIENT" udpsend --dst 224.0.1.129 --ifname eth1 --msg announce \
	--seq 1 >/dev/null
sleep 0.3
counted 1.5 inA bash -c "
	'$CLIENT' send '$W/netd.sock' --port $l2 --class general \
		--msg announce --dest unicast:$macb --seq 200 &&
	'$CLIENT' send '$W/netd.sock' --port $u4 --class general \
		--msg announce --dest unicast:$ipb --seq 200"
if [ "$(got eth0 l2)" = 1 ] && [ "$(got eth1 udp4)" = 1 ] &&
    ! grep -q '^ANSWER' "$W/counted.out"; then
	pass "B heard: one unicast frame to its MAC (L2) and one to its address (UDPv4) arrived"
else
	fail "unicast to B after it was heard: $(cat "$W/count.eth0" "$W/count.eth1" | tr '\n' ' ')"
	cat "$W/counted.out"
fi
# The destination MAC of the L2 frame is the one learned from B's frames.
inB "$CLIENT" sniff eth0 --proto l2 --count 1 --timeout 3 >"$W/sniff.out" 2>&1 &
sp=$!
itest_wait_log "$W/sniff.out" READY 5 || true
send "$macb" 1 300 >/dev/null
wait "$sp"
if grep -qE "dst=$macb .*msg=announce seq=300" "$W/sniff.out"; then
	pass "L2 unicast leaves for the learned MAC: $(grep -m1 -oE 'dst=[^ ]+ src=[^ ]+' "$W/sniff.out")"
else
	fail "L2 unicast destination"; cat "$W/sniff.out"
fi
refused_unicast eth0 02:00:00:00:99:99 400 "$l2" "a MAC never heard"
refused_unicast eth1 10.203.99.99 401 "$u4" "an address never heard"

# ---- 2. 20,000 spoofed sources per port, twice --------------------------
alive
rss0=$(rss_kb)
flood() {	# SEED
	local t0=$SECONDS r1 r2
	inB python3 "$SPOOF" l2 eth0 "$FLOOD" "$1" >"$W/spoof-l2.out" 2>&1 &
	r1=$!
	inB python3 "$SPOOF" udp4 eth1 "$FLOOD" "$1" 10.203 >"$W/spoof-u4.out" 2>&1 &
	r2=$!
	wait "$r1" "$r2"
	sleep 1
	if grep -q "^SENT $FLOOD" "$W/spoof-l2.out" && grep -q "^SENT $FLOOD" "$W/spoof-u4.out"; then
		pass "flood $1: $FLOOD spoofed source MACs on L2 and $FLOOD source addresses on UDPv4 in $((SECONDS - t0)) s"
	else
		fail "flood $1 senders"; cat "$W/spoof-l2.out" "$W/spoof-u4.out"
	fi
}
flood 1
alive
rss1=$(rss_kb)
flood 2
alive
rss2=$(rss_kb)
rx=$(netd_json | python3 -c '
import json, sys
print(" ".join("%s: rx_general=%s" % (p["iface"], p.get("rx_general", 0))
    for p in json.load(sys.stdin)["ports"]))')
echo "INFO: RssAnon $rss0 kB before, $rss1 after flood 1, $rss2 after flood 2; $rx"
# Two tables of 16384 peers: (44 + 4) x 16384 octets = 768 KiB each.
bound=$((2 * 768 + 256))
# port_field IFACE FIELD: a field of that port in ptpctl --json netd
port_field() {
	netd_json | python3 -c '
import json, sys
for p in json.load(sys.stdin)["ports"]:
    if p["iface"] == sys.argv[1]:
        print(p.get(sys.argv[2], 0))' "$1" "$2"
}
t0n=$(port_field eth0 unicast_peers); t0m=$(port_field eth0 unicast_peers_max)
t1n=$(port_field eth1 unicast_peers); t1m=$(port_field eth1 unicast_peers_max)
if [ "$t0m" = 16384 ] && [ "$t0n" = 16384 ] && [ "$t1m" = 16384 ] && [ "$t1n" = 16384 ] &&
    [ "$(port_field eth0 unicast_peers_refused)" = 0 ]; then
	pass "ptpctl netd: both tables full, $t0n of $t0m and $t1n of $t1m peers, no newcomer refused (spoofed ones pushed out each other)"
else
	fail "ptpctl netd tables: eth0 $t0n of $t0m, eth1 $t1n of $t1m, refused $(port_field eth0 unicast_peers_refused)"
fi
if [ -n "${SAN_BUILD:-}" ]; then
	echo "INFO: a sanitizer build: memory bounds not checked"
elif [ $((rss1 - rss0)) -le "$bound" ]; then
	pass "netd's RssAnon grew $((rss1 - rss0)) kB under $((2 * FLOOD)) spoofed sources (bound $bound kB: two full tables + 256)"
else
	fail "netd's RssAnon grew $((rss1 - rss0)) kB (bound $bound kB)"
fi
if [ -n "${SAN_BUILD:-}" ]; then
	:
elif [ $((rss2 - rss1)) -le 128 ] && [ $((rss2 - rss0)) -le "$bound" ]; then
	pass "a second flood of other sources: RssAnon +$((rss2 - rss1)) kB, $((rss2 - rss0)) kB in all (full tables, bounded)"
else
	fail "a second flood grew RssAnon by $((rss2 - rss1)) kB, $((rss2 - rss0)) in all"
fi
counted 1.5 inA bash -c "
	'$CLIENT' send '$W/netd.sock' --port $l2 --class general \
		--msg announce --dest unicast:$macb --seq 500 &&
	'$CLIENT' send '$W/netd.sock' --port $u4 --class general \
		--msg announce --dest unicast:$ipb --seq 500"
if [ "$(got eth0 l2)" = 1 ] && [ "$(got eth1 udp4)" = 1 ] &&
    ! grep -q '^ANSWER' "$W/counted.out"; then
	pass "B, served before the floods, is still reachable on both ports"
else
	fail "B after the floods: $(cat "$W/count.eth0" "$W/count.eth1" | tr '\n' ' ')"
	cat "$W/counted.out"
fi

# ---- 3. per-peer TX limit ------------------------------------------------
n=2000
# B talks again (so this part stands on its own whatever the floods did)
inB "$CLIENT" inject eth0 --msg announce --seq 2 >/dev/null
sleep 0.3
lim0=$(refused eth0 rate_limited)
counted 2 send "$macb" "$n" 1000
el=$(sed -n 's/^BURST n=[0-9]* elapsed_us=\([0-9]*\).*/\1/p' "$W/counted.out")
arrived=$(got eth0 l2)
lim=$(( $(refused eth0 rate_limited) - lim0 ))
# burst 64 + 640/s over the burst and the 300 ms the client waits after it
# (netd may still be working through the queued frames then)
max=$(( 64 + 640 * (${el:-0} + 300000) / 1000000 ))
echo "INFO: a burst of $n in ${el:-?} us: $arrived arrived at B, $lim refused RATE_LIMITED"
if [ -n "$el" ] && [ "${arrived:-0}" -ge 64 ] && [ "$arrived" -le "$max" ]; then
	pass "per-peer limit: $arrived of $n frames reached B (at most $max: burst 64 + 640/s)"
else
	fail "per-peer limit: ${arrived:-?} of $n reached B (want 64..$max)"; cat "$W/counted.out"
fi
if [ "$lim" -eq $((n - arrived)) ] && ! grep -q '^ANSWER' "$W/counted.out" &&
    [ "$(port_field eth0 unicast_tx_rate_limited)" = "$lim" ]; then
	pass "ptpctl netd counts the $lim dropped as refused RATE_LIMITED and unicast_tx_rate_limited; the connection stayed up"
else
	fail "RATE_LIMITED counted $lim, dropped $((n - arrived))"; cat "$W/counted.out"
fi
# a second before the next burst: the bucket is full again
sleep 1
counted 1.5 send "$macb" 10 3000
if [ "$(got eth0 l2)" = 10 ]; then
	pass "after a second's rest, 10 frames to B all arrive"
else
	fail "after rest: $(cat "$W/count.eth0")"
fi
alive

# ---- 4. the port's TX limit (port_tx_rate), multicast too ----------------
# stop netd, and forget its pid (itest_stop must not signal a reused one)
kill "$netd_pid" 2>/dev/null; wait "$netd_pid" 2>/dev/null
keep=()
for pid in "${itest_pids[@]}"; do
	[ "$pid" = "$netd_pid" ] || keep+=("$pid")
done
itest_pids=("${keep[@]}")
rm -f "$W/netd.sock" "$W/netd-ctl.sock"
sed -i 's/^\[global\]$/[global]\nport_tx_rate 200\nunicast_peer_timeout 10/' "$W/ptp.conf"
itest_start "$A" "$W/netd2.log" "$NETD" -m -f "$W/ptp.conf"
netd_pid=${itest_pids[-1]}
itest_wait_file "$W/netd.sock" 10 || { fail "netd did not restart"; cat "$W/netd2.log"; exit 1; }
n=1000
counted 2 inA "$CLIENT" send "$W/netd.sock" --port "$l2" --class general \
	--msg announce --dest primary --count "$n" --seq 5000
el=$(sed -n 's/^BURST n=[0-9]* elapsed_us=\([0-9]*\).*/\1/p' "$W/counted.out")
arrived=$(got eth0 l2mcast)
lim=$(refused eth0 rate_limited)
# burst: a tenth of a second of the rate + unicast_peer_tx_burst = 84
max=$(( 84 + 200 * (${el:-0} + 300000) / 1000000 ))
echo "INFO: port_tx_rate 200: a multicast burst of $n in ${el:-?} us: $arrived arrived, $lim refused RATE_LIMITED"
if [ -n "$el" ] && [ "${arrived:-0}" -ge 84 ] && [ "$arrived" -le "$max" ] &&
    [ "$lim" = $((n - arrived)) ]; then
	pass "port limit: $arrived of $n multicast frames left (at most $max), the rest counted RATE_LIMITED"
else
	fail "port limit: ${arrived:-?} of $n left (want 84..$max), $lim counted"; cat "$W/counted.out"
fi

# ---- 5. expiry (unicast_peer_timeout 10): only what B sends keeps it -----
inB "$CLIENT" inject eth0 --msg announce --seq 3 >/dev/null
sleep 0.3
t0=$SECONDS
out1=$(send "$macb" 1 6000)
sleep 5
out2=$(send "$macb" 1 6001)	# netd sending to B does not keep it
sleep $((11 - (SECONDS - t0)))
before=$(refused eth0 bad_destination)
out3=$(send "$macb" 1 6002)
if ! grep -q '^ANSWER' <<<"$out1$out2" &&
    grep -q 'ANSWER error .*has not heard from' <<<"$out3" &&
    [ "$(refused eth0 bad_destination)" = $((before + 1)) ]; then
	pass "unicast_peer_timeout 10: B reachable at 0 and 5 s, refused BAD_DESTINATION 11 s after it was last heard"
else
	fail "expiry: $out1 / $out2 / $out3"
fi
inB "$CLIENT" inject eth0 --msg announce --seq 4 >/dev/null
sleep 0.3
out=$(send "$macb" 1 6003)
if ! grep -q '^ANSWER' <<<"$out"; then
	pass "B heard again: reachable again"
else
	fail "B heard again, still refused: $out"
fi
alive
if grep -qE 'runtime error|ERROR: AddressSanitizer' "$W/netd.log" "$W/netd2.log"; then
	fail "sanitizer report in netd.log"
	grep -A20 -E 'runtime error|ERROR: AddressSanitizer' "$W/netd.log" "$W/netd2.log" | head -40
fi

itest_stop
if [ "$itest_fails" != 0 ]; then
	echo "--- netd.log (tail)"; tail -20 "$W/netd.log"
	echo "peers.sh: $itest_fails check(s) failed"
	exit 1
fi
echo "peers.sh: all checks passed"
exit 0
