#!/bin/bash
# unicast_l2.sh - unicast negotiation (IEEE 1588-2019 16.1) over L2
# (IEEE 802.3 transport, annex E) against linuxptp's ptp4l running
# Debian's own example files, software time stamps, one veth per case.
#
#   sl  ptp4l with /usr/share/doc/linuxptp/configs/UNICAST-SLAVE.cfg on
#       the file's own L2 port (its [eth1]: network_transport L2, master
#       table 2 of one L2 address, made our grandmaster's MAC; its [eth0]
#       dropped: that port is UDPv4 and there is no second link;
#       free_running 1) negotiates with our grandmaster (UNICAST-MASTER.cfg's
#       keys, network_transport L2, priority1 100).  ptp4l's offsets from
#       its FREE_SKIP-th sample over MEASURE s within itest_measure's free
#       bounds, no refused grant, its grandmaster ours.
#   gm  our client (network_transport L2, a master table of ptp4l's MAC,
#       clientOnly 1, virtual clock 1.5 s and +80 ppm off) negotiates with
#       ptp4l running UNICAST-MASTER.cfg over L2 (network_transport L2, the
#       test's one addition) and locks: first s2 within LOCK_TIMEOUT, then
#       MEASURE s within the servo bounds, one step.
#
# The wire (tshark on the grandmaster's side): every PTP frame PTPv2, none
# malformed, no expert error; our side's message types present; every PTP
# frame of ours to the other's MAC (no 01:1b:19:00:00:00: hybrid E2E,
# inhibit_multicast_service) with the unicastFlag, and ptp4l's unicast
# frames to us.
#
#   BUILD=build/default tests/interop/unicast_l2.sh [sl|gm]...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

iop_unicast_setup
grep -q '^L2[[:space:]]*00:11:22:33:44:55$' "$CONFIGS/UNICAST-SLAVE.cfg" ||
	{ echo "FAIL: UNICAST-SLAVE.cfg has no L2 table"; exit 1; }

mac() { ip -n "$1" -br link show dev "$2" | awk '{ print $3 }'; }

# wire_unicast TAG FILE OUR_MAC PEER_MAC: every PTP frame of ours to the
# peer's MAC with the unicastFlag (nothing multicast: inhibit_multicast_
# service on a server, hybrid E2E); the peer's unicast PTP frames to us.
# A ptp4l on UNICAST-SLAVE.cfg (no inhibit_multicast_service) is MASTER
# for its first announce receipt timeout and says so to 01:1b:19:00:00:00:
# those are shown, not judged.
wire_unicast() {
	local n bad m f="eth.type == 0x88f7"
	if ! n=$(iop_count "$2" "$f && eth.src == $3") ||
	   ! bad=$(iop_count "$2" "$f && eth.src == $3 && (eth.dst != $4 || ptp.v2.flags.unicast == 0)") ||
	   ! m=$(iop_count "$2" "$f && eth.src == $4 && eth.dst.ig == 1"); then
		fail "$1: tshark could not read $2"
		return 1
	fi
	if [ "$n" -gt 0 ] && [ "$bad" = 0 ]; then
		pass "$1: all $n PTP frames of ours unicast to $4, unicastFlag set"
	else
		fail "$1: $bad of $n PTP frames of ours not unicast to $4 or without the unicastFlag"
		"$TSHARK" -r "$2" -n -Y "$f" -T fields -e eth.src -e eth.dst \
			-e ptp.v2.messagetype 2>/dev/null | sort | uniq -c | head
	fi
	echo "INFO: $1: ptp4l sent $m multicast PTP frames"
	iop_expect_count "$1" "$2" "$f && eth.src == $4 && eth.dst == $3 && ptp.v2.flags.unicast == 1" -gt 5
}

case_sl() {
	local gns=iol$$a cns=iol$$b pd od cap capid gmac cmac
	itest_ns "$gns"; itest_ns "$cns"
	itest_link "$gns" eth0 "$cns" eth1
	gmac=$(mac "$gns" eth0); cmac=$(mac "$cns" eth1)
	itest_tmpdir pd
	itest_tmpdir od
	# Debian's file, but for its [eth0] section and the L2 address.
	iop_ptp4l_conf "$pd/ptp4l.conf" "$pd"
	awk '/^\[/ { skip = ($0 == "[eth0]") } !skip' \
		"$CONFIGS/UNICAST-SLAVE.cfg" |
		sed "s/^L2\([[:space:]]*\)00:11:22:33:44:55\$/L2\1$gmac/" \
		>>"$pd/ptp4l.conf"
	printf '[global]\nfree_running 1\nkernel_leap 0\nfreq_est_interval 0\n' \
		>>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport L2 priority1 100 \
		hybrid_e2e 1 inhibit_multicast_service 1 unicast_listen 1
	cap=$pd/capture.pcapng
	iop_start_pair ours "$gns" "$gns" "$cns" "$pd" "$od" eth1 || return
	capid=$iop_capture_pid
	iop_measure_free sl "ptp4l UNICAST-SLAVE over L2" "$pd" "$od" ||
		{ itest_stop; return; }
	iop_no_refusal sl "$pd/ptp4l.log"
	iop_ptp4l_parent sl "$cns" "$pd" "$(iop_status "$gns" "$od" clock_identity)"
	iop_capture_stop "$capid"
	iop_wire_check "sl" "$cap" "eth.src == $gmac" 12 11 0 8 9
	wire_unicast "sl" "$cap" "$gmac" "$cmac"
	itest_stop
}

case_gm() {
	local gns=iol$$c cns=iol$$d pd od cap capid gmac cmac
	itest_ns "$gns"; itest_ns "$cns"
	itest_link "$gns" eth0 "$cns" eth0
	gmac=$(mac "$gns" eth0); cmac=$(mac "$cns" eth0)
	itest_tmpdir pd
	itest_tmpdir od
	iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport L2 priority1 100
	grep -v '^\[global\]' "$CONFIGS/UNICAST-MASTER.cfg" >>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport L2 clientOnly 1 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000 \
		unicast_req_duration 60
	sed -i '/^\[eth0\]$/d' "$od/ptp.conf"
	iop_utab "$od/ptp.conf" 2 eth0 "L2 $gmac"
	cap=$pd/capture.pcapng
	iop_start_pair ptp4l "$gns" "$gns" "$cns" "$pd" "$od" || return
	capid=$iop_capture_pid
	iop_measure_servo gm "our L2 unicast client of ptp4l UNICAST-MASTER" \
		"$od" "$pd" || { itest_stop; return; }
	iop_one_step gm "$od"
	iop_gm_is_ptp4l gm "$cns" "$od" "$gns" "$pd"
	iop_capture_stop "$capid"
	iop_wire_check "gm" "$cap" "eth.src == $cmac" 12 1
	wire_unicast "gm" "$cap" "$cmac" "$gmac"
	itest_stop
}

itest_tmpdir st
iop_wire_selftest "$st"
for c in ${@:-sl gm}; do
	case $c in
	sl|gm) "case_$c" ;;
	*) fail "unknown case $c" ;;
	esac
done
[ "$itest_fails" = 0 ] && echo "PASS: unicast_l2" && exit 0
echo "FAIL: unicast_l2 ($itest_fails)"
exit 1
