#!/bin/bash
# priv.sh - the privilege drop of both daemons (lib/priv.c) against the
# kernel (root).
#
#  1. priv_test forks one child per combination of capabilities netd keeps;
#     each child unshares its own network namespace (so its test sockets
#     touch nothing), drops to ptpsep-netd (twice after being handed
#     ambient capabilities) and checks /proc/self/status and what the kept
#     capabilities allow.
#  2. The real ptp-clockd, started as root and started as ptpsep-clockd
#     through setpriv the way a service manager may (ambient capabilities,
#     a full or a partial bounding set): once past its privilege drop it
#     either shows all five capability sets 0 in /proc/PID/status, or it
#     has exited non-zero naming the capabilities it could not give up.
#     Which of the two is fixed per case: a full bounding set cannot be
#     emptied without CAP_SETPCAP, so clockd must refuse; with CAP_SETPCAP
#     handed down, or an empty bounding set (the systemd unit's
#     CapabilityBoundingSet=), it must run with nothing; and so under the
#     unit's own conditions, where capset() fails with EPERM
#     (SystemCallFilter=~@privileged).
#  3. The real ptp-netd with sync_system_clock 1 keeps CAP_SYS_TIME only
#     with system_clock_device system (no clock adjusted: no clockd).
# clockd needs no netd here: it gets past the drop and retries netd.  It
# uses no network at all (its seccomp filter allows AF_UNIX only).
# check.sh creates the users.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

prog="$BUILD/tests/integration/priv_test"

[ "$(id -u)" = 0 ] || { echo "priv.sh: needs root"; exit 77; }
[ -x "$prog" ] || { echo "priv.sh: $prog not built"; exit 1; }
[ -x "$CLOCKD" ] || { echo "priv.sh: $CLOCKD not built"; exit 1; }
for u in ptpsep-netd ptpsep-clockd; do
	id -u "$u" >/dev/null 2>&1 ||
		{ echo "priv.sh: user $u missing (check.sh creates it)"; exit 1; }
done
command -v setpriv >/dev/null || { echo "priv.sh: setpriv missing"; exit 1; }

# ---- 1. netd's drop, in-process -------------------------------------------
if "$prog" ptpsep-netd; then
	pass "priv_test: netd's drop keeps exactly the named minimum"
else
	fail "priv_test"
fi

# ---- 2. clockd, the real binary --------------------------------------------
itest_tmpdir dir
itest_conf "$dir/ptp.conf" "$dir"
cuid=$(id -u ptpsep-clockd)
cgid=$(id -g ptpsep-clockd)

# The clockd of the case running now; stopped on EXIT too.  Not kept in
# itest_pids: each case waits for its clockd, so its PID is free again.
cpid=""
trap '[ -n "$cpid" ] && kill "$cpid" 2>/dev/null; itest_cleanup' EXIT

# Our own bounding set: setpriv hands it to clockd unless told otherwise.
bnd=$(awk '/^CapBnd:/ { print $2 }' /proc/self/status)

# clockd_case NAME EXPECT(run|refuse) NAMES BND CMD...: start clockd with
# CMD in front of it.  run: after its sandbox is installed (well past the
# drop) /proc/PID/status must show uid/gid ptpsep-clockd, CapInh = CapPrm =
# CapEff = CapBnd = CapAmb = 0 and NoNewPrivs 1.  refuse: it must exit
# non-zero within 10 s, log "refusing to run", and its "CapBnd ... still
# holds" line must show the bounding set BND (hex), one name per bit of it,
# among them every capability in NAMES.
clockd_case() {
	local name=$1 expect=$2 names=$3 want_bnd=$4 log pid st t0 rc sets n
	local line hex list
	shift 4
	log="$dir/clockd.$((++ncase)).log"
	: >"$log"
	"$@" "$CLOCKD" -m -f "$dir/ptp.conf" >"$log" 2>&1 &
	pid=$!
	cpid=$pid
	t0=$SECONDS
	while kill -0 "$pid" 2>/dev/null &&
	    ! grep -q 'seccomp allow-list installed' "$log"; do
		((SECONDS - t0 > 10)) && break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null && grep -q 'seccomp allow-list installed' "$log"; then
		st=$(cat "/proc/$pid/status")
		sets=$(grep -E '^(Uid|Cap[A-Za-z]+|NoNewPrivs):' <<<"$st" | tr -s '\t' ' ' | tr '\n' ' ')
		kill "$pid"; wait "$pid" 2>/dev/null; cpid=""
		echo "    $name: running: $sets"
		if [ "$expect" != run ]; then
			fail "$name: clockd runs, it should have refused"
			return
		fi
		n=0
		for f in CapInh CapPrm CapEff CapBnd CapAmb; do
			grep -q "^$f:[[:space:]]*0000000000000000$" <<<"$st" || n=$((n + 1))
		done
		grep -q '^NoNewPrivs:[[:space:]]*1$' <<<"$st" || n=$((n + 1))
		[ "$(awk '/^Uid:/ { print $2 $3 $4 $5 }' <<<"$st")" = "$cuid$cuid$cuid$cuid" ] || n=$((n + 1))
		[ "$(awk '/^Gid:/ { print $2 $3 $4 $5 }' <<<"$st")" = "$cgid$cgid$cgid$cgid" ] || n=$((n + 1))
		if [ $n = 0 ]; then
			pass "$name: clockd runs as ptpsep-clockd, all five capability sets 0, NoNewPrivs 1"
		else
			fail "$name: clockd runs with: $sets"
		fi
		return
	fi
	wait "$pid"; rc=$?; cpid=""
	echo "    $name: exit status $rc:"; sed 's/^/      /' "$log"
	if [ "$expect" != refuse ]; then
		fail "$name: clockd exited ($rc), it should run with no capabilities"
		return
	fi
	n=0
	[ $rc != 0 ] && [ $rc -lt 128 ] || n=$((n + 1))
	grep -q 'refusing to run' "$log" || n=$((n + 1))
	line=$(grep -o 'CapBnd [0-9a-f]* still holds [a-z0-9_,]*' "$log")
	hex=$(awk '{ print $2 }' <<<"$line")
	list=$(awk '{ print $5 }' <<<"$line")
	[ -n "$hex" ] && [ $((16#$hex)) = $((16#$want_bnd)) ] ||
		{ echo "    CapBnd '$hex', want $want_bnd"; n=$((n + 1)); }
	# one name for each bit of the set
	[ -n "$hex" ] && [ "$(tr ',' '\n' <<<"$list" | grep -c .)" = \
	    "$(python3 -c 'import sys; print(bin(int(sys.argv[1], 16)).count("1"))' "$hex")" ] ||
		{ echo "    not one name per capability: $list"; n=$((n + 1)); }
	for c in $names; do
		tr ',' '\n' <<<"$list" | grep >/dev/null -x "$c" || { echo "    $c not named"; n=$((n + 1)); }
	done
	if [ $n = 0 ]; then
		pass "$name: clockd refused to start (status $rc), naming CapBnd $hex ($names among them)"
	else
		fail "$name: refusal not as expected"
	fi
}
ncase=0
sp=(setpriv --reuid=ptpsep-clockd --regid=ptpsep-clockd --clear-groups)

clockd_case "as root" run "" 0 env
clockd_case "setpriv, ambient fowner,net_raw, full bounding set" refuse \
	"fowner net_raw" "$bnd" \
	"${sp[@]}" --inh-caps=+fowner,+net_raw --ambient-caps=+fowner,+net_raw
clockd_case "setpriv, ambient fowner,net_raw, bounding set fowner,net_raw" refuse \
	"fowner net_raw" 2008 \
	"${sp[@]}" --bounding-set=-all,+fowner,+net_raw \
	--inh-caps=+fowner,+net_raw --ambient-caps=+fowner,+net_raw
clockd_case "setpriv, ambient fowner,net_raw,setpcap, full bounding set" run "" 0 \
	"${sp[@]}" --inh-caps=+fowner,+net_raw,+setpcap \
	--ambient-caps=+fowner,+net_raw,+setpcap
clockd_case "setpriv, empty bounding set" run "" 0 \
	"${sp[@]}" --bounding-set=-all

# As systemd starts ptp-clockd.service: User=ptpsep-clockd, an empty
# CapabilityBoundingSet=, and SystemCallFilter=~@privileged with
# SystemCallErrorNumber=EPERM, which makes capset() fail even when it would
# lower nothing.  setpriv cannot do this (it calls capset itself), so a
# small helper drops the bounding set, installs that filter and switches
# user before it execs clockd.
cat >"$dir/asunit.py" <<'PY'
import ctypes, os, pwd, sys
libc = ctypes.CDLL(None, use_errno=True)
for cap in range(64):                   # PR_CAPBSET_DROP, to EINVAL
    if libc.prctl(24, cap, 0, 0, 0) != 0:
        if ctypes.get_errno() == 22:
            break
        sys.exit("PR_CAPBSET_DROP %d: errno %d" % (cap, ctypes.get_errno()))
sc = ctypes.CDLL("libseccomp.so.2")
sc.seccomp_init.restype = ctypes.c_void_p
sc.seccomp_init.argtypes = [ctypes.c_uint32]
sc.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32,
                                ctypes.c_int, ctypes.c_uint]
sc.seccomp_load.argtypes = [ctypes.c_void_p]
sc.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
ctx = sc.seccomp_init(0x7fff0000)       # SCMP_ACT_ALLOW
nr = sc.seccomp_syscall_resolve_name(b"capset")
if not ctx or nr < 0 or sc.seccomp_rule_add(ctx, 0x00050001, nr, 0) != 0 \
        or sc.seccomp_load(ctx) != 0:   # SCMP_ACT_ERRNO(EPERM)
    sys.exit("cannot install the capset filter")
pw = pwd.getpwnam(sys.argv[1])
os.setgroups([])
os.setresgid(pw.pw_gid, pw.pw_gid, pw.pw_gid)
os.setresuid(pw.pw_uid, pw.pw_uid, pw.pw_uid)
os.execv(sys.argv[2], sys.argv[2:])
PY
if python3 -c 'import ctypes; ctypes.CDLL("libseccomp.so.2")' 2>/dev/null; then
	clockd_case "as the systemd unit (empty bounding set, capset() -> EPERM)" \
		run "" 0 python3 "$dir/asunit.py" ptpsep-clockd
else
	fail "libseccomp.so.2 not found: cannot run the systemd-unit case"
fi

# ---- 3. netd keeps CAP_SYS_TIME for the system clock only ------------------
# The real ptp-netd (software stamps on a veth, its PTP clock virtual) with
# sync_system_clock 1: CapEff holds CAP_SYS_TIME (bit 25) with
# system_clock_device system and not with virtual.  No clockd connects, so
# nothing adjusts any clock; only the capability sets are read.
netd_sys_time() {
	local name=$1 dev=$2 want=$3 ns="prv$$" pid eff has
	itest_ns "$ns"
	ip -n "$ns" link add eth0 type veth peer name eth1
	ip -n "$ns" link set eth0 up
	itest_conf "$dir/n.conf" "$dir" sync_system_clock 1 \
		system_clock_device "$dev"
	rm -f "$dir/netd.sock"
	itest_start "$ns" "$dir/netd-$dev.log" "$NETD" -m -f "$dir/n.conf"
	pid=${itest_pids[-1]}
	if ! itest_wait_log "$dir/netd-$dev.log" "running as ptpsep-netd" 10; then
		fail "$name: netd did not drop: $(cat "$dir/netd-$dev.log")"
		itest_stop
		return
	fi
	eff=$(awk '/^CapEff:/ { print $2 }' "/proc/$pid/status")
	has=$(( (16#$eff >> 25) & 1 ))
	if [ "$has" = "$want" ]; then
		pass "$name: CapEff $eff, CAP_SYS_TIME $([ "$want" = 1 ] && echo kept || echo dropped)"
	else
		fail "$name: CapEff $eff ($(grep 'running as' "$dir/netd-$dev.log"))"
	fi
	itest_stop
}
netd_sys_time "netd, system_clock_device system" system 1
netd_sys_time "netd, system_clock_device virtual" virtual 0

echo "priv: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
