#!/bin/bash
# The daemons' user and group lookups, whichever way they are linked.
# A statically linked glibc loads the NSS modules of nsswitch.conf other
# than "files" (Debian: "passwd: files systemd") from the shared libraries,
# and a lookup of a name missing from /etc/passwd then crashed the static
# daemons (SIGSEGV, glibc 2.36) instead of failing; lib/static_nss.c limits
# them to the files.  Each daemon, given a name that does not exist:
#   1. netd with clockd_user unknown: warns "only root may connect" and
#      runs (ready, alive);
#   2. clockd with admin_group unknown: warns for its control socket and
#      its management socket, and runs (it needs no netd to get there);
#   3. netd with netd_user unknown (root only: the privilege drop looks it
#      up): exits 1 naming the user, not killed by a signal.
# And with known names (the configuration of 1 and 2 otherwise) both run.
set -u
b=${top_builddir:-.}
fails=0
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

root=0
[ "$(id -u)" = 0 ] && root=1
# As root the daemons drop to their users, which must reach the sockets.
chmod 0755 "$tmp"
mkdir -m 1777 "$tmp/run"
nouser="nosuchuser$$"
nogroup="nosuchgroup$$"
known() { id -un "$1" 2>/dev/null || id -un nobody; }

# conf FILE NETD_USER CLOCKD_USER ADMIN_GROUP
conf() {
	cat >"$1" <<EOF
[global]
clock_device		virtual
time_stamping		software
netd_socket		$tmp/run/netd.sock
netd_ctl_socket		$tmp/run/netd-ctl.sock
clockd_ctl_socket	$tmp/run/clockd-ctl.sock
pmc_socket		$tmp/run/pmc.sock
netd_user		$2
clockd_user		$3
admin_group		$4
[lo]
EOF
}

# run NAME PROG CONF READY: start PROG (netd in a network namespace of its
# own when root, so that its port touches nothing), wait up to 5 s for
# READY (a regular expression) in its log; then it must still be alive.
run() {
	local name=$1 prog=$2 cfg=$3 ready=$4 i
	rm -f "$tmp"/run/*.sock
	if [ $root = 1 ] && [ "${prog##*/}" = ptp-netd ]; then
		unshare -n "$b/$prog" -m -f "$cfg" 2>"$tmp/$name.log" &
	else
		"$b/$prog" -m -f "$cfg" 2>"$tmp/$name.log" &
	fi
	pid=$!
	for i in $(seq 50); do
		grep -Eq "$ready" "$tmp/$name.log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	sleep 0.3
	if grep -Eq "$ready" "$tmp/$name.log" && kill -0 "$pid" 2>/dev/null; then
		pass "$name: runs ($(grep -Em1 "$ready" "$tmp/$name.log" | cut -c1-100))"
	else
		wait "$pid" 2>/dev/null
		fail "$name: not running (exit $?): $(tail -3 "$tmp/$name.log")"
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
}

nu=$(known ptpsep-netd)
cu=$(known ptpsep-clockd)
ag=$(getent group ptpsep-admin >/dev/null && echo ptpsep-admin || echo root)

conf "$tmp/known.cfg" "$nu" "$cu" "$ag"
run "netd, known users" netd/ptp-netd "$tmp/known.cfg" "ready:"
conf "$tmp/cuser.cfg" "$nu" "$nouser" "$ag"
run "netd, clockd_user $nouser" netd/ptp-netd "$tmp/cuser.cfg" \
	"clockd_user $nouser does not exist.*only root may connect"
# clockd looks admin_group up for its control socket, then for the
# management socket; no netd runs here, which it only retries.
conf "$tmp/group.cfg" "$nu" "$cu" "$ag"
run "clockd, known group" clockd/ptp-clockd "$tmp/group.cfg" "management socket"
conf "$tmp/nogroup.cfg" "$nu" "$cu" "$nogroup"
run "clockd, admin_group $nogroup" clockd/ptp-clockd "$tmp/nogroup.cfg" \
	"admin_group $nogroup does not exist: only root may SET on pmc_socket"

if [ $root = 1 ]; then
	conf "$tmp/nuser.cfg" "$nouser" "$cu" "$ag"
	timeout 10 unshare -n "$b/netd/ptp-netd" -m -f "$tmp/nuser.cfg" \
		2>"$tmp/nuser.log"
	rc=$?
	if [ $rc = 1 ] && grep -q "user $nouser" "$tmp/nuser.log"; then
		pass "netd, netd_user $nouser: exits 1: $(grep -m1 "user $nouser" "$tmp/nuser.log")"
	else
		fail "netd, netd_user $nouser: exit $rc (1 wanted): $(tail -3 "$tmp/nuser.log")"
	fi
else
	echo "INFO: not root: netd_user is looked up only by the privilege drop; case 3 not run"
fi

echo "static_nss: $fails failure(s)"
[ $fails = 0 ]
