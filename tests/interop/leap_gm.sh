#!/bin/bash
# leap_gm.sh - our grandmaster announces the 2016-12-31 leap second from
# its leapfile, and a ptp4l slave sees it (issue 14 item 3, grandmaster
# side): our netd's virtual clock starts at 2016-12-31 23:59:20 UTC
# (virtual_clock_offset_ns), leapfile = tzdata's leap-seconds.list
# (tests/vectors).  Polled every 0.5 s until 40 s after that midnight:
#   - before midnight (the grandmaster's clock, UTC): ptp4l's
#     TIME_PROPERTIES_DATA_SET (pmc) and ours (ptpctl datasets) say
#     currentUtcOffset 36, leap61 1, leap59 0, currentUtcOffsetValid 1;
#   - after it: 37, leap61 0;
#   - never 37 with leap61, nor 36 without it; never 37 in a sample that
#     ended before the grandmaster's midnight; never 36/leap61 in one that
#     started 1.5 s (ours: clockd reads its clock at midnight) or 3 s
#     (ptp4l: our next Announce, one a second) after it; the first 37
#     seen within 5 s (a sample takes 0.5-1 s, more on a busy host);
#   - clockd's log says when it started and stopped announcing.
# The slave is ptp4l with free_running 1 and kernel_leap 0: with
# kernel_leap 1 a ptp4l on CLOCK_REALTIME that sees leap61 sets the
# kernel's STA_INS on this host's real clock (linuxptp clock.c,
# clock_utc_correct), which would insert a real leap second at the next
# real midnight.  No test reads or writes the host's clock state: the
# guards are structural and asserted here (ptp4l's configuration holds
# kernel_leap 0, which tests/interop/lib.sh writes and insists on; our
# netd runs a virtual clock and holds no CAP_SYS_TIME).
#
# Our virtual clock counts UTC here (kernel_leap 1, no system clock:
# netd/main.c), and clockd as grandmaster arms the leap on it, so it
# repeats 23:59:59 as a kernel would.  The poll's times (gm_ms) are host
# time plus the start offset, so the grandmaster's own midnight falls
# about 1000 ms after MIDNIGHT on that scale: "first 37 at +1818 ms" is
# about 0.8 s after its own midnight.  A grandmaster on the ARB timescale
# (ptpTimescale 0) announces its own clock; what is checked here is the
# announcement, not the slave's clock.
#
#   BUILD=build/default tests/interop/leap_gm.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v "$PTP4L" >/dev/null && command -v "$PMC" >/dev/null || {
	echo "FAIL: ptp4l/pmc not installed (check.sh installs linuxptp)"; exit 1; }

MIDNIGHT=1483228800		# 2017-01-01 00:00:00 UTC
LEAD=${LEAD:-40}		# s before midnight at start
AFTER=${AFTER:-15}		# s polled after midnight
vec=$(cd "$here/../vectors" && pwd)/leap-seconds.list


tag="lg$$"
O="${tag}o"; P="${tag}p"
itest_pair "$O" "$P" || exit 1
itest_tmpdir od
itest_tmpdir pd
cp "$vec" "$od/leap-seconds.list"
chmod 0644 "$od/leap-seconds.list"

now_ns=$(date +%s%N)
off=$(( (MIDNIGHT - LEAD) * 1000000000 - now_ns ))
itest_conf "$od/ptp.conf" "$od" network_transport L2 priority1 100 \
	logAnnounceInterval 0 leapfile "$od/leap-seconds.list" \
	virtual_clock_offset_ns "$off"
iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" network_transport L2 slaveOnly 1 \
	logAnnounceInterval 0 kernel_leap 0
grep -qx 'kernel_leap 0' "$pd/ptp4l.conf" || { fail "kernel_leap 0 not set"; exit 1; }
itest_daemons "$O" "$od" "$od/ptp.conf" || exit 1
# itest_daemons started netd first: it disciplines only its virtual
# clock and may not touch the host's (CAP_SYS_TIME is bit 25).
eff=$(awk '/^CapEff:/ { print $2 }' "/proc/${itest_pids[0]}/status" 2>/dev/null)
if [ -n "$eff" ] && (( (0x$eff >> 25 & 1) == 0 )); then
	pass "netd holds no CAP_SYS_TIME (CapEff $eff)"
else
	fail "netd's CapEff ${eff:-unreadable} (CAP_SYS_TIME must be clear)"; exit 1
fi
iop_ptp4l "$P" "$pd" eth0 || exit 1

# gm_ms: the grandmaster's virtual clock now, in ms before (-) or after
# midnight, from this host's clock and the offset (netd adds it
# to CLOCK_REALTIME; virtual_clock_freq_ppb 0).
gm_ms() {
	echo $(( ($(date +%s%N) + off) / 1000000 - MIDNIGHT * 1000 ))
}

ours_tp() {
	ip netns exec "$O" "$BUILD/ctl/ptpctl" -f "$od/ptp.conf" --json \
		datasets time-properties 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["current_utc_offset"], int(d["leap61"]), int(d["leap59"]),
    int(d["current_utc_offset_valid"]))' 2>/dev/null
}

ptp4l_tp() {
	iop_pmc "$P" "$pd" 'GET TIME_PROPERTIES_DATA_SET' | awk '
		$1 == "currentUtcOffset" { o = $2 } $1 == "leap61" { l61 = $2 }
		$1 == "leap59" { l59 = $2 } $1 == "currentUtcOffsetValid" { v = $2 }
		END { if (o != "") print o, l61, l59, v }'
}

bad=0
p_before=0 p_after=0 o_before=0 o_after=0
p_first_after= o_first_after= p_last_before= o_last_before=
log=$od/samples.txt
while :; do
	t=$(gm_ms)
	((t > AFTER * 1000)) && break
	o=$(ours_tp); p=$(ptp4l_tp); t2=$(gm_ms)
	echo "$t $t2 ours=[$o] ptp4l=[$p]" >>"$log"
	for who in o p; do
		v=${!who}
		[ -n "$v" ] || continue
		read -r uo l61 l59 valid <<<"$v"
		case "$uo $l61 $l59 $valid" in
		"36 1 0 1")
			# seen before midnight; the sample ended at t2
			if ((t > 0)); then
				# a late answer: ptp4l keeps the last Announce's
				# flags until the next one (1 s), ours reads each s
				lim=$([ $who = p ] && echo 3000 || echo 1500)
				((t > lim)) && { fail "$who: 36/leap61 at $t ms after midnight"; bad=$((bad + 1)); }
			fi
			eval "${who}_before=\$((${who}_before + 1))"
			eval "${who}_last_before=\$t2"
			;;
		"37 0 0 1")
			if ((t2 < 0)); then
				fail "$who: 37/no leap61 at $t2 ms, before midnight"
				bad=$((bad + 1))
			fi
			eval "${who}_after=\$((${who}_after + 1))"
			eval "[ -n \"\$${who}_first_after\" ] || ${who}_first_after=\$t"
			;;
		"37 1 0 1"|"36 0 0 1")
			# ptp4l's dataset until it takes us as parent is its own
			# (utc_offset 37, no flag): only before the first 36/leap61
			if [ $who = p ] && [ "$p_before" = 0 ] && [ "$uo $l61" = "37 0" ]; then
				:
			else
				fail "$who: inconsistent $v at $t ms"
				bad=$((bad + 1))
			fi
			;;
		*)
			if [ $who = p ] && [ "$p_before" = 0 ]; then :; else
				fail "$who: unexpected time properties [$v] at $t ms"
				bad=$((bad + 1))
			fi
			;;
		esac
	done
	sleep 0.5
done

echo "INFO: samples (ms from the grandmaster's midnight): ours $o_before before / $o_after after (last 36 at ${o_last_before:-none}, first 37 at ${o_first_after:-none}); ptp4l $p_before / $p_after (last 36 at ${p_last_before:-none}, first 37 at ${p_first_after:-none})"
if ((o_before >= 10 && o_after >= 10)); then
	pass "ours: currentUtcOffset 36 leap61 1 before midnight, 37 leap61 0 after"
else
	fail "ours: too few samples on either side ($o_before/$o_after)"
fi
if ((p_before >= 5 && p_after >= 10)); then
	pass "ptp4l slave: currentUtcOffset 36 leap61 1 before midnight, 37 leap61 0 after"
else
	fail "ptp4l slave: too few samples on either side ($p_before/$p_after)"
	cat "$pd/ptp4l.log" | tail -20
fi
[ -n "$o_first_after" ] && ((o_first_after <= 5000)) &&
	pass "ours: 37 first seen $o_first_after ms after midnight" ||
	fail "ours changed late (${o_first_after:-never} ms)"
[ -n "$p_first_after" ] && ((p_first_after <= 5000)) &&
	pass "ptp4l: 37 first seen $p_first_after ms after midnight" ||
	fail "ptp4l saw the change late (${p_first_after:-never} ms)"
((bad == 0)) && pass "no sample out of order or inconsistent" ||
	{ fail "$bad bad samples"; cat "$log"; }
grep -q "announcing leap61 before 2017-01-01 00:00 UTC" "$od/clockd.log" &&
grep -q "TAI-UTC 37 s (was 36)" "$od/clockd.log" &&
	pass "clockd logged the leap61 announcement and the new offset" ||
	{ fail "clockd's log lacks the leap lines"; grep -i leap "$od/clockd.log"; }
grep -q "clock update suspended due to leap second" "$pd/ptp4l.log" &&
	echo "INFO: ptp4l suspended its clock update in the leap second (its own leap logic saw the flag)"

itest_stop
exit $((itest_fails > 0))
