#!/bin/bash
# scale.sh - a grandmaster serving N unicast clients with negotiation
# (issue 15, item 5): ours (ptp-netd + ptp-clockd, unicast_listen 1)
# beside ptp4l (unicast_listen 1), each on a veth pair of its own, L2,
# software time stamps; side by side over the same window up to
# SCALE_PAIR_MAX (2000) Syncs a second in all, one after the other beyond
# (paired(), below).  tests/bench/uclients
# plays the N clients in the other namespace: each requests Announce, Sync
# and Delay_Resp grants and sends Delay_Reqs at its granted rate.
#
# For each N in SCALE_N and each logSyncInterval in SCALE_RATES (0: one
# Sync a second; -4: sixteen), after WARM s, over MEASURE s:
#   - the grandmaster's CPU: on-CPU time of every thread of its processes
#     (netd + clockd, or ptp4l), as a share of one core and as µs per
#     client per second;
#   - its peak RSS (VmHWM) at the end;
#   - what the clients saw (uclients' JSON): grants and refusals per
#     message type, messages a second, and per client the Syncs and
#     Delay_Resps received as a fraction of what its grants promise.
# ptp4l runs with free_running 1 and kernel_leap 0 (lib.sh); our
# grandmaster disciplines netd's virtual clock only.
#
#   BUILD=... BENCH_OUT=DIR [BENCH_MODE=smoke] tests/bench/scale.sh
# writes DIR/scale.json.  Variables: SCALE_N (default "100 1000 10000";
# smoke "50"), SCALE_RATES (default "0 -4"; smoke "0"), WARM, MEASURE
# (default 15 30; smoke 6 4), SCALE_IMPLS (default "ours ptp4l"),
# SCALE_PAIR_MAX, SCALE_ROUNDS (rows side by side are run that many
# times, default 3; smoke 1).
# For finding where the time goes (the CPU figures then include the
# tool's cost): SCALE_PERF=1 records each process with perf over MEASURE
# (DIR/NAME.perf), SCALE_TRACE=S straces each for S s (DIR/NAME.strace);
# both with BENCH_KEEP=1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

if [ "$BENCH_MODE" = smoke ]; then
	SCALE_N=${SCALE_N:-50} SCALE_RATES=${SCALE_RATES:-0}
	WARM=${WARM:-6} MEASURE=${MEASURE:-4} SCALE_ROUNDS=${SCALE_ROUNDS:-1}
else
	SCALE_N=${SCALE_N:-100 1000 10000} SCALE_RATES=${SCALE_RATES:-0 -4}
	WARM=${WARM:-15} MEASURE=${MEASURE:-30} SCALE_ROUNDS=${SCALE_ROUNDS:-3}
fi
SCALE_IMPLS=${SCALE_IMPLS:-ours ptp4l}
SCALE_PAIR_MAX=${SCALE_PAIR_MAX:-2000}
UCLIENTS=$BUILD/tests/bench/uclients
[ -x "$UCLIENTS" ] || die "no $UCLIENTS (make tests/bench/uclients)"

# wakeups PID: voluntary context switches of all the threads of PID.
wakeups() {
	cat /proc/"$1"/task/*/status 2>/dev/null |
		awk '/^voluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }'
}

# cpu_ns PID: on-CPU time of all the threads of PID, ns.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ n += $1 } END { printf "%.0f\n", n }'
}

# server IMPL N DIR NS: start that grandmaster in NS; its PIDs in srv_pids.
server() {
	local impl=$1 n=$2 dir=$3 ns=$4 nv cv pv
	case $impl in
	ours)
		bench_ours nv cv "$ns" "$dir" network_transport L2 \
			unicast_listen 1 inhibit_multicast_service 1 \
			hybrid_e2e 1 serverOnly 1 priority1 100 \
			unicast_max_clients $((n + 16)) \
			max_unicast_peers $((n + 16))
		srv_pids=("$nv" "$cv") srv_names=(netd clockd)
		;;
	ptp4l)
		bench_ptp4l pv "$ns" "$dir" master network_transport L2 \
			unicast_listen 1 inhibit_multicast_service 1 hybrid_e2e 1
		srv_pids=("$pv") srv_names=(ptp4l)
		;;
	esac
}

# is_master IMPL DIR: the grandmaster's port is MASTER.
is_master() {
	case $1 in
	ours) "$PTPCTL" -f "$2/ptp.conf" --json status 2>/dev/null |
		python3 -c 'import json,sys; j=json.load(sys.stdin); sys.exit(0 if j["ports"][0]["state"] == "MASTER" else 1)' 2>/dev/null ;;
	ptp4l) grep -q "assuming the grand master role" "$2/ptp4l.log" 2>/dev/null ;;
	esac
}

# paired N RATE: ours and ptp4l run side by side for this row.  Run one
# after the other, the same row's ratio moved between 1.0 and 2.2 on this
# shared machine (other tenants, steal); side by side, over the same
# window, both see the same machine and two such runs agreed within 6 %.
# A row beyond SCALE_PAIR_MAX Syncs a second in all runs each alone: there
# ptp4l does not keep up, and a grandmaster that falls behind would take
# the other's CPU.
paired() {
	local n=$1 rate=$2 sps
	[ "$SCALE_IMPLS" = "ours ptp4l" ] || [ "$SCALE_IMPLS" = "ptp4l ours" ] ||
		return 1
	if [ "$rate" -ge 0 ]; then sps=$((n >> rate)); else sps=$((n << -rate)); fi
	[ "$sps" -le "$SCALE_PAIR_MAX" ]
}

# measure N RATE IMPL...: those grandmasters at once, each on a veth pair
# of its own with its own uclients; CPU over the same window; a result
# line each in results[].
measure() {
	local n=$1 rate=$2 impl i k p pair
	shift 2
	local -a impls=("$@") gs=() cs=() dirs=() ups=() pids=() names=() owner=()
	local -A c0=() c1=() w0=() w1=()
	local -a pp=()
	pair=false
	[ ${#impls[@]} -gt 1 ] && pair=true
	for k in "${!impls[@]}"; do
		impl=${impls[$k]}
		run=$((run + 1))
		gs[$k]=bsg$$r$run cs[$k]=bsc$$r$run
		dirs[$k]=$bench_tmp/$impl-$n-$rate-$run
		bench_pair "${gs[$k]}" "${cs[$k]}"
		server "$impl" "$n" "${dirs[$k]}" "${gs[$k]}"
		for i in "${!srv_pids[@]}"; do
			pids+=("${srv_pids[$i]}") names+=("${srv_names[$i]}")
			owner+=("$k")
		done
	done
	for k in "${!impls[@]}"; do
		t0=$SECONDS
		until is_master "${impls[$k]}" "${dirs[$k]}"; do
			((SECONDS - t0 > 30)) &&
				die "scale: ${impls[$k]} did not become master"
			sleep 0.5
		done
	done
	for k in "${!impls[@]}"; do
		mac=$(ip -n "${gs[$k]}" link show eth0 | awk '/ether/ { print $2 }')
		say "scale: ${impls[$k]}, $n clients, logSyncInterval $rate$($pair && echo ", side by side")"
		ip netns exec "${cs[$k]}" "$UCLIENTS" eth0 "$mac" "$n" "$rate" \
			"$MEASURE" "$WARM" >"${dirs[$k]}/uclients.json" \
			2>"${dirs[$k]}/uclients.err" &
		ups[$k]=$!
	done
	sleep "$WARM"
	for p in "${pids[@]}"; do
		c0[$p]=$(cpu_ns "$p") w0[$p]=$(wakeups "$p")
	done
	# SCALE_PERF=1: perf record of each process over MEASURE
	if [ -n "${SCALE_PERF:-}" ]; then
		for i in "${!pids[@]}"; do
			timeout -s INT "$MEASURE" perf record -q -e cpu-clock \
				-g -p "${pids[$i]}" \
				-o "${dirs[${owner[$i]}]}/${names[$i]}.perf" \
				>/dev/null 2>&1 &
			pp+=($!)
		done
	fi
	# SCALE_TRACE=S: every system call of each process for S s
	# (strace slows it: not with the CPU figures)
	if [ -n "${SCALE_TRACE:-}" ]; then
		for i in "${!pids[@]}"; do
			timeout -s INT "$SCALE_TRACE" strace -f -tt -p "${pids[$i]}" \
				-o "${dirs[${owner[$i]}]}/${names[$i]}.strace" \
				2>/dev/null &
			pp+=($!)
		done
	fi
	sleep "$MEASURE"
	for p in "${pids[@]}"; do
		c1[$p]=$(cpu_ns "$p") w1[$p]=$(wakeups "$p")
	done
	[ ${#pp[@]} -gt 0 ] && wait "${pp[@]}"
	for k in "${!impls[@]}"; do
		wait "${ups[$k]}" ||
			die "scale: uclients failed: $(cat "${dirs[$k]}/uclients.err")"
	done
	bench_alive "${pids[@]}" || die "scale: ${impls[*]}: a process exited"
	for k in "${!impls[@]}"; do
		local cpu=0 hwm=0 per=""
		for i in "${!pids[@]}"; do
			[ "${owner[$i]}" = "$k" ] || continue
			p=${pids[$i]}
			cpu=$((cpu + c1[$p] - c0[$p]))
			hwm=$((hwm + $(bench_hwm_kb "$p")))
			per+="${names[$i]}:$((c1[$p] - c0[$p])):$((w1[$p] - w0[$p])) "
		done
		results+=("$(python3 - "${impls[$k]}" "$n" "$rate" "$cpu" "$MEASURE" "$hwm" "${dirs[$k]}/uclients.json" "$pair" $per <<'PY'
import json, sys
impl, n, rate, cpu, measure, hwm, cl, pair = sys.argv[1:9]
n, cpu, measure = int(n), int(cpu), float(measure)
c = json.load(open(cl))
# per process: share of a core, and wake-ups (voluntary context
# switches) a second
procs = {}
for x in sys.argv[9:]:
    name, ns, w = x.split(":")
    procs[name] = {"cpu_cores": int(ns) / 1e9 / measure,
                   "wakeups_s": int(w) / measure}
print(json.dumps({"impl": impl, "clients": n, "log_sync": int(rate),
                  "side_by_side": pair == "true",
                  "cpu_cores": cpu / 1e9 / measure,
                  "cpu_us_per_client_s": cpu / 1e3 / measure / max(n, 1),
                  "procs": procs,
                  "peak_rss_kb": int(hwm), "uclients": c}))
PY
)")
		say "scale: ${results[-1]}"
	done
	bench_stop "${pids[@]}"
	for k in "${!impls[@]}"; do
		ip netns del "${gs[$k]}"; ip netns del "${cs[$k]}"
		keep=(); for x in "${itest_nss[@]}"; do
			[ "$x" = "${gs[$k]}" ] || [ "$x" = "${cs[$k]}" ] || keep+=("$x")
		done; itest_nss=("${keep[@]}")
	done
}

results=()
run=0
for n in $SCALE_N; do
	for rate in $SCALE_RATES; do
		if paired "$n" "$rate"; then
			for ((round = 0; round < SCALE_ROUNDS; round++)); do
				measure "$n" "$rate" $SCALE_IMPLS
			done
		else
			for impl in $SCALE_IMPLS; do
				measure "$n" "$rate" "$impl"
			done
		fi
	done
done
printf '%s\n' "${results[@]}" | python3 -c '
import json, sys
json.dump({"runs": [json.loads(l) for l in sys.stdin if l.strip()]},
          open(sys.argv[1], "w"), indent=1)' "$BENCH_OUT/scale.json"
say "scale: wrote $BENCH_OUT/scale.json"
