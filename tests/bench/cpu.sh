#!/bin/bash
# cpu.sh - CPU time and memory of a master and a slave at a high message
# rate (logSyncInterval -7 and logMinDelayReqInterval -7: 128 Syncs and 128
# Delay_Reqs a second), ours (ptp-netd + ptp-clockd on each side) against
# ptp4l (one process on each side, free_running 1), one after the other on
# the same kind of veth, L2, E2E, software time stamps.
#
# After WARM seconds, CPU time (utime + stime of /proc/PID/stat) is read at
# the start and the end of a MEASURE-second window and given as CPU
# seconds per minute; peak RSS is VmHWM of /proc/PID/status at the end.
# Per message: netd's CPU time over the frames it relayed in the window
# (rx + tx of `ptpctl netd --json`), clockd's over the same count (every
# frame netd relays is one message to or from clockd); ptp4l's over the
# messages of its PORT_STATS_NP counters (pmc).
#
#   BUILD=... BENCH_OUT=DIR [BENCH_MODE=smoke] tests/bench/cpu.sh
# writes DIR/cpu.json.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

if [ "$BENCH_MODE" = smoke ]; then
	WARM=${WARM:-5} MEASURE=${MEASURE:-5}
else
	WARM=${WARM:-8} MEASURE=${MEASURE:-30}
fi
HZ=$(getconf CLK_TCK)
common=(logSyncInterval -7 logMinDelayReqInterval -7 logAnnounceInterval 0
	network_transport L2 delay_mechanism E2E)

# netd_frames CONF: rx + tx frames of every port of that netd.
netd_frames() {
	"$PTPCTL" -f "$1" --json netd | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(p["rx_event"] + p["rx_general"] + p["tx_event"] + p["tx_general"]
          for p in d["ports"]))'
}

# ptp4l_msgs DIR: rx + tx messages of ptp4l's port (PORT_STATS_NP).
ptp4l_msgs() {
	pmc -u -b 0 -s "$1/ptp4l.sock" -i "$1/pmc.sock" 'GET PORT_STATS_NP' 2>/dev/null |
		awk '$1 ~ /^(rx|tx)_/ { n += $2; seen = 1 } END { if (seen) print n; else print "" }'
}

A=bc$$a B=bc$$b
bench_pair "$A" "$B"
rows=$bench_tmp/rows.tsv
: >"$rows"
t_start=$SECONDS

# --- ours ---------------------------------------------------------------
say "cpu: ours, $WARM s + $MEASURE s"
d=$bench_tmp/ours
bench_ours nm cm "$A" "$d/m" "${common[@]}" priority1 100
bench_ours ns cs "$B" "$d/s" "${common[@]}" clientOnly 1 \
	virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
sleep "$WARM"
bench_alive "$nm" "$cm" "$ns" "$cs" || die "cpu: our daemons exited"
declare -A t0 t1
for p in "$nm" "$cm" "$ns" "$cs"; do t0[$p]=$(bench_cpu_ticks "$p"); done
fm0=$(netd_frames "$d/m/ptp.conf") fs0=$(netd_frames "$d/s/ptp.conf")
sleep "$MEASURE"
for p in "$nm" "$cm" "$ns" "$cs"; do t1[$p]=$(bench_cpu_ticks "$p"); done
fm1=$(netd_frames "$d/m/ptp.conf") fs1=$(netd_frames "$d/s/ptp.conf")
for x in "master netd $nm $((fm1 - fm0))" "master clockd $cm $((fm1 - fm0))" \
	"slave netd $ns $((fs1 - fs0))" "slave clockd $cs $((fs1 - fs0))"; do
	set -- $x
	printf 'ours\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$((t1[$3] - t0[$3]))" \
		"$(bench_hwm_kb "$3")" "$4" >>"$rows"
done
locked=$(grep -c ' s2 freq\|rms .* s2$' "$d/s/clockd.log")
bench_stop "$nm" "$cm" "$ns" "$cs"

# --- ptp4l --------------------------------------------------------------
say "cpu: ptp4l, $WARM s + $MEASURE s"
d=$bench_tmp/ptp4l
bench_ptp4l pm "$A" "$d/m" master "${common[@]}"
bench_ptp4l ps "$B" "$d/s" slave "${common[@]}"
sleep "$WARM"
bench_alive "$pm" "$ps" || die "cpu: ptp4l exited"
t0[$pm]=$(bench_cpu_ticks "$pm") t0[$ps]=$(bench_cpu_ticks "$ps")
gm0=$(ptp4l_msgs "$d/m") gs0=$(ptp4l_msgs "$d/s")
sleep "$MEASURE"
t1[$pm]=$(bench_cpu_ticks "$pm") t1[$ps]=$(bench_cpu_ticks "$ps")
gm1=$(ptp4l_msgs "$d/m") gs1=$(ptp4l_msgs "$d/s")
dm="" ds=""
[ -n "$gm0" ] && [ -n "$gm1" ] && dm=$((gm1 - gm0))
[ -n "$gs0" ] && [ -n "$gs1" ] && ds=$((gs1 - gs0))
printf 'ptp4l\tmaster\tptp4l\t%s\t%s\t%s\n' "$((t1[$pm] - t0[$pm]))" \
	"$(bench_hwm_kb "$pm")" "$dm" >>"$rows"
printf 'ptp4l\tslave\tptp4l\t%s\t%s\t%s\n' "$((t1[$ps] - t0[$ps]))" \
	"$(bench_hwm_kb "$ps")" "$ds" >>"$rows"
bench_stop "$pm" "$ps"

python3 - "$rows" "$BENCH_OUT/cpu.json" "$BENCH_MODE" "$WARM" "$MEASURE" \
	"$HZ" "$locked" "$((SECONDS - t_start))" <<'EOF'
import json, sys
rows, out, mode, warm, meas, hz, locked, el = sys.argv[1:]
meas, hz = float(meas), float(hz)
res = []
for line in open(rows):
    impl, side, proc, ticks, hwm, msgs = line.rstrip("\n").split("\t")
    cpu = int(ticks) / hz
    r = {"impl": impl, "side": side, "process": proc,
         "cpu_s": cpu, "cpu_s_per_min": cpu / meas * 60,
         "vmhwm_kb": int(hwm), "messages": int(msgs) if msgs else None}
    r["us_per_message"] = (cpu / r["messages"] * 1e6
                           if r["messages"] else None)
    res.append(r)
json.dump({"mode": mode, "warm_s": float(warm), "measure_s": meas,
           "clk_tck": int(hz), "log_sync_interval": -7,
           "ptp4l_slave": "free_running 1",
           "log_min_delay_req_interval": -7,
           "our_slave_locked_lines": int(locked),
           "elapsed_s": int(el), "rows": res}, open(out, "w"), indent=1)
EOF
say "cpu: wrote $BENCH_OUT/cpu.json ($((SECONDS - t_start)) s)"
