#!/bin/bash
# phc_auto.sh - clock_device auto and the driver checks of hardware time
# stamps (issue 14, netd/phc.c) on a veth, which has no PHC and stamps in
# software only (ETHTOOL_GET_TS_INFO: so_timestamping 0x1a, phc_index -1,
# tx_types 0, rx_filters 0):
#  1. time_stamping hardware, clock_device auto (the default), UDPv4: netd
#     exits 1 before opening anything, naming the port, its driver,
#     phc_index -1, the missing SOF_TIMESTAMPING flags, HWTSTAMP_TX_ON and
#     the UDP event filter;
#  2. the same with clock_device /dev/ptp0 and L2: the named PHC does not
#     spare the driver check (the L2 event filter named);
#  3. hardware + auto with the port missing: exit 1, the PHC cannot be
#     known, naming clock_device /dev/ptpN as the way to wait;
#  4. time_stamping software, clock_device auto: netd starts on the
#     system clock (no clockd: nothing adjusts it), ptpctl netd shows
#     device system and the port's phc_index -1;
#  5. one-step (twoStepFlag 0 with hardware; time_stamping p2p1step):
#     refused at start, the message naming the one-step mode.  The
#     refusal of a PHC driver without HWTSTAMP_TX_ONESTEP_SYNC needs such
#     a NIC: tests/unit/test_netd_phc.c runs it on recorded answers.
#
#   BUILD=build/default tests/integration/phc_auto.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
CTL=$BUILD/ctl/ptpctl

# conf FILE DIR PORT KEY VALUE...
conf() {
	local f=$1 dir=$2 port=$3
	shift 3
	{
		echo "[global]"
		echo "netd_socket $dir/netd.sock"
		echo "netd_ctl_socket $dir/netd-ctl.sock"
		while [ $# -ge 2 ]; do
			echo "$1 $2"
			shift 2
		done
		echo "[$port]"
	} >"$f"
}

# refused NAME NS LOG PATTERN...: netd (run to its end by the caller)
# exited 1 and its log holds each pattern (fixed strings).
refused() {
	local name=$1 rc=$2 log=$3 p ok=1
	shift 3
	[ "$rc" = 1 ] || ok=0
	for p in "$@"; do
		grep -qF -- "$p" "$log" || { ok=0; echo "  missing: $p"; }
	done
	if [ $ok = 1 ]; then
		pass "$name: exit 1, $(grep -m1 'time_stamping [a-z]\|no such interface' "$log" | sed 's/^[^:]*: warning: //')"
	else
		fail "$name: exit $rc: $(cat "$log")"
	fi
}

ns="phc$$"
itest_ns "$ns"
ip -n "$ns" link add eth0 type veth peer name eth1
ip -n "$ns" link set eth0 up
ip -n "$ns" link set eth1 up
itest_tmpdir W
d=$W

# 1. hardware + auto (the default), UDPv4.
conf "$d/1.conf" "$d" eth0 time_stamping hardware
timeout 20 ip netns exec "$ns" "$NETD" -m -f "$d/1.conf" >"$d/1.log" 2>&1
refused "hardware + auto on veth" $? "$d/1.log" \
	"eth0 (veth): time_stamping hardware: no PTP hardware clock (phc_index -1)" \
	"no SOF_TIMESTAMPING_TX_HARDWARE/RX_HARDWARE/RAW_HARDWARE (so_timestamping 0x1a)" \
	"tx_types 0x0 (no HWTSTAMP_TX_ON)" \
	"rx_filters 0x0 (no HWTSTAMP_FILTER_PTP_V2_L4_EVENT, PTP_V2_EVENT or ALL" \
	"use time_stamping software" \
	"cannot open clock_device auto (time_stamping hardware)"
[ -e "$d/netd.sock" ] && fail "hardware + auto: netd_socket created"

# 2. hardware + /dev/ptp0, L2.
conf "$d/2.conf" "$d" eth0 time_stamping hardware clock_device /dev/ptp0 \
	network_transport L2
timeout 20 ip netns exec "$ns" "$NETD" -m -f "$d/2.conf" >"$d/2.log" 2>&1
refused "hardware + /dev/ptp0 on veth (L2)" $? "$d/2.log" \
	"eth0 (veth): time_stamping hardware: no PTP hardware clock (phc_index -1)" \
	"rx_filters 0x0 (no HWTSTAMP_FILTER_PTP_V2_L2_EVENT, PTP_V2_EVENT or ALL"

# 3. hardware + auto, the port not there.
conf "$d/3.conf" "$d" eth7 time_stamping hardware
timeout 20 ip netns exec "$ns" "$NETD" -m -f "$d/3.conf" >"$d/3.log" 2>&1
refused "hardware + auto, port missing" $? "$d/3.log" \
	"eth7: no such interface: with clock_device auto its PHC cannot be known; name it (clock_device /dev/ptpN)"

# 4. software + auto: the system clock.
conf "$d/4.conf" "$d" eth0 time_stamping software
itest_start "$ns" "$d/4.log" "$NETD" -m -f "$d/4.conf"
if itest_wait_log "$d/4.log" "ready:" 10; then
	json=$(ip netns exec "$ns" "$CTL" -f "$d/4.conf" --json netd 2>&1)
	if python3 -c '
import json, sys
n = json.loads(sys.argv[1])
assert n["clock"]["device"] == "system", n["clock"]
p = n["ports"][0]
assert p["iface"] == "eth0" and p["phc_index"] == -1, p
assert p["ts_mode"] == "software" and p["one_step"] is False, p
' "$json"; then
		pass "software + auto: netd on the system clock, port phc_index -1"
	else
		fail "software + auto: ptpctl netd: $json"
	fi
else
	fail "software + auto: netd did not start: $(cat "$d/4.log")"
fi

# 5. one-step on a veth (sockets apart: netd of 4 still runs).
mkdir "$d/one"
conf "$d/5.conf" "$d/one" eth0 time_stamping hardware twoStepFlag 0
timeout 20 ip netns exec "$ns" "$NETD" -m -f "$d/5.conf" >"$d/5.log" 2>&1
refused "hardware + twoStepFlag 0 on veth" $? "$d/5.log" \
	"eth0 (veth): time_stamping hardware, twoStepFlag 0 (one-step): no PTP hardware clock (phc_index -1)" \
	"use time_stamping software (two-step: twoStepFlag 1)"
conf "$d/6.conf" "$d/one" eth0 time_stamping p2p1step delay_mechanism P2P
timeout 20 ip netns exec "$ns" "$NETD" -m -f "$d/6.conf" >"$d/6.log" 2>&1
refused "p2p1step on veth" $? "$d/6.log" \
	"eth0 (veth): time_stamping p2p1step: no PTP hardware clock (phc_index -1)"
[ -e "$d/one/netd.sock" ] && fail "one-step: netd_socket created"

echo "phc_auto: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
