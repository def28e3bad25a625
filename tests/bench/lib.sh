# lib.sh - what the benchmarks in tests/bench/ add to the integration
# tests' helpers (sourced, not run).
#
# The namespaces, veth pairs, configurations, daemons and the clean-up on
# EXIT are tests/integration/lib.sh's, sourced here: one harness, so that
# a benchmark runs the daemons exactly as the tests do.  This file adds
# what only a benchmark needs: a PID per process started (to measure it and
# to stop it alone), ptp4l, and readers of /proc.  Only PIDs the script
# started are signalled, and a PID is forgotten as soon as it has been
# reaped.  No clock of this machine is steered: our daemons discipline
# netd's `virtual` clock, and every ptp4l runs with free_running 1 (it
# measures, never adjusts).
#
#   BUILD       the build directory (required)
#   BENCH_OUT   where the script writes its JSON result (required)
#   BENCH_MODE  full (default) or smoke: a few seconds per configuration
#   BENCH_KEEP  set: keep the logs and configurations (ITEST_KEEP)
#   PTP4L       the ptp4l to run (default: ptp4l on PATH)

: "${BUILD:?set BUILD to the build directory}"
: "${BENCH_OUT:?set BENCH_OUT to the result directory}"
BENCH_MODE=${BENCH_MODE:-full}
bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -n "${BENCH_KEEP:-}" ] && ITEST_KEEP=1
. "$bench_here/../integration/lib.sh"
PTPCTL=$BUILD/ctl/ptpctl
PTP4L=${PTP4L:-ptp4l}
trap 'exit 130' INT TERM

say() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (network namespaces)"
[ -x "$NETD" ] && [ -x "$CLOCKD" ] && [ -x "$PTPCTL" ] ||
	die "no ptp-netd/ptp-clockd/ptpctl under $BUILD (build first)"
mkdir -p "$BENCH_OUT"
itest_tmpdir bench_tmp

# bench_pair NS_A NS_B: itest_pair (eth0 in each, 10.201.0.1 and
# 10.201.0.2), or die.
bench_pair() {
	itest_pair "$1" "$2" || die "cannot make namespaces $1 and $2"
}

# bench_start VAR NS LOG CMD...: itest_start, and the PID in VAR (ip netns
# exec execs the command, so it is the command's own).
bench_start() {
	local _bs_var=$1
	shift
	itest_start "$@"
	printf -v "$_bs_var" '%s' "${itest_pids[-1]}"
}

# bench_stop PID...: stop processes this script started, reap them, and
# forget their PIDs (the namespaces stay; itest_stop ends everything).
bench_stop() {
	local pid p keep=()
	itest_end "$@"
	for p in "${itest_pids[@]}"; do
		for pid in "$@"; do [ "$p" = "$pid" ] && continue 2; done
		keep+=("$p")
	done
	itest_pids=("${keep[@]}")
}

# bench_ours NETD_VAR CLOCKD_VAR NS DIR KEY VALUE...: itest_conf and
# itest_daemons for one node (ptp.conf, sockets and logs in DIR), the two
# PIDs in the variables.  BENCH_BUILD=DIR runs that build's daemons
# instead of $BUILD's (cpu.sh's "before" figures).
bench_ours() {
	local _bo_nv=$1 _bo_cv=$2 _bo_ns=$3 _bo_dir=$4 NETD=$NETD CLOCKD=$CLOCKD
	shift 4
	if [ -n "${BENCH_BUILD:-}" ]; then
		NETD=$BENCH_BUILD/netd/ptp-netd CLOCKD=$BENCH_BUILD/clockd/ptp-clockd
	fi
	mkdir -p "$_bo_dir"
	chmod 0755 "$_bo_dir"
	itest_conf "$_bo_dir/ptp.conf" "$_bo_dir" "$@"
	itest_daemons "$_bo_ns" "$_bo_dir" "$_bo_dir/ptp.conf" ||
		die "netd did not start in $_bo_ns"
	printf -v "$_bo_nv" '%s' "${itest_pids[-2]}"
	printf -v "$_bo_cv" '%s' "${itest_pids[-1]}"
}

# bench_ptp4l PID_VAR NS DIR ROLE KEY VALUE...: ptp4l on eth0 of NS with
# software time stamps, its own UDS address in DIR, and free_running 1 in
# every role (it must never touch this machine's clock).  ROLE is master
# (masterOnly) or slave (slaveOnly).
bench_ptp4l() {
	local _bp_var=$1 _bp_ns=$2 dir=$3 role=$4
	shift 4
	mkdir -p "$dir"
	{
		echo "[global]"
		echo "free_running 1"
		echo "time_stamping software"
		echo "uds_address $dir/ptp4l.sock"
		echo "logging_level 6"
		echo "verbose 1"
		echo "use_syslog 0"
		case " $* " in
		*" summary_interval "*) ;;
		*) echo "summary_interval 0" ;;
		esac
		echo "tx_timestamp_timeout 100"
		if [ "$role" = master ]; then
			echo "masterOnly 1"
			echo "priority1 100"
		else
			echo "slaveOnly 1"
		fi
		while [ $# -ge 2 ]; do
			case $1 in
			free_running|kernel_leap) die "bench_ptp4l: $1 is fixed" ;;
			esac
			echo "$1 $2"
			shift 2
		done
		# kernel_leap 0: with leap61 announced a ptp4l on CLOCK_REALTIME
		# sets STA_INS on this machine's clock even when free-running.
		echo "kernel_leap 0"
	} >"$dir/ptp4l.conf"
	grep -q '^free_running 1$' "$dir/ptp4l.conf" || die "ptp4l without free_running"
	bench_start "$_bp_var" "$_bp_ns" "$dir/ptp4l.log" "$PTP4L" -f "$dir/ptp4l.conf" \
		-i eth0 -S -m
}

# bench_cpu_ticks PID: utime + stime of PID in clock ticks.
bench_cpu_ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# bench_hwm_kb PID: peak resident set size (VmHWM) in kB.
bench_hwm_kb() {
	awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"
}

# bench_alive PID...: all still running?
bench_alive() {
	local pid
	for pid in "$@"; do
		kill -0 "$pid" 2>/dev/null || return 1
	done
}

# bench_perf_each PREFIX EXT SECONDS ARG...: `perf ARG... -p PID -o
# PREFIX-SIDE-PROC.EXT -- sleep SECONDS` for every SIDE:PROC:PID of the
# array bench_procs, all at once; returns when all are done.
bench_perf_each() {
	local prefix=$1 ext=$2 secs=$3 x side proc pid sp=()
	shift 3
	for x in "${bench_procs[@]}"; do
		IFS=: read -r side proc pid <<<"$x"
		perf "$@" -p "$pid" -o "$prefix-$side-$proc.$ext" -- sleep "$secs" \
			>/dev/null 2>&1 &
		sp+=($!)
	done
	wait "${sp[@]}"
}

# bench_pkt_protos NS: the protocols of the packet sockets open in NS, as
# /proc/net/packet shows them (0003 = ETH_P_ALL, 88f7 = ETH_P_1588).
bench_pkt_protos() {
	ip netns exec "$1" awk 'NR > 1 { print $4 }' /proc/net/packet |
		sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }'
}
