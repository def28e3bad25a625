#!/bin/bash
# unicast_neg.sh - unicast negotiation (IEEE 1588-2019 16.1) against
# linuxptp's ptp4l running Debian's own example files, UDPv4, software
# time stamps, a pair of network namespaces over one veth per case.
#
#   sl   ptp4l with /usr/share/doc/linuxptp/configs/UNICAST-SLAVE.cfg (its
#        first table's addresses made ours and two that nobody answers on
#        the veth's subnet, its [eth1] section dropped: there is no eth1;
#        free_running 1) negotiates with our grandmaster, configured with
#        UNICAST-MASTER.cfg's keys (unicast_listen 1, hybrid_e2e 1,
#        inhibit_multicast_service 1) and priority1 100.  Checks: ptp4l
#        logs no refusal, its parent and grandmaster are ours, and its
#        offsets over MEASURE s from its FREE_SKIP-th sample meet the
#        bounds sync.sh uses for a free-running ptp4l slave of ours
#        (itest_measure, mode free).  The wire: every PTP frame decodes,
#        none malformed, our side sent Signaling (12), Announce, Sync,
#        Follow_Up and Delay_Resp, all of them unicast (no frame of ours to
#        224.0.1.129: inhibit_multicast_service), and ptp4l's Delay_Req
#        were answered unicast.
#   gm   our slave (unicast_master_table 1 listing the ptp4l, clientOnly 1,
#        virtual clock 1.5 s and +80 ppm off) negotiates with ptp4l running
#        UNICAST-MASTER.cfg and locks: its first s2 sample within
#        LOCK_TIMEOUT s, then MEASURE s of offsets within itest_measure's
#        servo bounds; our Signaling and Delay_Req are unicast.
#   hsl  hybrid E2E (hybrid_e2e 1 both sides: multicast Announce and Sync,
#        unicast Delay_Req and Delay_Resp): a ptp4l slave against our
#        grandmaster; ptp4l's offsets within the free bounds, its
#        Delay_Req unicast to us and every Delay_Resp of ours unicast back.
#   hgm  the same with ptp4l as grandmaster and our slave: it locks and
#        stays within the servo bounds, every Delay_Req of ours unicast to
#        ptp4l's address (learned from its Announce), ptp4l's Delay_Resp
#        unicast.
#   rf   a refusal: our grandmaster grants nothing faster than 2^-2 s
#        (unicast_min_log_interval -2) and a ptp4l unicast client asks for
#        Sync at 2^-3 s: ptp4l logs the Sync grant rejected (it read our
#        GRANT of durationField 0 as 16.1.4.2 means it) and is not
#        served unicast Sync; tshark decodes our GRANTs, none malformed, and
#        shows one for Sync with durationField 0.
#   v6   both roles over UDPv6 (fd20:1::1 the grandmaster): a ptp4l
#        unicast client of our grandmaster (offsets within the free
#        bounds), then our unicast client of a ptp4l unicast_listen
#        grandmaster (locks within the servo bounds).
#
#   BUILD=build/default tests/interop/unicast_neg.sh [sl|gm|hsl|hgm|rf|v6]...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

iop_unicast_setup

# debian_cfg FILE DIR SRC: Debian's file SRC (iop_debian_cfg) as it is but
# for its addresses: the first table's made ours, two that nobody answers
# on the veth's subnet.
debian_cfg() {
	iop_debian_cfg "$1" "$2" "$CONFIGS/$3" "" \
		-e "s/^UDPv4\([[:space:]]*\)192\.168\.1\.11$/UDPv4\1$MASTER_IP/" \
		-e "s/^UDPv4\([[:space:]]*\)192\.168\.2\.22$/UDPv4\1 10.201.0.22/" \
		-e "s/^UDPv4\([[:space:]]*\)192\.168\.3\.33$/UDPv4\1 10.201.0.33/"
}

case_sl() {
	local pns=iou$$p ons=iou$$o pd od cap cid n
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	# ptp4l, the client, in the second namespace; we serve from the first.
	debian_cfg "$pd/ptp4l.conf" "$pd" UNICAST-SLAVE.cfg
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 priority1 100 \
		unicast_listen 1 hybrid_e2e 1 inhibit_multicast_service 1
	cap=$pd/capture.pcapng
	iop_start_pair ours "$ons" "$pns" "$ons" "$pd" "$od" || return
	local capid=$iop_capture_pid
	iop_measure_free sl "ptp4l UNICAST-SLAVE" "$pd" "$od" || return
	iop_no_refusal sl "$pd/ptp4l.log"
	cid=$(iop_status "$pns" "$od" clock_identity)
	iop_ptp4l_parent sl "$ons" "$pd" "$cid" 1
	grep 'unicast service' "$od/clockd.log" | tail -1
	iop_capture_stop "$capid"
	[ -n "$cid" ] || { fail "sl: no clock identity"; return; }
	local ours="ip.src == $MASTER_IP"
	iop_wire_check "sl" "$cap" "$ours" 12 11 0 8 9
	n=$(iop_count "$cap" "$ours && ptp && ip.dst != $SLAVE_IP")
	if [ "$n" = 0 ]; then
		pass "sl: wire: every PTP frame of ours went to the client, unicast"
	else
		fail "sl: wire: $n PTP frames of ours not unicast to the client"
	fi
	n=$(iop_count "$cap" "$ours && ptp && ptp.v2.flags.unicast == 0")
	if [ "$n" = 0 ]; then
		pass "sl: wire: every PTP frame of ours has the unicastFlag"
	else
		fail "sl: wire: $n PTP frames of ours without the unicastFlag"
	fi
	n=$(iop_count "$cap" "ip.src == $SLAVE_IP && ptp.v2.messagetype == 1 && ip.dst == $MASTER_IP")
	local r
	r=$(iop_count "$cap" "$ours && ptp.v2.messagetype == 9")
	if [ "${n:-0}" -gt 5 ] && [ "${r:-0}" -ge $((n - 2)) ]; then
		pass "sl: wire: $n unicast Delay_Req from ptp4l, $r unicast Delay_Resp"
	else
		fail "sl: wire: ${n:-?} unicast Delay_Req from ptp4l, ${r:-?} Delay_Resp"
	fi
	itest_stop
}

case_gm() {
	local pns=iou$$m ons=iou$$s pd od cap capid
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	debian_cfg "$pd/ptp4l.conf" "$pd" UNICAST-MASTER.cfg
	echo "priority1 100" >>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 clientOnly 1 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000 \
		unicast_req_duration 60
	# our table, in ptp4l's syntax, and the port that uses it
	sed -i '/^\[eth0\]$/d' "$od/ptp.conf"
	iop_utab "$od/ptp.conf" 1 eth0 "UDPv4 $MASTER_IP"
	cap=$pd/capture.pcapng
	iop_start_pair ptp4l "$pns" "$pns" "$ons" "$pd" "$od" || return
	capid=$iop_capture_pid
	iop_measure_servo gm "our unicast slave of ptp4l UNICAST-MASTER" \
		"$od" "$pd" || return
	iop_one_step gm "$od"
	iop_capture_stop "$capid"
	local ours="ip.src == $SLAVE_IP"
	iop_wire_check "gm" "$cap" "$ours" 12 1
	local n
	n=$(iop_count "$cap" "$ours && ptp && ip.dst != $MASTER_IP")
	if [ "$n" = 0 ]; then
		pass "gm: wire: our Signaling and Delay_Req all unicast to the master"
	else
		fail "gm: wire: $n PTP frames of ours not unicast to the master"
	fi
	itest_stop
}

# case_hybrid DIR: sl (ptp4l slave) or gm (ptp4l grandmaster), both ends
# with hybrid_e2e 1.  ptp4l in the first namespace as grandmaster, in the
# second as slave, so that MASTER_IP is always the grandmaster.
case_hybrid() {
	local dir=$1 mns=iou$$hm ons=iou$$hs pd od cap capid ours theirs
	itest_pair "$mns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	cap=$pd/capture.pcapng
	if [ "$dir" = sl ]; then
		iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport UDPv4 \
			hybrid_e2e 1 slaveOnly 1 freq_est_interval 0
		itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 \
			priority1 100 hybrid_e2e 1
		iop_start_pair ours "$ons" "$mns" "$ons" "$pd" "$od" || return
		capid=$iop_capture_pid
		ours="ip.src == $MASTER_IP"; theirs="ip.src == $SLAVE_IP"
		iop_measure_free hsl "ptp4l hybrid slave" "$pd" "$od" || return
	else
		iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport UDPv4 \
			hybrid_e2e 1 priority1 100
		itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 \
			clientOnly 1 hybrid_e2e 1 virtual_clock_offset_ns 1500000000 \
			virtual_clock_freq_ppb 80000
		iop_start_pair ptp4l "$mns" "$mns" "$ons" "$pd" "$od" || return
		capid=$iop_capture_pid
		ours="ip.src == $SLAVE_IP"; theirs="ip.src == $MASTER_IP"
		iop_measure_servo hgm "our hybrid slave" "$od" "$pd" || return
	fi
	iop_capture_stop "$capid"
	local tag=h$dir
	iop_wire_check "$tag" "$cap" "ptp" 0 1 8 9 11
	# Sync multicast; Delay_Req to the grandmaster, Delay_Resp back,
	# both unicast
	iop_expect_count "$tag" "$cap" "ip.src == $MASTER_IP && ptp.v2.messagetype == 0 && ip.dst == 224.0.1.129" -gt 10
	iop_expect_count "$tag" "$cap" "ip.src == $SLAVE_IP && ptp.v2.messagetype == 1 && ip.dst == $MASTER_IP" -gt 5
	iop_expect_count "$tag" "$cap" "ptp.v2.messagetype == 1 && ip.dst != $MASTER_IP" -eq 0
	iop_expect_count "$tag" "$cap" "ip.src == $MASTER_IP && ptp.v2.messagetype == 9 && ip.dst == $SLAVE_IP" -gt 5
	iop_expect_count "$tag" "$cap" "ptp.v2.messagetype == 9 && ip.dst != $SLAVE_IP" -eq 0
	itest_stop
}
case_rf() {
	local pns=iou$$fm ons=iou$$fs pd od cap capid
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport UDPv4 \
		unicast_req_duration 60 logSyncInterval -3
	printf '[unicast_master_table]\ntable_id 1\nlogQueryInterval 0\nUDPv4 %s\n[eth0]\nunicast_master_table 1\n[global]\nfree_running 1\nkernel_leap 0\n' \
		"$MASTER_IP" >>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv4 priority1 100 \
		unicast_listen 1 unicast_min_log_interval -2
	cap=$pd/capture.pcapng
	iop_start_pair ours "$ons" "$pns" "$ons" "$pd" "$od" || return
	capid=$iop_capture_pid
	if itest_wait_log "$pd/ptp4l.log" 'unicast grant of SYNC rejected' \
	    "$LOCK_TIMEOUT"; then
		pass "rf: ptp4l: $(grep -m1 'rejected' "$pd/ptp4l.log" | cut -d' ' -f2-)"
	else
		fail "rf: ptp4l saw no refused Sync grant"
		tail -10 "$pd/ptp4l.log"
	fi
	sleep 5
	iop_capture_stop "$capid"
	iop_wire_check "rf" "$cap" "ip.src == $MASTER_IP" 12
	iop_expect_count "rf" "$cap" "ip.src == $MASTER_IP && ptp.v2.sig.tlv.tlvType == 5 && ptp.v2.sig.tlv.durationField == 0" -gt 0
	iop_expect_count "rf" "$cap" "ip.src == $MASTER_IP && ptp.v2.messagetype == 0 && ip.dst == $SLAVE_IP" -eq 0
	itest_stop
}

case_v6() {
	local pns=iou$$6m ons=iou$$6s pd od from tab
	tab=$(printf '[unicast_master_table]\ntable_id 1\nlogQueryInterval 0\nUDPv6 fd20:1::1\n[eth0]\nunicast_master_table 1\n')
	# ptp4l the client
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport UDPv6 \
		unicast_req_duration 60 freq_est_interval 0
	printf '%s\n[global]\nfree_running 1\nkernel_leap 0\n' "$tab" \
		>>"$pd/ptp4l.conf"
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv6 priority1 100 \
		unicast_listen 1 inhibit_multicast_service 1
	itest_daemons "$pns" "$od" "$od/ptp.conf" || return
	iop_ptp4l "$ons" "$pd" eth0 || return
	if iop_wait_samples "$pd/ptp4l.log" 'master offset' "$FREE_SKIP" \
	    "$LOCK_TIMEOUT"; then
		from=$(wc -l <"$pd/ptp4l.log")
		sleep "$MEASURE"
		itest_measure "v6: ptp4l client of ours" "$pd/ptp4l.log" \
			"$from" free
	else
		fail "v6: ptp4l client not served over UDPv6"
		tail -10 "$pd/ptp4l.log"; tail -10 "$od/clockd.log"
	fi
	itest_stop
	# ours the client
	pns=iou$$6n; ons=iou$$6t
	itest_pair "$pns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport UDPv6 \
		unicast_listen 1 hybrid_e2e 1 inhibit_multicast_service 1 \
		priority1 100
	itest_conf "$od/ptp.conf" "$od" network_transport UDPv6 clientOnly 1 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000 \
		unicast_req_duration 60
	sed -i '/^\[eth0\]$/d' "$od/ptp.conf"
	printf '%s\n' "$tab" >>"$od/ptp.conf"
	iop_ptp4l "$pns" "$pd" eth0 || return
	itest_daemons "$ons" "$od" "$od/ptp.conf" || return
	iop_measure_servo v6 "our client of ptp4l over UDPv6" "$od" "$pd"
	itest_stop
}

case_hsl() { case_hybrid sl; }
case_hgm() { case_hybrid gm; }

itest_tmpdir st
iop_wire_selftest "$st"
for c in ${1:-sl gm hsl hgm rf v6}; do
	"case_$c"
done
[ "$itest_fails" = 0 ] && echo "PASS: unicast_neg" && exit 0
echo "FAIL: unicast_neg ($itest_fails)"
exit 1
