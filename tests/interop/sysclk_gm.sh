#!/bin/bash
# sysclk_gm.sh - the grandmaster direction of the built-in phc2sys (issue
# 14 item 2, Done when 2; clockd/sysclk.h): our grandmaster with
# sync_system_clock 1, its system clock a virtual clock on true UTC
# (system_clock_device virtual, offset 0), its PHC a virtual clock started
# 2 ms off TAI (virtual_clock_offset_ns 37 s + 2 ms), which clockd steers
# to follow the system clock.  The slave is ptp4l on CLOCK_REALTIME
# (free_running 1, kernel_leap 0: nothing is adjusted).  Checks:
#   - ours: ptpctl --json status system_clock {source system, servo_state
#     locked, utc_offset_s 37}; the PHC steered to TAI within 1 us
#     (ptpctl --json netd clock_state.offset_from_realtime_ns);
#   - ptp4l: pmc TIME_PROPERTIES_DATA_SET currentUtcOffset 37,
#     ptpTimescale 1, currentUtcOffsetValid 1, and its master offset (UTC
#     offset applied by ptp4l, its clock not steered: CLOCK_REALTIME is
#     true UTC) within 100 us, the last five it logged: our TAI is
#     UTC + 37 s.
#
#   BUILD=build/default tests/interop/sysclk_gm.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v "$PTP4L" >/dev/null && command -v "$PMC" >/dev/null || {
	echo "FAIL: ptp4l/pmc not installed (check.sh installs linuxptp)"; exit 1; }

TAI_NS=37000000000
CTL=$BUILD/ctl/ptpctl

js() {
	ip netns exec "$1" "$CTL" -f "$2/ptp.conf" --json "$3" 2>/dev/null |
		python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$4" 2>/dev/null
}

tag="sg$$"
O="${tag}o"; P="${tag}p"
itest_pair "$O" "$P" || exit 1
itest_tmpdir od
itest_tmpdir pd
itest_conf "$od/ptp.conf" "$od" network_transport L2 priority1 100 \
	sync_system_clock 1 system_clock_device virtual \
	virtual_system_clock_offset_ns 0 system_clock_update_rate 4 \
	virtual_clock_offset_ns $((TAI_NS + 2000000))
iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport L2 slaveOnly 1
itest_daemons "$O" "$od" "$od/ptp.conf" || exit 1
iop_ptp4l "$P" "$pd" eth0 || exit 1

sc_ok() {
	[ "$(js "$O" "$od" status 'j["system_clock"]["source"], j["system_clock"]["servo_state"], j["system_clock"]["utc_offset_s"]')" = \
	  "('system', 'locked', 37)" ]
}
if iop_wait 60 sc_ok; then
	pass "ours: the PHC follows the system clock, locked, UTC offset 37 s"
else
	fail "ours: system_clock $(js "$O" "$od" status 'j.get("system_clock")')"
	tail -20 "$od/clockd.log"
fi
sleep 2
phc=$(js "$O" "$od" netd 'j["clock_state"]["offset_from_realtime_ns"] - '"$TAI_NS")
if [ -n "$phc" ] && ((phc > -1000 && phc < 1000)); then
	pass "ours: the PHC on TAI ($phc ns; it started 2 ms off)"
else
	fail "ours: the PHC is $phc ns from TAI"
fi

tp() {
	iop_pmc "$P" "$pd" 'GET TIME_PROPERTIES_DATA_SET' | awk '
		$1 == "currentUtcOffset" { o = $2 } $1 == "ptpTimescale" { t = $2 }
		$1 == "currentUtcOffsetValid" { v = $2 }
		END { if (o != "") print o, t, v }'
}
tp_ok() { [ "$(tp)" = "37 1 1" ]; }
if iop_wait 30 tp_ok; then
	pass "ptp4l: currentUtcOffset 37, ptpTimescale 1, currentUtcOffsetValid 1"
else
	fail "ptp4l: time properties [$(tp)]"
fi

# ptp4l's own log: "master offset N s0 ..." (free_running: its servo
# stays s0, the offset is still measured, the UTC offset applied); the
# last five.
off_ok() {
	[ "$(grep -c 'master offset ' "$pd/ptp4l.log")" -ge 5 ]
}
if iop_wait 60 off_ok; then
	read -r n max < <(grep 'master offset ' "$pd/ptp4l.log" | tail -5 |
		awk '{ for (i = 1; i < NF; i++) if ($i == "offset") { v = $(i + 1); if (v < 0) v = -v
		if (v > m) m = v; n++ } } END { print n, m + 0 }')
	if [ "$n" = 5 ] && ((max < 100000)); then
		pass "ptp4l: master offset within 100 us, UTC offset applied (max |offset| $max ns of the last 5)"
	else
		fail "ptp4l: master offsets up to $max ns ($n read)"
	fi
else
	fail "ptp4l logged no offsets"; tail -20 "$pd/ptp4l.log"
fi
echo "interop sysclk_gm: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
