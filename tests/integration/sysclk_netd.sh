#!/bin/bash
# sysclk_netd.sh - netd's second clock, the system clock (issue 14 item 2,
# sync_system_clock 1), with the real daemon: both clocks virtual (the PTP
# clock 37 s ahead of CLOCK_REALTIME, as a PHC on TAI; the system clock
# 3 s behind), so nothing touches this machine's clock.  netd_client plays
# clockd:
#  1. PortList: system_clock present, compared by SYSOFF_SAME_BASE, the
#     PTP clock's ptp_timescale 1;
#  2. compare: sys_minus_ptp is -40 s exactly (one CLOCK_REALTIME read
#     mapped through both clocks);
#  3. adj_freq on the system clock moves only it: after 0.5 s at +50 ppm the
#     compare moved by +25 us (+-5 us), the PTP clock's frequency stays 0;
#     a 1 s step of the system clock shows in the compare and in
#     system_clock_state.steps, the PTP clock's steps stay 0;
#  4. beyond the bounds on the system clock (max_freq_ppb, max_step_ns):
#     refused, counted in system_clock_refused, not in netd's own refused;
#  5. compares sooner than 10 ms after the last: RATE_LIMITED, answered;
#  6. ptpctl --json netd shows system_clock, clock_state and
#     system_clock_state;
#  7. a compare with system_clock set closes the connection;
#  8. without sync_system_clock: a system_clock request and a compare are
#     refused NOT_SUPPORTED (counted in system_clock_refused), and PortList
#     has no system_clock;
#  9. a leap second (ClockSetLeap) on the virtual system clock placed 8 s
#     before a UTC midnight: leap_allowed on the system clock, not on the
#     PTP clock (TAI), whose leap is refused NOT_SUPPORTED; +1 armed with
#     a TAI offset, the system clock's offset_from_realtime drops by 1 s
#     (+-2 ms) across its midnight (23:59:59 repeats), leaps 1, the leap
#     disarmed, steps unchanged; with allow_step 0 a leap is refused; a
#     TAI offset beyond 1000 s closes the connection.
#
#   BUILD=build/default tests/integration/sysclk_netd.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
CLIENT=$BUILD/tests/integration/netd_client
CTL=$BUILD/ctl/ptpctl
[ -x "$CLIENT" ] || { echo "FAIL: $CLIENT not built"; exit 1; }

ns="sysc$$"
itest_ns "$ns"
ip -n "$ns" link add eth0 type veth peer name eth1
ip -n "$ns" link set eth0 up
ip -n "$ns" link set eth1 up
itest_tmpdir W
d=$W

# client ARGS...: netd_client clock on netd_socket, inside the namespace.
client() {
	ip netns exec "$ns" "$CLIENT" clock "$d/netd.sock" "$@" 2>&1
}
# field LINE KEY: the value of KEY=VALUE in LINE.
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1" | head -1; }

# Both sockets: netd binds its control socket after the channel's.
start_netd() {
	rm -f "$d/netd.sock" "$d/netd-ctl.sock"
	itest_start "$ns" "$d/netd.log" "$NETD" -m -f "$d/ptp.conf"
	itest_wait_file "$d/netd.sock" 10 && itest_wait_file "$d/netd-ctl.sock" 10 ||
		{ fail "netd did not start"; cat "$d/netd.log"; exit 1; }
}

itest_conf "$d/ptp.conf" "$d" virtual_clock_offset_ns 37000000000 \
	sync_system_clock 1 system_clock_device virtual \
	virtual_system_clock_offset_ns -3000000000 max_freq_ppb 100000 \
	max_step_ns 2000000000
start_netd

# 1. the PortList
out=$(client read)
if grep -q "SYSCLOCKINFO .*sysoff=SYSOFF_SAME_BASE ptp_timescale=0 phc_index=-1" <<<"$out" &&
	grep -q "CLOCKINFO2 ptp_timescale=1 phc_index=-1" <<<"$out"; then
	pass "PortList: system_clock compared by SAME_BASE, PTP clock on TAI"
else
	fail "PortList: $out"
fi

# 2. compare exact
out=$(client compare)
c0=$(field "$(grep ^COMPARE <<<"$out")" sys_minus_ptp_ns)
if [ "$c0" = -40000000000 ] && grep -q "method=SYSOFF_SAME_BASE" <<<"$out"; then
	pass "compare: system minus PTP = $c0 ns (exact)"
else
	fail "compare: $out"
fi

# 3. adj_freq and step on the system clock move only it
out=$(client --system freq 50000 sleep 0.5 --ptp compare read)
c1=$(field "$(grep ^COMPARE <<<"$out")" sys_minus_ptp_ns)
pf=$(field "$(grep 'op=read' <<<"$out")" freq_ppb)
moved=$(( ${c1:-0} - c0 ))
if [ -n "$c1" ] && [ "$moved" -ge 20000 ] && [ "$moved" -le 30000 ] &&
	[ "$pf" = 0.000 ]; then
	pass "system clock at +50 ppm for 0.5 s: compare moved $moved ns, PTP clock freq $pf"
else
	fail "adj_freq on the system clock: moved $moved ns, PTP freq $pf: $out"
fi
out=$(client --system step 1000000000 read --ptp compare)
c2=$(field "$(grep ^COMPARE <<<"$out")" sys_minus_ptp_ns)
sf=$(field "$(grep 'op=read' <<<"$out")" freq_ppb)
moved=$(( ${c2:-0} - c1 ))
if grep -q "op=step status=OK" <<<"$out" && [ "$moved" -ge 1000000000 ] &&
	[ "$moved" -le 1000500000 ] && [ "$sf" = 50000.000 ]; then
	pass "system clock stepped 1 s: compare moved $moved ns, its freq $sf"
else
	fail "step on the system clock: moved $moved ns: $out"
fi

# 4. bounds on the system clock
out=$(client --system freq 200000 step 5000000000)
if grep -q "op=freq status=REFUSED reason=OUT_OF_BOUNDS" <<<"$out" &&
	grep -q "op=step status=REFUSED reason=STEP_TOO_LARGE" <<<"$out"; then
	pass "system clock: 200 ppm and a 5 s step refused"
else
	fail "system clock bounds: $out"
fi

# 5. rate limit of compares
# (back to back, each after the last's reply: well under 10 ms apart
# unless the machine is very loaded, so of 10 several are refused)
out=$(client compare compare compare compare compare compare compare \
	compare compare compare)
nrl=$(grep -c "op=compare status=REFUSED reason=RATE_LIMITED" <<<"$out")
nok=$(grep -c "op=compare status=OK" <<<"$out")
if [ "$nok" -ge 1 ] && [ "$nrl" -ge 1 ] && [ $((nok + nrl)) = 10 ]; then
	pass "10 compares at once: $nok answered, $nrl RATE_LIMITED (all replied)"
else
	fail "compare rate limit: $out"
fi

# info and ptpctl
info=$(ip netns exec "$ns" "$CLIENT" info "$d/netd-ctl.sock" 2>&1)
if grep -qx "system_clock.refused.OUT_OF_BOUNDS=1" <<<"$info" &&
	grep -qx "system_clock.refused.STEP_TOO_LARGE=1" <<<"$info" &&
	grep -q "system_clock.refused.RATE_LIMITED=" <<<"$info" &&
	! grep -q "^refused\." <<<"$info" &&
	grep -qx "system_clock_state.steps=1" <<<"$info" &&
	grep -qx "clock_state.steps=0" <<<"$info"; then
	pass "refusals and steps counted on the system clock apart"
else
	fail "NetdInfo counts: $info"
fi
json=$(ip netns exec "$ns" "$CTL" -f "$d/ptp.conf" --json netd 2>&1)
if python3 - "$json" <<'EOF'
import json, sys
j = json.loads(sys.argv[1])
s, c = j["system_clock_state"], j["clock_state"]
assert j["system_clock"]["sysoff"] == "same_base", j["system_clock"]
assert j["clock"]["ptp_timescale"] is True
# -3 s + 1 s step, +50 ppm since: within 0.1 s of -2 s
assert abs(s["offset_from_realtime_ns"] + 2e9) < 1e8, s
assert abs(c["offset_from_realtime_ns"] - 37e9) < 1e6, c
assert s["steps"] == 1 and c["steps"] == 0
assert s["freq_ppb"] == 50000 and c["freq_ppb"] == 0
assert j["system_clock_refused"]["out_of_bounds"] == 1
assert j["refused"] == {}
EOF
then
	pass "ptpctl --json netd: system_clock, clock_state, system_clock_state"
else
	fail "ptpctl --json netd: $json"
fi

# 7. a malformed compare: an error, the connection closed; netd serves on
out=$(client --raw-system compare)
if grep -q 'ANSWER error code=PROTOCOL msg="ClockCompare with system_clock set"' <<<"$out" &&
	kill -0 "${itest_pids[-1]}" && grep -q "op=read status=OK" <<<"$(client read)"; then
	pass "a compare with system_clock set closes the connection"
else
	fail "malformed compare: $out"
fi

# 8. no system clock
itest_stop
itest_ns "$ns"
ip -n "$ns" link add eth0 type veth peer name eth1
ip -n "$ns" link set eth0 up
itest_conf "$d/ptp.conf" "$d" virtual_clock_offset_ns 37000000000
start_netd
out=$(client --system read --ptp compare read)
if grep -q "op=read status=REFUSED reason=NOT_SUPPORTED" <<<"$out" &&
	grep -q "op=compare status=REFUSED reason=NOT_SUPPORTED" <<<"$out" &&
	grep -q "op=read status=OK" <<<"$out" &&
	! grep -q SYSCLOCKINFO <<<"$out" &&
	grep -q "CLOCKINFO2 ptp_timescale=0" <<<"$out" &&
	info=$(ip netns exec "$ns" "$CLIENT" info "$d/netd-ctl.sock" 2>&1) &&
	grep -qx "system_clock.refused.NOT_SUPPORTED=2" <<<"$info"; then
	pass "sync_system_clock 0: system clock requests NOT_SUPPORTED"
else
	fail "sync_system_clock 0: $out ${info:-}"
fi

# 9. a leap second on the virtual system clock
itest_stop
itest_ns "$ns"
ip -n "$ns" link add eth0 type veth peer name eth1
ip -n "$ns" link set eth0 up
# The system clock reads 8 s before a UTC midnight when the configuration
# is written (netd starts in well under a second).
now=$(date +%s%N)
day=86400000000000
mid=$(( (now / day + 1) * day ))
vs=$(( mid - 8000000000 - now ))
itest_conf "$d/ptp.conf" "$d" virtual_clock_offset_ns 37000000000 \
	sync_system_clock 1 system_clock_device virtual \
	virtual_system_clock_offset_ns "$vs" max_step_ns 2000000000
start_netd
sysinfo() { ip netns exec "$ns" "$CLIENT" info "$d/netd-ctl.sock" 2>&1; }
out=$(client leap 1 --system leap 1 tai 37)
info=$(sysinfo)
o1=$(sed -n 's/^system_clock_state.offset_from_realtime_ns=//p' <<<"$info")
if grep -q "SYSCLOCKINFO .*leap_allowed=1" <<<"$out" &&
	grep -q "CLOCKINFO2 ptp_timescale=1 .*leap_allowed=0" <<<"$out" &&
	grep -q "op=leap status=REFUSED reason=NOT_SUPPORTED" <<<"$out" &&
	grep -q "op=leap status=OK" <<<"$out" &&
	grep -qx "system_clock_state.leap=1" <<<"$info" &&
	grep -qx "system_clock_state.tai_offset=37" <<<"$info" &&
	grep -qx "refused.NOT_SUPPORTED=1" <<<"$info" &&
	[ "$o1" = "$vs" ]; then
	pass "leap +1 armed on the system clock (TAI 37), refused on the PTP clock"
else
	fail "leap armed: $out $info"
fi
# past the virtual midnight: 8 s after the configuration, plus a margin
sleep "$(( (now + 8000000000 - $(date +%s%N)) / 1000000000 + 1 )).5"
info=$(sysinfo)
o2=$(sed -n 's/^system_clock_state.offset_from_realtime_ns=//p' <<<"$info")
drop=$(( ${o1:-0} - ${o2:-0} ))
if [ "$drop" -ge 998000000 ] && [ "$drop" -le 1002000000 ] &&
	grep -qx "system_clock_state.leaps=1" <<<"$info" &&
	grep -qx "system_clock_state.leap=0" <<<"$info" &&
	grep -qx "system_clock_state.steps=0" <<<"$info" &&
	grep -qx "clock_state.leaps=0" <<<"$info"; then
	pass "across its midnight the system clock repeated a second: offset dropped $drop ns, leaps 1, steps 0"
else
	fail "leap across midnight: dropped $drop ns: $info"
fi
json=$(ip netns exec "$ns" "$CTL" -f "$d/ptp.conf" --json netd 2>&1)
if python3 - "$json" <<'EOF'
import json, sys
s = json.loads(sys.argv[1])["system_clock_state"]
assert s["leaps"] == 1 and s["leap"] == 0 and s["tai_offset"] == 37, s
EOF
then
	pass "ptpctl --json netd: system_clock_state leaps 1, tai_offset 37"
else
	fail "ptpctl --json netd leap: $json"
fi
text=$(ip netns exec "$ns" "$CTL" -f "$d/ptp.conf" netd 2>&1)
if grep -q "^system clock leap  *none armed, TAI offset 37 s, 1 leap(s) applied$" <<<"$text" &&
	grep -q "^clock leap  *none armed, TAI offset 0 s, 0 leap(s) applied$" <<<"$text"; then
	pass "ptpctl netd: the leap lines of both clocks"
else
	fail "ptpctl netd leap lines: $text"
fi
itest_stop
itest_ns "$ns"
ip -n "$ns" link add eth0 type veth peer name eth1
ip -n "$ns" link set eth0 up
itest_conf "$d/ptp.conf" "$d" virtual_clock_offset_ns 37000000000 \
	sync_system_clock 1 system_clock_device virtual allow_step 0
start_netd
out=$(client --system leap -1 leap 0)
if grep -q "op=leap status=REFUSED reason=STEP_NOT_ALLOWED" <<<"$out" &&
	grep -q "op=leap status=OK" <<<"$out"; then
	pass "allow_step 0: leap -1 refused STEP_NOT_ALLOWED, a cancel accepted"
else
	fail "leap with allow_step 0: $out"
fi
out=$(client --system leap 0 tai 1001)
if grep -q 'ANSWER error code=PROTOCOL msg="ClockSetLeap tai_offset outside 0..1000"' <<<"$out" &&
	kill -0 "${itest_pids[-1]}" && grep -q "op=read status=OK" <<<"$(client read)"; then
	pass "a TAI offset of 1001 s closes the connection; netd serves on"
else
	fail "malformed tai_offset: $out"
fi

[ "$itest_fails" = 0 ]
