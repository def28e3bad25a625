#!/bin/bash
# gm_offset.sh - a free-running ptp4l slave must see the same mean offset
# of our grandmaster as of a ptp4l grandmaster (issue 11, item 14: it saw
# ours ~0.5 us (E2E) to ~1.3 us (P2P) further ahead, with a longer path
# delay: our software TX timestamps were taken ~1 us before ptp4l's would
# be, see netd/tstamp.c, "TX timestamps and the event loop").
#
# For each delay mechanism (E2E, P2P) two pairs run in the same window,
# each on its own veth between two namespaces, L2, software time stamps,
# logSyncInterval LOGSYNC (-4) and the delay requests as often:
#
#   ours   our grandmaster (priority1 100, virtual clock = CLOCK_REALTIME)
#          -> ptp4l slave (slaveOnly 1, free_running 1)
#   ptp4l  ptp4l grandmaster (priority1 100) -> ptp4l slave, the same
#
# Both grandmasters and both slaves run on CLOCK_REALTIME, so what a slave
# measures is the link as software time stamps see it; the link and the
# slave are the same kind in both pairs, so the grandmasters' time stamps
# must give the same mean.
#
# ptp4l 3.1 prints one offset a second at most (freq_est_interval >= 0),
# too few for a mean to within 100 ns in a minute on a busy machine.  So
# the slave's offsets are also taken at every Sync from a capture on the
# slave's interface: the capture's time stamp of a received frame is the
# very software time stamp ptp4l gets (both read the skb's), so for Sync i
# the slave's offset is  t2_i - t1_i - D,  t1_i from the Follow_Up, D the
# slave's mean path delay over the window (from its log).  For P2P the one
# way time of the Pdelay_Resp, t4 - t3 (t3 from the Pdelay_Resp_Follow_Up),
# is the responder's share of D and is compared as well.
#
# Over MEASURE (60) s after each slave's FREE_SKIP-th printed sample (its
# path delay filter full), spikes (late frames: |x - median| > 6 x mean
# |x - median| and > 2 us, at most 5%) are left out of the capture's
# figures; the printed ones give the slave's mean path delay D (and the
# printed mean offset, shown).  sync.sh bounds their stability.  Then,
# ours against ptp4l's (the bounds come from runs on this 2-core VM
# shared with six builds; "A/A" is this test with a ptp4l grandmaster on
# both sides, i.e. the noise between two pairs):
#   E2E: per-Sync mean offset within E2E_TOL (400) ns.  Before the fix
#        +687, +840 ns; after +115, +132, +265, +251; A/A 8, 86.
#   E2E: mean path delay (printed) within DELAY_TOL (450) ns.  Before
#        +655, +840; after +123, +103, +321, +258.
#   P2P: mean one-way time t4 - t3 of the Pdelay_Resp within RESP_TOL
#        (700) ns.  Before +527, +493; after +237, +203, +261, +263;
#        A/A 37, 68.  The bound was 400 until issue 13's runs put ours on
#        a second run-long plateau (ours ~1000-1060 ns against ptp4l's
#        ~500-600 in 4 of 13 runs of the same code: +410, +467, +542;
#        +87 to +269 in the others, and the tree before issue 13 gave
#        +202 and +269 beside them): 400 failed on the cold-path plateau
#        below, not on where netd stamps.  What this bound is for, the
#        socket left in epoll during the send, costs +1 us (below).
#   P2P: the per-Sync mean offset is shown, not bound: before +2307, after
#        -160, +391, +1764, but A/A 134 and 1066: a P2P Sync's one-way
#        time sits on plateaus up to a microsecond apart for a whole run,
#        between two ptp4l pairs too.  Sync's t1 is the same code as in
#        E2E, where it is bound.
# The issue asks for 100 ns.  What is left after the fix is not in where
# netd stamps but in how fast the kernel runs the rest of the send after
# the stamp (veth_xmit after skb_tx_timestamp(), up to the peer's
# netif_rx()), which depends on what the CPU ran just before:
#   - the Sync's t2 - t1 is bimodal: ~0.3-0.5 us when the send path is hot
#     (it has just run), ~2.3-2.7 us when it is cold (a send after some
#     ms of other work).  A stand-alone sender on a veth, same run: 0.45 us
#     with an untimestamped frame sent just before, 2.3 us without.  Which
#     regime a grandmaster is in depends on what it sends just before a
#     Sync: a ptp4l P2P grandmaster sat at a median of 0.30 us for a whole
#     run, the E2E one at 2.58 us; these are the "plateaus" above.
#   - what heats it is any PTP send on the machine, of any pair.  Sync
#     t2 - t1 by the time since the last PTP frame of any of the four
#     pairs (medians, one run): < 20 us 0.28-0.37 us, < 200 us 0.4-0.9,
#     < 2 ms 1.1-1.3, > 2 ms 2.3-2.6, ours and ptp4l's alike in each.  The
#     means differed by the mix: 553 of the ptp4l E2E grandmaster's 948
#     Syncs came within 200 us of another frame, 169 of our 957, which
#     is the phase of the pairs' timers, not the grandmaster: an artifact
#     of running the pairs side by side.  So the median t2 - t1 of the
#     "cold" Syncs (no PTP frame of any pair in the COLD_US (2000) us
#     before t1) is shown too: ours minus ptp4l's, E2E +131, +50, +150,
#     -169 ns; P2P -89, +10, +61 (a P2P ptp4l grandmaster may have almost
#     no cold Syncs).  Their mean is no use: a tail moved it by +405 and
#     -1078 ns.  The mix does not explain every run either (other work
#     on the machine heats the path too), so this is shown, not bound.
#   - netd's way of sending is not slower in itself: in a stand-alone
#     sender, netd's socket (bound to 0x88F7, OPT_ID, the TX request in
#     a cmsg, out of epoll for the send) gave t2 - t1 35-240 ns shorter
#     than a ptp4l-like one (ETH_P_ALL, TX_SOFTWARE on the socket);
#     being woken by another process's message (as netd is by clockd)
#     gave 125-315 ns shorter than by a timer, pinned or not; a busy
#     other CPU, 120 ns shorter.  A socket left in epoll: +1 us (the
#     wake-up 480e47c removed).
#   - the same in the real daemons: with netd (an experiment, not the
#     product) sending an untimestamped frame just before each Sync, our
#     Sync's median t2 - t1 fell from ~2.4 to 1.19 us and our mean offset
#     went to 563 ns BELOW ptp4l's, same run.  How hot the path is moves
#     the mean offset by more than anything in netd's code did.
#   - so the best explanation of what is left is the cold path: netd
#     sends after clockd and netd have run their own code (one process
#     hop more than ptp4l), more so as the machine gets busier.  E2E mean
#     offset, ours minus ptp4l's (ns): E2E pairs alone, load < 0.6: -55,
#     +27, +64, +91, +100; all four pairs: +13, +20, +34, +133, +214,
#     +221, +373 (that one beside other work).  Path delay: -67 to +358.
#     Pdelay_Resp t4 - t3: +50, +89, +92, +150, +157, +224, +254, and
#     once +520 (beside other work).
#   - A/A (AA=1, a ptp4l grandmaster on both sides): E2E mean offset 8,
#     86, +25, +119, -189; path delay +98, +78, -97; Pdelay_Resp -238,
#     +107, -69; P2P Sync +132, -207, -522.  Two ptp4l pairs differ by
#     up to ~190 ns (E2E) and ~240 ns (Pdelay_Resp): a 100 ns bound is
#     below this rig's noise, and ours minus ptp4l's is mostly within it.
# These bounds catch the wake-up coming back (~+0.7 us E2E), not the rest.
# Each pair's Sync t2 - t1 quantiles are printed: a p50 near 0.3 us is the
# hot regime, near 2.4 us the cold one.
#
#   AA=1: the "ours" pairs run a ptp4l grandmaster too (A/A: the noise
#   between two pairs, which the bounds must stay above).
#
#   BUILD=build/default tests/interop/gm_offset.sh [E2E|P2P]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
iop_need

MEASURE=${MEASURE:-60}
LOCK_TIMEOUT=${LOCK_TIMEOUT:-60}
FREE_SKIP=${FREE_SKIP:-10}
LOGSYNC=${LOGSYNC:--4}
E2E_TOL=${E2E_TOL:-400}
DELAY_TOL=${DELAY_TOL:-450}
RESP_TOL=${RESP_TOL:-700}
AA=${AA:-0}
COLD_US=${COLD_US:-2000}

dms=(${1:-E2E P2P})
declare -A c_log c_from c_cap c_capid c_pmean c_delay c_smean c_rmean c_ncold c_cold
ids=()
n=0

# start_pair ID GM(ours|ptp4l) DELAY
start_pair() {
	local id=$1 gm=$2 dm=$3 mns sns md sd
	mns="go$$m$n"; sns="go$$s$n"; n=$((n + 1))
	itest_pair "$mns" "$sns"
	itest_tmpdir md
	itest_tmpdir sd
	local common=(network_transport L2 delay_mechanism "$dm"
		logSyncInterval "$LOGSYNC" logMinDelayReqInterval "$LOGSYNC"
		logMinPdelayReqInterval "$LOGSYNC" logAnnounceInterval 0)
	c_cap[$id]=$sd/capture.pcapng
	iop_capture_start "$sns" eth0 "${c_cap[$id]}" || return 1
	c_capid[$id]=$iop_capture_pid
	if [ "$gm" = ours ]; then
		itest_conf "$md/ptp.conf" "$md" "${common[@]}" priority1 100
		itest_daemons "$mns" "$md" "$md/ptp.conf" || return 1
	else
		iop_ptp4l_conf "$md/ptp4l.conf" "$md" "${common[@]}" priority1 100
		iop_ptp4l "$mns" "$md" eth0 || return 1
	fi
	# summary_interval as the Sync interval: one line per estimate, not
	# a summary of several.
	iop_ptp4l_conf "$sd/ptp4l.conf" "$sd" "${common[@]}" slaveOnly 1 \
		freq_est_interval 0 summary_interval "$LOGSYNC"
	iop_ptp4l "$sns" "$sd" eth0 || return 1
	c_log[$id]=$sd/ptp4l.log
	ids+=("$id")
}

# capture_stats ID FROM_EPOCH TO_EPOCH DELAY: from the slave's capture, the
# per-Sync offsets t2 - t1 - DELAY and (P2P) the Pdelay_Resp one-way times
# t4 - t3 in the window; prints "syncs spikes mean resps spikes mean" and
# the Sync t2 - t1 p10 p50 p90, then how many Syncs were cold (no frame in
# $heat within COLD_US before t1) and their median t2 - t1.
capture_stats() {
	"$TSHARK" -r "${c_cap[$1]}" -n -Y 'eth.type == 0x88f7' -T fields \
		-e frame.time_epoch -e ptp.v2.messagetype -e ptp.v2.sequenceid \
		-e ptp.v2.fu.preciseorigintimestamp.seconds \
		-e ptp.v2.fu.preciseorigintimestamp.nanoseconds \
		-e ptp.v2.pdfu.responseorigintimestamp.seconds \
		-e ptp.v2.pdfu.responseorigintimestamp.nanoseconds \
		-e ptp.v2.correction.ns -e eth.src -e eth.dst 2>/dev/null |
	python3 -c '
import sys
t0, t1, delay = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
mine = sys.argv[4]
def ns(s):
    a, _, b = s.partition(".")
    return int(a) * 10**9 + int((b + "000000000")[:9])
rx = {}; tx = {}
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    if len(f) < 10 or f[8] == mine:
        continue                # only what the grandmaster sent
    mt, seq = int(f[1], 16), f[2]
    if mt in (0, 3):            # Sync, Pdelay_Resp: arrival = slave t2/t4
        rx[(mt, seq)] = ns(f[0])
    elif mt == 8 and f[3]:      # Follow_Up: t1
        tx[(0, seq)] = int(f[3]) * 10**9 + int(f[4]) + int(f[7] or 0)
    elif mt == 10 and f[5]:     # Pdelay_Resp_Follow_Up: t3
        tx[(3, seq)] = int(f[5]) * 10**9 + int(f[6])
def stats(mt, sub):
    v = [rx[k] - tx[k] - sub for k in rx
         if k[0] == mt and k in tx and t0 * 1e9 <= rx[k] <= t1 * 1e9]
    if not v:
        return "0 0 nan"
    s = sorted(v); med = s[len(s) // 2]
    thr = max(6 * sum(abs(x - med) for x in v) / len(v), 2000)
    keep = [x for x in v if abs(x - med) <= thr]
    return "%d %d %.0f" % (len(keep), len(v) - len(keep), sum(keep) / len(keep))
def q(mt):
    v = sorted(rx[k] - tx[k] for k in rx
               if k[0] == mt and k in tx and t0 * 1e9 <= rx[k] <= t1 * 1e9)
    if not v:
        return "nan nan nan"
    return "%d %d %d" % tuple(v[min(len(v) - 1, int(len(v) * p))]
                              for p in (0.1, 0.5, 0.9))
def cold():
    # Syncs with no PTP frame of any pair in the COLD_US before t1
    import bisect
    h = sorted(ns(l.strip()) for l in open(sys.argv[5]) if l.strip())
    v = []
    for k in rx:
        if k[0] != 0 or k not in tx or not t0 * 1e9 <= rx[k] <= t1 * 1e9:
            continue
        i = bisect.bisect_left(h, tx[k]) - 1
        if i < 0 or tx[k] - h[i] > float(sys.argv[6]) * 1000:
            v.append(rx[k] - tx[k])
    # the median: the t2 - t1 of cold Syncs has a long tail (the mean of
    # the cold ones moved by 1 us run to run)
    return "%d %d" % (len(v), sorted(v)[len(v) // 2]) if v else "0 nan"
print(stats(0, delay), stats(3, 0), q(0), cold())
' "$2" "$3" "$4" "$(ip netns exec "$5" cat /sys/class/net/eth0/address)" \
	"$heat" "$COLD_US"
}

[ "$AA" = 1 ] && echo "INFO: AA=1: the \"ours\" pairs run a ptp4l grandmaster (A/A)"
for dm in "${dms[@]}"; do
	for gm in ours ptp4l; do
		kind=$gm
		[ "$AA" = 1 ] && kind=ptp4l
		start_pair "$dm/$gm" "$kind" "$dm" ||
			{ fail "$dm/$gm: could not start"; exit 1; }
	done
done

# Wait for each slave's FREE_SKIP-th sample, then measure MEASURE s more.
t0=$SECONDS
for id in "${ids[@]}"; do
	until [ "$(grep -c 'master offset' "${c_log[$id]}")" -ge "$FREE_SKIP" ]; do
		if ((SECONDS - t0 > LOCK_TIMEOUT)); then
			fail "$id: ptp4l slave has no $FREE_SKIP samples after ${LOCK_TIMEOUT}s"
			tail -15 "${c_log[$id]}"
			exit 1
		fi
		sleep 1
	done
	c_from[$id]=$(($(grep -n 'master offset' "${c_log[$id]}" |
		sed -n "${FREE_SKIP}p" | cut -d: -f1) - 1))
done
w0=$(date +%s.%N)
echo "INFO: all slaves sampling after $((SECONDS - t0)) s; measuring $MEASURE s"
sleep "$MEASURE"
w1=$(date +%s.%N)

# Every PTP frame of every pair, by capture time: a Sync sent soon after
# any of them finds the kernel's send path hot (see above).
itest_tmpdir hd
heat=$hd/frames.txt
for id in "${ids[@]}"; do
	iop_capture_stop "${c_capid[$id]}"
	"$TSHARK" -r "${c_cap[$id]}" -n -Y 'eth.type == 0x88f7' -T fields \
		-e frame.time_epoch 2>/dev/null >>"$heat"
done

k=0
for id in "${ids[@]}"; do
	read -r np c_pmean[$id] c_delay[$id] <<<"$(tail -n +"$((c_from[$id] + 1))" \
		"${c_log[$id]}" | awk '/master offset/ {
		for (i = 1; i < NF; i++) { if ($i == "offset") o += $(i + 1)
			if ($i == "delay") d += $(i + 1) }; n++ }
		END { if (n) printf "%d %.0f %.0f\n", n, o / n, d / n
			else print "0 nan nan" }')"
	echo "INFO: $id: printed: $np samples, mean offset ${c_pmean[$id]} ns, mean path delay ${c_delay[$id]} ns"
	[ "$np" -ge $((MEASURE / 2)) ] ||
		fail "$id: the slave printed $np samples in ${MEASURE}s"
	read -r ns nsp c_smean[$id] nr nrp c_rmean[$id] q10 q50 q90 \
		c_ncold[$id] c_cold[$id] <<<"$(capture_stats \
		"$id" "$w0" "$w1" "${c_delay[$id]}" "go$$s$k")"
	k=$((k + 1))
	echo "INFO: $id: capture: $ns Syncs ($nsp spikes) mean offset ${c_smean[$id]} ns; $nr Pdelay_Resp ($nrp spikes) mean t4 - t3 ${c_rmean[$id]} ns; Sync t2 - t1 p10/p50/p90 $q10/$q50/$q90 ns, median of the ${c_ncold[$id]} cold ones ${c_cold[$id]} ns"
	# Enough of what is bound, with at most 5 % spikes: the Syncs of an
	# E2E pair; a P2P pair's Pdelay_Resps (its Syncs are only shown:
	# their one-way time sits on plateaus, see above, and a ptp4l P2P
	# pair's capture once had 8 % Sync spikes while its Pdelay_Resps
	# were clean).
	if [ "${id%%/*}" = E2E ]; then
		nb=$ns nbp=$nsp what=Syncs
	else
		nb=$nr nbp=$nrp what=Pdelay_Resps
	fi
	if [ "$nb" -lt $((MEASURE * 8)) ] || [ $((nbp * 20)) -gt "$nb" ]; then
		fail "$id: capture has $nb $what in the window ($nbp spikes)"
	fi
done

# within TAG A B TOL: PASS/FAIL on |A - B| < TOL (both numbers).
within() {
	if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d
	    exit !(a == a + 0 && b == b + 0 && d < t) }'; then
		pass "$1: ours $2 ns, ptp4l's $3 ns: within $4 ns"
	else
		fail "$1: ours $2 ns, ptp4l's $3 ns: not within $4 ns"
	fi
}

for dm in "${dms[@]}"; do
	echo "INFO: $dm: printed mean offset ours ${c_pmean[$dm/ours]} ns, ptp4l's ${c_pmean[$dm/ptp4l]} ns"
	echo "INFO: $dm: median Sync t2 - t1 of the cold Syncs (no PTP frame of any pair in the ${COLD_US} us before): ours ${c_cold[$dm/ours]} ns (${c_ncold[$dm/ours]}), ptp4l's ${c_cold[$dm/ptp4l]} ns (${c_ncold[$dm/ptp4l]})"
	if [ "$dm" = E2E ]; then
		within "$dm: slave's mean offset at every Sync" \
			"${c_smean[$dm/ours]}" "${c_smean[$dm/ptp4l]}" "$E2E_TOL"
		within "$dm: slave's mean path delay" \
			"${c_delay[$dm/ours]}" "${c_delay[$dm/ptp4l]}" "$DELAY_TOL"
	else
		within "$dm: mean one-way time of Pdelay_Resp (t4 - t3)" \
			"${c_rmean[$dm/ours]}" "${c_rmean[$dm/ptp4l]}" "$RESP_TOL"
		echo "INFO: $dm: slave's mean offset at every Sync: ours ${c_smean[$dm/ours]} ns, ptp4l's ${c_smean[$dm/ptp4l]} ns (not bound, see above)"
	fi
done
echo "interop gm_offset: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
