# lib.sh - helpers shared by the integration tests (sourced, not run).
#
# Every test makes its own network namespaces and veth pair, starts its own
# processes, and removes all of it on EXIT (also on failure).  Only PIDs the
# test started are ever signalled.  No test disciplines the real clock:
# every clock a test steers is netd's `virtual` clock.

: "${BUILD:?set BUILD to the build directory}"
NETD=$BUILD/netd/ptp-netd
CLOCKD=$BUILD/clockd/ptp-clockd

itest_pids=()
itest_nss=()
itest_dirs=()
itest_fails=0

itest_cleanup() {
	local pid ns d
	for pid in "${itest_pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${itest_pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	for ns in "${itest_nss[@]}"; do
		ip netns del "$ns" 2>/dev/null || true
	done
	# ITEST_KEEP=1 keeps the logs for a post-mortem.
	for d in "${itest_dirs[@]}"; do
		if [ -n "${ITEST_KEEP:-}" ]; then echo "kept $d"; else rm -rf "$d"; fi
	done
}
trap itest_cleanup EXIT

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; itest_fails=$((itest_fails + 1)); }

# itest_tmpdir VAR: a directory the daemons' users can traverse.
itest_tmpdir() {
	local d
	d=$(mktemp -d /tmp/ptpsep-itest.XXXXXX)
	chmod 0755 "$d"
	itest_dirs+=("$d")
	printf -v "$1" '%s' "$d"
}

# itest_pair NS_A NS_B: two namespaces joined by veth "${NS_A}-v"/"${NS_B}-v"
# named eth0 inside each, with IPv4 10.x and IPv6 ULA addresses.
itest_pair() {
	local a=$1 b=$2
	ip netns add "$a"; itest_nss+=("$a")
	ip netns add "$b"; itest_nss+=("$b")
	ip link add eth0 netns "$a" type veth peer name eth0 netns "$b"
	ip -n "$a" link set lo up
	ip -n "$b" link set lo up
	ip -n "$a" addr add 10.201.0.1/24 dev eth0
	ip -n "$b" addr add 10.201.0.2/24 dev eth0
	ip -n "$a" addr add fd20:1::1/64 dev eth0 nodad
	ip -n "$b" addr add fd20:1::2/64 dev eth0 nodad
	ip -n "$a" link set eth0 up
	ip -n "$b" link set eth0 up
}

# itest_start NS LOGFILE CMD...: run CMD in NS in the background.
itest_start() {
	local ns=$1 log=$2
	shift 2
	ip netns exec "$ns" "$@" >"$log" 2>&1 &
	itest_pids+=($!)
}

# itest_wait_file PATH SECONDS
itest_wait_file() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# itest_daemons NS DIR CONF: start netd and clockd of one node.
itest_daemons() {
	local ns=$1 dir=$2 conf=$3
	itest_start "$ns" "$dir/netd.log" "$NETD" -m -f "$conf"
	itest_wait_file "$dir/netd.sock" 10 || { fail "netd did not start in $ns"; cat "$dir/netd.log"; return 1; }
	itest_start "$ns" "$dir/clockd.log" "$CLOCKD" -m -f "$conf" ${CLOCKD_ARGS:-}
}

# itest_conf FILE DIR KEY VALUE...: a configuration with sockets in DIR.
# clockd creates its control socket after dropping to clockd_user, so that
# one lives in DIR/clockd, a directory owned by that user.
itest_conf() {
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
		for port in ${ITEST_PORTS:-eth0}; do
			echo "[$port]"
		done
	} >"$f"
}

# itest_ns NS: an empty namespace with lo up.
itest_ns() {
	ip netns add "$1"
	itest_nss+=("$1")
	ip -n "$1" link set lo up
}

# itest_link NS_A IF_A NS_B IF_B: a veth between two namespaces, both up.
itest_link() {
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3"
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# itest_wait_log FILE PATTERN SECONDS [FROM_LINE]: wait for a log line.
itest_wait_log() {
	local t0=$SECONDS from=${4:-1}
	until tail -n +"$from" "$1" 2>/dev/null | grep -q -- "$2"; do
		((SECONDS - t0 > $3)) && return 1
		sleep 0.5
	done
	return 0
}

# itest_status_field NS DIR FIELD: one field of `ptpctl status --json`.
itest_status_field() {
	ip netns exec "$1" "$BUILD/ctl/ptpctl" -f "$2/ptp.conf" --json status |
		python3 -c 'import json,sys; v=json.load(sys.stdin)[sys.argv[1]]; print(v)' "$3"
}
