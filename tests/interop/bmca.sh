#!/bin/bash
# bmca.sh - the best master clock algorithm across implementations: ptp4l
# and our clock on one link, both able to be master (IEEE 1588-2019 9.3).
#  1. ptp4l with priority1 100, ours 128: ptp4l wins.  Our port goes SLAVE
#     (through UNCALIBRATED: our servo locks), our gm_identity (ptpctl) is
#     ptp4l's clockIdentity, ptp4l's port is MASTER and its
#     grandmasterIdentity (pmc GET PARENT_DATA_SET) its own.
#  2. `pmc SET PRIORITY1 200` on ptp4l: it now loses.  Our port goes
#     MASTER, our gm_identity is our own; ptp4l takes us as parent and
#     grandmaster (PARENT_DATA_SET, TIME_STATUS_NP gmIdentity/gmPresent)
#     and its port goes to the slave side: UNCALIBRATED or SLAVE (ptp4l
#     runs with free_running 1, and a free-running ptp4l never reports its
#     servo locked, so it stays UNCALIBRATED).
# Both phases with a capture in ptp4l's namespace checked by iop_wire_check:
# our side sent Delay_Req (phase 1), Announce, Sync, Follow_Up and
# Delay_Resp (phase 2), or the Pdelay types for P2P.  Runs L2/E2E and
# UDPv6/P2P side by side.
#
#   BUILD=build/default tests/interop/bmca.sh [TRANSPORT DELAY]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

TIMEOUT=${TIMEOUT:-90}
declare -A v_pns v_ons v_pd v_od v_cap v_capid v_ptpid
nvar=0

# start_variant TAG TRANSPORT DELAY
start_variant() {
	local tag=$1 tr=$2 dm=$3 pns ons pd od
	pns="ib$$p$nvar"; ons="ib$$o$nvar"
	nvar=$((nvar + 1))
	v_pns[$tag]=$pns; v_ons[$tag]=$ons
	itest_pair "$pns" "$ons"
	itest_tmpdir pd
	itest_tmpdir od
	v_pd[$tag]=$pd; v_od[$tag]=$od
	iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport "$tr" \
		delay_mechanism "$dm" priority1 100
	itest_conf "$od/ptp.conf" "$od" network_transport "$tr" \
		delay_mechanism "$dm" priority1 128 \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
	v_cap[$tag]=$pd/capture.pcapng
	iop_capture_start "$pns" eth0 "${v_cap[$tag]}" || return
	v_capid[$tag]=$iop_capture_pid
	iop_ptp4l "$pns" "$pd" eth0 || return
	itest_daemons "$ons" "$od" "$od/ptp.conf" || return
	v_ptpid[$tag]=$(iop_pmc_field "$pns" "$pd" 'GET DEFAULT_DATA_SET' \
		clockIdentity)
}

# our_is TAG STATE GM: our port's state and grandmaster are these.
our_is() {
	[ "$(iop_port_states "${v_ons[$1]}" "${v_od[$1]}")" = "$2" ] &&
	[ "$(iop_status "${v_ons[$1]}" "${v_od[$1]}" gm_identity)" = "$3" ]
}

# ptp4l_is TAG STATES GM PARENT: ptp4l's port state is one of STATES
# (regex), its grandmaster and parent clock are these.
ptp4l_is() {
	local pns pd pds
	pns=${v_pns[$1]}; pd=${v_pd[$1]}
	[[ "$(iop_pmc_field "$pns" "$pd" 'GET PORT_DATA_SET' portState)" =~ ^($2)$ ]] || return 1
	pds=$(iop_pmc "$pns" "$pd" 'GET PARENT_DATA_SET')
	[ "$(awk '$1 == "grandmasterIdentity" {print $2}' <<<"$pds")" = "$3" ] &&
	[ "$(awk '$1 == "parentPortIdentity" {print $2}' <<<"$pds")" = "$4" ]
}

# check_phase1 TAG
check_phase1() {
	local tag=$1 id
	id=${v_ptpid[$tag]:-}
	if [ -n "$id" ] && iop_wait "$TIMEOUT" our_is "$tag" SLAVE "$id"; then
		pass "$tag: ptp4l priority1 100 wins: our port SLAVE, our gm_identity $id (ptp4l)"
	else
		fail "$tag: phase 1: our port '$(iop_port_states "${v_ons[$tag]}" "${v_od[$tag]}")', gm '$(iop_status "${v_ons[$tag]}" "${v_od[$tag]}" gm_identity)', ptp4l '$id'"
		tail -5 "${v_od[$tag]}/clockd.log"
		return
	fi
	if ptp4l_is "$tag" MASTER "$id" "$id-0"; then
		pass "$tag: ptp4l agrees: port MASTER, grandmasterIdentity $id (itself)"
	else
		fail "$tag: ptp4l in phase 1: $(iop_pmc "${v_pns[$tag]}" "${v_pd[$tag]}" 'GET PARENT_DATA_SET' | tr -s ' \t\n' ' ')"
	fi
}

# check_phase2 TAG
check_phase2() {
	local tag=$1 ours ts
	ours=$(iop_status "${v_ons[$tag]}" "${v_od[$tag]}" clock_identity)
	if iop_wait "$TIMEOUT" our_is "$tag" MASTER "$ours"; then
		pass "$tag: ptp4l priority1 200 loses: our port MASTER, our gm_identity $ours (our own)"
	else
		fail "$tag: phase 2: our port '$(iop_port_states "${v_ons[$tag]}" "${v_od[$tag]}")', gm '$(iop_status "${v_ons[$tag]}" "${v_od[$tag]}" gm_identity)'"
		tail -5 "${v_od[$tag]}/clockd.log"
	fi
	if iop_wait "$TIMEOUT" ptp4l_is "$tag" 'UNCALIBRATED|SLAVE' "$ours" "$ours-1"; then
		pass "$tag: ptp4l agrees: port $(iop_pmc_field "${v_pns[$tag]}" "${v_pd[$tag]}" 'GET PORT_DATA_SET' portState), parent $ours-1, grandmasterIdentity $ours (ours)"
	else
		fail "$tag: ptp4l in phase 2: $(iop_pmc "${v_pns[$tag]}" "${v_pd[$tag]}" 'GET PARENT_DATA_SET' | tr -s ' \t\n' ' ')"
		tail -5 "${v_pd[$tag]}/ptp4l.log"
	fi
	ts=$(iop_pmc "${v_pns[$tag]}" "${v_pd[$tag]}" 'GET TIME_STATUS_NP')
	if [ "$(awk '$1 == "gmIdentity" {print $2}' <<<"$ts")" = "$ours" ] &&
	   [ "$(awk '$1 == "gmPresent" {print $2}' <<<"$ts")" = true ]; then
		pass "$tag: ptp4l TIME_STATUS_NP: gmPresent true, gmIdentity $ours"
	else
		fail "$tag: ptp4l TIME_STATUS_NP: $(tr -s ' \t\n' ' ' <<<"$ts")"
	fi
}

variants=()
if [ $# -ge 2 ]; then
	variants=("$1/$2")
else
	variants=(L2/E2E UDPv6/P2P)
fi
for v in "${variants[@]}"; do
	start_variant "$v" "${v%/*}" "${v#*/}" || fail "$v: did not start"
done
for v in "${variants[@]}"; do
	check_phase1 "$v"
done
for v in "${variants[@]}"; do
	out=$(iop_pmc "${v_pns[$v]}" "${v_pd[$v]}" 'SET PRIORITY1 200')
	grep -q 'priority1 *200' <<<"$out" ||
		fail "$v: pmc SET PRIORITY1 200 on ptp4l: $(tr -s ' \t\n' ' ' <<<"$out")"
done
for v in "${variants[@]}"; do
	check_phase2 "$v"
done
sleep 3		# a few exchanges of ours as master in the capture
for v in "${variants[@]}"; do
	ours=$(iop_status "${v_ons[$v]}" "${v_od[$v]}" clock_identity)
	iop_capture_stop "${v_capid[$v]}"
	[ "${v#*/}" = E2E ] && types="1 11 0 8 9" || types="2 3 10 11 0 8"
	iop_wire_check "$v" "${v_cap[$v]}" \
		"ptp.v2.clockidentity == $(iop_cid_hex "$ours")" $types
done
echo "interop bmca: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
