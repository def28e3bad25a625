#!/bin/bash
# clockd_sync.sh - a ptpsep master and a ptpsep slave in two network
# namespaces over one veth, for each transport (L2, UDPv4, UDPv6) and delay
# mechanism (E2E, P2P).  The slave's virtual clock starts 1.5 s and +80 ppm
# off; it must step once, then stay locked: over the MEASURE seconds after
# lock, offset RMS < 1.5 us and max |offset| < 5 us (software timestamps).
#
#   BUILD=build/default tests/integration/clockd_sync.sh [TRANSPORT DELAY]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

MEASURE=${MEASURE:-60}
LOCK_TIMEOUT=${LOCK_TIMEOUT:-60}

# run_case TRANSPORT DELAY
run_case() {
	local tr=$1 dm=$2 tag m s dm_dir sl_dir t0 lockline
	tag="cs${$}${tr:0:2}${dm:0:1}"
	m="${tag}m"; s="${tag}s"
	itest_pair "$m" "$s"
	itest_tmpdir dm_dir
	itest_tmpdir sl_dir
	itest_conf "$dm_dir/ptp.conf" "$dm_dir" network_transport "$tr" \
		delay_mechanism "$dm" priority1 100
	itest_conf "$sl_dir/ptp.conf" "$sl_dir" network_transport "$tr" \
		delay_mechanism "$dm" clientOnly 1 ${SLAVE_EXTRA:-} \
		virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
	itest_daemons "$m" "$dm_dir" "$dm_dir/ptp.conf" || return
	itest_daemons "$s" "$sl_dir" "$sl_dir/ptp.conf" || return

	# Lock: the first "s2" sample line.
	t0=$SECONDS
	until grep -q ' s2 freq' "$sl_dir/clockd.log"; do
		if ((SECONDS - t0 > LOCK_TIMEOUT)); then
			fail "$tr/$dm: no lock within ${LOCK_TIMEOUT}s"
			tail -20 "$sl_dir/clockd.log"; tail -5 "$dm_dir/clockd.log"
			return
		fi
		sleep 0.5
	done
	lockline=$(wc -l <"$sl_dir/clockd.log")
	echo "INFO: $tr/$dm locked after $((SECONDS - t0)) s"
	sleep "$MEASURE"
	itest_measure "$tr/$dm" "$sl_dir/clockd.log" "$lockline" servo
	# The servo's first frequency estimate (the s1 line) against the mean
	# frequency of the window's last 20 samples: how much frequency error
	# the step left for the PI to work off.
	awk '/ s1 freq/ { f1 = $7 } / s2 freq/ { f[n++ % 20] = $7 }
	    END { if (n >= 20) { for (i = 0; i < 20; i++) m += f[i] / 20;
	      printf "INFO: '"$tr/$dm"': first frequency estimate %+d ppb, end of the window %+.0f ppb: %+.0f ppb left\n", f1, m, f1 - m } }' \
	    "$sl_dir/clockd.log"
	local steps
	steps=$(grep -c 'stepping the clock' "$sl_dir/clockd.log")
	if [ "$steps" = 1 ]; then
		pass "$tr/$dm: the slave stepped exactly once"
	else
		fail "$tr/$dm: the slave stepped $steps times"
	fi
	if grep -q 'stepping the clock' "$dm_dir/clockd.log"; then
		fail "$tr/$dm: the master stepped its clock"
	fi
}

# case_twice TRANSPORT DELAY: run_case; a case that missed a bound runs
# once more from scratch (a Sync that reached this shared 2-core VM tens of
# microseconds late, a P2P link delay that moved between plateaus): its
# first result stays in the output, only the second counts.  ITEST_RETRY=0
# turns this off.
case_twice() {
	local f0=$itest_fails
	run_case "$1" "$2"
	itest_stop
	if ((itest_fails > f0)) && [ "${ITEST_RETRY:-1}" = 1 ]; then
		echo "RETRY: $1/$2: $((itest_fails - f0)) failure(s) above; running it once more"
		itest_fails=$f0
		run_case "$1" "$2"
		itest_stop
	fi
}

if [ $# -ge 2 ]; then
	case_twice "$1" "$2"
else
	for tr in L2 UDPv4 UDPv6; do
		for dm in E2E P2P; do
			case_twice "$tr" "$dm"
		done
	done
fi
echo "clockd_sync: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
