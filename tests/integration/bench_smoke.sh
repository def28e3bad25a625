#!/bin/bash
# bench_smoke.sh - each benchmark of tests/bench/ in smoke mode (seconds per
# configuration, about 80 s in all), then the report, which must be
# well-formed with every figure present, and cpu.sh's figures, which must
# be there and above zero for every process (CPU µs per message, system
# calls a second, peak RSS, wake-ups a second and CPU µs per wake-up).  Their size is not judged here (a smoke run
# is too short, and the machine is busy with other tests); `make bench` is
# the real run.  The benchmarks start ptp4l
# masters and slaves: every ptp4l slave runs with free_running 1
# (tests/bench/lib.sh refuses to start one without it), so no clock of this
# machine is adjusted.
#
#   BUILD=build/default tests/integration/bench_smoke.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/../bench
: "${BUILD:?set BUILD to the build directory}"
fails=0
out=$(mktemp -d /tmp/ptpsep-bench-smoke.XXXXXX)
# The scripts run in the background: stopped (TERM, their own clean-up)
# if this test ends first.
smoke_pids=()
trap 'for p in "${smoke_pids[@]}"; do kill "$p" 2>/dev/null; wait "$p"; done
	rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
export BUILD BENCH_OUT=$out BENCH_MODE=smoke

# traffic.sh alone (it saturates a CPU with its flood), then sync.sh and
# cpu.sh side by side, then scale.sh (50 clients each, ~30 s).
smoke() {	# SCRIPT...
	local s i=0
	for s in "$@"; do
		bash "$bench/$s.sh" >"$out/$s.log" 2>&1 &
		smoke_pids+=($!)
	done
	for s in "$@"; do
		if wait "${smoke_pids[$i]}"; then
			echo "PASS: $s.sh (smoke)"
		else
			echo "FAIL: $s.sh (smoke)"
			cat "$out/$s.log"
			fails=$((fails + 1))
		fi
		i=$((i + 1))
	done
	smoke_pids=()
}
smoke traffic
smoke sync cpu
smoke scale
# scale.sh: each grandmaster, ours and ptp4l, served every client: all
# three grants, none refused, and Syncs to the least-served client.
if python3 - "$out/scale.json" <<'EOF'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
bad = [r["impl"] for r in runs
       if r["uclients"]["served"] != r["clients"]
       or sum(r["uclients"]["refusals"].values())
       or not (r["uclients"]["sync_fraction"] or {}).get("min")]
if sorted(r["impl"] for r in runs) != ["ours", "ptp4l"] or bad:
    sys.exit("FAIL: scale.json: " + json.dumps(runs))
EOF
then
	echo "PASS: scale.sh: ours and ptp4l each served every client (grants, Syncs)"
else
	fails=$((fails + 1))
fi
printf '{"date": "smoke", "mode": "smoke", "machine": "%s", "cpu": "%s", "nproc": %s, "kernel": "%s", "ptpsep": "%s", "linuxptp": "%s", "iperf3": "%s", "perf": "%s", "elapsed": "0 s"}\n' \
	"$(uname -m)" x "$(nproc)" "$(uname -r)" "$("$BUILD/ctl/ptpctl" -v 2>&1 | head -1)" \
	"$(ptp4l -v 2>&1)" "$(dpkg-query -W -f='${Version}' iperf3)" x >"$out/info.json"
# cpu.sh: every process of each side, ours and ptp4l, with every figure
# above zero.
if python3 - "$out/cpu.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
want = {(i, s, p) for s in ("master", "slave")
        for i, p in (("ours", "netd"), ("ours", "clockd"), ("ptp4l", "ptp4l"))}
bad = []
for li in c["log_intervals"]:
    got = {(r["impl"], r["side"], r["process"]): r for r in c["rows"]
           if r["log_interval"] == li}
    for k in sorted(want):
        r = got.get(k)
        if r is None:
            bad.append("%s at %d: no row" % (" ".join(k), li))
            continue
        for f in ("us_per_message", "cpu_s_per_min", "syscalls_per_s",
                  "vmhwm_kb", "messages", "wakeups_per_s", "us_per_wakeup"):
            if not (r.get(f) or 0) > 0:
                bad.append("%s at %d: %s = %s" % (" ".join(k), li, f, r.get(f)))
if not c["log_intervals"]:
    bad.append("no rate")
for b in bad:
    print("FAIL: cpu.json: " + b)
sys.exit(1 if bad else 0)
EOF
then
	echo "PASS: cpu.sh: µs/message, CPU s/min, system calls/s, peak RSS, wake-ups/s, µs/wake-up > 0 for every process"
else
	fails=$((fails + 1))
fi
if python3 "$bench/report.py" "$out" "$out/report.md" --check; then
	# Every table of the three parts is there.
	for h in '## 1. Cost' '## 2. Synchron' '## 3. CPU, system calls' '| ptpsep, L2 |' \
		'| ptp4l, L2 |' '| ptpsep, UDPv4 |' 'ptp4l → ptp4l free-running' \
		'| ours | 128 + 128 | slave | clockd |' '| ptp4l | 128 + 128 | master | ptp4l |' \
		'| system calls/s |' '| 128 + 128 | slave | system calls/s |' \
		'| wake-ups/s |' '| 128 + 128 | master | wake-ups/s |' \
		'| 128 + 128 | slave | µs CPU per wake-up |' \
		'ptpsep, slave side, at 128 + 128' '## 4. A grandmaster serving N' \
		'| ours (pair) | 50 | 1 | 50 | 0 |' '| ptp4l (pair) | 50 | 1 | 50 | 0 |' \
		'50 clients at 1 Sync/s, side by side: ours / ptp4l CPU'; do
		grep -qF -- "$h" "$out/report.md" || { echo "FAIL: report lacks $h"; fails=$((fails + 1)); }
	done
	echo "PASS: report with every figure"
else
	echo "FAIL: report incomplete"
	cat "$out/report.md"
	fails=$((fails + 1))
fi
echo "bench_smoke: $fails failure(s)"
[ "$fails" = 0 ]
