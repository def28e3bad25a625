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

# our_conf FILE DIR KEY VALUE...: the profile for our daemons.
our_conf() {
	local f=$1 dir=$2
	shift 2
	itest_conf "$f" "$dir" "${prof[@]}" domainNumber $DOMAIN "$@"
}

# ptp_conf DIR KEY VALUE...: the profile for a ptp4l (DIR/ptp4l.conf).
ptp_conf() {
	local dir=$1
	shift
	iop_ptp4l_conf "$dir/ptp4l.conf" "$dir" "${prof[@]}" \
		domainNumber $DOMAIN "$@"
}

# port_lp FILE IFACE VALUE: G.8275.portDS.localPriority in FILE's [IFACE].
port_lp() {
	sed -i "s/^\[$2\]\$/[$2]\nG.8275.portDS.localPriority $3/" "$1"
}

# wire_profile TAG FILE: every PTP frame of FILE to the forwardable
# G.8275.1 address, in domain 24.
wire_profile() {
	local n bad
	if ! n=$(iop_count "$2" 'eth.type == 0x88f7') ||
	   ! bad=$(iop_count "$2" "eth.type == 0x88f7 && (eth.dst != $FWD_MAC || ptp.v2.domainnumber != $DOMAIN)"); then
		fail "$1: tshark could not read $2"
		return 1
	fi
	if [ "$n" -gt 0 ] && [ "$bad" = 0 ]; then
		pass "$1: all $n PTP frames to $FWD_MAC, domain $DOMAIN"
	else
		fail "$1: $bad of $n PTP frames not to $FWD_MAC in domain $DOMAIN"
		"$TSHARK" -r "$2" -n -Y 'eth.type == 0x88f7' -T fields -e eth.dst \
			-e ptp.v2.domainnumber 2>/dev/null | sort | uniq -c | head
	fi
}

# lib.sh's iop_pmc asks in domain 0, and ptp4l answers management in its
# own domain only, over UDS too: the same request in domain 24.
iop_pmc() {
	ip netns exec "$1" "$PMC" -u -s "$2/ptp4l.uds" \
		-i "$2/pmc.$BASHPID.uds" -b 0 -d $DOMAIN "$3" 2>&1
	rm -f "$2/pmc.$BASHPID.uds"
}

ptp_id() {	# ptp_id NS DIR: a ptp4l's clockIdentity
	iop_pmc_field "$1" "$2" 'GET DEFAULT_DATA_SET' clockIdentity
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
		ptp_conf "$pd" slaveOnly 1 freq_est_interval 0 \
			summary_interval -4
		our_conf "$od/ptp.conf" "$od" clockClass 6
		p_log[$id]=$pd/ptp4l.log; p_mode[$id]=free
	else
		ptp_conf "$pd"
		our_conf "$od/ptp.conf" "$od" clientOnly 1 \
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
	local id=$1 pns ons pd od cid gm par steps types
	pns=${p_pns[$id]}; ons=${p_ons[$id]}; pd=${p_pd[$id]}; od=${p_od[$id]}
	cid=$(iop_status "$ons" "$od" clock_identity)
	[ "${p_state[$id]}" = measured ] &&
		itest_measure "G.8275.1 $id" "${p_log[$id]}" "${p_lock[$id]}" \
			"${p_mode[$id]}"
	if [ "$id" = gm ]; then
		par=$(iop_pmc_field "$pns" "$pd" 'GET PARENT_DATA_SET' \
			parentPortIdentity)
		gm=$(iop_pmc_field "$pns" "$pd" 'GET PARENT_DATA_SET' \
			grandmasterIdentity)
		if [ -n "$cid" ] && [ "$gm" = "$cid" ] && [ "$par" = "$cid-1" ]; then
			pass "gm: ptp4l's parent is $par, grandmaster $gm (ours)"
		else
			fail "gm: ptp4l's parent '$par', grandmaster '$gm', ours '$cid'"
		fi
		types="11 0 8 9"
	else
		steps=$(grep -c 'stepping the clock' "$od/clockd.log")
		if [ "$steps" = 1 ]; then
			pass "sl: our slave stepped exactly once"
		else
			fail "sl: our slave stepped $steps times"
		fi
		gm=$(iop_status "$ons" "$od" gm_identity)
		if [ -n "$gm" ] && [ "$gm" = "$(ptp_id "$pns" "$pd")" ]; then
			pass "sl: our grandmaster is ptp4l's $gm"
		else
			fail "sl: our grandmaster '$gm', ptp4l '$(ptp_id "$pns" "$pd")'"
		fi
		types="1"
	fi
	iop_capture_stop "${p_capid[$id]}"
	if [ -n "$cid" ]; then
		iop_wire_check "$id" "${p_cap[$id]}" \
			"ptp.v2.clockidentity == $(iop_cid_hex "$cid")" $types
	else
		fail "$id: no clock identity from ptpctl"
	fi
	wire_profile "$id" "${p_cap[$id]}"
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

# The slave node s, linked by eth1 to ga (our grandmaster) and by eth2 to
# gb (ptp4l's).  The grandmasters run throughout; the slaves one at a time.
lp_setup() {
	ga="g81$$a"; gb="g81$$b"; sn="g81$$s"
	itest_ns "$ga"; itest_ns "$gb"; itest_ns "$sn"
	itest_link "$ga" eth0 "$sn" eth1
	itest_link "$gb" eth0 "$sn" eth2
	itest_tmpdir gad
	itest_tmpdir gbd
	our_conf "$gad/ptp.conf" "$gad"
	ptp_conf "$gbd"
	iop_capture_start "$ga" eth0 "$gad/capture.pcapng" || return 1
	ga_cap=$iop_capture_pid
	iop_capture_start "$gb" eth0 "$gbd/capture.pcapng" || return 1
	gb_cap=$iop_capture_pid
	iop_ptp4l "$gb" "$gbd" eth0 || return 1
	itest_daemons "$ga" "$gad" "$gad/ptp.conf" || return 1
	iop_wait 20 lp_ids || { fail "lp: no clock identities"; return 1; }
	echo "INFO: lp: grandmasters: ours (eth1) $ga_id, ptp4l (eth2) $gb_id"
}

lp_ids() {
	ga_id=$(iop_status "$ga" "$gad" clock_identity)
	gb_id=$(ptp_id "$gb" "$gbd")
	[ -n "$ga_id" ] && [ -n "$gb_id" ]
}

# our_gm DIR WANT / ptp_gm DIR WANT: the slave's grandmaster is WANT.
our_gm() { [ "$(iop_status "$sn" "$1" gm_identity)" = "$2" ]; }
ptp_gm() {
	[ "$(iop_pmc_field "$sn" "$1" 'GET PARENT_DATA_SET' grandmasterIdentity)" = "$2" ]
}

# lp_slave KIND LP1 LP2 WANT NAME: a slave of KIND (ours|ptp4l) with
# localPriority LP1 on eth1 and LP2 on eth2 takes WANT (NAME) and keeps it.
lp_slave() {
	local kind=$1 lp1=$2 lp2=$3 want=$4 name=$5 sd p0 got check
	itest_tmpdir sd
	p0=${#itest_pids[@]}
	if [ "$kind" = ours ]; then
		ITEST_PORTS="eth1 eth2" our_conf "$sd/ptp.conf" "$sd" clientOnly 1
		port_lp "$sd/ptp.conf" eth1 "$lp1"
		port_lp "$sd/ptp.conf" eth2 "$lp2"
		itest_daemons "$sn" "$sd" "$sd/ptp.conf" || return 1
		check=our_gm
	else
		ptp_conf "$sd" slaveOnly 1
		{ echo "[eth1]"; echo "G.8275.portDS.localPriority $lp1"
		  echo "[eth2]"; echo "G.8275.portDS.localPriority $lp2"; } \
			>>"$sd/ptp4l.conf"
		iop_ptp4l "$sn" "$sd" eth1 eth2 || return 1
		check=ptp_gm
	fi
	# Both grandmasters qualify within a few Announce (8/s); then the
	# choice must hold.
	if iop_wait "$BMC_TIMEOUT" $check "$sd" "$want" && sleep 3 &&
	   $check "$sd" "$want"; then
		pass "lp: $kind slave, localPriority eth1 $lp1 / eth2 $lp2: grandmaster $want ($name)"
		if [ "$kind" = ours ]; then
			echo "INFO: lp: our ports: $(iop_port_states "$sn" "$sd")"
			sl_id=$(iop_status "$sn" "$sd" clock_identity)
		fi
	else
		if [ "$kind" = ours ]; then
			got=$(iop_status "$sn" "$sd" gm_identity)
			tail -5 "$sd/clockd.log"
		else
			got=$(iop_pmc_field "$sn" "$sd" 'GET PARENT_DATA_SET' grandmasterIdentity)
			tail -5 "$sd/ptp4l.log"
		fi
		fail "lp: $kind slave, localPriority eth1 $lp1 / eth2 $lp2: grandmaster '$got', want $want ($name)"
	fi
	iop_stop_pids "$p0" "${#itest_pids[@]}"
}

# The two grandmasters' Announce carry the same quality and priority2
# (priority1 is not compared in the profile; each side's default).
lp_equal_quality() {
	local a b f='-e ptp.v2.an.grandmasterclockclass -e ptp.v2.an.grandmasterclockaccuracy -e ptp.v2.an.grandmasterclockvariance -e ptp.v2.an.priority2'
	a=$("$TSHARK" -r "$gad/capture.pcapng" -n -Y "ptp.v2.messagetype == 11 && ptp.v2.clockidentity == $(iop_cid_hex "$ga_id")" -T fields $f 2>/dev/null | sort -u)
	b=$("$TSHARK" -r "$gbd/capture.pcapng" -n -Y "ptp.v2.messagetype == 11 && ptp.v2.clockidentity == $(iop_cid_hex "$gb_id")" -T fields $f 2>/dev/null | sort -u)
	if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$(wc -l <<<"$a")" = 1 ]; then
		pass "lp: both grandmasters announce class/accuracy/variance/priority2 $(tr '\t' / <<<"$a")"
	else
		fail "lp: grandmasters differ: ours [$a], ptp4l [$b]"
	fi
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
	lp_setup || { itest_stop; return; }
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
	lp_equal_quality
	iop_wire_check "lp ours" "$gad/capture.pcapng" \
		"ptp.v2.clockidentity == $(iop_cid_hex "$ga_id")" 11 0 8 9
	wire_profile "lp ours" "$gad/capture.pcapng"
	# ours there: our slave's Delay_Req to ptp4l's grandmaster
	iop_wire_check "lp ptp4l" "$gbd/capture.pcapng" \
		"ptp.v2.clockidentity == $(iop_cid_hex "${sl_id:-0}")" 1
	wire_profile "lp ptp4l" "$gbd/capture.pcapng"
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
		our_conf "$od/ptp.conf" "$od" G.8275.defaultDS.localPriority $lo
		ptp_conf "$pd" G.8275.defaultDS.localPriority $lp
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
	pid=$(ptp_id "$1" "$2")
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
				our_conf "$sd/ptp.conf" "$sd" clientOnly 1 \
					maxStepsRemoved 2
				itest_daemons "$sl" "$sd" "$sd/ptp.conf" || break
				sleep 5
				got=$(iop_status "$sl" "$sd" gm_identity)
			else
				ptp_conf "$sd" slaveOnly 1 maxStepsRemoved 2
				iop_ptp4l "$sl" "$sd" eth0 || break
				sleep 5
				got=$(iop_pmc_field "$sl" "$sd" \
					'GET PARENT_DATA_SET' grandmasterIdentity)
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
	ptp_conf "$gd" clockClass 6
	iop_ptp4l "$g" "$gd" eth0 || { itest_stop; return; }
	for mo in 0 1; do
		itest_tmpdir bd
		p0=${#itest_pids[@]}
		ITEST_PORTS="eth1 eth2" our_conf "$bd/ptp.conf" "$bd"
		sed -i "s/^\[eth1\]\$/[eth1]\nmasterOnly $mo/" "$bd/ptp.conf"
		itest_daemons "$b" "$bd" "$bd/ptp.conf" || break
		# Announce at 8/s: 10 s is many announce receipt timeouts.
		sleep 10
		st=$(iop_port_states "$b" "$bd")
		gm=$(iop_status "$b" "$bd" gm_identity)
		own=$(iop_status "$b" "$bd" clock_identity)
		if [ "$mo" = 0 ]; then
			if [ "${st%% *}" = SLAVE ] && [ "$gm" = "$(ptp_id "$g" "$gd")" ]; then
				pass "ms: masterOnly 0: eth1 SLAVE to ptp4l's clockClass 6 grandmaster (ports: $st)"
			else
				fail "ms: masterOnly 0: ports '$st', grandmaster '$gm', ptp4l '$(ptp_id "$g" "$gd")'"
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
