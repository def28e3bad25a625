#!/bin/bash
# dst_keys.sh - netd's multicast destinations follow ptp_dst_mac,
# p2p_dst_mac (L2) and udp6_scope (UDPv6), as in ptp4l: a ptpsep master
# and slave in two namespaces, both configured with the same non-default
# groups.
#  1. L2/P2P, ptp_dst_mac 01:1B:19:00:00:01 and p2p_dst_mac
#     01:80:C2:00:00:0F: the slave's interface has joined those two groups
#     and not the defaults (ip maddr), the frames on the wire go to them
#     (tshark: Sync/Announce to the first, Pdelay to the second, none to
#     the defaults), and the slave takes Sync samples.
#  2. UDPv6, udp6_scope 0x05: the group joined is FF05::181, not FF0E::181,
#     and the slave takes Sync samples.
#  3. A ptp_dst_mac that is not a group address stops netd at start with
#     a message naming the key.
#
#   BUILD=build/default tests/integration/dst_keys.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

SAMPLE_TIMEOUT=${SAMPLE_TIMEOUT:-40}

# pair NAME KEY VALUE...: a master and a slave with these keys; sets M S
# dm sl.
pair() {
	local tag="dk$$$1"
	shift
	M="${tag}m"; S="${tag}s"
	itest_pair "$M" "$S"
	itest_tmpdir dm
	itest_tmpdir sl
	itest_conf "$dm/ptp.conf" "$dm" priority1 100 "$@"
	itest_conf "$sl/ptp.conf" "$sl" clientOnly 1 "$@"
	itest_daemons "$M" "$dm" "$dm/ptp.conf" || return 1
	itest_daemons "$S" "$sl" "$sl/ptp.conf" || return 1
}

# samples NAME: the slave takes Sync samples.
samples() {
	if itest_wait_log "$sl/clockd.log" 'master offset' "$SAMPLE_TIMEOUT"; then
		pass "$1: the slave takes Sync samples"
	else
		fail "$1: no Sync sample"; tail -20 "$sl/clockd.log"
	fi
}

# ---- 1. L2 ----
if pair l network_transport L2 delay_mechanism P2P \
	ptp_dst_mac 01:1B:19:00:00:01 p2p_dst_mac 01:80:C2:00:00:0F; then
	samples L2
	maddr=$(ip -n "$S" maddr show dev eth0)
	for g in 01:1b:19:00:00:01 01:80:c2:00:00:0f; do
		grep -q "link  *$g" <<<"$maddr" && pass "L2: joined $g" ||
			fail "L2: $g not joined: $maddr"
	done
	for g in 01:1b:19:00:00:00 01:80:c2:00:00:0e; do
		grep -q "link  *$g" <<<"$maddr" &&
			fail "L2: default group $g joined" ||
			pass "L2: default group $g not joined"
	done
	if command -v tshark >/dev/null; then
		cap=$(timeout 15 ip netns exec "$S" tshark -i eth0 -a duration:6 \
			-f 'ether proto 0x88f7' -T fields -e eth.dst -e ptp.v2.messagetype \
			2>/dev/null | sort | uniq -c)
		echo "$cap"
		grep -q '01:1b:19:00:00:01[[:space:]]*0x0*0$' <<<"$cap" &&
			pass "L2: Sync sent to ptp_dst_mac" ||
			fail "L2: no Sync to 01:1b:19:00:00:01"
		grep -q '01:80:c2:00:00:0f[[:space:]]*0x0*2$' <<<"$cap" &&
			pass "L2: Pdelay_Req sent to p2p_dst_mac" ||
			fail "L2: no Pdelay_Req to 01:80:c2:00:00:0f"
		grep -Eq '01:1b:19:00:00:00|01:80:c2:00:00:0e' <<<"$cap" &&
			fail "L2: frames to a default group" ||
			pass "L2: no frame to a default group"
	else
		echo "INFO: tshark not installed: destinations on the wire not checked"
	fi
fi
itest_stop

# ---- 2. UDPv6 scope ----
if pair 6 network_transport UDPv6 udp6_scope 0x05; then
	samples UDPv6
	maddr=$(ip -n "$S" -6 maddr show dev eth0)
	grep -q 'ff05::181' <<<"$maddr" && pass "UDPv6: joined ff05::181" ||
		fail "UDPv6: ff05::181 not joined: $maddr"
	grep -q 'ff0e::181' <<<"$maddr" && fail "UDPv6: ff0e::181 joined" ||
		pass "UDPv6: ff0e::181 not joined"
fi
itest_stop

# ---- 3. a unicast ptp_dst_mac ----
itest_ns "dk$$u"
itest_tmpdir du
ip -n "dk$$u" link add eth0 type veth peer name eth1
ip -n "dk$$u" link set eth0 up
itest_conf "$du/ptp.conf" "$du" network_transport L2 \
	ptp_dst_mac 02:00:00:00:00:01
timeout 10 ip netns exec "dk$$u" "$NETD" -m -f "$du/ptp.conf" >"$du/netd.log" 2>&1
rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 124 ] &&
	grep -q 'ptp_dst_mac 02:00:00:00:00:01 is not a multicast address' "$du/netd.log"; then
	pass "unicast ptp_dst_mac refused at start (exit $rc)"
else
	fail "unicast ptp_dst_mac: exit $rc: $(cat "$du/netd.log")"
fi
[ "$itest_fails" = 0 ]
