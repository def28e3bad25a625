#!/bin/bash
# utab_ptp4l.sh - [unicast_master_table] files: ptpsep's verdict beside the
# installed ptp4l's, case by case.  Where lib/cfg_utab.c follows ptp4l the
# two must agree; where it is deliberately stricter (doc: etc/README.md)
# the case says so, and ptp4l's own verdict is still checked, so that a
# ptp4l that changed shows here.
#
# Each case is one file, read by ptp-clockd --check-config and by ptp4l
# (software time stamps, free_running 1, kernel_leap 0, on lo of a network
# namespace of its own, its UDS socket in the test's directory).  ptp4l
# "accepts" when it is still running after PTP4L_WAIT s, "refuses" when it
# exits before; the reason it gives is checked too.
#
#   BUILD=build/default tests/interop/utab_ptp4l.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

PTP4L_WAIT=${PTP4L_WAIT:-2}
itest_tmpdir dir
n=0

# case NAME OURS PTP4L PTP4L_SAYS BODY: OURS and PTP4L are accept|refuse;
# PTP4L_SAYS a pattern of ptp4l's output ('' for none); BODY the file after
# [global] (printf %b).
case_() {
	local name=$1 ours=$2 theirs=$3 says=$4 body=$5 ns rc got
	n=$((n + 1))
	ns="utp$$-$n"
	iop_ptp4l_conf "$dir/ptp4l.conf" "$dir"
	printf '%b' "$body" >>"$dir/ptp4l.conf"
	grep -q '^\[lo\]' "$dir/ptp4l.conf" || echo "[lo]" >>"$dir/ptp4l.conf"

	"$CLOCKD" -f "$dir/ptp4l.conf" --check-config >"$dir/ours.out" 2>&1
	rc=$?
	got=$([ $rc = 0 ] && echo accept || echo refuse)
	[ $rc = 0 ] || [ $rc = 1 ] || got="exit $rc"

	itest_ns "$ns"
	rm -f "$dir/ptp4l.uds"
	timeout "$PTP4L_WAIT" ip netns exec "$ns" "$PTP4L" -f "$dir/ptp4l.conf" \
		-S -m -q >"$dir/ptp4l.out" 2>&1
	rc=$?
	ip netns del "$ns" 2>/dev/null
	local p4=$([ $rc = 124 ] && echo accept || echo refuse)

	if [ "$got" = "$ours" ] && [ "$p4" = "$theirs" ] &&
		{ [ -z "$says" ] || grep >/dev/null -- "$says" "$dir/ptp4l.out"; }; then
		if [ "$ours" = "$theirs" ]; then
			pass "$name: both ${ours} it"
		else
			pass "$name: ptp4l ${theirs}s it, ptpsep ${ours}s it (stricter, on purpose)"
		fi
		[ "$got" = refuse ] && echo "    ptpsep: $(grep -v warning "$dir/ours.out" | head -1)"
		[ -n "$says" ] && echo "    ptp4l: $(grep -m1 -- "$says" "$dir/ptp4l.out")"
	else
		fail "$name: ptpsep ${got} (want $ours), ptp4l ${p4} (want $theirs${says:+, saying '$says'})"
		sed 's/^/    ours: /' "$dir/ours.out" | grep -v warning | head -3
		sed 's/^/    ptp4l: /' "$dir/ptp4l.out" | head -3
	fi
}

T='[unicast_master_table]\n'
# Both accept.
case_ "Debian-style tables, the port's one" accept accept '' \
	"${T}table_id 1\nlogQueryInterval 2\nUDPv4 127.0.0.2\nUDPv4 127.0.0.3\n${T}table_id 2\nL2 00:11:22:33:44:55\n[lo]\nunicast_master_table 1\n"
case_ "table_id in decimal (010 is 10)" accept accept '' \
	"${T}table_id 010\nUDPv4 127.0.0.2\n[lo]\nunicast_master_table 10\n"
case_ "two tables in one section" accept accept '' \
	"${T}table_id 1\nUDPv4 127.0.0.2\ntable_id 2\nUDPv6 ::2\n[lo]\nunicast_master_table 1\n"
case_ "transport names in any case" accept accept '' \
	"${T}table_id 1\nudpv4 127.0.0.2\n[lo]\nunicast_master_table 1\n"
case_ "peer_address" accept accept '' \
	"${T}table_id 1\npeer_address 127.0.0.9\nUDPv4 127.0.0.2\n[lo]\nunicast_master_table 1\n"
# Both refuse.
case_ "an address before table_id" refuse refuse 'missing table_id' \
	"${T}UDPv4 127.0.0.2\n"
case_ "a taken table_id" refuse refuse 'table_id 1 already taken' \
	"${T}table_id 1\n${T}table_id 1\n"
case_ "table_id 0" refuse refuse 'out of range' "${T}table_id 0\n"
case_ "logQueryInterval 128" refuse refuse 'logQueryInterval 128 out of range' \
	"${T}table_id 1\nlogQueryInterval 128\n"
case_ "a bad IPv4 address" refuse refuse 'bad address' \
	"${T}table_id 1\nUDPv4 127.0.0.2.5\n"
case_ "a transport without addresses (UDS)" refuse refuse 'bad address' \
	"${T}table_id 1\nUDS /tmp/x\n"
case_ "a port naming a missing table" refuse refuse 'no table with id 9' \
	"${T}table_id 1\nUDPv4 127.0.0.2\n[lo]\nunicast_master_table 9\n"
# ptpsep is stricter.
case_ "an L2 table on a UDPv4 port" refuse accept 'unicast master transport mismatch' \
	"${T}table_id 1\nL2 00:11:22:33:44:55\n[lo]\nunicast_master_table 1\n"
case_ "a multicast master" refuse accept '' \
	"${T}table_id 1\nUDPv4 224.0.1.129\n[lo]\nunicast_master_table 1\n"
case_ "inet_aton's short form 127.2" refuse accept '' \
	"${T}table_id 1\nUDPv4 127.2\n[lo]\nunicast_master_table 1\n"
case_ "a MAC with one-digit groups" refuse accept '' \
	"${T}table_id 1\nL2 0:11:22:33:44:55\n"
case_ "a word after the address" refuse accept '' \
	"${T}table_id 1\nUDPv4 127.0.0.2 127.0.0.3\n[lo]\nunicast_master_table 1\n"
[ "$itest_fails" = 0 ]
