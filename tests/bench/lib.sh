# lib.sh - helpers shared by the benchmarks in tests/bench/ (sourced, not run).
#
# Like the integration tests, every benchmark makes its own network
# namespaces and veth pairs, starts its own processes, and removes all of it
# on EXIT, also on failure or ^C.  Only PIDs the script started are
# signalled, and a PID is forgotten as soon as it has been reaped, so a
# recycled PID is never signalled.  No clock of this machine is steered:
# our daemons discipline netd's `virtual` clock, and every ptp4l runs with
# free_running 1 (it measures, never adjusts).
#
#   BUILD      the build directory (required)
#   BENCH_OUT  where the script writes its JSON result (required)
#   BENCH_MODE full (default) or smoke: a few seconds per configuration

: "${BUILD:?set BUILD to the build directory}"
: "${BENCH_OUT:?set BENCH_OUT to the result directory}"
BENCH_MODE=${BENCH_MODE:-full}
NETD=$BUILD/netd/ptp-netd
CLOCKD=$BUILD/clockd/ptp-clockd
PTPCTL=$BUILD/ctl/ptpctl
PTP4L=${PTP4L:-ptp4l}
bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

bench_pids=()
bench_nss=()
bench_tmp=$(mktemp -d /tmp/ptpsep-bench.XXXXXX)
chmod 0755 "$bench_tmp"

bench_cleanup() {
	local pid ns
	for pid in "${bench_pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${bench_pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	bench_pids=()
	for ns in "${bench_nss[@]}"; do
		ip netns del "$ns" 2>/dev/null || true
	done
	if [ -n "${BENCH_KEEP:-}" ]; then
		echo "kept $bench_tmp" >&2
	else
		rm -rf "$bench_tmp"
	fi
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

say() { echo "bench: $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (network namespaces)"
[ -x "$NETD" ] && [ -x "$CLOCKD" ] && [ -x "$PTPCTL" ] ||
	die "no ptp-netd/ptp-clockd/ptpctl under $BUILD (build first)"
mkdir -p "$BENCH_OUT"

# bench_pair NS_A NS_B: two namespaces joined by one veth, eth0 in each,
# 10.203.0.1 and 10.203.0.2.
bench_pair() {
	local a=$1 b=$2
	ip netns add "$a" && bench_nss+=("$a")
	ip netns add "$b" && bench_nss+=("$b")
	ip link add eth0 netns "$a" type veth peer name eth0 netns "$b"
	ip -n "$a" link set lo up
	ip -n "$b" link set lo up
	ip -n "$a" addr add 10.203.0.1/24 dev eth0
	ip -n "$b" addr add 10.203.0.2/24 dev eth0
	ip -n "$a" link set eth0 up
	ip -n "$b" link set eth0 up
}

# bench_start VAR NS LOG CMD...: run CMD in NS in the background; its PID
# (ip netns exec execs the command, so it is the command's own) in VAR.
bench_start() {
	local _bs_var=$1 _bs_ns=$2 _bs_log=$3
	shift 3
	ip netns exec "$_bs_ns" "$@" >"$_bs_log" 2>&1 &
	bench_pids+=($!)
	printf -v "$_bs_var" '%s' "$!"
}

# bench_stop PID...: stop processes this script started, reap them, and
# forget their PIDs.
bench_stop() {
	local pid p keep=()
	for pid in "$@"; do
		[ -n "$pid" ] && kill "$pid" 2>/dev/null
	done
	for pid in "$@"; do
		[ -n "$pid" ] && wait "$pid" 2>/dev/null
	done
	for p in "${bench_pids[@]}"; do
		for pid in "$@"; do [ "$p" = "$pid" ] && continue 2; done
		keep+=("$p")
	done
	bench_pids=("${keep[@]}")
}

bench_wait_file() {	# PATH SECONDS
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# bench_conf FILE DIR KEY VALUE...: a ptpsep configuration with its
# sockets in DIR, the virtual clock, software time stamps, port eth0.
bench_conf() {
	local f=$1 dir=$2
	shift 2
	mkdir -p "$dir/clockd"
	chown ptpsep-clockd "$dir/clockd" 2>/dev/null || true
	{
		echo "[global]"
		echo "clock_device virtual"
		echo "time_stamping software"
		echo "netd_socket $dir/netd.sock"
		echo "netd_ctl_socket $dir/netd-ctl.sock"
		echo "clockd_ctl_socket $dir/clockd/ctl.sock"
		echo "pmc_socket $dir/pmc.sock"
		while [ $# -ge 2 ]; do
			echo "$1 $2"
			shift 2
		done
		echo "[eth0]"
	} >"$f"
}

# bench_ours NETD_VAR CLOCKD_VAR NS DIR KEY VALUE...: configure and start
# netd and clockd of one node (sockets, logs and ptp.conf in DIR).
bench_ours() {
	local _bo_nv=$1 _bo_cv=$2 _bo_ns=$3 _bo_dir=$4
	shift 4
	mkdir -p "$_bo_dir"
	chmod 0755 "$_bo_dir"
	bench_conf "$_bo_dir/ptp.conf" "$_bo_dir" "$@"
	bench_start "$_bo_nv" "$_bo_ns" "$_bo_dir/netd.log" "$NETD" -m -f "$_bo_dir/ptp.conf"
	bench_wait_file "$_bo_dir/netd.sock" 10 ||
		{ cat "$_bo_dir/netd.log" >&2; die "netd did not start in $_bo_ns"; }
	bench_start "$_bo_cv" "$_bo_ns" "$_bo_dir/clockd.log" "$CLOCKD" -m -f "$_bo_dir/ptp.conf"
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
			echo "$1 $2"
			shift 2
		done
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

# bench_pkt_protos NS: the protocols of the packet sockets open in NS, as
# /proc/net/packet shows them (0003 = ETH_P_ALL, 88f7 = ETH_P_1588).
bench_pkt_protos() {
	ip netns exec "$1" awk 'NR > 1 { print $4 }' /proc/net/packet |
		sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }'
}
