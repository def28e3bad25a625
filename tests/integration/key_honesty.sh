#!/bin/bash
# key_honesty.sh - every configuration key that lib/cfg_keys.c marks
# implemented is read by the daemons, and no key marked unimplemented (which
# warns "ignored" when set) is read.  A key that is marked implemented but
# never read loads silently and does nothing: the table would lie.
#
# How "read" is decided: the configuration layer records every key a
# cfg_get_*()/cfg_is_set() call asks for, and with PTPSEP_KEY_AUDIT=FILE
# each process writes those keys to FILE when it exits (lib/cfg.h).  So a
# key counts as read when the real daemons' code asked for it during a run,
# in whatever branch, not when its name appears in the source.  The run
# takes the paths where keys are read: netd's start (clock, bounds, ports,
# sockets); clockd's start, its ports (created from netd's port list) and
# its servo; Sync samples on a slave; a link going down (FAULTY) and up;
# management from the network (pmc -2: CLOCK_DESCRIPTION, USER_DESCRIPTION,
# PORT_DATA_SET_NP); ptpctl status.  Two nodes, a master and a slave, over
# L2 with P2P, so that the peer delay code (min_neighbor_prop_delay,
# neighborPropDelayThresh) runs too.  A key that code reads only on a path
# this run does not take shows up as unread: add that path to the run (or
# read the key where the port or clock is set up), do not mark the key.
#
#   BUILD=build/default tests/integration/key_honesty.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

SAMPLE_TIMEOUT=${SAMPLE_TIMEOUT:-60}
GENKEYS=$BUILD/doc/gen-keys
PTPCTL=$BUILD/ctl/ptpctl

command -v pmc >/dev/null || { echo "SKIP: pmc (linuxptp) not installed"; exit 0; }
[ -x "$GENKEYS" ] || { echo "FAIL: $GENKEYS not built"; exit 1; }

tag="kh$$"
M="${tag}m"; S="${tag}s"
itest_pair "$M" "$S"
itest_tmpdir dm
itest_tmpdir sl
itest_conf "$dm/ptp.conf" "$dm" network_transport L2 delay_mechanism P2P \
	priority1 100
itest_conf "$sl/ptp.conf" "$sl" network_transport L2 delay_mechanism P2P \
	clientOnly 1 virtual_clock_offset_ns 1500000000

# start NS DIR: netd and clockd of one node, each with its own audit file.
start() {
	local ns=$1 dir=$2
	itest_start "$ns" "$dir/netd.log" env PTPSEP_KEY_AUDIT="$dir/netd.keys" \
		"$NETD" -m -f "$dir/ptp.conf"
	itest_wait_file "$dir/netd.sock" 10 || {
		fail "netd did not start in $ns"; cat "$dir/netd.log"; exit 1; }
	itest_start "$ns" "$dir/clockd.log" \
		env PTPSEP_KEY_AUDIT="$dir/clockd.keys" \
		"$CLOCKD" -m -f "$dir/ptp.conf"
}
start "$M" "$dm"
start "$S" "$sl"

if ! itest_wait_log "$sl/clockd.log" 'master offset' "$SAMPLE_TIMEOUT"; then
	fail "the slave took no Sync sample in ${SAMPLE_TIMEOUT}s"
	tail -20 "$sl/clockd.log"; exit 1
fi
# Management from the network, answered by both clockds.
out=$(ip netns exec "$M" pmc -2 -i eth0 -b 0 'GET CLOCK_DESCRIPTION' \
	'GET USER_DESCRIPTION' 'GET PORT_DATA_SET_NP' 2>&1)
grep -q 'RESPONSE MANAGEMENT CLOCK_DESCRIPTION' <<<"$out" ||
	fail "no CLOCK_DESCRIPTION answer: $out"
ip netns exec "$S" "$PTPCTL" -f "$sl/ptp.conf" --json status >/dev/null ||
	fail "ptpctl status"
# A link down puts the port FAULTY (fault_reset_interval), up again clears it.
from=$(wc -l <"$sl/clockd.log")
ip -n "$S" link set eth0 down
itest_wait_log "$sl/clockd.log" 'FAULTY' 10 "$from" ||
	fail "the slave's port did not go FAULTY on link down"
ip -n "$S" link set eth0 up
sleep 2

# SIGTERM: each process writes its audit file as it exits.
itest_stop
for f in "$dm/netd.keys" "$dm/clockd.keys" "$sl/netd.keys" "$sl/clockd.keys"; do
	if [ -s "$f" ]; then
		pass "${f#/tmp/}: $(wc -l <"$f") keys read"
	else
		fail "${f#/tmp/}: no audit written"
	fi
done

read_keys=$(cat "$dm"/*.keys "$sl"/*.keys | sort -u)
status=$("$GENKEYS" --status) || { fail "gen-keys --status"; exit 1; }
impl=$(awk '$2 == "implemented" { print $1 }' <<<"$status" | sort)
unimpl=$(awk '$2 == "unimplemented" { print $1 }' <<<"$status" | sort)
[ "$(grep -c . <<<"$impl")" -ge 50 ] ||
	{ fail "gen-keys lists only $(grep -c . <<<"$impl") implemented keys"; exit 1; }

never=$(comm -23 <(echo "$impl") <(echo "$read_keys"))
if [ -z "$never" ]; then
	pass "every one of the $(grep -c . <<<"$impl") keys marked implemented was read"
else
	fail "keys marked implemented that no daemon read ($(grep -c . <<<"$never")):" \
		$never
fi
lying=$(comm -12 <(echo "$unimpl") <(echo "$read_keys"))
if [ -z "$lying" ]; then
	pass "no key marked unimplemented was read"
else
	fail "keys marked unimplemented (they warn 'ignored') that a daemon read:" \
		$lying
fi
[ "$itest_fails" = 0 ]
