#!/bin/bash
# chain.sh - our boundary clock between two ptp4l: a ptp4l grandmaster
# (priority1 100) -- eth0 [our BC, two ports] eth1 -- a ptp4l slave
# (slaveOnly 1, free_running 1), three namespaces, two veths.
#  - Our BC: port 1 (to the GM) SLAVE, port 2 MASTER; gm_identity the
#    GM's clockIdentity, steps_removed 1.
#  - The ptp4l slave (pmc GET PARENT_DATA_SET, CURRENT_DATA_SET): parent
#    our BC's port 2, grandmaster the ptp4l GM, stepsRemoved 2; its port
#    UNCALIBRATED or SLAVE (free-running ptp4l never reports its servo
#    locked, so it stays UNCALIBRATED).
#  - Time through the chain, over MEASURE (25) s starting SETTLE (15) s
#    after our BC locked (its step then lies behind the ptp4l slave's
#    path delay filter): our BC's offsets to the GM with the loose bounds
#    of clockd_sync.sh (itest_measure servo), and the ptp4l slave's
#    offsets to our BC with those of tests/interop/sync.sh's "sl" runs
#    (itest_measure free).  How the error grows hop by hop, over a chain
#    of ten, is the simulator's to bound (tests/sim).
#  - The wire, captured in both ptp4l namespaces (iop_wire_check): all
#    PTPv2, nothing malformed, no expert error; toward the GM our BC sent
#    Delay_Req (E2E) or the Pdelay types (P2P), toward the slave Announce,
#    Sync, Follow_Up and Delay_Resp (E2E) or the Pdelay types (P2P).
# Runs L2/E2E and UDPv4/P2P side by side.
#
#   BUILD=build/default tests/interop/chain.sh [TRANSPORT DELAY]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

TIMEOUT=${TIMEOUT:-90}
SETTLE=${SETTLE:-15}
# 25 s: enough to see that the chain holds time; the spike allowance
# (ITEST_SPIKE_PCT, lib.sh) leaves room for a few late Syncs in it.
MEASURE=${MEASURE:-25}
declare -A v_g v_b v_s v_gd v_bd v_sd v_gcap v_scap v_gcapid v_scapid v_gmid
nvar=0

# addr NS IF NET HOST: IPv4 and IPv6 addresses for the UDP transports.
addr() {
	ip -n "$1" addr add "10.$3.$4/24" dev "$2"
	ip -n "$1" addr add "fd20:${3//./:}::$4/64" dev "$2" nodad
}

# start_variant TAG TRANSPORT DELAY
start_variant() {
	local tag=$1 tr=$2 dm=$3 g b s gd bd sd n=$nvar
	nvar=$((nvar + 1))
	g="ic$$g$n"; b="ic$$b$n"; s="ic$$s$n"
	v_g[$tag]=$g; v_b[$tag]=$b; v_s[$tag]=$s
	itest_ns "$g"; itest_ns "$b"; itest_ns "$s"
	itest_link "$g" eth0 "$b" eth0
	itest_link "$b" eth1 "$s" eth0
	addr "$g" eth0 "203.$n" 1; addr "$b" eth0 "203.$n" 2
	addr "$b" eth1 "204.$n" 1; addr "$s" eth0 "204.$n" 2
	itest_tmpdir gd; itest_tmpdir bd; itest_tmpdir sd
	v_gd[$tag]=$gd; v_bd[$tag]=$bd; v_sd[$tag]=$sd
	iop_ptp4l_conf "$gd/ptp4l.conf" "$gd" network_transport "$tr" \
		delay_mechanism "$dm" priority1 100
	iop_ptp4l_conf "$sd/ptp4l.conf" "$sd" network_transport "$tr" \
		delay_mechanism "$dm" slaveOnly 1 freq_est_interval 0
	ITEST_PORTS="eth0 eth1" itest_conf "$bd/ptp.conf" "$bd" \
		network_transport "$tr" delay_mechanism "$dm" \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
	v_gcap[$tag]=$gd/capture.pcapng; v_scap[$tag]=$sd/capture.pcapng
	iop_capture_start "$g" eth0 "${v_gcap[$tag]}" || return
	v_gcapid[$tag]=$iop_capture_pid
	iop_capture_start "$s" eth0 "${v_scap[$tag]}" || return
	v_scapid[$tag]=$iop_capture_pid
	iop_ptp4l "$g" "$gd" eth0 || return
	iop_ptp4l "$s" "$sd" eth0 || return
	itest_daemons "$b" "$bd" "$bd/ptp.conf" || return
	v_gmid[$tag]=$(iop_pmc_field "$g" "$gd" 'GET DEFAULT_DATA_SET' \
		clockIdentity)
}

# bc_ok TAG: our BC's ports SLAVE and MASTER, the GM its grandmaster.
bc_ok() {
	[ "$(iop_port_states "${v_b[$1]}" "${v_bd[$1]}")" = "SLAVE MASTER" ] &&
	[ "$(iop_status "${v_b[$1]}" "${v_bd[$1]}" gm_identity)" = "${v_gmid[$1]}" ]
}

# slave_ok TAG BCID: the ptp4l slave's view of the chain.
slave_ok() {
	local s sd pds
	s=${v_s[$1]}; sd=${v_sd[$1]}
	[[ "$(iop_pmc_field "$s" "$sd" 'GET PORT_DATA_SET' portState)" =~ ^(UNCALIBRATED|SLAVE)$ ]] || return 1
	pds=$(iop_pmc "$s" "$sd" 'GET PARENT_DATA_SET')
	[ "$(awk '$1 == "parentPortIdentity" {print $2}' <<<"$pds")" = "$2-2" ] &&
	[ "$(awk '$1 == "grandmasterIdentity" {print $2}' <<<"$pds")" = "${v_gmid[$1]}" ] &&
	[ "$(iop_pmc_field "$s" "$sd" 'GET CURRENT_DATA_SET' stepsRemoved)" = 2 ]
}

variants=()
if [ $# -ge 2 ]; then
	variants=("$1/$2")
else
	variants=(L2/E2E UDPv4/P2P)
fi
for v in "${variants[@]}"; do
	start_variant "$v" "${v%/*}" "${v#*/}" || fail "$v: did not start"
done

declare -A from_b from_s t_lock
for v in "${variants[@]}"; do
	bd=${v_bd[$v]}
	if [ -n "${v_gmid[$v]:-}" ] && iop_wait "$TIMEOUT" bc_ok "$v"; then
		pass "$v: our BC: ports SLAVE MASTER, gm_identity ${v_gmid[$v]} (the ptp4l GM), steps_removed $(iop_status "${v_b[$v]}" "$bd" steps_removed)"
	else
		fail "$v: our BC: ports '$(iop_port_states "${v_b[$v]}" "$bd")', gm '$(iop_status "${v_b[$v]}" "$bd" gm_identity)', GM '${v_gmid[$v]:-}'"
		tail -8 "$bd/clockd.log"
		continue
	fi
	[ "$(iop_status "${v_b[$v]}" "$bd" steps_removed)" = 1 ] ||
		fail "$v: our BC's steps_removed is not 1"
	t_lock[$v]=$SECONDS
done
for v in "${variants[@]}"; do
	[ -n "${t_lock[$v]:-}" ] || continue
	bcid=$(iop_status "${v_b[$v]}" "${v_bd[$v]}" clock_identity)
	if iop_wait "$TIMEOUT" slave_ok "$v" "$bcid"; then
		pass "$v: ptp4l slave: port $(iop_pmc_field "${v_s[$v]}" "${v_sd[$v]}" 'GET PORT_DATA_SET' portState), parent $bcid-2 (our BC), grandmaster ${v_gmid[$v]} (the ptp4l GM), stepsRemoved 2"
	else
		fail "$v: ptp4l slave: $(iop_pmc "${v_s[$v]}" "${v_sd[$v]}" 'GET PARENT_DATA_SET' | tr -s ' \t\n' ' ') stepsRemoved $(iop_pmc_field "${v_s[$v]}" "${v_sd[$v]}" 'GET CURRENT_DATA_SET' stepsRemoved)"
	fi
done

# Time through the chain: both windows open together, SETTLE s after lock.
for v in "${variants[@]}"; do
	[ -n "${t_lock[$v]:-}" ] || continue
	while ((SECONDS - t_lock[$v] < SETTLE)); do sleep 1; done
	from_b[$v]=$(wc -l <"${v_bd[$v]}/clockd.log")
	from_s[$v]=$(wc -l <"${v_sd[$v]}/ptp4l.log")
done
sleep "$MEASURE"
for v in "${variants[@]}"; do
	[ -n "${t_lock[$v]:-}" ] || continue
	itest_measure "$v: our BC to the ptp4l GM" "${v_bd[$v]}/clockd.log" \
		"${from_b[$v]}" servo
	itest_measure "$v: the ptp4l slave to our BC" "${v_sd[$v]}/ptp4l.log" \
		"${from_s[$v]}" free
done

for v in "${variants[@]}"; do
	bcid=$(iop_status "${v_b[$v]}" "${v_bd[$v]}" clock_identity)
	iop_capture_stop "${v_gcapid[$v]:-}"
	iop_capture_stop "${v_scapid[$v]:-}"
	if [ -z "$bcid" ]; then
		fail "$v: no clock identity from our BC"
		continue
	fi
	ours="ptp.v2.clockidentity == $(iop_cid_hex "$bcid")"
	if [ "${v#*/}" = E2E ]; then
		iop_wire_check "$v: GM side" "${v_gcap[$v]}" "$ours" 1
		iop_wire_check "$v: slave side" "${v_scap[$v]}" "$ours" 11 0 8 9
	else
		iop_wire_check "$v: GM side" "${v_gcap[$v]}" "$ours" 2 3 10
		iop_wire_check "$v: slave side" "${v_scap[$v]}" "$ours" 11 0 8 2 3 10
	fi
done
echo "interop chain: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
