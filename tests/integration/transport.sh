#!/bin/bash
# transport.sh - ptp-netd's network transports in two network namespaces.
#
# ns A holds netd's ports (run by netd_transport_test), ns B is the far end
# of a veth pair; the test program drives both ends itself.  Checks:
# /proc/net/packet shows only ETH_P_1588 packet sockets (never ETH_P_ALL),
# then every case of netd_transport_test (filters, VLAN, floods, sending,
# TX timestamps) for L2, UDPv4 and UDPv6.  Needs root; BUILD names the
# build directory.  Everything it creates is removed on exit.
set -u

BUILD=${BUILD:-$(pwd)}
prog="$BUILD/tests/integration/netd_transport_test"
tag="ntr-$$"
nsa="$tag-a"
nsb="$tag-b"
ifa="ntra$$"
ifb="ntrb$$"
pids=()
fails=0
out=$(mktemp -d)

cleanup() {
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	rm -rf "$out"
}
trap cleanup EXIT

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

[ "$(id -u)" = 0 ] || { echo "SKIP: transport.sh needs root"; exit 77; }
[ -x "$prog" ] || { echo "FAIL: $prog not built (make check first)"; exit 1; }

ip netns add "$nsa" && ip netns add "$nsb" || { echo "FAIL: netns"; exit 1; }
ip link add "$ifa" netns "$nsa" type veth peer name "$ifb" netns "$nsb" ||
	{ echo "FAIL: veth"; exit 1; }
for ns in "$nsa" "$nsb"; do
	ip -n "$ns" link set lo up
	# No router/neighbour solicitations on the wire during the test.
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_ra=0 \
		net.ipv6.conf.default.accept_ra=0
done
ip -n "$nsa" addr add 10.77.0.1/24 dev "$ifa"
ip -n "$nsb" addr add 10.77.0.2/24 dev "$ifb"
ip -n "$nsa" addr add fd77::1/64 dev "$ifa" nodad
ip -n "$nsb" addr add fd77::2/64 dev "$ifb" nodad
ip -n "$nsa" link set "$ifa" up
ip -n "$nsb" link set "$ifb" up
# multicast to the global-scope FF0E::181 leaves through the veth
ip -n "$nsb" -6 route add ff0e::/16 dev "$ifb" table local 2>/dev/null || true

# 1. While netd's three ports are open, /proc/net/packet in ns A.
ip netns exec "$nsa" "$prog" hold "$ifa" >"$out/hold" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
	grep -q READY "$out/hold" && break
	sleep 0.1
done
if grep -q READY "$out/hold"; then
	ip netns exec "$nsa" cat /proc/net/packet >"$out/packet"
	# columns: sk RefCnt Type Proto Iface R Rmem User Inode
	n88f7=$(awk 'NR > 1 && $4 == "88f7"' "$out/packet" | wc -l)
	n0003=$(awk 'NR > 1 && $4 == "0003"' "$out/packet" | wc -l)
	nall=$(awk 'NR > 1' "$out/packet" | wc -l)
	if [ "$n88f7" = 2 ] && [ "$n0003" = 0 ] && [ "$nall" = 2 ]; then
		pass "/proc/net/packet in $nsa: $n88f7 sockets Proto 88f7, $n0003 Proto 0003"
	else
		fail "/proc/net/packet in $nsa: 88f7=$n88f7 0003=$n0003 all=$nall"
		cat "$out/packet"
	fi
	nudp=$(ip netns exec "$nsa" ss -Huan | grep -cE ':(319|320)\b')
	[ "$nudp" = 4 ] && pass "4 UDP sockets on 319/320 (v4 and v6)" ||
		fail "UDP sockets on 319/320: $nudp"
else
	fail "hold mode did not get ready"; cat "$out/hold"
fi
kill "${pids[0]}" 2>/dev/null
wait "${pids[0]}" 2>/dev/null
pids=()

# 2. The test program, both ends.
start=$(date +%s.%N)
ip netns exec "$nsa" "$prog" run "$nsb" "$ifa" "$ifb" \
	10.77.0.1 10.77.0.2 fd77::1 fd77::2 &
pids+=($!)
wait "${pids[0]}"
rc=$?
pids=()
end=$(date +%s.%N)
[ $rc = 0 ] || fail "netd_transport_test exited $rc"
echo "INFO: netd_transport_test took $(echo "$end - $start" | bc 2>/dev/null || echo '?') s"

if [ $fails = 0 ]; then
	echo "PASS: transport.sh"
	exit 0
fi
echo "FAIL: transport.sh ($fails failure(s))"
exit 1
