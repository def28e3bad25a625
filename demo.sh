#!/bin/bash
# demo.sh - install what is missing, build, and show ptpsep at work: a
# grandmaster and a slave in two network namespaces joined by a veth pair.
# The slave's clock starts 1.5 s and +80 ppm off; watch it step, then lock.
#
#   sudo ./demo.sh            (about a minute)
#
# Every clock here is ptp-netd's `virtual` clock: the machine's real clock
# is never stepped or slewed.  Traffic stays inside the two namespaces the
# demo creates.  Everything the demo starts or creates (processes,
# namespaces, the temporary directory, the accounts if it had to add them)
# is removed on exit, also on Ctrl-C.  The build stays in build/demo.
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
LOCKED_SECONDS=${LOCKED_SECONDS:-10}	# how long to show the locked slave
LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}

if [ "$(id -u)" != 0 ]; then
	echo "demo.sh: run as root (sudo ./demo.sh): it installs packages and creates network namespaces" >&2
	exit 2
fi

# ---- dependencies and build ---------------------------------------------------
pkgs=(build-essential autoconf automake pkg-config libevent-dev
      libprotobuf-c-dev protobuf-c-compiler libcap-ng-dev libcmocka-dev
      libseccomp-dev iproute2 procps)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "demo.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "demo.sh: building in build/demo"
# A configure of this tree is kept up to date by make itself afterwards.
[ -x configure ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
mkdir -p build/demo
(cd build/demo && { [ -f Makefile ] || "$top/configure" -q; } && make -s -j"$(nproc)" >/dev/null)
b=$top/build/demo
NETD=$b/netd/ptp-netd
CLOCKD=$b/clockd/ptp-clockd
PTPCTL=$b/ctl/ptpctl

# ---- clean-up of everything below ---------------------------------------------
pids=()
nss=()
users=()
work=
cleanup() {
	local rc=$? pid
	trap - INT TERM EXIT
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	for ns in "${nss[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
	[ -n "$work" ] && rm -rf "$work"
	for u in "${users[@]}"; do userdel "$u" 2>/dev/null || true; done
	echo "demo.sh: cleaned up"
	exit "$rc"
}
trap cleanup EXIT
trap 'echo; echo "demo.sh: interrupted"; exit 130' INT TERM

# The daemons drop to these accounts (what sysusers.d/ptpsep.conf creates
# on an installed system); added only if missing, and removed again.
for u in ptpsep-netd ptpsep-clockd; do
	if ! id -u "$u" >/dev/null 2>&1; then
		useradd --system --no-create-home --home-dir /nonexistent \
			--shell /usr/sbin/nologin "$u"
		users+=("$u")
	fi
done

# ---- two namespaces, one veth -------------------------------------------------
gm=ptpsep-demo-gm
sl=ptpsep-demo-sl
for ns in $gm $sl; do
	ip netns del "$ns" 2>/dev/null || true	# a leftover of a killed run
	ip netns add "$ns"; nss+=("$ns")
	ip -n "$ns" link set lo up
done
ip link add eth0 netns $gm type veth peer name eth0 netns $sl
ip -n $gm addr add 10.211.0.1/24 dev eth0
ip -n $sl addr add 10.211.0.2/24 dev eth0
ip -n $gm link set eth0 up
ip -n $sl link set eth0 up

work=$(mktemp -d /tmp/ptpsep-demo.XXXXXX)
chmod 0755 "$work"
conf() {	# node, extra "key value" lines...
	local d=$work/$1
	shift
	mkdir -p "$d/clockd"
	chown ptpsep-clockd "$d/clockd"		# clockd binds there after its drop
	{
		echo "[global]"
		echo "clock_device		virtual"
		echo "time_stamping		software"
		echo "network_transport	UDPv4"
		echo "netd_socket		$d/netd.sock"
		echo "netd_ctl_socket		$d/netd-ctl.sock"
		echo "clockd_ctl_socket	$d/clockd/ctl.sock"
		echo "pmc_socket		$d/clockd/pmc.sock"
		printf '%s\n' "$@"
		echo "[eth0]"
	} >"$d/ptp.conf"
}
conf gm "priority1		100"
conf sl "clientOnly		1" \
	"virtual_clock_offset_ns	1500000000" \
	"virtual_clock_freq_ppb		80000"

start() {	# ns, node
	local ns=$1 d=$work/$2 i
	ip netns exec "$ns" "$NETD" -m -f "$d/ptp.conf" >"$d/netd.log" 2>&1 &
	pids+=($!)
	for ((i = 0; i < 100; i++)); do [ -S "$d/netd.sock" ] && break; sleep 0.1; done
	[ -S "$d/netd.sock" ] || { echo "demo.sh: ptp-netd did not start:"; cat "$d/netd.log"; exit 1; }
	ip netns exec "$ns" "$CLOCKD" -m -f "$d/ptp.conf" >"$d/clockd.log" 2>&1 &
	pids+=($!)
}

cat <<MSG

== Two network namespaces, $gm (10.211.0.1) and $sl (10.211.0.2),
   joined by a veth pair.  Each runs ptp-netd (root at start, then
   ptpsep-netd with only CAP_NET_RAW/CAP_NET_BIND_SERVICE) and ptp-clockd
   (ptpsep-clockd, no capabilities, seccomp sandbox).  PTP over UDPv4, E2E.
   The grandmaster's clock is netd's virtual clock; the slave's virtual
   clock starts 1.5 s ahead and 80 ppm fast.

MSG
start $gm gm
start $sl sl
sleep 1
grep -h 'running as\|sandbox' "$work/gm/netd.log" "$work/sl/clockd.log" | sed 's/^/   /'
echo

# ---- watch the slave ---------------------------------------------------------
status() {
	# ptpctl status of the slave's clockd: port state, grandmaster, offset,
	# path delay, frequency, servo state.
	"$PTPCTL" -f "$work/sl/ptp.conf" status 2>&1 | sed 's/^/   /' || true
}
t0=$SECONDS
locked_at=
shown=0
while :; do
	now=$((SECONDS - t0))
	echo "-- t=${now}s  ptpctl status (slave)"
	status
	# The servo's own lines since the last look (ptp4l-like).
	tail -n +"$((shown + 1))" "$work/sl/clockd.log" |
		grep -E 'master offset|stepping' | tail -3 | sed 's/^/   clockd: /' || true
	shown=$(wc -l <"$work/sl/clockd.log")
	if [ -z "$locked_at" ] && grep -q ' s2 freq' "$work/sl/clockd.log"; then
		locked_at=$now
		echo "== the slave stepped its clock and locked after ${now}s"
	fi
	if [ -n "$locked_at" ] && ((now - locked_at >= LOCKED_SECONDS)); then
		break
	fi
	if ((now > LOCK_TIMEOUT)); then
		echo "demo.sh: the slave did not lock within ${LOCK_TIMEOUT}s; its log:"
		tail -20 "$work/sl/clockd.log"
		exit 1
	fi
	sleep 2
done

# ---- result ------------------------------------------------------------------
echo
echo "== result"
src='ptpctl status'
json=$("$PTPCTL" -f "$work/sl/ptp.conf" --json status 2>/dev/null || true)
off=$(sed -n 's/.*"offset_ns": *\(-\{0,1\}[0-9]*\).*/\1/p' <<<"$json")
dly=$(sed -n 's/.*"mean_path_delay_ns": *\(-\{0,1\}[0-9]*\).*/\1/p' <<<"$json")
if [ -z "$off" ] || [ -z "$dly" ]; then
	# ptpctl could not answer: take the servo's last line instead.
	last=$(grep ' s2 freq' "$work/sl/clockd.log" | tail -1); src="the servo's last line"
	off=$(awk '{ for (i = 1; i < NF; i++) if ($i == "offset") print $(i + 1) }' <<<"$last")
	dly=$(awk '{ for (i = 1; i < NF; i++) if ($i == "delay") print $(i + 1) }' <<<"$last")
fi
steps=$(grep -c 'stepping the clock' "$work/sl/clockd.log" || true)
echo "   final offset from the grandmaster: ${off:-?} ns ($src)"
echo "   mean path delay:                   ${dly:-?} ns"
# The servo's samples since the lock, without the ones its spike filter
# kept out (a Sync delivered late on a busy host).
grep ' s2 freq' "$work/sl/clockd.log" | awk '
	{ for (i = 1; i < NF; i++) if ($i == "offset") o = $(i + 1);
	  n++; sq += o * o; a = o < 0 ? -o : o; if (a > mx) mx = a }
	END { if (n) printf "   locked samples: %d, offset rms %.0f ns, max |offset| %d ns\n", n, sqrt(sq / n), mx }'
echo "   clock steps: $steps (the first correction of 1.5 s), then frequency only"
echo "   the real clock of this machine was not touched (virtual clocks)"
