#!/bin/bash
# holdover.sh - holdover and the clockClass schedule (issue 14 item 4,
# clockd/holdover.h) on real daemons in namespaces, L2, virtual clocks:
#
#   A (grandmaster, clockClass 6) --eth0-- B --eth1-- C (clientOnly)
#   B: boundary clock, clockClass 248, holdover_clock_class 7,
#      holdover_timeout HOLD_TIMEOUT s
#
# Once B and C are locked:
#  1. A's clockd is killed (by PID): B goes into holdover: `ptpctl --json
#     status` shows holdover_s, growing, and clock_class 7; C's parentDS
#     (status gm_identity, gm_clock_class) shows grandmaster B with class 7;
#     B keeps its last frequency and does not step.
#  2. After holdover_timeout: B announces its own class, C sees 248; B is
#     still in holdover.
#  3. A's clockd is started again: B is A's slave again, holdover_s is
#     absent, B's clock_class 248 again, C sees A with class 6.
#  4. B's clockd is killed: C, a slave-only clock that was locked, shows
#     holdover but announces nothing (clock_class stays 255).
#
#   BUILD=build/default tests/integration/holdover.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

HOLD_TIMEOUT=${HOLD_TIMEOUT:-10}
LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
CTL=$BUILD/ctl/ptpctl

# st NS DIR EXPR: a Python expression over j, `ptpctl --json status`.
st() {
	ip netns exec "$1" "$CTL" -f "$2/ptp.conf" --json status 2>/dev/null |
		python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$3" 2>/dev/null
}

# wait_st NS DIR EXPR WANT SECONDS: until EXPR prints WANT.
wait_st() {
	local t0=$SECONDS
	until [ "$(st "$1" "$2" "$3")" = "$4" ]; do
		((SECONDS - t0 > $5)) && return 1
		sleep 0.5
	done
	return 0
}

a="ho$$a"; b="ho$$b"; c="ho$$c"
itest_ns "$a"; itest_ns "$b"; itest_ns "$c"
itest_link "$a" eth0 "$b" eth0
itest_link "$b" eth1 "$c" eth0
itest_tmpdir ad; itest_tmpdir bd; itest_tmpdir cd
# Announces every 0.25 s, a receipt timeout of 0.75 s: a lost master is
# seen within a second.
common="network_transport L2 logAnnounceInterval -2 logSyncInterval -3 announceReceiptTimeout 3"
# shellcheck disable=SC2086
itest_conf "$ad/ptp.conf" "$ad" $common clockClass 6
# shellcheck disable=SC2086
ITEST_PORTS="eth0 eth1" itest_conf "$bd/ptp.conf" "$bd" $common \
	clockClass 248 holdover_clock_class 7 holdover_timeout "$HOLD_TIMEOUT" \
	virtual_clock_offset_ns -700000000 virtual_clock_freq_ppb -30000
# shellcheck disable=SC2086
itest_conf "$cd/ptp.conf" "$cd" $common clientOnly 1 \
	virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
itest_daemons "$a" "$ad" "$ad/ptp.conf" || exit 1
a_clockd=$((${#itest_pids[@]} - 1))
itest_daemons "$b" "$bd" "$bd/ptp.conf" || exit 1
b_clockd=$((${#itest_pids[@]} - 1))

# lock NAME DIR: wait until the node's servo is locked (s2 or s3).
lock() {
	if itest_wait_log "$2/clockd.log" ' s[23]\( freq\|$\)' "$LOCK_TIMEOUT"; then
		pass "$1 locked"
	else
		fail "$1 did not lock"; tail -20 "$2/clockd.log"; exit 1
	fi
}
# C only once B has stepped to A's time: else C may lock to B's own time
# first and then have B's step to slew away.
lock B "$bd"
itest_daemons "$c" "$cd" "$cd/ptp.conf" || exit 1
lock C "$cd"
# A few more samples, so that C is locked to B's locked time.
sleep 3
a_id=$(st "$a" "$ad" 'j["clock_identity"]')
b_id=$(st "$b" "$bd" 'j["clock_identity"]')
[ -n "$a_id" ] && [ -n "$b_id" ] || { fail "no clock identities"; exit 1; }
[ "$(st "$b" "$bd" 'j["gm_identity"], j["clock_class"], "holdover_s" in j')" = \
  "('$a_id', 248, False)" ] &&
	pass "B follows A, clock_class 248, no holdover_s" ||
	fail "B before: $(st "$b" "$bd" 'j')"
[ "$(st "$c" "$cd" 'j["gm_identity"], j["gm_clock_class"]')" = "('$a_id', 6)" ] &&
	pass "C sees A with class 6" || fail "C before: $(st "$c" "$cd" 'j')"

# ---- 1. A vanishes: holdover, class 7 ------------------------------------
kill "${itest_pids[$a_clockd]}"
wait "${itest_pids[$a_clockd]}" 2>/dev/null
itest_pids[$a_clockd]=""
t_lost=$SECONDS
if wait_st "$b" "$bd" '"holdover_s" in j' True 10; then
	pass "B in holdover $((SECONDS - t_lost)) s after A's clockd died"
else
	fail "B not in holdover: $(st "$b" "$bd" 'j')"; tail -20 "$bd/clockd.log"
fi
h1=$(st "$b" "$bd" 'j["holdover_s"]')
f1=$(st "$b" "$bd" 'j["freq_ppb"]')
sleep 2
h2=$(st "$b" "$bd" 'j["holdover_s"]')
f2=$(st "$b" "$bd" 'j["freq_ppb"]')
# The last frequency is kept: B's virtual clock runs -30000 ppb slow, so
# the kept correction is near +30000 ppb, and nothing changes it.
python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(not (a == b and 25000 < a < 35000))" "$f1" "$f2" &&
	pass "B keeps the last frequency in holdover ($f1 ppb)" ||
	fail "B's frequency in holdover: $f1 then $f2 ppb"
python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(not (0 <= a and 1.5 <= b - a <= 3.5))" "$h1" "$h2" &&
	pass "holdover_s grows: $h1 s, 2 s later $h2 s" ||
	fail "holdover_s: $h1 then $h2"
[ "$(st "$b" "$bd" 'j["clock_class"], j["gm_identity"]')" = "(7, '$b_id')" ] &&
	pass "B announces clockClass 7 as its own grandmaster" ||
	fail "B in holdover: $(st "$b" "$bd" 'j')"
if wait_st "$c" "$cd" 'j["gm_identity"], j["gm_clock_class"]' "('$b_id', 7)" 5; then
	pass "C's parentDS: grandmaster B, class 7"
else
	fail "C: $(st "$c" "$cd" 'j')"
fi
grep -q 'holdover: the last grandmaster is lost; announcing clockClass 7, 248 after' "$bd/clockd.log" &&
	pass "B logs the holdover and its schedule" || fail "B's log lacks the holdover line"
ip netns exec "$b" "$CTL" -f "$bd/ptp.conf" status | grep >/dev/null '^holdover .* s (clockClass 7)' &&
	pass "ptpctl status (text) shows the holdover" ||
	fail "text status: $(ip netns exec "$b" "$CTL" -f "$bd/ptp.conf" status)"
m=$(ip netns exec "$b" "$CTL" -f "$bd/ptp.conf" metrics)
grep -qx 'ptpsep_holdover 1' <<<"$m" && grep -qx 'ptpsep_clock_class 7' <<<"$m" &&
	grep -q '^ptpsep_holdover_seconds [1-9]' <<<"$m" &&
	pass "metrics: ptpsep_holdover 1, ptpsep_clock_class 7, holdover seconds" ||
	fail "metrics: $(grep holdover\\\|clock_class <<<"$m")"

# ---- 2. after holdover_timeout: the own class ----------------------------
if wait_st "$c" "$cd" 'j["gm_clock_class"]' 248 $((HOLD_TIMEOUT + 5)); then
	t=$((SECONDS - t_lost))
	# The class changes on the schedule (B's timer), seen by C within an
	# Announce or two (and a ptpctl poll on a busy host): not before
	# holdover_timeout, not much after.
	[ "$t" -ge $((HOLD_TIMEOUT - 1)) ] && [ "$t" -le $((HOLD_TIMEOUT + 5)) ] &&
		pass "C sees class 248 ${t} s after the loss (holdover_timeout $HOLD_TIMEOUT s)" ||
		fail "C sees class 248 ${t} s after the loss (holdover_timeout $HOLD_TIMEOUT s)"
else
	fail "C never sees class 248: $(st "$c" "$cd" 'j')"
fi
[ "$(st "$b" "$bd" 'j["clock_class"], "holdover_s" in j')" = "(248, True)" ] &&
	pass "B: clock_class 248, still in holdover" ||
	fail "B after the timeout: $(st "$b" "$bd" 'j')"

# ---- 3. A returns: B its slave again, no holdover ------------------------
itest_start "$a" "$ad/clockd2.log" "$CLOCKD" -m -f "$ad/ptp.conf"
if wait_st "$b" "$bd" '"holdover_s" in j, j["gm_identity"]' "(False, '$a_id')" 20; then
	pass "A back: B follows A, holdover_s absent"
else
	fail "A back: B $(st "$b" "$bd" 'j')"
fi
sed -n '/holdover: the last grandmaster is lost/,/holdover ends after/p' "$bd/clockd.log" |
	grep -q 'stepping the clock' && fail "B stepped its clock in holdover" ||
	pass "B did not step its clock in holdover"
grep -q 'holdover ends after' "$bd/clockd.log" &&
	pass "B logs the end of the holdover" || fail "B's log lacks the end"
[ "$(st "$b" "$bd" 'j["clock_class"]')" = 248 ] &&
	pass "B's clock_class 248 again" || fail "B: $(st "$b" "$bd" 'j')"
ip netns exec "$b" "$CTL" -f "$bd/ptp.conf" metrics | grep >/dev/null -x 'ptpsep_holdover 0' &&
	pass "metrics: ptpsep_holdover 0" || fail "metrics still in holdover"
if wait_st "$c" "$cd" 'j["gm_identity"], j["gm_clock_class"]' "('$a_id', 6)" 10; then
	pass "C sees A with class 6 again"
else
	fail "C: $(st "$c" "$cd" 'j')"
fi

# ---- 4. slave-only: shows holdover, never announces ----------------------
kill "${itest_pids[$b_clockd]}"
wait "${itest_pids[$b_clockd]}" 2>/dev/null
itest_pids[$b_clockd]=""
if wait_st "$c" "$cd" '"holdover_s" in j, j["clock_class"]' "(True, 255)" 10; then
	pass "C (slave-only) in holdover, clock_class 255"
else
	fail "C without B: $(st "$c" "$cd" 'j')"
fi
grep -q 'holdover: the last grandmaster is lost; keeping the last frequency' "$cd/clockd.log" &&
	pass "C logs the holdover without a class" || fail "C's log lacks the holdover line"
[ "$(st "$c" "$cd" 'j["ports"][0]["state"]')" = LISTENING ] &&
	pass "C's port LISTENING (announces nothing)" ||
	fail "C's port: $(st "$c" "$cd" 'j["ports"]')"

[ "$itest_fails" = 0 ]
