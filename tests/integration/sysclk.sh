#!/bin/bash
# sysclk.sh - the system clock from the PTP clock (issue 14 item 2, Done
# when 1; clockd/sysclk.h) on real daemons in namespaces, L2, every clock
# virtual (netd's `virtual` clock plays the PHC, `system_clock_device
# virtual` plays CLOCK_REALTIME; this machine's clock is never touched):
#
#   G (grandmaster) --eth0-- S (clientOnly)
#   G: sync_system_clock 1, its system clock true UTC (offset 0), its PHC
#      on TAI (+37 s) following it; announces the PTP timescale and
#      currentUtcOffset 37, valid.
#   S: sync_system_clock 1, its PHC 5 s off TAI, its system clock 3 s
#      behind UTC and 20000 ppb fast.
#
# Checks: S's `ptpctl --json status`: servo_state locked and
# system_clock {source phc, servo_state locked, utc_offset_s 37}; from
# medians of 10 reads of `ptpctl --json netd` (clock_state and
# system_clock_state.offset_from_realtime_ns): S's system clock within
# 500 ns of its PHC's UTC and within 1 us of UTC (not 37 s off); S's PHC
# within 2 us of TAI; G's system_clock source system (its PHC follows)
# and its PHC on TAI.
#
#   BUILD=build/default tests/integration/sysclk.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
CTL=$BUILD/ctl/ptpctl
TAI_NS=37000000000

# js NS DIR CMD EXPR: a Python expression over j, `ptpctl --json CMD`.
js() {
	ip netns exec "$1" "$CTL" -f "$2/ptp.conf" --json "$3" 2>/dev/null |
		python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$4" 2>/dev/null
}

# wait_js NS DIR CMD EXPR WANT SECONDS: until EXPR prints WANT.
wait_js() {
	local t0=$SECONDS
	until [ "$(js "$1" "$2" "$3" "$4")" = "$5" ]; do
		((SECONDS - t0 > $6)) && return 1
		sleep 0.5
	done
	return 0
}

# median NS DIR EXPR: the median of 25 reads of EXPR over `ptpctl --json
# netd`, 0.2 s apart (the PHC's servo moves it by hundreds of ns at each
# of the 8 Syncs a second under software stamps).
median() {
	local i v=()
	for ((i = 0; i < 25; i++)); do
		v+=("$(js "$1" "$2" netd "$3")")
		sleep 0.2
	done
	printf '%s\n' "${v[@]}" | python3 -c 'import sys, statistics
print(int(statistics.median(int(l) for l in sys.stdin if l.strip())))'
}

g="sc$$g"; s="sc$$s"
itest_ns "$g"; itest_ns "$s"
itest_link "$g" eth0 "$s" eth0
itest_tmpdir gd; itest_tmpdir sd
common="network_transport L2 logAnnounceInterval -2 logSyncInterval -3 announceReceiptTimeout 3 sync_system_clock 1 system_clock_device virtual system_clock_update_rate 4 ${EXTRA:-}"
# shellcheck disable=SC2086
itest_conf "$gd/ptp.conf" "$gd" $common priority1 100 \
	virtual_clock_offset_ns "$TAI_NS" virtual_system_clock_offset_ns 0
# shellcheck disable=SC2086
itest_conf "$sd/ptp.conf" "$sd" $common clientOnly 1 \
	virtual_clock_offset_ns $((TAI_NS + 5000000000)) \
	virtual_system_clock_offset_ns -3000000000 \
	virtual_system_clock_freq_ppb 20000
itest_daemons "$g" "$gd" "$gd/ptp.conf" || exit 1
itest_daemons "$s" "$sd" "$sd/ptp.conf" || exit 1

if wait_js "$s" "$sd" status 'j["servo_state"], j["system_clock"]["source"], j["system_clock"]["servo_state"]' \
	"('locked', 'phc', 'locked')" "$LOCK_TIMEOUT"; then
	pass "S: PTP clock locked, system clock locked to it (source phc)"
else
	fail "S did not lock both: $(js "$s" "$sd" status 'j')"
	tail -20 "$sd/clockd.log"
fi
# A few more samples for the servos to settle.
sleep "${SETTLE:-5}"
[ "$(js "$s" "$sd" status 'j["system_clock"]["utc_offset_s"], j["system_clock"]["method"]')" = \
  "(37, 'same_base')" ] && pass "S applies the UTC offset 37 s (compared same_base)" ||
	fail "S's system_clock: $(js "$s" "$sd" status 'j.get("system_clock")')"

for i in 1 2 3 4 5; do
	echo "S: system_clock $(js "$s" "$sd" status 'j["system_clock"]["offset_ns"], j["system_clock"]["freq_ppb"], j["offset_ns"], j["freq_ppb"]')"
	sleep 0.5
done
sys_off=$(median "$s" "$sd" 'j["system_clock_state"]["offset_from_realtime_ns"]')
phc_off=$(median "$s" "$sd" 'j["clock_state"]["offset_from_realtime_ns"] - '"$TAI_NS")
# The system clock against its leader, both read in one netd snapshot.
track=$(median "$s" "$sd" 'j["system_clock_state"]["offset_from_realtime_ns"] - j["clock_state"]["offset_from_realtime_ns"] + '"$TAI_NS")
echo "S: system clock - UTC $sys_off ns; PHC - TAI $phc_off ns; system clock - (PHC - 37 s) $track ns (medians)"
# What the second servo does: the system clock on its PHC's UTC, which
# moves: the PHC's own servo changes its frequency by hundreds of ppb at
# every Sync under software time stamps (+-30 ns with a still PHC).
if [ -n "$track" ] && ((track > -500 && track < 500)); then
	pass "S's system clock within 500 ns of its PHC's UTC ($track ns)"
else
	fail "S's system clock is $track ns from its PHC's UTC"
fi
# The PHC's own error, software time stamps on a veth: -226 to +261 ns in
# runs here since the Delay_Req leaves 20 ms after its Sync (it was -0.6
# to -1.5 us while it left with it: clockd/port_slave.c, DREQ_COLD); up
# to ~1 us while the machine is loaded by parallel builds and tests, as
# software stamps go.  The issue's 1 us is on the system clock, below;
# the PHC's bound is 2 us, its nanosecond figures are ptpsim's
# (tests/sim/scenarios/sysclk_*).
if [ -n "$phc_off" ] && ((phc_off > -2000 && phc_off < 2000)); then
	pass "S's PHC within 2 us of TAI ($phc_off ns)"
else
	fail "S's PHC is $phc_off ns from TAI"
fi
if [ -n "$sys_off" ] && ((sys_off > -1000 && sys_off < 1000)); then
	pass "S's system clock within 1 us of UTC ($sys_off ns, not 37 s off)"
else
	fail "S's system clock is $sys_off ns from UTC (PHC $phc_off ns from TAI)"
fi

# The text form and the metrics say the same.
txt=$(ip netns exec "$s" "$CTL" -f "$sd/ptp.conf" status 2>/dev/null)
grep -q '^system clock .*follows phc, offset .* ns, .* ppb, locked (same_base, UTC offset 37 s)$' <<<"$txt" &&
	pass "S: ptpctl status: the system clock line" ||
	fail "S: ptpctl status: $(grep '^system clock' <<<"$txt")"
m=$(ip netns exec "$s" "$CTL" -f "$sd/ptp.conf" metrics 2>/dev/null)
grep -qx 'ptpsep_system_clock_servo_state 2' <<<"$m" &&
	grep -qx 'ptpsep_system_clock_source 1' <<<"$m" &&
	grep -q '^ptpsep_system_clock_offset_nanoseconds -\?[0-9]' <<<"$m" &&
	grep -q '^ptpsep_system_clock_frequency_ppb ' <<<"$m" &&
	pass "S: metrics: ptpsep_system_clock_* (locked, source phc)" ||
	fail "S: metrics: $(grep system_clock <<<"$m")"

[ "$(js "$g" "$gd" status 'j["system_clock"]["source"], j["system_clock"]["utc_offset_s"]')" = \
  "('system', 37)" ] && pass "G: its PHC follows its system clock, UTC offset 37 s" ||
	fail "G's system_clock: $(js "$g" "$gd" status 'j.get("system_clock")')"
g_phc=$(median "$g" "$gd" 'j["clock_state"]["offset_from_realtime_ns"]')
if [ -n "$g_phc" ] && ((g_phc - TAI_NS > -1000 && g_phc - TAI_NS < 1000)); then
	pass "G's PHC on TAI ($((g_phc - TAI_NS)) ns)"
else
	fail "G's PHC is $g_phc ns from UTC"
fi

[ "$itest_fails" = 0 ]
