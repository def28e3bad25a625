#!/bin/bash
# cpu.sh - the cost of each process at a given message rate (issue 13):
# CPU time, system calls and peak memory of a master and a slave, ours
# (ptp-netd + ptp-clockd on each side) against ptp4l (one process on each
# side, free_running 1), L2, E2E, software time stamps.  Each rate in
# RATES is a logSyncInterval, logMinDelayReqInterval the same: -4 is 16
# Syncs + 16 Delay_Reqs a second, -7 is 128 + 128.
#
# The implementations run at the same time, each master and slave on a
# veth pair of their own, and are measured over the same windows: load
# that the rest of the machine puts on the CPUs, which comes and goes,
# then weighs on all of them alike, and the ratios hold (together they
# take a few per cent of one CPU).  For each rate, after WARM seconds:
#   - CPU window, MEASURE s: on-CPU time of every thread of the process
#     (/proc/PID/task/*/schedstat, ns: the total utime + stime also give,
#     without their 10 ms ticks; the ticks are kept in the JSON too), as
#     CPU s/min and as µs per message: netd's and clockd's time over the
#     frames that netd relayed in the window (rx + tx of `ptpctl netd
#     --json`; every frame netd relays is one message to or from clockd),
#     ptp4l's over the messages of its PORT_STATS_NP counters (pmc).
#   - in the same window, the process's wake-ups: the voluntary context
#     switches of all its threads (voluntary_ctxt_switches of
#     /proc/PID/task/*/status), one each time it blocks in epoll_wait,
#     poll or the like and so one for each time it is woken again; as
#     wake-ups a second and as µs of CPU per wake-up.  On this kind of
#     machine the cost of waking a process, not the code it then runs, is
#     most of the CPU (issue 13).  The involuntary switches (preemptions:
#     the CPU taken away from a running process, which depends on the rest
#     of the machine's load) are kept beside them, not counted as wake-ups.
#   - then a system call window, SYSCALL_S s: `perf stat -e
#     raw_syscalls:sys_enter -p PID`, as calls a second.  It is a window of
#     its own because perf's counting adds to the cost of every call; the
#     CPU time of that window is kept in the JSON (cpu_s_per_min_perf) to
#     show by how much.
#   - peak RSS: VmHWM of /proc/PID/status at the end of the second window,
#     so every process is read at the same age (WARM + MEASURE + SYSCALL_S
#     seconds); a longer run may see a higher peak.  Beside it, what the
#     resident set is made of at that time: RssAnon (heap, stacks) and
#     RssFile (mapped files: the program and its libraries, shared with
#     other processes that map them); and, from /proc/PID/smaps_rollup,
#     Pss (each shared page divided among the processes mapping it: the
#     process's share of the machine's memory) and USS (Private_Clean +
#     Private_Dirty: what its exit would free).
#
#   BUILD=... BENCH_OUT=DIR [BENCH_MODE=smoke] tests/bench/cpu.sh
# writes DIR/cpu.json.  Variables:
#   RATES               log intervals to run (default "-4 -7"; smoke "-7")
#   WARM MEASURE SYSCALL_S  the windows, seconds (default 8 30 10; smoke 3 3 2)
#   BENCH_BEFORE_BUILD  a build directory of an older tree (issue 13: of
#                       commit d7cfe8c): its daemons run too, same
#                       configuration, same run, as implementation "before"
#   BENCH_BEFORE_LABEL  what the report calls it (default: the directory)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

if [ "$BENCH_MODE" = smoke ]; then
	WARM=${WARM:-3} MEASURE=${MEASURE:-3} SYSCALL_S=${SYSCALL_S:-2}
	RATES=${RATES:--7}
else
	WARM=${WARM:-8} MEASURE=${MEASURE:-30} SYSCALL_S=${SYSCALL_S:-10}
	RATES=${RATES:--4 -7}
fi
BEFORE=${BENCH_BEFORE_BUILD:-}
IMPLS=(ours ptp4l)
if [ -n "$BEFORE" ]; then
	BEFORE=$(cd "$BEFORE" && pwd) || die "no $BENCH_BEFORE_BUILD"
	for f in netd/ptp-netd clockd/ptp-clockd ctl/ptpctl; do
		[ -x "$BEFORE/$f" ] || die "no $BEFORE/$f (build it first)"
	done
	IMPLS=(before ours ptp4l)
fi
HZ=$(getconf CLK_TCK)
command -v perf >/dev/null || die "perf is not installed"
command -v pmc >/dev/null || die "pmc (linuxptp) is not installed"

# cpu_ns PID: on-CPU time of all the threads of PID, ns.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ n += $1 } END { printf "%.0f\n", n }'
}

# ctxsw PID: voluntary and involuntary context switches of all the threads
# of PID, "VOL INVOL".
ctxsw() {
	cat /proc/"$1"/task/*/status 2>/dev/null | awk '
		$1 == "voluntary_ctxt_switches:" { v += $2 }
		$1 == "nonvoluntary_ctxt_switches:" { i += $2 }
		END { printf "%.0f %.0f\n", v, i }'
}

# netd_frames PTPCTL CONF: rx + tx frames of every port of that netd.
netd_frames() {
	"$1" -f "$2" --json netd | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(p["rx_event"] + p["rx_general"] + p["tx_event"] + p["tx_general"]
          for p in d["ports"]))'
}

# ptp4l_msgs DIR: rx + tx messages of ptp4l's port (PORT_STATS_NP).
ptp4l_msgs() {
	pmc -u -b 0 -s "$1/ptp4l.sock" -i "$1/pmc.sock" 'GET PORT_STATS_NP' 2>/dev/null |
		awk '$1 ~ /^(rx|tx)_/ { n += $2; seen = 1 } END { if (seen) print n; else print "" }'
}

# msgs IMPL RATE SIDE: the message counter of that side (m or s).
msgs() {
	local d=$bench_tmp/$1$2
	case $1 in
	ptp4l) ptp4l_msgs "$d/$3" ;;
	before) netd_frames "$BEFORE/ctl/ptpctl" "$d/$3/ptp.conf" ;;
	*) netd_frames "$PTPCTL" "$d/$3/ptp.conf" ;;
	esac
}

# snap N K M V I: CPU ns and ticks, voluntary and involuntary context
# switches of every process of cpu_procs (IMPL:SIDE:PROC:PID), and the
# message counter of every side at $rate, into the arrays named N, K, M,
# V and I.
snap() {
	local -n _n=$1 _k=$2 _m=$3 _v=$4 _i=$5
	local x impl side proc pid
	for x in "${cpu_procs[@]}"; do
		IFS=: read -r impl side proc pid <<<"$x"
		bench_alive "$pid" || die "cpu: $impl $side $proc exited"
		_n[$pid]=$(cpu_ns "$pid") _k[$pid]=$(bench_cpu_ticks "$pid")
		read -r "_v[$pid]" "_i[$pid]" <<<"$(ctxsw "$pid")"
	done
	for impl in "${IMPLS[@]}"; do
		_m[$impl:master]=$(msgs "$impl" "$rate" m)
		_m[$impl:slave]=$(msgs "$impl" "$rate" s)
	done
}

# measure RATE IMPL:SIDE:PROC:PID...: the two windows over those
# processes, all at once, a row each in $rows.
measure() {
	local rate=$1 x impl side proc pid dm
	shift
	declare -A n0 n1 k0 k1 n2 m0 m1 v0 v1 i0 i1
	cpu_procs=("$@")
	sleep "$WARM"
	snap n0 k0 m0 v0 i0
	sleep "$MEASURE"
	snap n1 k1 m1 v1 i1
	# bench_perf_each's SIDE:PROC:PID, the side named IMPL-SIDE
	bench_procs=()
	for x in "$@"; do bench_procs+=("${x/:/-}"); done
	bench_perf_each "$bench_tmp/$rate" stat "$SYSCALL_S" \
		stat -e raw_syscalls:sys_enter -x,
	for x in "$@"; do
		IFS=: read -r impl side proc pid <<<"$x"
		bench_alive "$pid" || die "cpu: $impl $side $proc exited"
		n2[$pid]=$(cpu_ns "$pid")
		dm=""
		[ -n "${m0[$impl:$side]}" ] && [ -n "${m1[$impl:$side]}" ] &&
			dm=$((m1[$impl:$side] - m0[$impl:$side]))
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$impl" "$rate" \
			"$side" "$proc" "$((n1[$pid] - n0[$pid]))" \
			"$((k1[$pid] - k0[$pid]))" "$(bench_hwm_kb "$pid")" "$dm" \
			"$(awk -F, '$3 ~ /sys_enter/ { print $1 + 0 }' \
				"$bench_tmp/$rate-$impl-$side-$proc.stat")" \
			"$((n2[$pid] - n1[$pid]))" \
			"$(awk '/^RssAnon:/ { a = $2 } /^RssFile:/ { f = $2 }
				END { print a "\t" f }' "/proc/$pid/status")" \
			"$(awk '$1 == "Pss:" { p = $2 } $1 ~ /^Private_(Clean|Dirty):$/ { u += $2 }
				END { print p "\t" u }' "/proc/$pid/smaps_rollup")" \
			"$((v1[$pid] - v0[$pid]))" "$((i1[$pid] - i0[$pid]))" >>"$rows"
	done
}

rows=$bench_tmp/rows.tsv
: >"$rows"
locked=$bench_tmp/locked.tsv
: >"$locked"
t_start=$SECONDS

for rate in $RATES; do
	common=(logSyncInterval "$rate" logMinDelayReqInterval "$rate"
		logAnnounceInterval 0 network_transport L2 delay_mechanism E2E)
	say "cpu: ${IMPLS[*]} at log interval $rate, $WARM + $MEASURE + $SYSCALL_S s"
	procs=()
	k=0
	for impl in "${IMPLS[@]}"; do
		k=$((k + 1))
		A=bc$$a$k B=bc$$b$k d=$bench_tmp/$impl$rate
		bench_pair "$A" "$B"
		case $impl in
		ours|before)
			[ "$impl" = before ] && BENCH_BUILD=$BEFORE || BENCH_BUILD=
			bench_ours nm cm "$A" "$d/m" "${common[@]}" priority1 100
			bench_ours ns cs "$B" "$d/s" "${common[@]}" clientOnly 1 \
				virtual_clock_offset_ns 1500000000 \
				virtual_clock_freq_ppb 80000
			BENCH_BUILD=
			procs+=("$impl:master:netd:$nm" "$impl:master:clockd:$cm"
				"$impl:slave:netd:$ns" "$impl:slave:clockd:$cs") ;;
		ptp4l)
			bench_ptp4l pm "$A" "$d/m" master "${common[@]}"
			bench_ptp4l ps "$B" "$d/s" slave "${common[@]}"
			procs+=("ptp4l:master:ptp4l:$pm" "ptp4l:slave:ptp4l:$ps") ;;
		esac
	done
	measure "$rate" "${procs[@]}"
	for impl in "${IMPLS[@]}"; do
		[ "$impl" = ptp4l ] && continue
		printf '%s\t%s\t%s\n' "$impl" "$rate" "$(grep -c ' s2 freq\|rms .* s2$' \
			"$bench_tmp/$impl$rate/s/clockd.log")" >>"$locked"
	done
	itest_stop	# this rate's daemons and namespaces
done

# 4 processes of ours (and before), 2 of ptp4l, a row each per rate.
nrows=0
for rate in $RATES; do nrows=$((nrows + ${#IMPLS[@]} * 4 - 2)); done
python3 - "$rows" "$locked" "$BENCH_OUT/cpu.json" "$BENCH_MODE" "$WARM" \
	"$MEASURE" "$SYSCALL_S" "$HZ" "$((SECONDS - t_start))" \
	"${BENCH_BEFORE_LABEL:-$BEFORE}" "$nrows" <<'EOF' ||
import json, sys
rows, locked, out, mode, warm, meas, scs, hz, el, blabel, want = sys.argv[1:]
meas, scs, hz = float(meas), float(scs), float(hz)
res = []
for line in open(rows):
    impl, rate, side, proc, ns, ticks, hwm, msgs, sc, ns2, anon, fil, \
        pss, uss, vol, invol = line.rstrip("\n").split("\t")
    cpu = int(ns) / 1e9
    r = {"impl": impl, "log_interval": int(rate),
         "messages_per_s": 2 * 2 ** -int(rate),
         "side": side, "process": proc,
         "cpu_s": cpu, "cpu_s_per_min": cpu / meas * 60,
         "cpu_ticks": int(ticks),
         "vmhwm_kb": int(hwm), "rss_anon_kb": int(anon),
         "rss_file_kb": int(fil), "pss_kb": int(pss), "uss_kb": int(uss),
         "messages": int(msgs) if msgs else None,
         "syscalls": int(sc) if sc else None,
         "syscalls_per_s": int(sc) / scs if sc else None,
         "cpu_s_per_min_perf": int(ns2) / 1e9 / scs * 60,
         # wake-ups = voluntary context switches (see the top)
         "wakeups": int(vol), "wakeups_per_s": int(vol) / meas,
         "involuntary_switches": int(invol),
         "involuntary_per_s": int(invol) / meas}
    r["us_per_wakeup"] = cpu / int(vol) * 1e6 if int(vol) else None
    r["us_per_message"] = (cpu / r["messages"] * 1e6
                           if r["messages"] else None)
    res.append(r)
if len(res) != int(want):
    sys.exit("cpu: %d rows, not %s" % (len(res), want))
lk = {}
for line in open(locked):
    impl, rate, n = line.split()
    lk.setdefault(impl, {})[rate] = int(n)
json.dump({"mode": mode, "warm_s": float(warm), "measure_s": meas,
           "syscall_s": scs, "clk_tck": int(hz),
           "log_intervals": sorted({r["log_interval"] for r in res},
                                   reverse=True),
           "impls": list(dict.fromkeys(r["impl"] for r in res)),
           "before": blabel or None,
           "ptp4l_slave": "free_running 1",
           "slave_locked_lines": lk,
           "elapsed_s": int(el), "rows": res}, open(out, "w"), indent=1)
EOF
	die "cpu: cannot write cpu.json"
say "cpu: wrote $BENCH_OUT/cpu.json ($((SECONDS - t_start)) s)"
