#!/bin/bash
# memory.sh - the daemons' private memory once running (issue 13).
#
# A master and a slave (L2, E2E, virtual clocks, the slave 1.5 s and
# +80 ppm off), 16 Syncs and Delay_Reqs a second; once the slave has
# locked, for each of the four daemons:
#   - RssAnon (heap, stacks, bss, the libraries' written data) within a
#     budget: netd 320 KiB, clockd 320 KiB.  They were 336 and 492 with
#     lib/ipc.c's 64 KiB thread-local decode arena, all of it resident
#     because glibc clears every thread's TLS at start; 284 and 382
#     without it, and clockd 284 once clock_init() stopped clearing the
#     32 port slots of struct clockd (108 KiB) that a clock does not use
#     (x86-64).  ptp4l's is about 160.
#   - the heap's resident pages within 96 KiB: what start-up freed (the
#     configuration buffer, stdio's, the seccomp filter as libseccomp
#     built it) is given back by malloc_trim() before the loop; clockd's
#     heap was 108 KiB without it, 56 with.
#   - in the default build, where configure links the daemons statically
#     (static-pie), the peak RSS (VmHWM) of netd + clockd on each side
#     within 3690 KiB: 1.5x ptp4l 3.1.1's 2460 KiB under the same load
#     (issue 13's target; tests/bench/results/20261203-1656.md).  Static
#     it is about 3000 (1440-1470 + 1520-1540); linked dynamically 5728,
#     each process mapping libc, libevent, protobuf-c and libcap-ng again,
#     so a --disable-static-daemons build is not held to it (it says so).
# A sanitizer build has shadow memory and redzones: the budgets do not
# apply, and it says so and stops.
#
#   BUILD=build/default tests/integration/memory.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

LOCK_TIMEOUT=${LOCK_TIMEOUT:-60}
NETD_ANON_KB=320
CLOCKD_ANON_KB=320
HEAP_KB=96
PAIR_HWM_KB=3690
static=no
grep -q '^#define PTPSEP_STATIC_DAEMONS 1' "$BUILD/config.h" 2>/dev/null &&
	static=yes
tag="mem$$"
m="${tag}m"; s="${tag}s"

if readelf -d "$NETD" "$CLOCKD" 2>/dev/null | grep >/dev/null 'libasan\|libubsan' ||
	nm "$CLOCKD" 2>/dev/null | grep >/dev/null '__asan_init\|__ubsan_'; then
	echo "SKIP: a sanitizer build: its memory is not the daemons' own"
	exit 0
fi

# status_kb PID FIELD: a /proc/PID/status field, kB.
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
# heap_kb PID: resident kB of the [heap] mapping (0 when there is none).
heap_kb() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { h = ($6 == "[heap]") }
	     h && $1 == "Rss:" { n += $2 } END { print n + 0 }' "/proc/$1/smaps"
}

itest_pair "$m" "$s"
itest_tmpdir mdir
itest_tmpdir ldir
common=(network_transport L2 delay_mechanism E2E logSyncInterval -4
	logMinDelayReqInterval -4)
itest_conf "$mdir/ptp.conf" "$mdir" "${common[@]}" priority1 100
itest_conf "$ldir/ptp.conf" "$ldir" "${common[@]}" clientOnly 1 \
	virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
itest_daemons "$m" "$mdir" "$mdir/ptp.conf" || exit 1
itest_daemons "$s" "$ldir" "$ldir/ptp.conf" || exit 1
n=${#itest_pids[@]}
procs=("master netd ${itest_pids[$((n - 4))]}" "master clockd ${itest_pids[$((n - 3))]}"
	"slave netd ${itest_pids[$((n - 2))]}" "slave clockd ${itest_pids[$((n - 1))]}")

t0=$SECONDS
until grep -q ' s2 freq\|rms .* s2$' "$ldir/clockd.log"; do
	if ((SECONDS - t0 > LOCK_TIMEOUT)); then
		fail "slave: no lock within ${LOCK_TIMEOUT}s"
		tail -15 "$ldir/clockd.log"
		exit 1
	fi
	sleep 0.5
done
sleep 2	# a few samples in the loop, past start-up

declare -A pair_hwm=([master]=0 [slave]=0)
for x in "${procs[@]}"; do
	read -r side proc pid <<<"$x"
	kill -0 "$pid" 2>/dev/null || { fail "$side $proc exited"; continue; }
	anon=$(status_kb "$pid" RssAnon) hwm=$(status_kb "$pid" VmHWM)
	pair_hwm[$side]=$((pair_hwm[$side] + hwm))
	heap=$(heap_kb "$pid")
	[ "$proc" = netd ] && budget=$NETD_ANON_KB || budget=$CLOCKD_ANON_KB
	if [ "$anon" -le "$budget" ]; then
		pass "$side $proc: RssAnon $anon KiB (budget $budget; VmHWM $hwm)"
	else
		fail "$side $proc: RssAnon $anon KiB, over its budget of $budget"
	fi
	if [ "$heap" -le "$HEAP_KB" ]; then
		pass "$side $proc: heap $heap KiB resident (at most $HEAP_KB)"
	else
		fail "$side $proc: heap $heap KiB resident, over $HEAP_KB"
	fi
done

for side in master slave; do
	h=${pair_hwm[$side]}
	if [ "$static" != yes ]; then
		echo "INFO: $side netd + clockd: VmHWM $h KiB; daemons linked dynamically (--disable-static-daemons or no static libraries): the $PAIR_HWM_KB KiB budget is the static build's"
	elif [ "$h" -le "$PAIR_HWM_KB" ]; then
		pass "$side netd + clockd: VmHWM $h KiB (budget $PAIR_HWM_KB, 1.5x ptp4l's)"
	else
		fail "$side netd + clockd: VmHWM $h KiB, over $PAIR_HWM_KB (1.5x ptp4l's)"
	fi
done

echo "memory: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
