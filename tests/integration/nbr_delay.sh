#!/bin/bash
# nbr_delay.sh - neighborPropDelayThresh on a P2P port (clockd/nbr.h): a
# ptpsep master and slave over L2 with P2P in two namespaces.
#  1. The slave with neighborPropDelayThresh 1 (ns): the veth's measured
#     link delay (tens of us with software time stamps) is above it, so
#     the slave's port is not asCapable: it says so once, takes no Sync
#     sample, never becomes SLAVE, and its PORT_DATA_SET_NP (pmc -2 from
#     the master's side) shows asCapable 0 and the threshold 1.
#  2. Control: the same with the default threshold (20 ms): the slave
#     takes Sync samples and its port is SLAVE.
#
#   BUILD=build/default tests/integration/nbr_delay.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

PTPCTL=$BUILD/ctl/ptpctl
WATCH=${WATCH:-12}

command -v pmc >/dev/null || { echo "SKIP: pmc (linuxptp) not installed"; exit 0; }

# port_state NS DIR: the state of the slave's port 1.
port_state() {
	ip netns exec "$1" "$PTPCTL" -f "$2/ptp.conf" --json status |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["ports"][0]["state"])'
}

# run_case NAME THRESH: THRESH empty for the default.
run_case() {
	local name=$1 thresh=$2 tag m s dm sl from n st out
	tag="nb$$${name:0:1}"
	m="${tag}m"; s="${tag}s"
	itest_pair "$m" "$s"
	itest_tmpdir dm
	itest_tmpdir sl
	itest_conf "$dm/ptp.conf" "$dm" network_transport L2 \
		delay_mechanism P2P priority1 100
	itest_conf "$sl/ptp.conf" "$sl" network_transport L2 \
		delay_mechanism P2P clientOnly 1 ${thresh:+neighborPropDelayThresh $thresh}
	itest_daemons "$m" "$dm" "$dm/ptp.conf" || return
	itest_daemons "$s" "$sl" "$sl/ptp.conf" || return

	if [ -n "$thresh" ]; then
		if ! itest_wait_log "$sl/clockd.log" 'not asCapable' 20; then
			fail "$name: the slave did not find its neighbour too far"
			tail -20 "$sl/clockd.log"; itest_stop; return
		fi
		grep 'not asCapable' "$sl/clockd.log" | head -1
		sleep "$WATCH"
		n=$(grep -c 'not asCapable' "$sl/clockd.log")
		[ "$n" = 1 ] && pass "$name: 'not asCapable' logged once" ||
			fail "$name: 'not asCapable' logged $n times"
		n=$(grep -c 'master offset' "$sl/clockd.log")
		[ "$n" = 0 ] && pass "$name: no Sync sample taken" ||
			fail "$name: $n Sync samples taken from a far neighbour"
		st=$(port_state "$s" "$sl")
		[ "$st" != SLAVE ] && [ "$st" != UNCALIBRATED ] &&
			pass "$name: slave's port is $st" ||
			fail "$name: slave's port is $st"
		out=$(ip netns exec "$m" pmc -2 -i eth0 -b 0 'GET PORT_DATA_SET_NP' 2>&1)
		# The slave's answer is the one with threshold 1.
		if grep -A2 'neighborPropDelayThresh *1$' <<<"$out" |
			grep -q 'asCapable *0'; then
			pass "$name: PORT_DATA_SET_NP: neighborPropDelayThresh 1, asCapable 0"
		else
			fail "$name: PORT_DATA_SET_NP: $out"
		fi
	else
		if itest_wait_log "$sl/clockd.log" 'master offset' 30; then
			pass "$name: the slave takes Sync samples"
		else
			fail "$name: no Sync sample"; tail -20 "$sl/clockd.log"
		fi
		grep -q 'not asCapable' "$sl/clockd.log" &&
			fail "$name: 'not asCapable' with the default threshold" ||
			pass "$name: asCapable all along"
		st=$(port_state "$s" "$sl")
		[ "$st" = SLAVE ] || [ "$st" = UNCALIBRATED ] &&
			pass "$name: slave's port is $st" ||
			fail "$name: slave's port is $st"
	fi
	itest_stop
}

run_case far 1
run_case default ""
[ "$itest_fails" = 0 ]
