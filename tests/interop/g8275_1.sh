#!/bin/bash
# g8275_1.sh - ITU-T G.8275.1 (telecom profile, full timing support: L2,
# destination MAC 01-80-C2-00-00-0E, the alternate BMCA with localPriority)
# against linuxptp, every node running Debian's own G.8275.1.cfg.  The
# file's key/value lines are taken as they are; a test adds only what it
# must: sockets and `clock_device virtual` for ours (itest_conf), the UDS
# socket, software time stamps, free_running 1 and kernel_leap 0 for ptp4l
# (iop_ptp4l_conf), domainNumber 24 (G.8275.1's default domain: the file
# leaves it at 0), summary_interval -4 on the measured slaves (a line a
# sample), and the role (slaveOnly / clientOnly, clockClass 6 for
# our grandmaster, the slaves' per-port localPriority).
#
#   gm  our grandmaster (clockClass 6) -> ptp4l slave (slaveOnly 1,
#       freq_est_interval 0): measured as sync.sh's `sl` runs (from ptp4l's
#       FREE_SKIP-th sample, MEASURE s, itest_measure mode free, the same
#       loose bounds); ptp4l's parent and grandmaster are ours.
#   sl  ptp4l grandmaster -> our slave (clientOnly 1, virtual clock 1.5 s
#       and +80 ppm off): locks (first s2) within LOCK_TIMEOUT, SETTLE s
#       later MEASURE s within itest_measure's servo bounds, exactly one
#       step.
#   lp  two grandmasters of equal quality (ours and a ptp4l, the same
#       clockClass, clockAccuracy, offsetScaledLogVariance and priority2,
#       checked on the wire) on two links of one slave-only node.  The
#       slave's G.8275.portDS.localPriority decides (G.8275.1 6.3): with
#       eth1 (ours) 100 / eth2 (ptp4l) 200 it takes ours; flipped it takes
#       ptp4l's; both 128, the lower grandmaster identity (so one of the
#       two flips beats the identity order).  Each setting runs our slave
#       and then a ptp4l slave (slaveOnly 1, both interfaces) on the same
#       links, and both must choose the same grandmaster.
#   dlp ours and a ptp4l grandmaster of equal quality on one link: the one
#       whose G.8275.defaultDS.localPriority is 100 stays master, the one
#       with 200 takes it as grandmaster (its D0 loses to the other's
#       Announce at portDS.localPriority 128); flipped, the other way.
#   steps  a made-up grandmaster's Announce (a Python AF_PACKET sender)
#       with stepsRemoved 2 are not qualified under maxStepsRemoved 2, with
#       stepsRemoved 1 they are: our slave and a ptp4l slave alike.
#   ms  masterOnly 1 (G.8275.1's notSlave port) on our port facing the
#       better grandmaster: the port stays MASTER, never SLAVE, and the
#       clock takes no parent from it.
#
# Every capture (tshark in the grandmasters' namespaces) is checked by
# iop_wire_check (all PTPv2, none malformed, no expert error, our side's
# message types present), and every PTP frame goes to 01:80:c2:00:00:0e
# in domain 24.
#
#   BUILD=build/default tests/interop/g8275_1.sh [gm|sl|lp|dlp|steps|ms ...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

PROFILE=${G8275_1_CFG:-/usr/share/doc/linuxptp/configs/G.8275.1.cfg}
MEASURE=${MEASURE:-20}
SETTLE=${SETTLE:-15}
LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
FREE_SKIP=${FREE_SKIP:-10}
BMC_TIMEOUT=${BMC_TIMEOUT:-30}
DOMAIN=24
FWD_MAC=01:80:c2:00:00:0e

[ -r "$PROFILE" ] || { echo "FAIL: $PROFILE not found (Debian's linuxptp)"; exit 1; }
# The file's key/value lines, in order ([global] is its only section).
mapfile -t prof < <(awk '!/^[[:space:]]*(#|\[|$)/ && NF >= 2 { print $1; print $2 }' "$PROFILE")
for k in dataset_comparison G.8275.defaultDS.localPriority \
    G.8275.portDS.localPriority maxStepsRemoved ptp_dst_mac network_transport; do
	printf '%s\n' "${prof[@]}" | grep >/dev/null -x -- "$k" ||
		{ echo "FAIL: $PROFILE has no $k: not the G.8275.1 file"; exit 1; }
done

IOP_DOMAIN=$DOMAIN
iop_prof=("${prof[@]}" domainNumber "$DOMAIN")
# Every PTP frame to the forwardable G.8275.1 address, in domain 24.
IOP_WIRE_ALL='eth.type == 0x88f7'
IOP_WIRE_BAD="eth.dst != $FWD_MAC || ptp.v2.domainnumber != $DOMAIN"
IOP_WIRE_WHAT="to $FWD_MAC in domain $DOMAIN"

# port_lp FILE IFACE VALUE: G.8275.portDS.localPriority in FILE's [IFACE].
port_lp() {
	sed -i "s/^\[$2\]\$/[$2]\nG.8275.portDS.localPriority $3/" "$1"
}

# ---- gm and sl: one grandmaster, one slave ---------------------------------

# run_pair gm|sl: start one pair; sets p_* for poll_pair / finish_pair.
declare -A p_pns p_ons p_pd p_od p_log p_mode p_t0 p_state p_lock p_lockt \
	p_cap p_capid
run_pair() {
	local id=$1 pns ons pd od
	pns="g81$$p$id"; ons="g81$$o$id"
	itest_pair "$pns" "$ons" || return 1
	itest_tmpdir pd
	itest_tmpdir od
	p_pns[$id]=$pns; p_ons[$id]=$ons; p_pd[$id]=$pd; p_od[$id]=$od
	# The slaves log samples, not a summary a second: summary_interval
	# = logSyncInterval -4.  Our slave then logs every sample; the
	# free-running ptp4l one sample per frequency estimate, at most one a
	# second (its freq_est_interval cannot go below 0 in 3.1.1): as in
	# sync.sh, a line a second.
	if [ "$id" = gm ]; then
		iop_ptp_conf "$pd" slaveOnly 1 freq_est_interval 0 \
			summary_interval -4
		iop_our_conf "$od/ptp.conf" "$od" clockClass 6
		p_log[$id]=$pd/ptp4l.log; p_mode[$id]=free
	else
		iop_ptp_conf "$pd"
		iop_our_conf "$od/ptp.conf" "$od" clientOnly 1 \
			virtual_clock_offset_ns 1500000000 \
			virtual_clock_freq_ppb 80000 summary_interval -4
		p_log[$id]=$od/clockd.log; p_mode[$id]=servo
	fi
	p_cap[$id]=$pd/capture.pcapng
	iop_capture_start "$pns" eth0 "${p_cap[$id]}" || return 1
	p_capid[$id]=$iop_capture_pid
	iop_ptp4l "$pns" "$pd" eth0 || return 1
	itest_daemons "$ons" "$od" "$od/ptp.conf" || return 1
	p_t0[$id]=$SECONDS
	p_state[$id]=locking
}

poll_pair() {
	local id=$1 pat nth
	case ${p_state[$id]} in
	locking)
		if [ "${p_mode[$id]}" = servo ]; then
			pat=' s2 freq'; nth=1
		else
			pat='master offset'; nth=$FREE_SKIP
		fi
		if [ "$(grep -c -- "$pat" "${p_log[$id]}")" -ge "$nth" ]; then
			p_lock[$id]=$(grep -n -- "$pat" "${p_log[$id]}" |
				sed -n "${nth}p" | cut -d: -f1)
			[ "${p_mode[$id]}" = free ] && p_lock[$id]=$((p_lock[$id] - 1))
			p_lockt[$id]=$((SECONDS - p_t0[$id]))
			p_t0[$id]=$SECONDS
			p_state[$id]=measuring
			[ "${p_mode[$id]}" = servo ] && p_state[$id]=settling
			echo "INFO: $id: locked after ${p_lockt[$id]} s"
		elif ((SECONDS - p_t0[$id] > LOCK_TIMEOUT)); then
			fail "$id: no lock within ${LOCK_TIMEOUT}s"
			tail -15 "${p_log[$id]}"
			p_state[$id]=failed
		fi
		;;
	settling)
		if ((SECONDS - p_t0[$id] >= SETTLE)); then
			p_lock[$id]=$(wc -l <"${p_log[$id]}")
			p_t0[$id]=$SECONDS
			p_state[$id]=measuring
		fi
		;;
	measuring)
		((SECONDS - p_t0[$id] >= MEASURE)) && p_state[$id]=measured
		;;
	esac
}

finish_pair() {
	local id=$1 pns ons pd od cid types
	pns=${p_pns[$id]}; ons=${p_ons[$id]}; pd=${p_pd[$id]}; od=${p_od[$id]}
	cid=$(iop_status "$ons" "$od" clock_identity)
	[ "${p_state[$id]}" = measured ] &&
		itest_measure "G.8275.1 $id" "${p_log[$id]}" "${p_lock[$id]}" \
			"${p_mode[$id]}"
	if [ "$id" = gm ]; then
		iop_ptp4l_parent gm "$pns" "$pd" "$cid" 1
		types="11 0 8 9"
	else
		iop_one_step sl "$od"
		iop_gm_is_ptp4l sl "$ons" "$od" "$pns" "$pd"
		types="1"
	fi
	iop_capture_stop "${p_capid[$id]}"
	if [ -n "$cid" ]; then
		iop_wire_check "$id" "${p_cap[$id]}" \
			"ptp.v2.clockidentity == $(iop_cid_hex "$cid")" $types
	else
		fail "$id: no clock identity from ptpctl"
	fi
	iop_wire_profile "$id" "${p_cap[$id]}"
}

run_pairs() {
	local id busy ids=()
	for id in "$@"; do
		run_pair "$id" && ids+=("$id") || fail "$id: did not start"
	done
	while :; do
		busy=0
		for id in "${ids[@]}"; do
			case ${p_state[$id]} in
			locking|settling|measuring) busy=1; poll_pair "$id" ;;
			esac
		done
		[ $busy = 0 ] && break
		sleep 1
	done
	for id in "${ids[@]}"; do
		finish_pair "$id"
	done
	itest_stop
}

# ---- lp: localPriority decides between two equal grandmasters --------------

# lp_slave KIND LP1 LP2 WANT NAME: a slave of KIND (ours|ptp4l) with
# localPriority LP1 on eth1 and LP2 on eth2 takes WANT (NAME) and keeps it.
lp_slave() {
	local kind=$1 lp1=$2 lp2=$3 want=$4 name=$5 sd p0
	itest_tmpdir sd
	p0=${#itest_pids[@]}
	if [ "$kind" = ours ]; then
		ITEST_PORTS="eth1 eth2" iop_our_conf "$sd/ptp.conf" "$sd" clientOnly 1
		port_lp "$sd/ptp.conf" eth1 "$lp1"
		port_lp "$sd/ptp.conf" eth2 "$lp2"
		itest_daemons "$sn" "$sd" "$sd/ptp.conf" || return 1
	else
		iop_ptp_conf "$sd" slaveOnly 1
		{ echo "[eth1]"; echo "G.8275.portDS.localPriority $lp1"
		  echo "[eth2]"; echo "G.8275.portDS.localPriority $lp2"; } \
			>>"$sd/ptp4l.conf"
		iop_ptp4l "$sn" "$sd" eth1 eth2 || return 1
	fi
	# Both grandmasters qualify within a few Announce (8/s); then the
	# choice must hold.
	if iop_gm_holds "$kind" "$sn" "$sd" "$want" 3; then
		pass "lp: $kind slave, localPriority eth1 $lp1 / eth2 $lp2: grandmaster $want ($name)"
		if [ "$kind" = ours ]; then
			echo "INFO: lp: our ports: $(iop_port_states "$sn" "$sd")"
			sl_id=$(iop_status "$sn" "$sd" clock_identity)
		fi
	else
		fail "lp: $kind slave, localPriority eth1 $lp1 / eth2 $lp2: grandmaster '$iop_got', want $want ($name)"
	fi
	iop_stop_pids "$p0" "${#itest_pids[@]}"
}

# CLOCK_DESCRIPTION's profileId over the network (pmc -2 in domain 24 from
# the slave node): G.8275.1's, 00:19:a7:01:02:03, from ours.
# pmc sends to the profile's address too (ptp4l listens on no other).
lp_profile_id() {
	local ifc a=() pc
	itest_tmpdir pc
	printf '[global]\nptp_dst_mac %s\n' "$FWD_MAC" >"$pc/pmc.conf"
	for ifc in eth1 eth2; do
		a+=("$(ip netns exec "$sn" timeout 10 "$PMC" -f "$pc/pmc.conf" \
			-2 -i "$ifc" -d $DOMAIN -b 0 'GET CLOCK_DESCRIPTION' 2>&1 |
			awk '$1 == "profileId" { print $2; exit }')")
	done
	# ptp4l 3.1.1 says the default profile's (00:1b:19:00:01:00); 4.0 and
	# later G.8275.1's, as ours does.  Both must answer.
	if [ "${a[0]}" = 00:19:a7:01:02:03 ] && [[ "${a[1]}" =~ ^00:(19:a7:01:02:03|1b:19:00:01:00)$ ]]; then
		pass "lp: CLOCK_DESCRIPTION profileId over L2: ours ${a[0]} (G.8275.1), ptp4l ${a[1]}"
	else
		fail "lp: CLOCK_DESCRIPTION profileId: ours '${a[0]}', ptp4l '${a[1]}'"
	fi
}

run_lp() {
	local low lowname
	iop_lp_setup "g81$$" || { itest_stop; return; }
	lp_profile_id
	# Equal localPriority: the lower grandmasterIdentity.
	if [[ "$ga_id" < "$gb_id" ]]; then low=$ga_id; lowname=ours; else low=$gb_id; lowname=ptp4l; fi
	lp_slave ours 128 128 "$low" "$lowname, the lower identity"
	lp_slave ptp4l 128 128 "$low" "$lowname, the lower identity"
	lp_slave ours 100 200 "$ga_id" "ours, on eth1"
	lp_slave ptp4l 100 200 "$ga_id" "ours, on eth1"
	lp_slave ours 200 100 "$gb_id" "ptp4l's, on eth2"
	lp_slave ptp4l 200 100 "$gb_id" "ptp4l's, on eth2"
	iop_capture_stop "$ga_cap"
	iop_capture_stop "$gb_cap"
	# (priority1 is not compared in the profile; each side's default)
	iop_lp_equal_quality
	iop_wire_check "lp ours" "$gad/capture.pcapng" \
		"ptp.v2.clockidentity == $(iop_cid_hex "$ga_id")" 11 0 8 9
	iop_wire_profile "lp ours" "$gad/capture.pcapng"
	# ours there: our slave's Delay_Req to ptp4l's grandmaster
	iop_wire_check "lp ptp4l" "$gbd/capture.pcapng" \
		"ptp.v2.clockidentity == $(iop_cid_hex "${sl_id:-0}")" 1
	iop_wire_profile "lp ptp4l" "$gbd/capture.pcapng"
	itest_stop
}

# ---- dlp: defaultDS.localPriority between two grandmasters -----------------

# Ours and a ptp4l on one link, of equal quality, each with the profile's
# portDS.localPriority 128: each compares its D0, which carries
# G.8275.defaultDS.localPriority, with the other's Announce, which carries
# 128.  The clock whose defaultDS.localPriority is 100 stays master, the
# one with 200 takes it as grandmaster, whatever the identities say; then
# the other way round.
run_dlp() {
	local flip pns ons pd od lo lp oid pid st pst ok
	for flip in 0 1; do
		pns="g81$$q$flip"; ons="g81$$r$flip"
		itest_pair "$pns" "$ons" || return
		itest_tmpdir pd
		itest_tmpdir od
		if [ $flip = 0 ]; then lo=100; lp=200; else lo=200; lp=100; fi
		iop_our_conf "$od/ptp.conf" "$od" G.8275.defaultDS.localPriority $lo
		iop_ptp_conf "$pd" G.8275.defaultDS.localPriority $lp
		iop_ptp4l "$pns" "$pd" eth0 || { itest_stop; return; }
		itest_daemons "$ons" "$od" "$od/ptp.conf" || { itest_stop; return; }
		oid=""; pid=""
		iop_wait 20 dlp_ids "$pns" "$pd" "$ons" "$od" ||
			{ fail "dlp: no clock identities"; itest_stop; return; }
		if [ $flip = 0 ]; then
			iop_wait "$BMC_TIMEOUT" dlp_is "$pns" "$pd" "$ons" "$od" \
				MASTER 'UNCALIBRATED|SLAVE' "$oid"
		else
			iop_wait "$BMC_TIMEOUT" dlp_is "$pns" "$pd" "$ons" "$od" \
				SLAVE MASTER "$pid"
		fi
		ok=$?
		sleep 3
		st=$(iop_port_states "$ons" "$od")
		pst=$(iop_pmc_field "$pns" "$pd" 'GET PORT_DATA_SET' portState)
		if [ $ok = 0 ] && [ $flip = 0 ] &&
		   dlp_is "$pns" "$pd" "$ons" "$od" MASTER 'UNCALIBRATED|SLAVE' "$oid"; then
			pass "dlp: defaultDS.localPriority ours 100, ptp4l 200: ours master ($st), ptp4l $pst of ours (identities: ours $oid, ptp4l $pid)"
		elif [ $ok = 0 ] && [ $flip = 1 ] &&
		     dlp_is "$pns" "$pd" "$ons" "$od" SLAVE MASTER "$pid"; then
			pass "dlp: defaultDS.localPriority ours 200, ptp4l 100: ours $st of ptp4l's, ptp4l $pst"
		else
			fail "dlp: defaultDS.localPriority ours $lo, ptp4l $lp: our port $st, ptp4l $pst, grandmasters: ours '$(iop_status "$ons" "$od" gm_identity)', ptp4l's '$(iop_pmc_field "$pns" "$pd" 'GET PARENT_DATA_SET' grandmasterIdentity)'"
		fi
		itest_stop
	done
}

dlp_ids() {	# sets oid, pid
	pid=$(iop_ptp_id "$1" "$2")
	oid=$(iop_status "$3" "$4" clock_identity)
	[ -n "$pid" ] && [ -n "$oid" ]
}

# dlp_is PNS PD ONS OD OURSTATE PTP4LSTATES GM: both clocks' ports and
# grandmaster are these.
dlp_is() {
	[ "$(iop_port_states "$3" "$4")" = "$5" ] &&
	[[ "$(iop_pmc_field "$1" "$2" 'GET PORT_DATA_SET' portState)" =~ ^($6)$ ]] &&
	[ "$(iop_status "$3" "$4" gm_identity)" = "$7" ] &&
	[ "$(iop_pmc_field "$1" "$2" 'GET PARENT_DATA_SET' grandmasterIdentity)" = "$7" ]
}

# ---- steps: maxStepsRemoved ------------------------------------------------

# A made-up grandmaster (clockClass 6, identity 02:00:5e:ff:fe:00:82:75) whose
# Announce, 8 a second in domain 24 to the profile's address, say
# stepsRemoved STEPS: inject_announce NS STEPS SECONDS.
inject_announce() {
	itest_start "$1" "$st/inject.$2.log" python3 -c '
import socket, struct, sys, time
steps, secs = int(sys.argv[1]), float(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("eth0", 0))
src = s.getsockname()[4]
gm = bytes.fromhex("02005efffe008275")
seq, end = 0, time.time() + secs
while time.time() < end:
    body = (bytes(10) + struct.pack(">hBB", 37, 0, 128) +
        struct.pack(">BBHB", 6, 0x21, 0x4e5d, 128) + gm +
        struct.pack(">HB", steps, 0x20))
    hdr = struct.pack(">BBHBBH8s4s8sHHBb", 0x0b, 0x02, 34 + len(body),
        24, 0, 0, bytes(8), bytes(4), gm, 1, seq, 5, -3)
    s.send(bytes.fromhex("0180c200000e") + src + b"\x88\xf7" + hdr + body)
    seq = (seq + 1) & 0xffff
    time.sleep(0.125)
' "$2" "$3"
}

# The made-up grandmaster's Announce with stepsRemoved 2 are not qualified
# at maxStepsRemoved 2 (9.3.2.5 e): our slave and a ptp4l slave keep no
# grandmaster; with stepsRemoved 1 both take it.
run_steps() {
	local inj sl steps want kind sd p0 pi got
	inj="g81$$i"; sl="g81$$j"
	itest_pair "$inj" "$sl" || return
	want=02005e.fffe.008275
	for steps in 2 1; do
		pi=${#itest_pids[@]}
		inject_announce "$inj" $steps 60
		for kind in ours ptp4l; do
			itest_tmpdir sd
			p0=${#itest_pids[@]}
			if [ $kind = ours ]; then
				iop_our_conf "$sd/ptp.conf" "$sd" clientOnly 1 \
					maxStepsRemoved 2
				itest_daemons "$sl" "$sd" "$sd/ptp.conf" || break
				sleep 5
				got=$(iop_gm_id ours "$sl" "$sd")
			else
				iop_ptp_conf "$sd" slaveOnly 1 maxStepsRemoved 2
				iop_ptp4l "$sl" "$sd" eth0 || break
				sleep 5
				got=$(iop_gm_id ptp4l "$sl" "$sd")
			fi
			if [ $steps = 1 ] && [ "$got" = "$want" ]; then
				pass "steps: $kind slave, maxStepsRemoved 2: stepsRemoved 1 qualifies, grandmaster $got"
			elif [ $steps = 2 ] && [ -n "$got" ] && [ "$got" != "$want" ]; then
				pass "steps: $kind slave, maxStepsRemoved 2: stepsRemoved 2 not qualified, grandmaster $got (itself)"
			else
				fail "steps: $kind slave, maxStepsRemoved 2, stepsRemoved $steps: grandmaster '$got'"
			fi
			iop_stop_pids "$p0" "${#itest_pids[@]}"
		done
		iop_stop_pids "$pi" $((pi + 1))
	done
	itest_stop
}

# ---- ms: masterOnly (notSlave) ---------------------------------------------

# Our boundary clock b (default class 248) between ptp4l's grandmaster of
# clockClass 6 (on eth1) and nothing (eth2).  With masterOnly 1 on eth1
# the better grandmaster is ignored: eth1 MASTER, b its own grandmaster;
# without it, eth1 SLAVE (the control).
run_ms() {
	local g b gd bd mo st gm own p0
	g="g81$$g"; b="g81$$m"
	itest_ns "$g"; itest_ns "$b"
	itest_link "$g" eth0 "$b" eth1
	itest_link "$b" eth2 "$b" eth3
	itest_tmpdir gd
	iop_ptp_conf "$gd" clockClass 6
	iop_ptp4l "$g" "$gd" eth0 || { itest_stop; return; }
	for mo in 0 1; do
		itest_tmpdir bd
		p0=${#itest_pids[@]}
		ITEST_PORTS="eth1 eth2" iop_our_conf "$bd/ptp.conf" "$bd"
		sed -i "s/^\[eth1\]\$/[eth1]\nmasterOnly $mo/" "$bd/ptp.conf"
		itest_daemons "$b" "$bd" "$bd/ptp.conf" || break
		# Announce at 8/s: 10 s is many announce receipt timeouts.
		sleep 10
		st=$(iop_port_states "$b" "$bd")
		gm=$(iop_status "$b" "$bd" gm_identity)
		own=$(iop_status "$b" "$bd" clock_identity)
		if [ "$mo" = 0 ]; then
			if [ "${st%% *}" = SLAVE ] && [ "$gm" = "$(iop_ptp_id "$g" "$gd")" ]; then
				pass "ms: masterOnly 0: eth1 SLAVE to ptp4l's clockClass 6 grandmaster (ports: $st)"
			else
				fail "ms: masterOnly 0: ports '$st', grandmaster '$gm', ptp4l '$(iop_ptp_id "$g" "$gd")'"
			fi
		elif [ "${st%% *}" = MASTER ] && [ "$gm" = "$own" ] &&
		     ! grep -q 'to SLAVE\|to UNCALIBRATED' "$bd/clockd.log"; then
			pass "ms: masterOnly 1: eth1 MASTER, never SLAVE, grandmaster our own $own (ports: $st)"
		else
			fail "ms: masterOnly 1: ports '$st', grandmaster '$gm' (own $own)"
			grep -i 'state\|SLAVE' "$bd/clockd.log" | tail -5
		fi
		iop_stop_pids "$p0" "${#itest_pids[@]}"
	done
	itest_stop
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(gm sl lp dlp steps ms)
itest_tmpdir st
iop_wire_selftest "$st"
pairs=()
for c in "${cases[@]}"; do
	case $c in gm|sl) pairs+=("$c") ;; esac
done
[ ${#pairs[@]} -gt 0 ] && run_pairs "${pairs[@]}"
for c in "${cases[@]}"; do
	case $c in
	lp) run_lp ;;
	dlp) run_dlp ;;
	steps) run_steps ;;
	ms) run_ms ;;
	gm|sl) ;;
	*) fail "unknown case $c" ;;
	esac
done
echo "interop G.8275.1: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
