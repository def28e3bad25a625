#!/bin/bash
# g8275_2.sh - ITU-T G.8275.2 (telecom profile, partial timing support:
# UDPv4 unicast with negotiation, hybrid E2E, the alternate BMCA with
# localPriority) against linuxptp, every node running Debian's own
# G.8275.2.cfg.  The file's key/value lines are taken as they are; a test
# adds only what it must: sockets and `clock_device virtual` for ours
# (itest_conf), the UDS socket, software time stamps, free_running 1 and
# kernel_leap 0 for ptp4l (iop_ptp4l_conf), domainNumber 44 (G.8275.2's
# default domain: the file leaves it at 0), the role (slaveOnly /
# clientOnly, clockClass 6 for a grandmaster) and, on a client, the
# [unicast_master_table] the file leaves to the user (its commented
# example: table_id 1, logQueryInterval 2, the grandmaster's address).
#
#   gm  our grandmaster -> ptp4l client (slaveOnly 1, freq_est_interval 0):
#       ptp4l's offsets from its FREE_SKIP-th sample over MEASURE s within
#       itest_measure's free bounds (as sync.sh); ptp4l logs no refused
#       grant; its parent and grandmaster are ours.
#   sl  ptp4l grandmaster -> our client (clientOnly 1, virtual clock 1.5 s
#       and +80 ppm off): locks (first s2) within LOCK_TIMEOUT, SETTLE s
#       later MEASURE s within the servo bounds, exactly one step; its
#       grandmaster is ptp4l's.
#   lp  two grandmasters of equal quality (ours and a ptp4l) on two links
#       of one client node, each port with its own master table of one
#       address.  The client's G.8275.portDS.localPriority decides
#       (G.8275.2 6.7.3): eth1 (ours) 100 / eth2 (ptp4l) 200 takes ours,
#       flipped takes ptp4l's, both 128 the lower identity.  Each setting
#       runs our client and then a ptp4l client on the same links: both
#       must choose the same grandmaster.
#   tab two grandmasters of equal quality (ours and a ptp4l) in one master
#       table of the client's one port (a bridged segment): the lower
#       identity, our client and a ptp4l client alike, and our client
#       then takes Sync only from the chosen one (the other's cancelled);
#       with that one's priority2 129 the other, both clients alike.
#
# The wire (tshark in the grandmaster's namespace, every case): every PTP
# frame PTPv2 and none malformed, no expert error, our side's message
# types present, every PTP frame unicast (inhibit_multicast_service and
# hybrid_e2e: nothing to 224.0.1.129) in domain 44.
#
# UPROF=G.8265.1 runs gm and sl with Debian's G.8265.1.cfg instead
# (tests/interop/g8265_1.sh): domain 4 (G.8265.1's default; linuxptp's
# later file says so, 3.1.1's leaves 0), our grandmaster clockClass 84
# (QL-PRC, G.8265.1 table 1); no lp: G.8265.1 has no localPriority.
#
#   BUILD=build/default tests/interop/g8275_2.sh [gm|sl|lp|tab ...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

UPROF=${UPROF:-G.8275.2}
case $UPROF in
G.8275.2)
	PROFILE=${G8275_2_CFG:-/usr/share/doc/linuxptp/configs/G.8275.2.cfg}
	DOMAIN=44; GM_CLASS=6; CASES="gm sl lp tab"
	need="dataset_comparison G.8275.portDS.localPriority" ;;
G.8265.1)
	PROFILE=${G8265_1_CFG:-/usr/share/doc/linuxptp/configs/G.8265.1.cfg}
	DOMAIN=4; GM_CLASS=84; CASES="gm sl"; need="" ;;
*)	echo "FAIL: UPROF $UPROF: G.8275.2 or G.8265.1"; exit 1 ;;
esac
MEASURE=${MEASURE:-30}
SETTLE=${SETTLE:-10}
LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
FREE_SKIP=${FREE_SKIP:-10}
BMC_TIMEOUT=${BMC_TIMEOUT:-40}
GM_IP=10.201.0.1	# itest_pair's first namespace
CL_IP=10.201.0.2

[ -r "$PROFILE" ] || { echo "FAIL: $PROFILE not found (Debian's linuxptp)"; exit 1; }
# The file's key/value lines, in order (its [unicast_master_table] and
# [eth0] are comments).
mapfile -t prof < <(awk '/^[[:space:]]*\[/ && !/^\[global\]/ { exit }
	!/^[[:space:]]*(#|\[|$)/ && NF >= 2 { print $1; print $2 }' "$PROFILE")
for k in $need hybrid_e2e inhibit_multicast_service unicast_listen \
    unicast_req_duration; do
	printf '%s\n' "${prof[@]}" | grep >/dev/null -x -- "$k" ||
		{ echo "FAIL: $PROFILE has no $k: not the $UPROF file"; exit 1; }
done
# A file that names its domain (linuxptp >= 4.0) keeps it.
for ((i = 0; i < ${#prof[@]}; i += 2)); do
	[ "${prof[$i]}" = domainNumber ] && DOMAIN=${prof[$((i + 1))]} &&
		unset "prof[$i]" "prof[$((i + 1))]"
done
IOP_DOMAIN=$DOMAIN
iop_prof=("${prof[@]}" domainNumber "$DOMAIN" network_transport UDPv4)
# Every PTP frame unicast (inhibit_multicast_service, hybrid_e2e), with the
# unicastFlag, in the profile's domain.
IOP_WIRE_ALL='udp.port == 319 || udp.port == 320'
IOP_WIRE_BAD="ip.dst == 224.0.0.0/4 || ptp.v2.domainnumber != $DOMAIN || ptp.v2.flags.unicast == 0"
IOP_WIRE_WHAT="unicast with the unicastFlag in domain $DOMAIN"

# ---- gm: our grandmaster, a ptp4l client ----------------------------------

case_gm() {
	local gns=g82$$a cns=g82$$b pd od cap capid
	itest_pair "$gns" "$cns" || return
	itest_tmpdir pd
	itest_tmpdir od
	iop_ptp_conf "$pd" slaveOnly 1 freq_est_interval 0
	iop_utab "$pd/ptp4l.conf" 1 eth0 "UDPv4 $GM_IP"
	iop_our_conf "$od/ptp.conf" "$od" clockClass $GM_CLASS
	cap=$pd/capture.pcapng
	iop_start_pair ours "$gns" "$gns" "$cns" "$pd" "$od" || return
	capid=$iop_capture_pid
	iop_measure_free gm "ptp4l $UPROF client of ours" "$pd" "$od" ||
		{ itest_stop; return; }
	iop_no_refusal gm "$pd/ptp4l.log"
	iop_ptp4l_parent gm "$cns" "$pd" "$(iop_status "$gns" "$od" clock_identity)" 1
	iop_capture_stop "$capid"
	iop_wire_check "gm" "$cap" "ip.src == $GM_IP && !icmp" 12 11 0 8 9
	iop_wire_profile "gm" "$cap"
	itest_stop
}

# ---- sl: a ptp4l grandmaster, our client -----------------------------------

case_sl() {
	local gns=g82$$c cns=g82$$d pd od cap capid
	itest_pair "$gns" "$cns" || return
	itest_tmpdir pd
	itest_tmpdir od
	iop_ptp_conf "$pd" clockClass $GM_CLASS
	ITEST_PORTS=" " iop_our_conf "$od/ptp.conf" "$od" clientOnly 1 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
	iop_utab "$od/ptp.conf" 1 eth0 "UDPv4 $GM_IP"
	cap=$pd/capture.pcapng
	iop_start_pair ptp4l "$gns" "$gns" "$cns" "$pd" "$od" || return
	capid=$iop_capture_pid
	iop_measure_servo sl "our $UPROF client of a ptp4l grandmaster" \
		"$od" "$pd" || { itest_stop; return; }
	iop_one_step sl "$od"
	iop_gm_is_ptp4l sl "$cns" "$od" "$gns" "$pd"
	iop_capture_stop "$capid"
	iop_wire_check "sl" "$cap" "ip.src == $CL_IP && !icmp" 12 1
	iop_wire_profile "sl" "$cap"
	itest_stop
}

# ---- lp: portDS.localPriority decides between two equal grandmasters ------

# client_conf KIND DIR: the profile for a client of KIND in DIR, ours
# (clientOnly 1, its ports' sections left to the caller) or ptp4l's
# (slaveOnly 1); f is set to the file.
client_conf() {
	if [ "$1" = ours ]; then
		f=$2/ptp.conf
		ITEST_PORTS=" " iop_our_conf "$f" "$2" clientOnly 1
	else
		f=$2/ptp4l.conf
		iop_ptp_conf "$2" slaveOnly 1
	fi
}

# client_start KIND NS DIR IFACE...: start that client in NS (a ptp4l on
# the interfaces IFACE, ours on those of its file).
client_start() {
	if [ "$1" = ours ]; then
		itest_daemons "$2" "$3" "$3/ptp.conf"
	else
		iop_ptp4l "$2" "$3" "${@:4}"
	fi
}

# lp_client KIND LP1 LP2 WANT NAME: a client of KIND (ours|ptp4l) with
# localPriority LP1 on eth1 and LP2 on eth2 takes WANT (NAME) and keeps it.
lp_client() {
	local kind=$1 lp1=$2 lp2=$3 want=$4 name=$5 sd p0 f
	itest_tmpdir sd
	p0=${#itest_pids[@]}
	client_conf "$kind" "$sd"
	iop_utab "$f" 1 eth1 "UDPv4 10.201.1.1" G.8275.portDS.localPriority "$lp1"
	iop_utab "$f" 2 eth2 "UDPv4 10.201.2.1" G.8275.portDS.localPriority "$lp2"
	client_start "$kind" "$sn" "$sd" eth1 eth2 || return 1
	# Both grandmasters grant Announce (1/s) within a few seconds; two
	# qualify a foreign master; then the choice must hold.
	if iop_gm_holds "$kind" "$sn" "$sd" "$want" 5; then
		pass "lp: $kind client, localPriority eth1 $lp1 / eth2 $lp2: grandmaster $want ($name)"
		[ "$kind" = ours ] && sl_id=$(iop_status "$sn" "$sd" clock_identity)
	else
		fail "lp: $kind client, localPriority eth1 $lp1 / eth2 $lp2: grandmaster '$iop_got', want $want ($name)"
	fi
	iop_stop_pids "$p0" "${#itest_pids[@]}"
}

case_lp() {
	local low lowname
	iop_lp_setup "g82$$" 1 || { itest_stop; return; }
	if [[ "$ga_id" < "$gb_id" ]]; then low=$ga_id; lowname=ours; else low=$gb_id; lowname=ptp4l; fi
	lp_client ours 128 128 "$low" "$lowname, the lower identity"
	lp_client ptp4l 128 128 "$low" "$lowname, the lower identity"
	lp_client ours 100 200 "$ga_id" "ours, on eth1"
	lp_client ptp4l 100 200 "$ga_id" "ours, on eth1"
	lp_client ours 200 100 "$gb_id" "ptp4l's, on eth2"
	lp_client ptp4l 200 100 "$gb_id" "ptp4l's, on eth2"
	iop_capture_stop "$ga_cap"
	iop_capture_stop "$gb_cap"
	iop_lp_equal_quality
	iop_wire_check "lp ours" "$gad/capture.pcapng" \
		"ptp.v2.clockidentity == $(iop_cid_hex "$ga_id")" 12 11 0 8 9
	iop_wire_profile "lp ours" "$gad/capture.pcapng"
	# ours there: our client's Signaling and Delay_Req to ptp4l
	iop_wire_check "lp ptp4l" "$gbd/capture.pcapng" \
		"ptp.v2.clockidentity == $(iop_cid_hex "${sl_id:-0}")" 12 1
	iop_wire_profile "lp ptp4l" "$gbd/capture.pcapng"
	itest_stop
}

# ---- tab: two grandmasters in one client port's master table --------------

# ga (ours, 10.201.3.1) and gb (ptp4l's, 10.201.3.3), of equal quality, and
# the client nodes tn (10.201.3.2, ours) and tp (10.201.3.4, ptp4l's) on
# one bridged segment (a bridge in its own namespace); one master table with both addresses on the client's one
# port, so portDS.localPriority is the same for both: the lower
# grandmaster identity decides (G.8275.2 6.7.3's order ends with it).  Our
# client and a ptp4l client, one after the other, must choose the same
# grandmaster, and ours then takes Sync from it alone (it asks its parent
# and cancels the other at its next query, as ptp4l means to; ptp4l 3.1.1
# does so only on a port state change, so its Sync sources are shown, not
# judged).  Checked on a capture of the client's link over the last
# TAB_WINDOW s: Sync from the chosen one, none from the other.
TAB_WINDOW=${TAB_WINDOW:-8}
tab_setup() {
	local i
	ga="g82$$h"; gb="g82$$i"; tn="g82$$j"; tp="g82$$l"; sw="g82$$k"
	itest_ns "$ga"; itest_ns "$gb"; itest_ns "$tn"; itest_ns "$tp"
	itest_ns "$sw"
	ip -n "$sw" link add br0 type bridge
	itest_link "$ga" eth0 "$sw" pa
	itest_link "$gb" eth0 "$sw" pb
	itest_link "$tn" eth0 "$sw" pc
	itest_link "$tp" eth0 "$sw" pd
	for i in pa pb pc pd; do ip -n "$sw" link set "$i" master br0; done
	ip -n "$sw" link set br0 up
	ip -n "$ga" addr add 10.201.3.1/24 dev eth0
	ip -n "$tn" addr add 10.201.3.2/24 dev eth0
	ip -n "$gb" addr add 10.201.3.3/24 dev eth0
	ip -n "$tp" addr add 10.201.3.4/24 dev eth0
	tab_gm ptp4l 128 || return 1
	tab_gm ours 128 || return 1
	iop_wait 20 iop_lp_ids || { fail "tab: no clock identities"; return 1; }
	echo "INFO: tab: grandmasters: ours 10.201.3.1 $ga_id, ptp4l 10.201.3.3 $gb_id"
}

# tab_gm ours|ptp4l PRIORITY2: (re)start that grandmaster in a new
# directory (gad / gbd) with that priority2.
declare -A tab_p0 tab_p1
tab_gm() {
	[ -n "${tab_p0[$1]:-}" ] && iop_stop_pids "${tab_p0[$1]}" "${tab_p1[$1]}"
	tab_p0[$1]=${#itest_pids[@]}
	if [ "$1" = ours ]; then
		itest_tmpdir gad
		iop_our_conf "$gad/ptp.conf" "$gad" priority2 "$2"
		itest_daemons "$ga" "$gad" "$gad/ptp.conf" || return 1
	else
		itest_tmpdir gbd
		iop_ptp_conf "$gbd" priority2 "$2"
		iop_ptp4l "$gb" "$gbd" eth0 || return 1
	fi
	tab_p1[$1]=${#itest_pids[@]}
}

# tab_client KIND WANT WANT_IP OTHER_IP NAME: our client in tn
# (10.201.3.2), ptp4l's in tp (10.201.3.4), so that neither sees the
# grants the other left behind (they outlive a client by up to 60 s).
tab_client() {
	local kind=$1 want=$2 wip=$3 oip=$4 name=$5 sd p0 f cap capid t0 a b
	local sn=$tn cip=10.201.3.2
	[ "$kind" = ours ] || { sn=$tp; cip=10.201.3.4; }
	itest_tmpdir sd
	p0=${#itest_pids[@]}
	cap=$sd/capture.pcapng
	iop_capture_start "$sn" eth0 "$cap" || return 1
	capid=$iop_capture_pid
	client_conf "$kind" "$sd"
	iop_utab "$f" 1 eth0 "$(printf 'UDPv4 10.201.3.1\nUDPv4 10.201.3.3')"
	client_start "$kind" "$sn" "$sd" eth0 || return 1
	if iop_gm_holds "$kind" "$sn" "$sd" "$want" 5; then
		pass "tab: $kind client, one table of both: grandmaster $want ($name)"
		t0=$(date +%s.%N)
		sleep "$TAB_WINDOW"
		iop_capture_stop "$capid"
		itest_pids[$p0]=""	# reaped: never signal it again
		a=$(iop_count "$cap" "frame.time_epoch >= $t0 && ptp.v2.messagetype == 0 && ip.src == $wip && ip.dst == $cip && !icmp")
		b=$(iop_count "$cap" "frame.time_epoch >= $t0 && ptp.v2.messagetype == 0 && ip.src == $oip && ip.dst == $cip && !icmp")
		if [ "$kind" = ptp4l ]; then
			# ptp4l 3.1.1 moves its Sync request only on a port
			# state change (unicast_client_state_changed from
			# port_state_update): a parent that changes while the
			# port stays UNCALIBRATED keeps the first one's Sync.
			echo "INFO: tab: ptp4l client: last ${TAB_WINDOW}s, ${a:-?} Sync from $wip (its grandmaster), ${b:-?} from $oip"
		elif [ "${a:-0}" -ge $((TAB_WINDOW - 2)) ] && [ "$b" = 0 ]; then
			pass "tab: $kind client: last ${TAB_WINDOW}s, $a Sync from $wip (chosen), $b from $oip"
		else
			fail "tab: $kind client: last ${TAB_WINDOW}s, ${a:-?} Sync from $wip (chosen), ${b:-?} from $oip"
		fi
		# (!icmp: a port unreachable from sn quotes a grandmaster's
		# frame to the last client, whose grant outlives it)
		iop_wire_check "tab $kind" "$cap" "ip.src == $cip && !icmp" 12 1
		iop_wire_profile "tab $kind" "$cap"
	else
		fail "tab: $kind client, one table of both: grandmaster '$iop_got', want $want ($name)"
	fi
	iop_stop_pids "$p0" "${#itest_pids[@]}"
}

case_tab() {
	tab_setup || { itest_stop; return; }
	local lo=ours lid=$ga_id lip=10.201.3.1 hi=ptp4l hid=$gb_id hip=10.201.3.3
	if [[ "$gb_id" < "$ga_id" ]]; then
		lo=ptp4l; lid=$gb_id; lip=10.201.3.3
		hi=ours; hid=$ga_id; hip=10.201.3.1
	fi
	tab_client ours "$lid" $lip $hip "$lo, the lower identity"
	tab_client ptp4l "$lid" $lip $hip "$lo, the lower identity"
	# Flipped: the lower identity's priority2 129 (worse) makes the other
	# the best, so it was the data sets that chose, not who came first.
	tab_gm $lo 129 || { itest_stop; return; }
	iop_wait 20 iop_lp_ids || { fail "tab: no clock identities"; itest_stop; return; }
	tab_client ours "$hid" $hip $lip "$hi, priority2 129 on $lo"
	tab_client ptp4l "$hid" $hip $lip "$hi, priority2 129 on $lo"
	itest_stop
}

itest_tmpdir st
iop_wire_selftest "$st"
for c in ${@:-$CASES}; do
	case " $CASES " in
	*" $c "*) "case_$c" ;;
	*) fail "unknown case $c for $UPROF" ;;
	esac
done
echo "interop $UPROF: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
