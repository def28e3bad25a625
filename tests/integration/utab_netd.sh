#!/bin/bash
# utab_netd.sh - netd admits the addresses of a port's unicast master
# table (and its peer_address) as unicast peers at start, before hearing
# from them: a unicast client speaks first (IEEE 1588-2019 16.1).  For
# each of UDPv4, UDPv6 and L2, netd alone in namespace A, a silent far end
# in B, tests/integration/netd_client playing clockd:
#  1. netd logs the table's addresses as admitted;
#  2. a TxFrame DEST_UNICAST to the table's address of B, never heard
#     from, leaves on the wire (captured in B) with its TX timestamp;
#  3. one to the table's other address and one to its peer_address (no
#     host has them) are accepted by netd;
#  4. one to an address the table does not list is refused (netd's
#     Error "unicast TxFrame to an address the port has not heard from"),
#     as before this table existed;
#  5. a table larger than max_unicast_peers stops netd at start naming it.
#
#   BUILD=build/default tests/integration/utab_netd.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

CLIENT=$BUILD/tests/integration/netd_client
[ -x "$CLIENT" ] || { echo "FAIL: $CLIENT not built (make check first)"; exit 1; }
for u in ptpsep-netd ptpsep-clockd; do
	id -u "$u" >/dev/null 2>&1 ||
		useradd --system --no-create-home --home-dir /nonexistent \
			--shell /usr/sbin/nologin "$u"
done

# send SOCK DEST SEQ [--want-ts]: netd_client's output in $sent, exit in $src.
send() {
	local sock=$1 dest=$2 seq=$3
	shift 3
	sent=$("$CLIENT" send "$sock" --msg delay_req --seq "$seq" \
		--dest "unicast:$dest" "$@" 2>&1)
	src=$?
}

# one TRANSPORT PROTO B-ADDR OTHER PEER UNLISTED
one() {
	local tr=$1 proto=$2 baddr=$3 other=$4 peer=$5 unlisted=$6
	local tag="ut$$${tr:3:1}" A B dir out sp
	A="${tag}a"; B="${tag}b"
	itest_pair "$A" "$B" || return 1
	if [ "$tr" = L2 ]; then
		baddr=$(ip netns exec "$B" cat /sys/class/net/eth0/address)
	fi
	itest_tmpdir dir
	itest_conf "$dir/ptp.conf" "$dir" network_transport "$tr"
	cat >>"$dir/ptp.conf" <<EOF
unicast_master_table	7
[unicast_master_table]
table_id		7
logQueryInterval	1
peer_address		$peer
$tr			$other
$tr			$baddr
EOF
	itest_start "$A" "$dir/netd.log" "$NETD" -m -f "$dir/ptp.conf"
	if ! itest_wait_file "$dir/netd.sock" 10; then
		fail "$tr: netd did not start"; cat "$dir/netd.log"; return 1
	fi
	grep -q "port 0: 3 address(es) of unicast master table 7 admitted" \
		"$dir/netd.log" && pass "$tr: netd admitted the 3 addresses of table 7" ||
		fail "$tr: no admission logged: $(tail -5 "$dir/netd.log")"

	# The neighbour resolved first (not PTP: netd learns nothing from
	# it), so that the first frame leaves at once with its TX timestamp
	# rather than after neighbour discovery, past the TX timestamp wait.
	[ "$tr" = L2 ] || ip netns exec "$A" ping -c 1 -W 2 "$baddr" >/dev/null 2>&1 ||
		echo "INFO: $tr: ping $baddr failed"
	out=$dir/sniff.out
	ip netns exec "$B" "$CLIENT" sniff eth0 --proto "$proto" --count 1 \
		--timeout 5 >"$out" 2>&1 &
	sp=$!
	itest_pids+=("$sp")
	for _ in $(seq 50); do grep -qs '^READY' "$out" && break; sleep 0.1; done
	send "$dir/netd.sock" "$baddr" 701 --want-ts
	wait "$sp"
	echo "INFO: $tr: captured in B: $(grep -v '^READY' "$out")"
	if [ $src = 0 ] && grep -q 'status=TXTS_OK' <<<"$sent" &&
		grep -qE "(^| )(ip_dst|dst)=$baddr .*seq=701( |$)" "$out"; then
		pass "$tr: Delay_Req to the table's $baddr, never heard from, on the wire with its TX timestamp"
	else
		fail "$tr: send to $baddr: $sent; captured: $(cat "$out")"
	fi
	send "$dir/netd.sock" "$other" 702
	[ $src = 0 ] && pass "$tr: the table's $other accepted" ||
		fail "$tr: send to the table's $other: $sent"
	send "$dir/netd.sock" "$peer" 703
	[ $src = 0 ] && pass "$tr: the table's peer_address $peer accepted" ||
		fail "$tr: send to peer_address $peer: $sent"
	send "$dir/netd.sock" "$unlisted" 704
	if [ $src != 0 ] && grep -q 'ANSWER error .*"unicast TxFrame to an address the port has not heard from"' <<<"$sent"; then
		pass "$tr: $unlisted, not in the table, refused: $(grep -o 'msg=.*' <<<"$sent")"
	else
		fail "$tr: send to unlisted $unlisted: exit $src: $sent"
	fi
	itest_stop
}

one UDPv4 ip4 10.201.0.2 10.201.0.9 10.201.0.8 10.201.0.3
one UDPv6 ip6 fd20:1::2 fd20:1::9 fd20:1::8 fd20:1::3
one L2 l2 - 02:00:00:00:07:09 02:00:00:00:07:08 02:00:00:00:07:03

# 5. more addresses than the peer table holds: refused before any socket.
itest_tmpdir dir
itest_conf "$dir/ptp.conf" "$dir" max_unicast_peers 16
{
	echo "unicast_master_table 2"
	printf '[unicast_master_table]\ntable_id 2\n'
	for i in $(seq 1 17); do echo "UDPv4 10.201.0.$((i + 10))"; done
} >>"$dir/ptp.conf"
timeout 10 "$NETD" -m -f "$dir/ptp.conf" >"$dir/netd.log" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "table 2 has 17 address(es), more than max_unicast_peers 16" "$dir/netd.log"; then
	pass "a table of 17 addresses with max_unicast_peers 16 stops netd at start (exit 1)"
else
	fail "a table beyond max_unicast_peers: exit $rc: $(grep -v warning "$dir/netd.log" | head -3)"
fi
[ "$itest_fails" = 0 ]
