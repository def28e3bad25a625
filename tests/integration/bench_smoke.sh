#!/bin/bash
# bench_smoke.sh - each benchmark of tests/bench/ in smoke mode (seconds per
# configuration, about two minutes in all), then the report, which must be
# well-formed with every figure present.  The figures themselves are not
# judged here (a smoke run is too short, and the machine is busy with
# other tests); `make bench` is the real run.  The benchmarks start ptp4l
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
trap 'rm -rf "$out"' EXIT
export BUILD BENCH_OUT=$out BENCH_MODE=smoke

for s in traffic sync cpu; do
	if bash "$bench/$s.sh"; then
		echo "PASS: $s.sh (smoke)"
	else
		echo "FAIL: $s.sh (smoke)"
		fails=$((fails + 1))
	fi
done
printf '{"date": "smoke", "mode": "smoke", "machine": "%s", "cpu": "%s", "nproc": %s, "kernel": "%s", "ptpsep": "%s", "linuxptp": "%s", "iperf3": "%s", "perf": "%s", "elapsed": "0 s"}\n' \
	"$(uname -m)" x "$(nproc)" "$(uname -r)" "$("$BUILD/ctl/ptpctl" -v 2>&1 | head -1)" \
	"$(ptp4l -v 2>&1)" "$(dpkg-query -W -f='${Version}' iperf3)" x >"$out/info.json"
if python3 "$bench/report.py" "$out" "$out/report.md" --check; then
	# Every table of the three parts is there.
	for h in '## 1. Cost' '## 2. Synchron' '## 3. CPU' '| ptpsep, L2 |' \
		'| ptp4l, L2 |' '| ptpsep, UDPv4 |' 'ptp4l → ptp4l free-running' \
		'| ours | slave | clockd |' '| ptp4l | master | ptp4l |'; do
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
