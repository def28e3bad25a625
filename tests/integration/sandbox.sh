#!/bin/bash
# sandbox.sh - clockd's seccomp allow-list, and sd_notify readiness.
#
#  1. ptp-clockd --sandbox-selftest (started as root, so after the drop to
#     clockd_user): open() must fail with EACCES, then socket(AF_PACKET)
#     must kill it with SIGSYS.
#  2. A master and a slave (virtual clocks, the slave 1.5 s and +80 ppm
#     off) with the filter installed in both clockds: the slave locks, and
#     both daemons report READY=1 on $NOTIFY_SOCKET.
#  3. The slave's netd is restarted: clockd survives (no SIGSYS while it
#     reconnects) and locks again.
#
#   BUILD=build/default tests/integration/sandbox.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

LOCK_TIMEOUT=${LOCK_TIMEOUT:-60}
tag="sb$$"
m="${tag}m"; s="${tag}s"

wait_lock() {	# log, from-line, what
	local t0=$SECONDS
	until tail -n +"$(($2 + 1))" "$1" | grep >/dev/null ' s2 freq'; do
		if ((SECONDS - t0 > LOCK_TIMEOUT)); then
			fail "$3: no lock within ${LOCK_TIMEOUT}s"
			tail -15 "$1"
			return 1
		fi
		sleep 0.5
	done
	pass "$3: locked after $((SECONDS - t0)) s"
}

itest_tmpdir sdir
itest_conf "$sdir/self.conf" "$sdir"

# ---- 1. the filter kills on a forbidden call --------------------------------
"$CLOCKD" -m -f "$sdir/self.conf" --sandbox-selftest >"$sdir/self.log" 2>&1
rc=$?
if [ $rc = 77 ]; then
	echo "SKIP: no seccomp filter in this build:"; cat "$sdir/self.log"
	exit 0
fi
if [ $rc = $((128 + 31)) ]; then
	pass "socket(AF_PACKET) under the sandbox: killed by SIGSYS"
else
	fail "socket(AF_PACKET) under the sandbox: exit status $rc, not SIGSYS (159)"
	cat "$sdir/self.log"
fi
grep -q 'open() refused with EACCES' "$sdir/self.log" &&
	pass "open() under the sandbox: EACCES" ||
	{ fail "open() was not refused"; cat "$sdir/self.log"; }
grep -q 'running as ptpsep-clockd' "$sdir/self.log" ||
	{ fail "the self-test did not run after the privilege drop"; cat "$sdir/self.log"; }

# ---- 2. normal operation with the filter ------------------------------------
itest_pair "$m" "$s"
itest_tmpdir mdir
itest_tmpdir ldir
itest_conf "$mdir/ptp.conf" "$mdir" network_transport UDPv4 priority1 100
itest_conf "$ldir/ptp.conf" "$ldir" network_transport UDPv4 clientOnly 1 \
	virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000

# A notify socket like systemd's, writable by both daemons' users.
python3 - "$ldir/notify" >"$ldir/notify.log" 2>&1 <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o666)
while True:
    d, _ = s.recvfrom(4096)
    print(d.decode(errors="replace"), flush=True)
PY
itest_pids+=($!)
itest_wait_file "$ldir/notify" 10 || fail "notify listener did not start"

itest_daemons "$m" "$mdir" "$mdir/ptp.conf" || exit 1
export NOTIFY_SOCKET=$ldir/notify
itest_daemons "$s" "$ldir" "$ldir/ptp.conf" || exit 1
unset NOTIFY_SOCKET
n=${#itest_pids[@]}
snetd=${itest_pids[$((n - 2))]}
sclockd=${itest_pids[$((n - 1))]}

wait_lock "$ldir/clockd.log" 0 "slave with the sandbox"
for d in "$mdir" "$ldir"; do
	grep -q 'sandbox: seccomp allow-list installed' "$d/clockd.log" ||
		fail "$d: clockd did not install the sandbox"
done
ready=$(grep -c '^READY=1$' "$ldir/notify.log")
if [ "$ready" = 2 ]; then
	pass "netd and clockd sent READY=1 (sd_notify)"
else
	fail "READY=1 received $ready times, expected 2"; cat "$ldir/notify.log"
fi

# ---- 3. netd restarts: clockd reconnects inside the sandbox -----------------
kill "$snetd"
wait "$snetd" 2>/dev/null
mark=$(wc -l <"$ldir/clockd.log")
sleep 2
itest_start "$s" "$ldir/netd2.log" "$NETD" -m -f "$ldir/ptp.conf"
itest_wait_file "$ldir/netd.sock" 10 || fail "netd did not restart"
wait_lock "$ldir/clockd.log" "$mark" "slave after a netd restart"
if kill -0 "$sclockd" 2>/dev/null; then
	pass "clockd survived the netd restart"
else
	wait "$sclockd"; fail "clockd died (status $?)"
fi
grep -q 'SIGSYS\|Bad system call' "$ldir/clockd.log" &&
	fail "a SIGSYS in the slave's clockd log"

echo "sandbox: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
