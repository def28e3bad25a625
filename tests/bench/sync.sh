#!/bin/bash
# sync.sh - synchronization quality, ours beside ptp4l, on the same kind of
# link: a veth between two namespaces, L2, E2E, software time stamps.
# For each logSyncInterval (0 and -4; logMinDelayReqInterval the same,
# logAnnounceInterval 0 everywhere) four pairs run at the same time, each
# on its own veth:
#
#   ours_ours     our master -> our slave
#   ptp4l_ours    ptp4l master -> our slave
#   ptp4l_fr      ptp4l master -> ptp4l slave with free_running 1
#   ours_fr       our master -> ptp4l slave with free_running 1
#
# Our slaves steer netd's virtual clock, which starts 1.5 s and +80 ppm off;
# our masters' virtual clocks start on this machine's CLOCK_REALTIME, which
# is also ptp4l's clock.  Both ends of every link therefore run on the same
# oscillator: a free-running ptp4l slave sees no frequency difference, only
# the noise of measuring the offset over this link (time stamping in
# software, scheduling), which is the floor any servo works against.
# tests/bench/sync_stats.py defines the figures; the window is the last
# WINDOW seconds of each run.
#
#   BUILD=... BENCH_OUT=DIR [BENCH_MODE=smoke] tests/bench/sync.sh
# writes DIR/sync.json (and with BENCH_LOGS=DIR2 keeps the slaves' logs).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# Our PI servo, like ptp4l's, waits 0.016/ki s before its first frequency
# estimate, and with software time stamps ki is small: 16 s at
# logSyncInterval 0, 48 s at -4.  The runs leave room for that plus the
# BMCA (3 s).  The smoke run only checks that every figure comes out: it
# gives our slaves a larger ki so they lock within seconds.
if [ "$BENCH_MODE" = smoke ]; then
	RUN_0=${RUN_0:-16} WIN_0=${WIN_0:-6} RUN_4=${RUN_4:-14} WIN_4=${WIN_4:-6}
	SLAVE_EXTRA=(pi_proportional_const 0.1 pi_integral_const 0.016)
else
	RUN_0=${RUN_0:-110} WIN_0=${WIN_0:-70} RUN_4=${RUN_4:-90} WIN_4=${WIN_4:-35}
	SLAVE_EXTRA=()
fi
# BENCH_SERVO=pi|linreg|kalman: our slaves' clock_servo (default: the
# configuration's default), to set the servos side by side on veth.
[ -n "${BENCH_SERVO:-}" ] && SLAVE_EXTRA+=(clock_servo "$BENCH_SERVO")
INTERVALS=(0 -4)
PAIRS=(ours_ours ptp4l_ours ptp4l_fr ours_fr)

t_start=$SECONDS
results=()
for iv in "${INTERVALS[@]}"; do
	if [ "$iv" = 0 ]; then run=$RUN_0 win=$WIN_0; else run=$RUN_4 win=$WIN_4; fi
	common=(logSyncInterval "$iv" logMinDelayReqInterval "$iv"
		logAnnounceInterval 0 network_transport L2 delay_mechanism E2E
		summary_interval "$iv")
	say "sync: logSyncInterval $iv: 4 pairs for $run s"
	pids=()
	k=0
	for p in "${PAIRS[@]}"; do
		k=$((k + 1))
		m=bs$$m$k s=bs$$s$k d=$bench_tmp/$iv/$p
		bench_pair "$m" "$s"
		case $p in
		ours_*)
			bench_ours n c "$m" "$d/m" "${common[@]}" priority1 100
			pids+=("$n" "$c") ;;
		ptp4l_*)
			bench_ptp4l x "$m" "$d/m" master "${common[@]}"
			pids+=("$x") ;;
		esac
		case $p in
		*_ours)
			bench_ours n c "$s" "$d/s" "${common[@]}" clientOnly 1 \
				virtual_clock_offset_ns 1500000000 \
				virtual_clock_freq_ppb 80000 "${SLAVE_EXTRA[@]}"
			pids+=("$n" "$c")
			echo "$d/s/clockd.log" >"$d/slave-log" ;;
		*_fr)
			# freq_est_interval 0: a free-running ptp4l logs one
			# offset per frequency-estimation interval (2^N s), at
			# most one a second.
			bench_ptp4l x "$s" "$d/s" slave "${common[@]}" \
				freq_est_interval 0
			pids+=("$x")
			echo "$d/s/ptp4l.log" >"$d/slave-log" ;;
		esac
	done
	sleep "$run"
	bench_alive "${pids[@]}" || die "sync: a daemon exited during the run"
	bench_stop "${pids[@]}"
	for p in "${PAIRS[@]}"; do
		d=$bench_tmp/$iv/$p
		kind=servo
		[ "${p##*_}" = fr ] && kind=freerun
		python3 "$here/sync_stats.py" "$kind" "$(cat "$d/slave-log")" \
			"$win" >"$d/stats.json" || die "sync: cannot read $p's log"
		results+=("$iv" "$p" "$d/stats.json")
		if [ -n "${BENCH_LOGS:-}" ]; then
			mkdir -p "$BENCH_LOGS/sync$iv"
			cp "$(cat "$d/slave-log")" "$BENCH_LOGS/sync$iv/$p-slave.log"
		fi
	done
	itest_stop	# this interval's namespaces
done

python3 - "$BENCH_OUT/sync.json" "$BENCH_MODE" "$RUN_0" "$WIN_0" "$RUN_4" \
	"$WIN_4" "$((SECONDS - t_start))" "${results[@]}" <<'EOF' ||
import json, sys
out, mode, r0, w0, r4, w4, el = sys.argv[1:8]
rest = sys.argv[8:]
res = {}
for i in range(0, len(rest), 3):
    res.setdefault(rest[i], {})[rest[i + 1]] = json.load(open(rest[i + 2]))
json.dump({"mode": mode, "run_s": {"0": int(r0), "-4": int(r4)},
           "window_s": {"0": int(w0), "-4": int(w4)},
           "transport": "L2", "delay_mechanism": "E2E",
           "timestamping": "software", "elapsed_s": int(el),
           "intervals": res}, open(out, "w"), indent=1)
EOF
	die "sync: cannot write sync.json"
say "sync: wrote $BENCH_OUT/sync.json ($((SECONDS - t_start)) s)"
