#!/bin/bash
# clockd_resilience.sh - ptp-clockd's privileges, restarts of either daemon,
# and a boundary clock in a chain.
#  1. /proc/<clockd>/status: clockd_user, CapEff = CapPrm = CapBnd = 0,
#     NoNewPrivs 1.
#  2. Restarting the slave's clockd: it reads the clock's frequency from
#     netd and relocks without a step.
#  3. Stopping the slave's netd: the port goes FAULTY, ptpctl status says
#     servo_state unlocked and clock_refusal netd_unreachable, clockd retries;
#     a new netd (a new virtual clock, 1.5 s off again) is found again and
#     the slave relocks.
#  4. A boundary clock between a grandmaster and a slave: the BC's port to
#     the GM is SLAVE, its other port MASTER; the slave locks to the GM
#     through it with stepsRemoved 2.  Its three nodes start with the pair
#     of 1-3 and run beside it (other namespaces), so that its lock takes
#     no time of its own; it is checked last.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

m="cr$$m"; s="cr$$s"
itest_pair "$m" "$s"
itest_tmpdir md
itest_tmpdir sd
itest_conf "$md/ptp.conf" "$md" network_transport L2 priority1 100
itest_conf "$sd/ptp.conf" "$sd" network_transport L2 clientOnly 1 \
	virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
itest_daemons "$m" "$md" "$md/ptp.conf" || exit 1
itest_daemons "$s" "$sd" "$sd/ptp.conf" || exit 1
netd_s_idx=$((${#itest_pids[@]} - 2))
clockd_s_idx=$((${#itest_pids[@]} - 1))

# ---- 4. boundary clock: started now, checked last ---------------------
g="cr$$g"; b="cr$$b"; l="cr$$l"
itest_ns "$g"; itest_ns "$b"; itest_ns "$l"
itest_link "$g" eth0 "$b" eth0
itest_link "$b" eth1 "$l" eth0
itest_tmpdir gd; itest_tmpdir bd; itest_tmpdir ld
itest_conf "$gd/ptp.conf" "$gd" network_transport L2 priority1 50
ITEST_PORTS="eth0 eth1" itest_conf "$bd/ptp.conf" "$bd" network_transport L2 \
	priority1 200 virtual_clock_offset_ns -700000000 virtual_clock_freq_ppb -30000
itest_conf "$ld/ptp.conf" "$ld" network_transport L2 clientOnly 1 \
	virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
itest_daemons "$g" "$gd" "$gd/ptp.conf" || exit 1
itest_daemons "$b" "$bd" "$bd/ptp.conf" || exit 1
itest_daemons "$l" "$ld" "$ld/ptp.conf" || exit 1

# ---- 1. privileges -----------------------------------------------------
sleep 1
pid=${itest_pids[$clockd_s_idx]}
st=/proc/$pid/status
if [ "$(cat /proc/$pid/comm)" = ptp-clockd ] &&
   [ "$(awk '/^Uid:/ {print $2 $3 $4 $5}' $st)" = "$(id -u ptpsep-clockd | sed 's/.*/&&&&/')" ] &&
   grep -q '^CapEff:[[:space:]]*0000000000000000' $st &&
   grep -q '^CapPrm:[[:space:]]*0000000000000000' $st &&
   grep -q '^CapBnd:[[:space:]]*0000000000000000' $st &&
   grep -q '^NoNewPrivs:[[:space:]]*1' $st; then
	pass "clockd runs as ptpsep-clockd with CapEff = CapPrm = CapBnd = 0 and NoNewPrivs"
else
	fail "clockd privileges: $(grep -E '^(Uid|Cap|NoNew)' $st | tr '\n' ' ')"
fi

if itest_wait_log "$sd/clockd.log" ' s2 freq' 90; then
	pass "slave locked"
else
	fail "slave did not lock"; tail -20 "$sd/clockd.log"; exit 1
fi
sleep 10

# ---- 2. clockd restart -------------------------------------------------
kill "${itest_pids[$clockd_s_idx]}"
wait "${itest_pids[$clockd_s_idx]}" 2>/dev/null
t0=$SECONDS
itest_start "$s" "$sd/clockd2.log" "$CLOCKD" -m -f "$sd/ptp.conf"
clockd_s_idx=$((${#itest_pids[@]} - 1))
if itest_wait_log "$sd/clockd2.log" ' s2 freq' 60; then
	pass "restarted clockd relocked after $((SECONDS - t0)) s"
else
	fail "restarted clockd did not relock"; tail -20 "$sd/clockd2.log"
fi
if grep -q 'starting from -[78][0-9][0-9][0-9][0-9] ppb' "$sd/clockd2.log"; then
	pass "restarted clockd took the clock's frequency from netd ($(grep -o 'starting from [-+0-9]* ppb' "$sd/clockd2.log"))"
else
	fail "restarted clockd did not start from the clock's frequency: $(grep 'servo' "$sd/clockd2.log")"
fi
if grep -q 'stepping the clock' "$sd/clockd2.log"; then
	fail "restarted clockd stepped the clock"
else
	pass "restarted clockd did not step the clock"
fi
# Carrying on at the clock's frequency keeps the offset at the noise of the
# measurement; starting from 0 ppb instead would reach ~1.6 ms in the 20 s
# before the servo's estimate.  One Sync that reaches the busy host late
# (software time stamps; 20-60 us seen) is a measurement error, not a clock
# error: one sample over 20 us is allowed, none over 200 us.
read -r n over maxoff < <(grep 'master offset' "$sd/clockd2.log" |
	awk '{o=$4; if (o<0) o=-o; n++; if (o>=20000) k++; if (o>m) m=o} END {print n+0, k+0, m+0}')
if [ "$n" -gt 0 ] && [ "$over" -le 1 ] && [ "$maxoff" -lt 200000 ]; then
	pass "offsets after the clockd restart: $n samples, $over over 20 us, max $maxoff ns (< 200 us)"
else
	fail "offsets after the clockd restart: $n samples, $over over 20 us, max $maxoff ns"
fi

# ---- 3. netd restart ---------------------------------------------------
kill "${itest_pids[$netd_s_idx]}"
wait "${itest_pids[$netd_s_idx]}" 2>/dev/null
if itest_wait_log "$sd/clockd2.log" 'to FAULTY' 10; then
	pass "the slave's port went FAULTY when netd went away"
else
	fail "no FAULTY after netd went away"
fi
lines=$(wc -l <"$sd/clockd2.log")
# Nothing is disciplined while netd is down: never "locked" (doc/design.md).
bad=""
for i in 1 2 3; do
	st=$(itest_status_field "$s" "$sd" servo_state)
	cr=$(itest_status_field "$s" "$sd" clock_refusal)
	[ "$st" = locked ] || [ "$cr" != netd_unreachable ] && bad="$bad $st/$cr"
	sleep 1
done
if [ -z "$bad" ]; then
	pass "netd down: status says servo_state $st, clock_refusal $cr"
else
	fail "netd down: status said (servo_state/clock_refusal):$bad"
fi
rm -f "$sd/netd.sock"
itest_start "$s" "$sd/netd2.log" "$NETD" -m -f "$sd/ptp.conf"
t0=$SECONDS
if itest_wait_log "$sd/clockd2.log" 'connected to netd' 30 "$lines" &&
   itest_wait_log "$sd/clockd2.log" ' s2 freq' 90 "$lines"; then
	pass "clockd reconnected to the new netd and relocked after $((SECONDS - t0)) s"
else
	fail "no relock after the netd restart"; tail -20 "$sd/clockd2.log"
fi

# ---- 4. boundary clock: checked at the end -----------------------------
if itest_wait_log "$ld/clockd.log" ' s2 freq' 120 &&
   itest_wait_log "$bd/clockd.log" 'port 1 (eth0): UNCALIBRATED to SLAVE' 10 &&
   itest_wait_log "$bd/clockd.log" 'port 2 (eth1): .* to MASTER' 10; then
	pass "boundary clock: port 1 SLAVE to the GM, port 2 MASTER; the slave locked"
else
	fail "boundary clock chain did not settle"
	tail -15 "$bd/clockd.log"; tail -10 "$ld/clockd.log"
fi
sleep 5
gm=$(itest_status_field "$g" "$gd" clock_identity)
lgm=$(itest_status_field "$l" "$ld" gm_identity)
steps=$(itest_status_field "$l" "$ld" steps_removed)
if [ -n "$gm" ] && [ "$gm" = "$lgm" ] && [ "$steps" = 2 ]; then
	pass "the slave behind the BC follows the GM $gm with stepsRemoved 2"
else
	fail "slave behind the BC: gm_identity '$lgm' (GM is '$gm'), stepsRemoved '$steps'"
fi

echo "clockd_resilience: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
