#!/bin/bash
# traffic.sh - what a PTP service costs the traffic that is not PTP.
#
# Two namespaces joined by one veth.  A flood of small UDP packets
# (tests/bench/udpflood.c: 18-byte payload = minimum-size frames, no rate
# limit), and separately a TCP stream (iperf3), cross it for a fixed time
# with, in turn:
#
#   none        nothing running
#   ours_l2     ptp-netd + ptp-clockd, master and slave, L2 (ETH_P_1588)
#   ptp4l_l2    ptp4l master and slave, L2 (ETH_P_ALL), both free_running 1
#   ours_udp4   ptp-netd + ptp-clockd, master and slave, UDPv4
#
# The configurations alternate (A B C D A B C D ...) for REPS rounds, so a
# slow drift of the machine spreads over all of them.  The flood's sender
# is pinned to CPU 1 and the receiver to CPU 0: on a veth the whole kernel
# path of a packet (transmit, the taps on transmit, the receive side and
# its taps, up to the UDP socket) runs on the sender's CPU, which the
# sender keeps at 100%, so any per-packet cost of a tap shows as fewer
# packets per second.  Pinning keeps sender and receiver from sharing a
# core and the scheduler from moving them between runs; the daemons are
# not pinned (they sleep almost all the time).  The rate counted is what
# the receiving namespace's IP layer took in (Ip InReceives, per second of
# the flood; on a veth nothing is lost on the way, so it equals what was
# sent): that is the work of the saturated sender CPU.  Beside it: the same per CPU-second of the sender
# (immune to other processes of the machine taking CPU 1 for a while),
# and what the receiving process read.
#
# In rounds with a profile, one more flood runs under
# `perf record -e cpu-clock -a -g` and the share of CPU samples in the
# packet-tap path (a stack through packet_rcv, tpacket_rcv,
# dev_queue_xmit_nit, or in BPF program execution) is computed.
#
#   BUILD=... BENCH_OUT=DIR [BENCH_MODE=smoke] tests/bench/traffic.sh
# writes DIR/traffic.json.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

if [ "$BENCH_MODE" = smoke ]; then
	REPS=${REPS:-1} T_UDP=${T_UDP:-2} T_TCP=${T_TCP:-1} T_PERF=${T_PERF:-1}
	PERF_REPS=${PERF_REPS:-1}
else
	REPS=${REPS:-4} T_UDP=${T_UDP:-4} T_TCP=${T_TCP:-2} T_PERF=${T_PERF:-3}
	PERF_REPS=${PERF_REPS:-1}
fi
CONFIGS=(none ours_l2 ptp4l_l2 ours_udp4)
CPU_TX=1 CPU_RX=0
command -v iperf3 >/dev/null || die "iperf3 is not installed"
UDPFLOOD=${UDPFLOOD:-$BUILD/tests/bench/udpflood}
[ -x "$UDPFLOOD" ] || die "no $UDPFLOOD (make tests/bench/udpflood)"
have_perf=0
if command -v perf >/dev/null &&
	perf record -q -e cpu-clock -a -o "$bench_tmp/probe.data" -- true >/dev/null 2>&1; then
	have_perf=1
fi
rm -f "$bench_tmp/probe.data"

A=btA$$ B=btB$$
bench_pair "$A" "$B"

iperf_srv=
bench_start iperf_srv "$B" "$bench_tmp/iperf3-server.log" \
	taskset -c $CPU_RX iperf3 -s -B 10.201.0.2
sleep 0.5

# The daemons of one configuration: master in A (the flood's sender),
# slave in B (its receiver).
run_pids=()
start_config() {	# CONFIG
	local d=$bench_tmp/$1 n1 c1 n2 c2 p1 p2
	rm -rf "$d"
	case $1 in
	none)
		run_pids=()
		return 0 ;;
	ours_l2|ours_udp4)
		local tr=L2
		[ "$1" = ours_udp4 ] && tr=UDPv4
		bench_ours n1 c1 "$A" "$d/m" network_transport $tr priority1 100
		bench_ours n2 c2 "$B" "$d/s" network_transport $tr clientOnly 1
		run_pids=("$n1" "$c1" "$n2" "$c2")
		# clockd connected and the ports open.
		sleep 1 ;;
	ptp4l_l2)
		bench_ptp4l p1 "$A" "$d/m" master network_transport L2
		bench_ptp4l p2 "$B" "$d/s" slave network_transport L2
		run_pids=("$p1" "$p2")
		itest_wait_file "$d/m/ptp4l.sock" 10 && itest_wait_file "$d/s/ptp4l.sock" 10 ||
			die "ptp4l did not start"
		sleep 1 ;;
	esac
	bench_alive "${run_pids[@]}" || die "$1: a daemon exited at start"
}

udp_delivered() {	# IP packets the receiving namespace's stack took in
	ip netns exec "$B" awk '/^Ip:/ { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 }
		else print $c["InReceives"] }' /proc/net/snmp
}

# flood SECONDS OUT: the UDP flood (tests/bench/udpflood.c) from A to B,
# with B's receiver draining the socket; OUT gets "PACKETS SECONDS CPU" of
# the sender, OUT.rx the receiver's rate over the middle of the flood.
flood() {
	local rx
	bench_start rx "$B" "$2.rx" taskset -c $CPU_RX "$UDPFLOOD" rx 10.201.0.2 9000 \
		1 "$(awk -v t="$1" 'BEGIN { print t - 1.5 }')"
	sleep 0.2
	ip netns exec "$A" taskset -c $CPU_TX "$UDPFLOOD" tx 10.201.0.2 9000 "$1" 18 >"$2" ||
		die "udpflood tx failed"
	bench_stop "$rx"
}

results=$bench_tmp/results.tsv
: >"$results"
record() { printf '%s\t%s\t%s\t%s\n' "$@" >>"$results"; }	# config rep key value

measure() {	# CONFIG REP
	local c=$1 r=$2 j=$bench_tmp/$1-$2 u0 u1 secs
	record "$c" "$r" sockets_master "$(bench_pkt_protos "$A")"
	record "$c" "$r" sockets_slave "$(bench_pkt_protos "$B")"
	u0=$(udp_delivered)
	flood "$T_UDP" "$j-udp"
	u1=$(udp_delivered)
	read -r pk secs cpu <"$j-udp"
	record "$c" "$r" udp_pps "$(awk -v a="$u0" -v b="$u1" -v s="$secs" 'BEGIN { printf "%.0f", (b - a) / s }')"
	record "$c" "$r" udp_pps_per_cpu_s "$(awk -v a="$u0" -v b="$u1" -v s="$cpu" 'BEGIN { printf "%.0f", (b - a) / s }')"
	record "$c" "$r" udp_sent_pps "$(awk -v p="$pk" -v s="$secs" 'BEGIN { printf "%.0f", p / s }')"
	record "$c" "$r" udp_rx_pps "$(cat "$j-udp.rx")"
	sleep 0.5
	ip netns exec "$A" taskset -c $CPU_TX iperf3 -c 10.201.0.2 -t "$T_TCP" \
		-J >"$j-tcp.json" 2>&1 || { cat "$j-tcp.json" >&2; die "$c: iperf3 TCP failed"; }
	record "$c" "$r" tcp_bps "$(python3 -c '
import json, sys
print("%.0f" % json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"])' "$j-tcp.json")"
	if [ $have_perf = 1 ] && [ "$r" -le "$PERF_REPS" ]; then
		sleep 0.5
		# The profile covers the middle of a flood of its own.
		(sleep 1; perf record -q -e cpu-clock -a -g -F 999 -o "$j.perf" \
			-- sleep "$T_PERF" >/dev/null 2>&1) &
		local ppid=$!
		flood $((T_PERF + 2)) "$j-perf-udp"
		wait "$ppid"
		perf script -i "$j.perf" -F comm,cpu,ip,sym 2>/dev/null |
			python3 "$here/perf_taps.py" >"$j.taps" ||
			die "$c: cannot read the profile"
		read -r total busy tap bpf <"$j.taps"
		record "$c" "$r" perf_samples "$total"
		record "$c" "$r" perf_busy "$busy"
		record "$c" "$r" tap_share_pct "$(awk -v t="$tap" -v b="$busy" 'BEGIN { printf "%.2f", b ? 100 * t / b : 0 }')"
		record "$c" "$r" bpf_share_pct "$(awk -v t="$bpf" -v b="$busy" 'BEGIN { printf "%.2f", b ? 100 * t / b : 0 }')"
		rm -f "$j.perf"
	fi
	bench_alive "${run_pids[@]}" || die "$c: a daemon died during the flood"
}

t_start=$SECONDS
for ((rep = 1; rep <= REPS; rep++)); do
	for c in "${CONFIGS[@]}"; do
		say "traffic: round $rep/$REPS: $c"
		start_config "$c"
		measure "$c" "$rep"
		bench_stop "${run_pids[@]}"
		run_pids=()
	done
done
bench_stop "$iperf_srv"

python3 - "$results" "$BENCH_OUT/traffic.json" "$BENCH_MODE" "$REPS" \
	"$T_UDP" "$T_TCP" "$T_PERF" "$have_perf" "$((SECONDS - t_start))" <<'EOF' ||
import json, sys
rows, out, mode, reps, tu, tt, tp, perf, el = sys.argv[1:]
cfg = {}
for line in open(rows):
    c, r, k, v = line.rstrip("\n").split("\t")
    d = cfg.setdefault(c, {})
    if k.startswith("sockets_"):
        d.setdefault(k, v)
        continue
    d.setdefault(k, []).append(float(v))
json.dump({"mode": mode, "reps": int(reps), "udp_seconds": float(tu),
           "tcp_seconds": float(tt), "perf_seconds": float(tp),
           "perf": perf == "1", "cpu_sender": 1, "cpu_receiver": 0,
           "udp_payload": 18, "elapsed_s": int(el),
           "order": ["none", "ours_l2", "ptp4l_l2", "ours_udp4"],
           "configs": cfg}, open(out, "w"), indent=1)
EOF
	die "traffic: cannot write traffic.json"
say "traffic: wrote $BENCH_OUT/traffic.json ($((SECONDS - t_start)) s)"
