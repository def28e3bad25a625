#!/bin/bash
# tests/sim/check.sh - the simulation cases of `make check` (issue 12,
# item 4): every scenario in tests/sim/scenarios/ runs in ptpsim and its
# SUMMARY lines must stay within the bounds below.  ptpsim is deterministic
# (same scenario, same seed: byte-identical output), so the bounds are
# tight: each is the figure measured when it was set plus a small margin,
# and nothing is retried.  A change of the engine or of the default servo
# that moves a figure past its bound fails here; look at the scenario's
# trace (ptpsim tests/sim/scenarios/NAME.sim) and set the bound again if
# the new figure is the better one.
#
# Also: the same seed twice gives byte-identical output (trace and
# summary), another seed gives another run, and an hour of a pair at
# logSyncInterval 0 takes under 5 s of CPU.
#
# No root, no network, no real clock: ptpsim's clocks are models.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
SIM=${PTPSIM:-$top_builddir/tests/sim/ptpsim}
SCEN=$top_srcdir/tests/sim/scenarios
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

if [ ! -x "$SIM" ]; then
	echo "FAIL: $SIM not built"
	exit 1
fi

# Bounds on the SUMMARY line of a node: RMS and max |offset to true time|
# (ns, over samples from measure_from on), time to lock (s), steps, steps
# after the first lock, refusals by netd, time spent unlocked after the
# first lock (s), port state changes.  "-" leaves a figure unbounded (a
# grandmaster's offset is its reference's, set by the scenario).  Each
# bound is the figure when it was set, rounded up from: rms x 1.15 + 1,
# max x 1.15 + 2, lock + 2 s, unlocked x 1.2 + 2 s, state changes + 1;
# steps, steps after lock and refusals exactly.  Set again after kalman's
# band-mean path delay (port_slave.c): the rows of fastsync_hw, pair_*_sw
# (better), and chain10_*, extstep_sw, followup_sw, restart_hw,
# slaveonly_hw, whose seed-1 max or lock moved up while over 10-20 seeds
# their median RMS fell and their worst max did not rise.  Set again, the
# rows that moved up only, when the E2E slave's Delay_Req began to leave
# with the Sync sample it is due at (port_slave.c, issue 13): the draws of
# every scenario's seed changed.  Over 8 seeds of every scenario the
# median RMS fell by 11 % and the median max by 13 % (geometric means of
# the ratios); wander_sw's lock was 910 s before as its median over 12
# seeds (20 s was seed 14's luck).  passive_hw's s got worse: its servo
# ignores the upstream step at 1200 s as spikes while its frequency is
# off, in 11 of 40 seeds before and 18 of 40 after (max > 5 us).  With
# software stamps it left 20 ms after its Sync sample from then on
# (port_slave.c, DREQ_COLD): chain10_sw's bc7 and bc8 (lock) and slew_sw
# (max) set again; over 12 seeds their median RMS and max did not rise
# (bc7 594 -> 557 ns, 1198 -> 1130 ns; slew_sw 100 -> 101, 229 -> 227).
# scenario	node	rms	max	lock	steps	after	refus	unlck	states
BOUNDS="
bigoffset_hw	gm	1	2	2	0	0	0	2	2
bigoffset_hw	s1	5	13	15	1	0	0	2	3
bigoffset_sw	gm	1	2	2	0	0	0	2	2
bigoffset_sw	s1	182	543	18	1	0	0	2	3
chain10_hw	gm	-	-	-	0	0	0	-	2
chain10_hw	bc1	5	13	16	1	0	0	2	5
chain10_hw	bc2	6	16	30	1	0	0	2	5
chain10_hw	bc3	7	21	37	1	0	0	2	5
chain10_hw	bc4	8	23	43	1	0	0	2	5
chain10_hw	bc5	9	25	54	1	0	0	2	5
chain10_hw	bc6	12	32	68	1	0	0	2	5
chain10_hw	bc7	14	36	85	1	0	0	2	5
chain10_hw	bc8	14	48	101	1	0	0	2	5
chain10_hw	bc9	17	60	120	1	0	0	2	5
chain10_hw	bc10	22	70	152	1	0	0	2	5
chain10_hw	s	28	130	164	1	0	0	2	3
chain10_sw	gm	-	-	-	0	0	0	-	2
chain10_sw	bc1	172	365	19	1	0	0	2	5
chain10_sw	bc2	249	487	27	1	0	0	2	5
chain10_sw	bc3	431	858	30	1	0	0	2	5
chain10_sw	bc4	542	1009	41	1	0	0	2	5
chain10_sw	bc5	664	1181	52	1	0	0	2	5
chain10_sw	bc6	782	5549	67	1	0	0	2	5
chain10_sw	bc7	993	1908	94	1	0	0	2	5
chain10_sw	bc8	1189	2398	97	1	0	0	2	5
chain10_sw	bc9	1405	3883	108	1	0	0	2	5
chain10_sw	bc10	1669	3835	117	1	0	0	2	5
chain10_sw	s	1948	4253	196	1	0	0	2	3
clockclass_hw	gm1	-	-	-	0	0	0	-	4
clockclass_hw	gm2	-	-	-	0	0	0	-	4
clockclass_hw	s1	171	381	16	1	0	0	2	5
clockclass_hw	s2	168	385	15	1	0	0	2	5
clockclass_sw	gm1	-	-	-	0	0	0	-	4
clockclass_sw	gm2	-	-	-	0	0	0	-	4
clockclass_sw	s1	262	517	19	1	0	0	2	5
clockclass_sw	s2	307	586	18	1	0	0	2	5
extstep_hw	gm	1	2	2	0	0	0	2	2
extstep_hw	s1	4	11	15	2	1	0	6	3
extstep_sw	gm	1	2	2	0	0	0	2	2
extstep_sw	s1	159	469	20	2	1	0	6	3
failover3_hw	gm1	-	-	-	0	0	0	-	3
failover3_hw	gm2	-	-	-	0	0	0	-	4
failover3_hw	gm3	-	-	-	0	0	0	-	7
failover3_hw	s1	126	245	15	1	0	0	2	11
failover3_hw	s2	127	252	15	1	0	0	2	11
failover3_sw	gm1	-	-	-	0	0	0	-	3
failover3_sw	gm2	-	-	-	0	0	0	-	4
failover3_sw	gm3	-	-	-	0	0	0	-	7
failover3_sw	s1	193	556	20	1	0	0	2	11
failover3_sw	s2	218	496	18	1	0	0	2	11
fastsync_hw	gm	1	2	2	0	0	0	2	2
fastsync_hw	s1	115	315	18	1	0	0	2	3
fastsync_sw	gm	1	2	2	0	0	0	2	2
fastsync_sw	s1	86	238	11	1	0	0	2	3
followup_hw	gm	1	2	2	0	0	0	2	2
followup_hw	s1	4	13	23	1	0	0	2	3
followup_sw	gm	1	2	2	0	0	0	2	2
followup_sw	s1	161	311	36	1	0	0	2	3
freq500_hw	gm	1	2	2	0	0	0	2	2
freq500_hw	s1	5	14	15	1	0	0	2	3
freq500_sw	gm	1	2	2	0	0	0	2	2
freq500_sw	s1	174	460	28	1	0	0	2	3
latestart_hw	gm	1	2	2	0	0	0	2	2
latestart_hw	s1	5	13	-	1	0	0	2	3
latestart_hw	s2	5	12	-	1	0	0	2	3
latestart_sw	gm	1	2	2	0	0	0	2	2
latestart_sw	s1	213	571	-	1	0	0	2	3
latestart_sw	s2	166	274	-	1	0	0	2	3
linkflap_hw	gm	1	2	2	0	0	0	2	8
linkflap_hw	s1	20	150	15	1	0	0	2	11
linkflap_sw	gm	1	2	2	0	0	0	2	8
linkflap_sw	s1	234	1272	18	1	0	0	12	11
mismatch_hw	gm	1	2	2	0	0	0	2	2
mismatch_hw	s1	-	-	-	0	0	0	-	2
mismatch_sw	gm	1	2	2	0	0	0	2	2
mismatch_sw	s1	-	-	-	0	0	0	-	2
netdrestart_hw	gm	1	2	2	0	0	0	2	5
netdrestart_hw	s1	-	-	16	2	1	0	11	10
netdrestart_sw	gm	1	2	2	0	0	0	2	5
netdrestart_sw	s1	-	-	23	2	1	0	19	10
pair_e2e_hw	gm	-	-	-	0	0	0	-	2
pair_e2e_hw	s1	5	14	15	1	0	0	2	3
pair_e2e_sw	gm	-	-	-	0	0	0	-	2
pair_e2e_sw	s1	109	290	24	1	0	0	2	3
pair_p2p_hw	gm	-	-	-	0	0	0	-	2
pair_p2p_hw	s1	5	15	13	1	0	0	2	3
pair_p2p_sw	gm	-	-	-	0	0	0	-	2
pair_p2p_sw	s1	146	517	16	1	0	0	2	3
passive_hw	gm	-	-	-	0	0	0	-	6
passive_hw	bc	102	2127	16	1	0	0	8	15
passive_hw	s	367	8939	26	1	0	0	12	3
passive_sw	gm	-	-	-	0	0	0	-	6
passive_sw	bc	132	413	19	1	0	0	2	15
passive_sw	s	313	1280	132	1	0	0	2	3
restart_hw	gm	1	2	2	0	0	0	2	3
restart_hw	s1	6	52	15	1	0	0	2	8
restart_sw	gm	1	2	2	0	0	0	2	3
restart_sw	s1	223	2331	26	1	0	0	10	8
slaveonly_hw	gm1	116	117	2	0	0	0	2	2
slaveonly_hw	gm2	1	2	2	0	0	0	2	2
slaveonly_hw	s1	87	168	16	1	0	0	2	6
slaveonly_hw	s2	85	170	16	1	0	0	2	6
slaveonly_sw	gm1	116	117	2	0	0	0	2	2
slaveonly_sw	gm2	1	2	2	0	0	0	2	2
slaveonly_sw	s1	282	636	41	1	0	0	2	6
slaveonly_sw	s2	225	479	19	1	0	0	2	6
slew_hw	gm	1	2	2	0	0	0	2	2
slew_hw	s1	4	8	275	0	0	0	2	3
slew_sw	gm	1	2	2	0	0	0	2	2
slew_sw	s1	82	315	267	0	0	0	2	3
sysclk_hw_basic	gm	8	24	2	0	0	0	2	2
sysclk_hw_basic	s1	6	17	15	1	0	0	2	3
sysclk_hw_extended	gm	8	24	2	0	0	0	2	2
sysclk_hw_extended	s1	6	17	15	1	0	0	2	3
sysclk_hw_precise	gm	8	24	2	0	0	0	2	2
sysclk_hw_precise	s1	6	17	15	1	0	0	2	3
sysclk_sw	gm	1	2	2	0	0	0	2	2
sysclk_sw	s1	92	246	23	1	0	0	2	3
wander_hw	gm	1	2	2	0	0	0	2	2
wander_hw	s1	9	27	17	1	0	0	2	3
wander_sw	gm	1	2	2	0	0	0	2	2
wander_sw	s1	568	5273	1738	1	0	0	2	3
"

# summary FILE NODE FIELD: the value of FIELD= on NODE's SUMMARY line.
summary() {
	awk -v node="$2" -v field="$3" '
	$1 == "SUMMARY" {
		v = ""; n = ""
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "node") n = kv[2]
			if (kv[1] == field) v = kv[2]
		}
		if (n == node) { print v; found = 1; exit }
	}
	END { if (!found) exit 1 }' "$1"
}

# le A B: A <= B, as numbers (awk: ptpsim prints decimals).
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

check_bound() {	# scenario node field value bound
	local sc=$1 node=$2 field=$3 v=$4 b=$5
	[ "$b" = - ] && return 0
	if [ -z "$v" ]; then
		fail "$sc: $node: no $field in the summary"
	elif [ "$field" = lock_s ] && ! le 0 "$v"; then
		fail "$sc: $node: never locked (lock_s=$v, bound $b)"
	elif ! le "$v" "$b"; then
		fail "$sc: $node: $field=$v > $b"
	else
		return 0
	fi
	return 1
}

# Every scenario runs once; its summary goes to $tmp/NAME.sum and its
# trace to $tmp/NAME.trace.
declare -A ran
run_scenario() {
	local sc=$1
	[ -n "${ran[$sc]:-}" ] && return "${ran[$sc]}"
	if "$SIM" -q -o "$tmp/$sc.trace" "$SCEN/$sc.sim" >"$tmp/$sc.sum" \
	    2>"$tmp/$sc.err"; then
		ran[$sc]=0
	else
		fail "$sc: ptpsim exited $?: $(tail -3 "$tmp/$sc.err")"
		ran[$sc]=1
	fi
	return "${ran[$sc]}"
}

while read -r sc node rms max lock steps after refus unlck states; do
	case $sc in ''|'#'*) continue ;; esac
	run_scenario "$sc" || continue
	ok=1
	for f in rms_ns:$rms max_ns:$max lock_s:$lock steps:$steps \
	    steps_after_lock:$after refusals:$refus unlocked_s:$unlck \
	    state_changes:$states; do
		field=${f%%:*} b=${f#*:}
		v=$(summary "$tmp/$sc.sum" "$node" "$field") || {
			fail "$sc: no SUMMARY line for node $node"
			ok=0
			break
		}
		check_bound "$sc" "$node" "$field" "$v" "$b" || ok=0
	done
	[ $ok = 1 ] && pass "$sc: $node: $(grep -m1 "node=$node " \
	    "$tmp/$sc.sum" | cut -d' ' -f3-)"
done <<EOF
$BOUNDS
EOF

# The system clocks (sync_system_clock 1, issue 14 item 2; sysclk_*):
# bounds on the sys_* fields of a SUMMARY line by the rule above: RMS and
# max of the system clock minus true UTC (ns, from measure_from on), its
# lock_s (s), its steps, netd's refusals of its requests and of the
# compares, exactly.  A grandmaster's system clock is the scenario's UTC
# itself (its PHC follows it), hence 1 / 2 / 2.  A slave steps its system clock once: not while its PTP clock is still UNCALIBRATED at start.  s1's basic compare never
# keeps it under lock_threshold (1 us) for good: "-".
# scenario	node	rms	max	lock	steps	refus	cmprf
SYS_BOUNDS="
sysclk_hw_basic	gm	1	2	2	0	0	0
sysclk_hw_basic	s1	718	1730	-	1	0	0
sysclk_hw_extended	gm	1	2	2	0	0	0
sysclk_hw_extended	s1	153	369	17	1	0	0
sysclk_hw_precise	gm	1	2	2	0	0	0
sysclk_hw_precise	s1	8	31	17	1	0	0
sysclk_sw	gm	1	2	2	0	0	0
sysclk_sw	s1	94	264	21	1	0	0
"
while read -r sc node rms max lock steps refus cmprf; do
	case $sc in ''|'#'*) continue ;; esac
	run_scenario "$sc" || continue
	ok=1
	for f in sys_rms_ns:$rms sys_max_ns:$max sys_lock_s:$lock \
	    sys_steps:$steps sys_refusals:$refus cmp_refusals:$cmprf; do
		field=${f%%:*} b=${f#*:}
		v=$(summary "$tmp/$sc.sum" "$node" "$field") || {
			fail "$sc: no SUMMARY line for node $node"
			ok=0
			break
		}
		if [ -z "$v" ]; then
			fail "$sc: $node: no $field (no system clock?)"
			ok=0
			break
		fi
		if [ "$field" = sys_lock_s ] && [ "$b" != - ] && ! le 0 "$v"
		then
			fail "$sc: $node: the system clock never locked"
			ok=0
			continue
		fi
		check_bound "$sc" "$node" "$field" "$v" "$b" || ok=0
	done
	[ $ok = 1 ] && pass "$sc: $node's system clock:$(grep -m1 \
	    "node=$node " "$tmp/$sc.sum" | grep -o ' sys_rms_ns=.*')"
done <<EOF
$SYS_BOUNDS
EOF

# ---- what the SUMMARY lines do not say: from the trace, or a shorter run

# ports SC T NODE: the port letters of NODE at sample time T (s).
ports() {
	awk -v t="$2" -v node="$3" '$1 + 0 == t + 0 && $2 == node {
	    print $7; exit }' "$tmp/$1.trace"
}

# expect_ports SC T NODE REGEX: NODE's port letters at T match REGEX.
expect_ports() {
	local p
	p=$(ports "$1" "$2" "$3")
	if [[ $p =~ ^$4$ ]]; then
		pass "$1: $3's ports at $2 s: $p"
	else
		fail "$1: $3's ports at $2 s are '$p', not $4"
	fi
}

# never_ports SC NODE SET FROM: no sample of NODE at or after FROM s has
# a port letter in SET.
never_ports() {
	local bad
	bad=$(awk -v node="$2" -v from="$4" -v set="$3" '
	    $2 == node && $1 + 0 >= from + 0 && $7 ~ "[" set "]" {
		print $1 " " $7; exit }' "$tmp/$1.trace")
	if [ -z "$bad" ]; then
		pass "$1: $2 never in [$3] from $4 s on"
	else
		fail "$1: $2 in [$3] at $bad"
	fi
}

# settled SC NODE LO HI: the last sample of NODE with |offset| >= 1 us is
# within [LO, HI] s (it synced then and stayed in sync to the end).
settled() {
	local t
	t=$(awk -v node="$2" '$2 == node { o = $3 < 0 ? -$3 : $3
	    if (o >= 1000) last = $1 } END { print last + 0 }' \
	    "$tmp/$1.trace")
	if le "$3" "$t" && le "$t" "$4"; then
		pass "$1: $2 within 1 us from $t s on (window $3-$4 s)"
	else
		fail "$1: $2 last over 1 us at $t s, not within $3-$4 s"
	fi
}

# reselect SC NODE DURATION EVENT_T GM BOUND: a run cut at DURATION s ends
# with NODE following GM, which it took at most BOUND s after EVENT_T.
reselect() {
	local sc=$1 node=$2 d=$3 ev=$4 gm=$5 b=$6 out=$tmp/$1.d$3 got t
	"$SIM" -q -d "$d" "$SCEN/$sc.sim" >"$out" 2>/dev/null || {
		fail "$sc -d $d: ptpsim failed"
		return
	}
	got=$(summary "$out" "$node" gm)
	t=$(summary "$out" "$node" gm_change_s)
	if [ "$got" != "$gm" ]; then
		fail "$sc: at $d s $node follows '$got', not $gm"
	elif ! le "$t" "$(awk -v e="$ev" -v b="$b" 'BEGIN { print e + b }')" ||
	    ! le "$ev" "$t"; then
		fail "$sc: $node took $gm at $t s, not within $b s of $ev s"
	else
		pass "$sc: $node took $gm $(awk -v t="$t" -v e="$ev" \
		    'BEGIN { printf "%.3f", t - e }') s after the event at $ev s"
	fi
}

for m in hw sw; do
	# Failover: each reselection within announceReceiptTimeout (3 x 2 s)
	# plus the two Announces that qualify the new master (IEEE 1588-2019
	# 9.3.2.5; measured 7.7 and 8.7 s); gm1 back: 5.2 s (it listens for
	# an announceReceiptTimeout before it is master again).
	if run_scenario failover3_$m; then
		for n in s1 s2; do
			reselect failover3_$m $n 1100 600 gm2 9.5
			reselect failover3_$m $n 1700 1200 gm3 9.5
			reselect failover3_$m $n 2400 1800 gm1 6.0
		done
	fi
	# clockClass: gm1 stops announcing as a grandmaster at once; gm2,
	# passive until then, is master when gm1's last Announce times out
	# (measured 3.3 s).
	if run_scenario clockclass_$m; then
		for n in s1 s2 gm1; do
			reselect clockclass_$m $n 1200 600 gm2 4.5
		done
	fi
	# slaveOnly/clientOnly never master, masterOnly never anything else.
	if run_scenario slaveonly_$m; then
		never_ports slaveonly_$m s1 MP 0
		never_ports slaveonly_$m s2 MP 0
		never_ports slaveonly_$m gm1 LUSAP 10
		expect_ports slaveonly_$m 440 gm2 M
		for n in s1 s2; do
			reselect slaveonly_$m $n 900 450 gm1 7.0
		done
	fi
	# Passive: l1 slave, l2 passive, l3 master; l2 takes over while l1
	# is down; back when it returns.
	if run_scenario passive_$m; then
		expect_ports passive_$m 590 bc SAM
		expect_ports passive_$m 890 bc '[FL]SM'
		expect_ports passive_$m 1490 bc SAM
		expect_ports passive_$m 1490 gm MM
	fi
	# Link flap: the slave's port leaves SLAVE while the link is down.
	if run_scenario linkflap_$m; then
		expect_ports linkflap_$m 630 s1 '[FLD]'
		expect_ports linkflap_$m 1790 s1 S
	fi
	# netd restart: the slave steps once more and is back within 1 us
	# a few seconds later (measured 607-608 s), and stays.
	if run_scenario netdrestart_$m; then
		bad=$(awk '$2 == "s1" && $1 >= 620 { o = $3 < 0 ? -$3 : $3
		    if (o >= 1000) { print $1; exit } }' \
		    "$tmp/netdrestart_$m.trace")
		if [ -z "$bad" ]; then
			pass "netdrestart_$m: s1 within 1 us from 620 s on"
		else
			fail "netdrestart_$m: s1 over 1 us at $bad s"
		fi
	fi
	# clockd restart: down, then back to the same grandmaster quickly.
	if run_scenario restart_$m; then
		expect_ports restart_$m 620 s1 -
		reselect restart_$m s1 1100 630 gm 4.5
	fi
	# A grandmaster 100 s late: in sync within the suite's 110-140 s,
	# never masters meanwhile.
	if run_scenario latestart_$m; then
		for n in s1 s2; do
			settled latestart_$m $n 100 140
			never_ports latestart_$m $n MP 0
			reselect latestart_$m $n 400 100 gm 10.0
		done
	fi
	# P2P master, E2E slave: no path delay, so no sync, and the slave
	# leaves its clock alone (netd's frequency adjustment stays 0).
	if run_scenario mismatch_$m; then
		never_ports mismatch_$m s1 SM 0
		expect_ports mismatch_$m 299 s1 U
		bad=$(awk '$2 == "s1" && $5 + 0 != 0 { print $1; exit }' \
		    "$tmp/mismatch_$m.trace")
		if [ -z "$bad" ]; then
			pass "mismatch_$m: s1's clock never adjusted"
		else
			fail "mismatch_$m: s1's frequency adjusted at $bad s"
		fi
	fi
	# The chain: time error grows along it.
	if run_scenario chain10_$m; then
		r1=$(summary "$tmp/chain10_$m.sum" bc1 rms_ns)
		r10=$(summary "$tmp/chain10_$m.sum" s rms_ns)
		if le "$r1" "$r10"; then
			pass "chain10_$m: RMS grows from $r1 ns (hop 1) to $r10 ns (hop 11)"
		else
			fail "chain10_$m: RMS at hop 11 ($r10 ns) below hop 1's ($r1 ns)"
		fi
	fi
done

# Issue 14's Done-when in nanoseconds: the slave's system clock, steered
# from its PHC, within 1 us of UTC (not 37 s off: the grandmaster's
# currentUtcOffset applied) at every sample from 60 s on, for each way
# netd compares the clocks, over seeds 1-10.  Measured, the worst sample
# over the seeds: precise 26 ns, extended 324 ns, same_base (software
# stamps) 468 ns; basic 1.9 us (model.h: its bias), so not asserted here.
for sc in sysclk_hw_precise sysclk_hw_extended sysclk_sw; do
	worst=0 bad=
	for s in 1 2 3 4 5 6 7 8 9 10; do
		out=$tmp/$sc.s$s
		"$SIM" -q -s $s -o "$out.trace" "$SCEN/$sc.sim" >"$out.sum" \
		    2>/dev/null || { bad="$bad $s:ptpsim"; continue; }
		m=$(awk '$2 == "s1" && $1 >= 60 && NF >= 10 {
		    o = $8 < 0 ? -$8 : $8; if (o > m) m = o; n++ }
		    END { print (n > 3000 ? m + 0 : "none") }' "$out.trace")
		if [[ ! $m =~ ^[0-9]+$ ]] || ! le "$m" 999; then
			bad="$bad $s:$m"
		elif le "$worst" "$m"; then
			worst=$m
		fi
	done
	if [ -z "$bad" ]; then
		pass "$sc seeds 1-10: s1's system clock within 1 us of UTC from 60 s on (worst $worst ns)"
	else
		fail "$sc seeds 1-10: s1's system clock over 1 us of UTC (or no samples):$bad"
	fi
done
# The methods in their order, from the same runs: the system clock's RMS
# to UTC precise < extended < basic (measured 5.7 < 132.0 < 623.4 ns),
# and the basic compare's bias (the PHC latched early in its bracket,
# model.h) as the mean offset, where extended has none (measured -562.6
# and -1.6 ns).
rp=$(summary "$tmp/sysclk_hw_precise.sum" s1 sys_rms_ns)
re=$(summary "$tmp/sysclk_hw_extended.sum" s1 sys_rms_ns)
rb=$(summary "$tmp/sysclk_hw_basic.sum" s1 sys_rms_ns)
me=$(summary "$tmp/sysclk_hw_extended.sum" s1 sys_mean_ns)
mb=$(summary "$tmp/sysclk_hw_basic.sum" s1 sys_mean_ns)
if [ -n "$rp" ] && [ -n "$re" ] && [ -n "$rb" ] && le "$rp" "$re" &&
    le "$re" "$rb" && le "$mb" -400 && le -20 "$me" && le "$me" 20; then
	pass "sysclk_hw_*: s1's system clock RMS precise $rp < extended $re < basic $rb ns; mean extended $me, basic $mb ns"
else
	fail "sysclk_hw_*: RMS precise ${rp:-?}, extended ${re:-?}, basic ${rb:-?} ns; mean extended ${me:-?}, basic ${mb:-?} ns"
fi

# What the figures are measured against: true TAI for the PTP clocks and
# true UTC (TAI less [sim] utc_offset) for the system clocks, whatever
# the engines believe.  A grandmaster announcing currentUtcOffset 38 (not
# traceable) in a world of 37: its PHC, following its UTC system clock,
# runs 1 s ahead of TAI and so does s1's; s1 believes the larger offset
# (as ptp4l) and its system clock is on UTC.  Announcing 36, s1 keeps its
# own 37 (a smaller untraceable offset is not believed): both its clocks
# are 1 s behind.  At 120 s, s1's (PHC, system clock) offsets in ns.
for u in 38:1000000000:0 36:-1000000000:-1000000000; do
	IFS=: read -r off wp ws <<<"$u"
	sed "/^\[node gm\]/a utc_offset $off" \
	    "$SCEN/sysclk_hw_precise.sim" >"$tmp/utc$off.sim"
	"$SIM" -q -d 120 -o "$tmp/utc$off.trace" "$tmp/utc$off.sim" \
	    >/dev/null 2>&1
	got=$(awk '$2 == "s1" && $1 + 0 == 120 { print $3, $8 }' \
	    "$tmp/utc$off.trace")
	if [ -n "$got" ] && awk -v g="$got" -v p="$wp" -v s="$ws" 'BEGIN {
	    split(g, v, " "); dp = v[1] - p; ds = v[2] - s
	    exit !(dp > -1000 && dp < 1000 && ds > -1000 && ds < 1000) }'
	then
		pass "sysclk_hw_precise, gm utc_offset $off: s1's PHC - TAI, system clock - UTC: $got ns"
	else
		fail "sysclk_hw_precise, gm utc_offset $off: s1's PHC - TAI, system clock - UTC: '${got}' ns, not $wp, $ws (+-1 us)"
	fi
done

# No engine ever broke netd's protocol (netd_closes: the simulated netd
# ran netd's own checks of every frame and clock request, libnetd.a's
# check_send_frame()/check_clock_request(), and closed the connection).
bad=$(cat "$tmp"/*.sum | awk '$1 == "SUMMARY" { for (i = 2; i <= NF; i++)
    if ($i ~ /^netd_closes=/ && $i != "netd_closes=0") print $2, $i }')
n=$(cat "$tmp"/*.sum | grep -c '^SUMMARY.* netd_closes=0\b')
if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
	pass "netd_closes=0 on all $n SUMMARY lines"
else
	fail "netd closed a connection: ${bad:-no netd_closes field}"
fi

# The E2E slave's Delay_Req leaves with the Sync sample it is due at, in
# one datagram with the servo's frequency change (issue 13; port_slave.c,
# netd_client.c's outbox): pair_e2e_hw's s1 (3600 one-per-second Syncs)
# sends netd at most one datagram per Sync, and about two messages in
# each (measured 3591 datagrams, 6670 messages; with the Delay_Req on its
# own timer before, ~7214 datagrams holding as many messages: the
# Delay_Req now goes 0.86 times per Sync, not once).  With software
# stamps it leaves 20 ms after the sample, alone (port_slave.c,
# DREQ_COLD): pair_e2e_sw's s1, measured 6666 datagrams, 6667 messages.
sum=$tmp/pair_e2e_hw.sum
dg=$(summary "$sum" s1 to_netd) ms=$(summary "$sum" s1 to_netd_msgs)
if [ -n "$dg" ] && [ -n "$ms" ] && le "$dg" 3600 &&
    awk -v d="$dg" -v m="$ms" 'BEGIN { exit !(m >= 1.5 * d) }'; then
	pass "pair_e2e_hw: s1 sent netd $dg datagrams holding $ms messages (at most 3600, at least 1.5 messages each)"
else
	fail "pair_e2e_hw: s1 sent netd ${dg:-?} datagrams holding ${ms:-?} messages (bound: at most 3600, at least 1.5 messages each)"
fi
sum=$tmp/pair_e2e_sw.sum
dg=$(summary "$sum" s1 to_netd) ms=$(summary "$sum" s1 to_netd_msgs)
if [ -n "$dg" ] && [ -n "$ms" ] && [ "$dg" -gt 6000 ] && [ $((ms - dg)) -le 10 ]; then
	pass "pair_e2e_sw: s1's Delay_Reqs leave apart from the Sync samples ($dg datagrams holding $ms messages)"
else
	fail "pair_e2e_sw: s1 sent netd ${dg:-?} datagrams holding ${ms:-?} messages (bound: > 6000, at most 10 batched)"
fi

# Acquisition with software time stamps (issue 12, item 5), seeds 1-10 of
# pair_e2e_sw: the first step never rests on a path delay that one late
# frame moved (|offset| at the sample after the step: measured at most
# 2.0 us, bound 3 us; before kalman's 5-sample acquisition and the rate
# ratio check, seed 1 was -20.6 us), and the median lock_s - slave_s is
# at most 9 s (measured 7.0 s; before, 10.5 s; 8.9 s since the Delay_Req
# leaves with the Sync, while over 60 seeds the median went from 7.7 to
# 7.6 s).  Over 100 seeds before that: median 8 s, 68 of 100 within 10 s
# (tests/bench/results/servo.md).
acq_bad= acq_locks=
for s in 1 2 3 4 5 6 7 8 9 10; do
	out=$tmp/acq.$s
	"$SIM" -s $s -o "$out.trace" "$SCEN/pair_e2e_sw.sim" >"$out.sum" \
	    2>/dev/null || { acq_bad="$acq_bad $s:ptpsim"; continue; }
	o=$(awk '$2 == "s1" && $6 == "jump" { j = 1; next }
	    j && $2 == "s1" { print $3 < 0 ? -$3 : $3; exit }' "$out.trace")
	le "${o:-1e99}" 3000 || acq_bad="$acq_bad $s:${o:-nostep}ns"
	acq_locks="$acq_locks $(awk -v l="$(summary "$out.sum" s1 lock_s)" \
	    -v s="$(summary "$out.sum" s1 slave_s)" 'BEGIN { print l - s }')"
done
acq_med=$(echo $acq_locks | tr ' ' '\n' | sort -n |
    awk '{ v[NR] = $1 } END { print (v[5] + v[6]) / 2 }')
if [ -z "$acq_bad" ] && le "$acq_med" 9; then
	pass "pair_e2e_sw seeds 1-10: |offset| after the step <= 3 us, median lock $acq_med s after slave (each:$acq_locks)"
else
	fail "pair_e2e_sw seeds 1-10: step off:${acq_bad:- none}; median lock $acq_med s after slave (bound 9;$acq_locks)"
fi

# Hardware time stamps with packet delay variation (issue 12, item 5):
# kalman's path delay is the band mean of the delays, not their median,
# which under one-sided PDV sat below the mean the Sync's leg carries
# (true offset -115 ns on average, seed 1).  fastsync_hw seeds 1-10, the
# median of s1's offset RMS: measured 84.1 ns (before: 102.0 ns).
fs_rms=
for s in 1 2 3 4 5 6 7 8 9 10; do
	"$SIM" -q -s $s "$SCEN/fastsync_hw.sim" >"$tmp/fs.$s" 2>/dev/null
	fs_rms="$fs_rms $(summary "$tmp/fs.$s" s1 rms_ns)"
done
fs_med=$(echo $fs_rms | tr ' ' '\n' | sort -n |
    awk '{ v[NR] = $1 } END { print (v[5] + v[6]) / 2 }')
if le "$fs_med" 95; then
	pass "fastsync_hw seeds 1-10: median offset RMS $fs_med ns <= 95 (each:$fs_rms)"
else
	fail "fastsync_hw seeds 1-10: median offset RMS $fs_med ns > 95 (each:$fs_rms)"
fi

# ---- determinism and speed

# The same seed twice: byte-identical trace and summary.
for sc in pair_e2e_sw chain10_sw failover3_sw; do
	"$SIM" "$SCEN/$sc.sim" >"$tmp/a.out" 2>/dev/null
	"$SIM" "$SCEN/$sc.sim" >"$tmp/b.out" 2>/dev/null
	if [ -s "$tmp/a.out" ] && cmp -s "$tmp/a.out" "$tmp/b.out"; then
		pass "$sc: same seed, byte-identical output ($(wc -l <"$tmp/a.out") lines)"
	else
		fail "$sc: two runs with the same seed differ"
	fi
done
# Another seed, another run (the seed reaches the models).
"$SIM" -q -s 2 "$SCEN/pair_e2e_sw.sim" >"$tmp/s2.out" 2>/dev/null
"$SIM" -q "$SCEN/pair_e2e_sw.sim" >"$tmp/s1.out" 2>/dev/null
if ! cmp -s "$tmp/s1.out" "$tmp/s2.out"; then
	pass "pair_e2e_sw: seed 2 differs from seed 1"
else
	fail "pair_e2e_sw: -s 2 gives the same output as seed 1"
fi

# An hour of a pair at logSyncInterval 0 in under 5 s of CPU (user +
# system, which does not depend on the machine's other load).
TIMEFORMAT=%U+%S
cpu=$({ time "$SIM" -q -d 3600 "$SCEN/pair_e2e_hw.sim" >/dev/null \
    2>&1; } 2>&1)
cpu=$(awk -v e="$cpu" 'BEGIN { split(e, a, "+"); printf "%.3f", a[1] + a[2] }')
if le "$cpu" 5; then
	pass "pair_e2e_hw: 3600 s simulated in $cpu s of CPU (bound 5)"
else
	fail "pair_e2e_hw: 3600 s simulated took $cpu s of CPU (bound 5)"
fi

# Every scenario file has bounds, so none sits there untested (servo_*
# are the servo design's scenarios: tests/bench/results/servo.md).
for f in "$SCEN"/*.sim; do
	sc=$(basename "$f" .sim)
	case $sc in servo_*) continue ;; esac
	if [ -z "${ran[$sc]:-}" ]; then
		fail "$sc: scenario without bounds in tests/sim/check.sh"
	fi
done

exit $((fails > 0))
