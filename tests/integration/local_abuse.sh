#!/bin/bash
# local_abuse.sh - the local attack surface of both daemons (issue 11,
# items 6, 7, 9 and 10's log keys).  One node (netd and clockd in a
# namespace with a veth), checked in order:
#   1. a symlink planted at netd_socket, pointing at a file: netd refuses to
#      start and names it; the file's owner, mode and contents and the
#      symlink are untouched.  A world-writable socket directory is refused;
#   2. netd and clockd run without -m, with verbose 1, use_syslog 0 and
#      message_tag: their stderr carries their lines, each with "[tag]";
#   3. log flood: a root client connects to netd_socket in a tight loop for
#      FLOOD_S seconds (garbage, a wrong Hello, hang-ups): netd's log grows
#      by less than LOG_MAX bytes, says how many lines it suppressed, and a
#      real clockd is served afterwards;
#   4. control-socket starvation: eight unprivileged uids (nobody and
#      seven more) each try to hold four connections to each control
#      socket: each is admitted at most CTLSOCK_PER_UID (2), the refused
#      ones read the BUSY error (not a reset); while they hold them root's
#      `ptpctl status`, `ptpctl set priority1` and `ptpctl netd` work, and
#      nobody's `ptpctl status` prints "busy"; root can hold five (the
#      fifth evicts the unprivileged connection idle the longest).
#
#   BUILD=build/default tests/integration/local_abuse.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
CTL=$BUILD/ctl/ptpctl
FLOOD_S=${FLOOD_S:-10}
LOG_MAX=${LOG_MAX:-102400}	# bytes netd may log during the flood
HOLD_S=${HOLD_S:-20}		# < CTLSOCK_IDLE_S (30), or they are dropped
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
ver=$(sed -n 's/^#define IPC_PROTOCOL_VERSION[[:space:]]*\([0-9]*\)u.*/\1/p' "$here/../../lib/ipc.h")

tag="la$$"
a="${tag}a"; b="${tag}b"
itest_pair "$a" "$b"
itest_tmpdir wd
d=$wd
MTAG=la-tag
itest_conf "$d/ptp.conf" "$d" verbose 1 use_syslog 0 message_tag "$MTAG"

# ---- 1. planted symlink, unsafe directory ----------------------------------
printf 'keep me\n' >"$d/target"
chmod 0600 "$d/target"
ln -s "$d/target" "$d/netd.sock"
before=$(stat -c '%u:%g %a %s' "$d/target"; md5sum <"$d/target")
ip netns exec "$a" timeout 10 "$NETD" -m -f "$d/ptp.conf" >"$d/netd-link.log" 2>&1
rc=$?
after=$(stat -c '%u:%g %a %s' "$d/target"; md5sum <"$d/target")
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$before" = "$after" ] &&
	[ -L "$d/netd.sock" ] && grep -q "is not a socket (a symlink)" "$d/netd-link.log"; then
	pass "symlink at netd_socket: netd refused to start (exit $rc), target untouched ($(head -n1 <<<"$after")): $(grep -o 'netd_socket: .*' "$d/netd-link.log" | head -n1)"
else
	fail "symlink at netd_socket: exit $rc, target before [$before] after [$after], link $( [ -L "$d/netd.sock" ] && echo kept || echo gone)"
	cat "$d/netd-link.log"
fi
rm -f "$d/netd.sock"

mkdir -m 0777 "$d/ww"
chmod 0777 "$d/ww"
ip netns exec "$a" timeout 10 "$NETD" -m -f "$d/ptp.conf" \
	--netd_ctl_socket="$d/ww/ctl.sock" >"$d/netd-ww.log" 2>&1
rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ ! -e "$d/ww/ctl.sock" ] &&
	grep -q "writable by group or others" "$d/netd-ww.log"; then
	pass "world-writable socket directory refused (exit $rc)"
else
	fail "world-writable socket directory: exit $rc"
	cat "$d/netd-ww.log"
fi
rm -f "$d/netd.sock"

# ---- 2. verbose, use_syslog 0, message_tag, no -m --------------------------
itest_start "$a" "$d/netd.log" "$NETD" -f "$d/ptp.conf"
netd_pid=${itest_pids[-1]}
itest_wait_file "$d/netd.sock" 10 || { fail "netd did not start"; cat "$d/netd.log"; exit 1; }
itest_wait_log "$d/netd.log" "ready:" 10 || true
if grep -q "^netd\[[0-9.]*\]: \[$MTAG\] .*ready:" "$d/netd.log"; then
	pass "netd without -m, verbose 1: lines on stderr with [$MTAG] ($(grep -c . "$d/netd.log") lines)"
else
	fail "netd without -m, verbose 1 / message_tag: no tagged ready line"
	cat "$d/netd.log"
fi

# ---- 3. log flood on netd_socket -------------------------------------------
size0=$(stat -c %s "$d/netd.log")
ip netns exec "$a" "$PY" - "$d/netd.sock" "$FLOOD_S" "$ver" >"$d/flood.out" 2>&1 <<'EOF'
import os, random, socket, sys, time
path, secs, ver = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
# NetdMsg{hello: Hello{protocol_version, role: ROLE_CLOCKD (2)}}, with the
# version wrong, and garbage: each makes netd log and close.
bad_hello = bytes([0x0a, 4, 0x08, (ver + 7) & 0x7f, 0x10, 2])
n = 0
end = time.monotonic() + secs
while time.monotonic() < end:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        s.connect(path)
        r = n % 3
        if r == 0:
            s.send(os.urandom(random.randint(1, 200)))
        elif r == 1:
            s.send(bad_hello)
        n += 1
    except OSError:
        pass
    s.close()
print("connections %d" % n)
EOF
size1=$(stat -c %s "$d/netd.log")
grown=$((size1 - size0))
conns=$(sed -n 's/^connections //p' "$d/flood.out")
supp=$(grep -o '([0-9]* similar messages suppressed)' "$d/netd.log" | tr -dc '0-9\n' | awk '{ s += $1 } END { print s + 0 }')
echo "INFO: flood: ${conns:-?} connections in $FLOOD_S s; netd's log grew $grown bytes; $supp lines suppressed"
# The log must show the limiter at work (not merely be quiet, e.g. logging
# elsewhere): the first lines of the flood and the count of the rest.
if kill -0 "$netd_pid" 2>/dev/null && [ -n "$conns" ] && [ "$conns" -gt 100 ] &&
	[ "$grown" -lt "$LOG_MAX" ] && [ "$supp" -gt 0 ] &&
	tail -c "$grown" "$d/netd.log" | grep >/dev/null "clockd connected"; then
	pass "flood of ${conns} connections: netd log grew $grown < $LOG_MAX bytes ($supp lines suppressed)"
else
	fail "flood: netd alive? $(kill -0 "$netd_pid" 2>/dev/null && echo yes || echo no), ${conns:-no} connections, log grew $grown bytes (max $LOG_MAX), $supp suppressed"
	cat "$d/flood.out"
	echo "netd's log during the flood (first 30 lines):"
	tail -c "$grown" "$d/netd.log" | head -30
fi
# The lines go on after the limiter's interval: it is not a permanent mute.
sleep 1
itest_start "$a" "$d/clockd.log" "$CLOCKD" -f "$d/ptp.conf"
if itest_wait_log "$d/clockd.log" "connected to netd" 20 &&
	itest_wait_file "$d/clockd/ctl.sock" 10 &&
	ip netns exec "$a" "$CTL" -f "$d/ptp.conf" status >"$d/status0.out" 2>&1; then
	pass "after the flood netd serves a clockd (ptpctl status: $(grep -m1 -i 'port' "$d/status0.out" | tr -s ' '))"
else
	fail "after the flood no clockd was served"
	tail -n 20 "$d/clockd.log" "$d/netd.log"
fi
if grep -q "^clockd\[[0-9.]*\]: \[$MTAG\] .*connected to netd" "$d/clockd.log"; then
	pass "clockd without -m, verbose 1: tagged lines on stderr"
else
	fail "clockd: no [$MTAG] line on stderr"
	head -n 5 "$d/clockd.log"
fi

# ---- 4. control-socket starvation ------------------------------------------
holders=()
uids=("$(id -u nobody)" 60001 60002 60003 60004 60005 60006 60007)
for sock in "$d/clockd/ctl.sock" "$d/netd-ctl.sock"; do
	for u in "${uids[@]}"; do
		out="$d/hold-$(basename "$sock")-$u.out"
		ip netns exec "$a" setpriv --reuid="$u" --regid=65534 --clear-groups \
			"$PY" "$here/ctl_abuse.py" "$sock" "$HOLD_S" "$ver" hold 4 >"$out" 2>&1 &
		holders+=($!)
		itest_pids+=($!)
	done
done
for f in "$d"/hold-*.out; do
	for ((i = 0; i < 50; i++)); do grep -q '^hold:' "$f" && break; sleep 0.1; done
done
adm=0; over=0; busy_ok=1; resets=0
for f in "$d"/hold-*.out; do
	l=$(grep '^hold:' "$f")
	k=$(sed -n 's/.*admitted=\([0-9]*\).*/\1/p' <<<"$l")
	bz=$(sed -n 's/.*busy=\([0-9]*\).*/\1/p' <<<"$l")
	ot=$(sed -n 's/.*other=\([0-9]*\).*/\1/p' <<<"$l")
	[ -z "$k" ] && { fail "holder $f: $(cat "$f")"; continue; }
	adm=$((adm + k))
	[ "$k" -gt 2 ] && over=1
	[ "$ot" -gt 0 ] && resets=$((resets + ot))
	# busy= counts answers with code ERROR_BUSY; text= is their message.
	[ "$bz" -gt 0 ] && grep -q 'text=$' <<<"$l" && busy_ok=0
done
echo "INFO: unprivileged holders: $adm connections admitted over both sockets; $(grep -h '^hold:' "$d"/hold-*ctl.sock-"$(id -u nobody)".out | head -n1)"
if [ "$over" = 0 ] && [ "$resets" = 0 ] && [ "$busy_ok" = 1 ] && [ "$adm" -le 24 ]; then
	pass "each uid got at most 2 slots per socket ($adm in all); every refusal read ERROR_BUSY (no reset)"
else
	fail "slots: over=$over resets/other=$resets busy_text_ok=$busy_ok admitted=$adm"
	cat "$d"/hold-*.out
fi
if ip netns exec "$a" "$CTL" -f "$d/ptp.conf" status >"$d/status1.out" 2>&1; then
	pass "root's ptpctl status works while the slots are held"
else
	fail "root's ptpctl status: $(cat "$d/status1.out")"
fi
if ip netns exec "$a" "$CTL" -f "$d/ptp.conf" set priority1 120 >"$d/set.out" 2>&1; then
	pass "root's ptpctl set priority1 120 works while the slots are held"
else
	fail "root's ptpctl set: $(cat "$d/set.out")"
fi
if ip netns exec "$a" "$CTL" -f "$d/ptp.conf" netd >"$d/netd1.out" 2>&1; then
	pass "root's ptpctl netd works while netd's slots are held"
else
	fail "root's ptpctl netd: $(cat "$d/netd1.out")"
fi
ip netns exec "$a" setpriv --reuid=nobody --regid=65534 --clear-groups \
	"$CTL" -f "$d/ptp.conf" status >"$d/status-nobody.out" 2>&1
rc=$?
if [ "$rc" != 0 ] && grep -qi 'busy' "$d/status-nobody.out"; then
	pass "nobody's third connection: ptpctl exits $rc and says: $(head -n1 "$d/status-nobody.out")"
else
	fail "nobody's ptpctl status while it holds 2: exit $rc: $(cat "$d/status-nobody.out")"
fi
# Root holding five: four reserved slots, and the fifth evicts the
# unprivileged connection idle the longest (all 16 are taken then).
l=$(ip netns exec "$a" "$PY" "$here/ctl_abuse.py" "$d/clockd/ctl.sock" 1 "$ver" hold 5 2>&1)
if grep -q 'admitted=5 busy=0' <<<"$l" && grep -q 'dropped to make room for uid 0' "$d/clockd.log"; then
	pass "root holds 5 with 12 unprivileged connections in place (one evicted): $l"
else
	fail "root holding 5: $l"
fi
for p in "${holders[@]}"; do kill "$p" 2>/dev/null; done
for p in "${holders[@]}"; do wait "$p" 2>/dev/null; done
if kill -0 "$netd_pid" 2>/dev/null; then
	pass "netd still running after the abuse"
else
	fail "netd died"
fi
# With --enable-sanitizers builds: no report from either daemon.
if grep -qE 'Sanitizer|runtime error' "$d/netd.log" "$d/clockd.log"; then
	fail "sanitizer report in the daemons' logs"
	grep -hE -A5 'Sanitizer|runtime error' "$d/netd.log" "$d/clockd.log" | head -n 30
else
	pass "no sanitizer report in netd's or clockd's log"
fi

[ "$itest_fails" = 0 ] && echo "local_abuse: all passed" || echo "local_abuse: $itest_fails failed"
exit $((itest_fails > 0))
