#!/bin/bash
# enterprise.sh - the IETF Enterprise Profile (RFC 9760) against linuxptp:
# every node of ours runs the keys of etc/profiles/enterprise.cfg, every
# ptp4l the same keys (ptp4l 3.1.1 loads that file as it is).
#
#   mix  one grandmaster of ours, two ptp4l clients on one bridge (three
#        namespaces and a fourth for the bridge), as RFC 9760 section 6
#        allows: c1 sends multicast Delay_Req (hybrid_e2e 0), c2 unicast
#        ones (hybrid_e2e 1, the profile file as it is).  Both ptp4l run
#        slaveOnly 1, free_running 1, freq_est_interval 0 (a sample per
#        Sync), so their "master offset" measures our clock against
#        CLOCK_REALTIME.  Checks: each ptp4l's parent and grandmaster are
#        ours; over MEASURE s from its FREE_SKIP-th sample each one's
#        offsets meet the bounds sync.sh puts on a free-running ptp4l
#        slave of ours (itest_measure, mode free).  The wire, captured on
#        the grandmaster's bridge port: every PTP frame decodes, none
#        malformed; our Announce and Sync are all multicast (section 6);
#        c1's Delay_Req all multicast and answered multicast, c2's all
#        unicast to us and answered unicast, never multicast.
#   cl   our client (the profile file, clientOnly 1, virtual clock 1.5 s
#        and +80 ppm off) of a ptp4l grandmaster with the same keys
#        (priority1 100): it locks (first s2 within LOCK_TIMEOUT s) and,
#        SETTLE s later, stays MEASURE s within itest_measure's servo
#        bounds; every Delay_Req of ours goes unicast to the address
#        ptp4l's Announce came from, and ptp4l's Delay_Resp come back
#        unicast.
#
#   BUILD=build/default tests/interop/enterprise.sh [mix|cl]...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

MEASURE=${MEASURE:-30}
SETTLE=${SETTLE:-10}
LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
FREE_SKIP=${FREE_SKIP:-10}
MIX_RMS_MAX=${MIX_RMS_MAX:-10000}
MIX_ABS_MAX=${MIX_ABS_MAX:-30000}
PROFILE=${PROFILE:-$here/../../etc/profiles/enterprise.cfg}
MCAST=224.0.1.129

[ -r "$PROFILE" ] || { echo "FAIL: $PROFILE missing"; exit 1; }

# The profile's "key value" lines, as arguments (hybrid_e2e left out:
# each node says its own).
ent_kv=()
while read -r k v rest; do
	case $k in ''|'#'*|'['*|hybrid_e2e) continue ;; esac
	[ -z "$rest" ] || { echo "FAIL: $PROFILE: '$k $v $rest'"; exit 1; }
	ent_kv+=("$k" "$v")
done <"$PROFILE"
ent_hybrid=$(awk '$1 == "hybrid_e2e" { print $2 }' "$PROFILE")
[ "$ent_hybrid" = 1 ] || { echo "FAIL: $PROFILE: hybrid_e2e is not 1"; exit 1; }

# ent_parent TAG NS DIR CID: the ptp4l of DIR follows our clock CID.
ent_parent() {
	local gm par
	gm=$(iop_pmc_field "$2" "$3" 'GET PARENT_DATA_SET' grandmasterIdentity)
	par=$(iop_pmc_field "$2" "$3" 'GET PARENT_DATA_SET' parentPortIdentity)
	if [ -n "$4" ] && [ "$gm" = "$4" ] && [ "$par" = "$4-1" ]; then
		pass "$1: ptp4l's parent is $par, grandmaster $gm (ours)"
	else
		fail "$1: ptp4l's parent '$par', grandmaster '$gm', ours '$4'"
	fi
}

# mix_run KIND: the mix case with our grandmaster (KIND ours) or a ptp4l
# one with the same keys (ref: the bridge's own figures).
mix_run() {
	local kind=$1 br=ioe$$b gns=ioe$$g n1=ioe$$1 n2=ioe$$2 od d1 d2 cap \
		capid cid f1 f2 ns i d tag
	for ns in "$br" "$gns" "$n1" "$n2"; do
		ip netns add "$ns" || { fail "mix: netns $ns exists"; return; }
		itest_nss+=("$ns")
		ip -n "$ns" link set lo up
	done
	ip -n "$br" link add br0 type bridge mcast_snooping 0
	ip -n "$br" link set br0 up
	i=0
	for ns in "$gns" "$n1" "$n2"; do
		itest_link "$ns" eth0 "$br" "p$i"
		ip -n "$br" link set "p$i" master br0
		i=$((i + 1))
		ip -n "$ns" addr add "10.201.0.$i/24" dev eth0
	done
	itest_tmpdir od
	itest_tmpdir d1
	itest_tmpdir d2
	itest_conf "$od/ptp.conf" "$od" "${ent_kv[@]}" hybrid_e2e 1 \
		priority1 100
	iop_ptp4l_conf "$d1/ptp4l.conf" "$d1" "${ent_kv[@]}" hybrid_e2e 0 \
		slaveOnly 1 freq_est_interval 0
	iop_ptp4l_conf "$d2/ptp4l.conf" "$d2" "${ent_kv[@]}" hybrid_e2e 1 \
		slaveOnly 1 freq_est_interval 0
	cap=$od/capture.pcapng
	iop_capture_start "$br" p0 "$cap" || return
	capid=$iop_capture_pid
	if [ "$kind" = ref ]; then
		iop_ptp4l_conf "$od/ptp4l.conf" "$od" "${ent_kv[@]}" hybrid_e2e 1 \
			priority1 100
		iop_ptp4l "$gns" "$od" eth0 || return
	else
		itest_daemons "$gns" "$od" "$od/ptp.conf" || return
	fi
	iop_ptp4l "$n1" "$d1" eth0 || return
	iop_ptp4l "$n2" "$d2" eth0 || return
	for i in 1 2; do
		eval "d=\$d$i"
		if ! iop_wait_samples "$d/ptp4l.log" 'master offset' "$FREE_SKIP" \
		    "$LOCK_TIMEOUT"; then
			fail "mix: ptp4l c$i printed no $FREE_SKIP offsets in ${LOCK_TIMEOUT}s"
			tail -20 "$d/ptp4l.log"; tail -20 "$od/clockd.log"
			return
		fi
	done
	f1=$(grep -n 'master offset' "$d1/ptp4l.log" | sed -n "${FREE_SKIP}p" |
		cut -d: -f1)
	f2=$(grep -n 'master offset' "$d2/ptp4l.log" | sed -n "${FREE_SKIP}p" |
		cut -d: -f1)
	local f
	sleep "$MEASURE"
	for i in 1 2; do
		eval "d=\$d$i; f=\$f$i"
		tag="mix: c$i ($([ $i = 1 ] && echo multicast || echo unicast) Delay_Req)"
		if [ "$kind" = ref ]; then
			# Figures only: the bounds of ours come from them.
			ITEST_RMS_MAX=1000000000 ITEST_ABS_MAX=1000000000 \
				itest_measure "ref, ptp4l grandmaster: $tag" \
				"$d/ptp4l.log" "$((f - 1))" free
			read -r _ _ _ _ _ sd md _ <<<"${itest_measured:-0 0 0 0 0 0 0 0}"
			mix_sd=$(( sd > mix_sd ? sd : mix_sd ))
			mix_md=$(( md > mix_md ? md : mix_md ))
		else
			ITEST_RMS_MAX=$mix_rms ITEST_ABS_MAX=$mix_abs \
				itest_measure "$tag" "$d/ptp4l.log" "$((f - 1))" free
		fi
	done
	if [ "$kind" = ref ]; then
		itest_stop
		return
	fi
	cid=$(iop_status "$gns" "$od" clock_identity)
	ent_parent "mix: c1" "$n1" "$d1" "$cid"
	ent_parent "mix: c2" "$n2" "$d2" "$cid"
	iop_capture_stop "$capid"
	[ -n "$cid" ] || { fail "mix: no clock identity"; return; }
	iop_wire_check "mix" "$cap" "ip.src == 10.201.0.1" 0 8 9 11
	local gm='ip.src == 10.201.0.1' t='ptp.v2.messagetype'
	iop_expect_count "mix: our Announce and Sync, not multicast" "$cap" \
		"$gm && ($t == 0 || $t == 11) && ip.dst != $MCAST" -eq 0
	iop_expect_count "mix: c1's Delay_Req, multicast" "$cap" \
		"ip.src == 10.201.0.2 && $t == 1 && ip.dst == $MCAST" -gt 0
	iop_expect_count "mix: c1's Delay_Req, not multicast" "$cap" \
		"ip.src == 10.201.0.2 && $t == 1 && ip.dst != $MCAST" -eq 0
	iop_expect_count "mix: c2's Delay_Req, unicast to us" "$cap" \
		"ip.src == 10.201.0.3 && $t == 1 && ip.dst == 10.201.0.1" -gt 0
	iop_expect_count "mix: c2's Delay_Req, not unicast to us" "$cap" \
		"ip.src == 10.201.0.3 && $t == 1 && ip.dst != 10.201.0.1" -eq 0
	iop_expect_count "mix: our Delay_Resp, multicast (c1's)" "$cap" \
		"$gm && $t == 9 && ip.dst == $MCAST" -gt 0
	iop_expect_count "mix: our Delay_Resp, unicast to c2" "$cap" \
		"$gm && $t == 9 && ip.dst == 10.201.0.3" -gt 0
	iop_expect_count "mix: our Delay_Resp, unicast to c1" "$cap" \
		"$gm && $t == 9 && ip.dst == 10.201.0.2" -eq 0
	# Every multicast Delay_Resp answers c1: its requestingPortIdentity
	# is c1's (the port identity in c1's Delay_Req), never c2's.
	local c2id
	c2id=$("$TSHARK" -r "$cap" -n -Y "ip.src == 10.201.0.3 && $t == 1" \
		-T fields -e ptp.v2.clockidentity 2>/dev/null | head -1)
	if [ -n "$c2id" ]; then
		iop_expect_count "mix: multicast Delay_Resp for c2" "$cap" \
			"$gm && $t == 9 && ip.dst == $MCAST && ptp.v2.dr.requestingsourceportidentity == $c2id" -eq 0
	else
		fail "mix: no clock identity of c2 in the capture"
	fi
	itest_stop
}

# The bridge (four namespaces, two veth hops and the bridge between
# grandmaster and client) costs software time stamps accuracy, and how
# much depends on what else this shared 2-core host runs at the moment:
# ptp4l's clients of a ptp4l grandmaster showed a mean path delay of
# 13-30 us, a standard deviation of 0.9-9.5 us and max |o - mean| of
# 2-29 us (ours: sd 1.7-6.6 us, 5-19 us).  Neither grandmaster adds to
# it: on the grandmaster's bridge port, capture time minus the Follow_Up's
# preciseOriginTimestamp was 2.4 +- 0.5 us for one and 2.8 +- 0.4 us for
# the other, and Delay_Resp's receiveTimestamp minus the Delay_Req's
# capture time 5.0 +- 1.3 us for both.  The noise comes in bursts, so a
# reference run a minute earlier can be quieter than ours: the bounds on
# ours are twice what ptp4l's grandmaster got on the same bridge in the
# same run, or MIX_RMS_MAX / MIX_ABS_MAX (10 and 30 us: the worst seen
# with ptp4l's own grandmaster), whichever is looser.  (CI once failed
# on 6 and 20 us: ours sd 6.6 us after a quiet reference run.)
case_mix() {
	mix_sd=0 mix_md=0
	mix_run ref || return
	mix_rms=$(( 2 * mix_sd > MIX_RMS_MAX ? 2 * mix_sd : MIX_RMS_MAX ))
	mix_abs=$(( 2 * mix_md > MIX_ABS_MAX ? 2 * mix_md : MIX_ABS_MAX ))
	echo "INFO: mix: bounds for ours: sd < $mix_rms ns, |o - mean| < $mix_abs ns (ptp4l's worst on the bridge: sd $mix_sd, max |o - mean| $mix_md ns)"
	mix_run ours
}

case_cl() {
	local mns=ioe$$m ons=ioe$$c pd od cap capid t='ptp.v2.messagetype' from
	itest_pair "$mns" "$ons" || return
	itest_tmpdir pd
	itest_tmpdir od
	iop_ptp4l_conf "$pd/ptp4l.conf" "$pd" "${ent_kv[@]}" hybrid_e2e 1 \
		priority1 100
	itest_conf "$od/ptp.conf" "$od" "${ent_kv[@]}" hybrid_e2e 1 \
		clientOnly 1 virtual_clock_offset_ns 1500000000 \
		virtual_clock_freq_ppb 80000
	cap=$pd/capture.pcapng
	iop_capture_start "$mns" eth0 "$cap" || return
	capid=$iop_capture_pid
	iop_ptp4l "$mns" "$pd" eth0 || return
	itest_daemons "$ons" "$od" "$od/ptp.conf" || return
	if ! iop_wait_samples "$od/clockd.log" ' s2 freq' 1 "$LOCK_TIMEOUT"; then
		fail "cl: our client did not lock in ${LOCK_TIMEOUT}s"
		tail -20 "$od/clockd.log"; tail -10 "$pd/ptp4l.log"
		return
	fi
	sleep "$SETTLE"
	from=$(wc -l <"$od/clockd.log")
	sleep "$MEASURE"
	itest_measure "cl: our enterprise client of ptp4l" "$od/clockd.log" \
		"$from" servo
	iop_capture_stop "$capid"
	iop_wire_check "cl" "$cap" "ip.src == 10.201.0.2" 1
	iop_expect_count "cl: our Delay_Req, unicast to ptp4l" "$cap" \
		"ip.src == 10.201.0.2 && $t == 1 && ip.dst == 10.201.0.1" -gt 0
	iop_expect_count "cl: our Delay_Req, not unicast to ptp4l" "$cap" \
		"ip.src == 10.201.0.2 && $t == 1 && ip.dst != 10.201.0.1" -eq 0
	iop_expect_count "cl: ptp4l's Delay_Resp, unicast to us" "$cap" \
		"ip.src == 10.201.0.1 && $t == 9 && ip.dst == 10.201.0.2" -gt 0
	itest_stop
}

itest_tmpdir st
iop_wire_selftest "$st"
for c in ${1:-mix cl}; do
	"case_$c"
done
[ "$itest_fails" = 0 ] && echo "PASS: enterprise" && exit 0
echo "FAIL: enterprise ($itest_fails)"
exit 1
