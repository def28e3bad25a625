#!/bin/bash
# run.sh - the whole benchmark suite and its report (`make bench`).
#
#   BUILD=<build dir> tests/bench/run.sh [RESULTS_DIR]
#
# Runs traffic.sh, sync.sh and cpu.sh (BENCH_MODE=full unless set; about
# 15 minutes on 2 cores), then writes RESULTS_DIR/latest.md, a dated copy,
# and the raw figures in RESULTS_DIR/latest/*.json.  RESULTS_DIR defaults
# to tests/bench/results of the source tree.  Variables (also through
# `make bench VAR=...`):
#   BENCH_ONLY          the parts to run, of "traffic sync cpu" (default
#                       all); e.g. BENCH_ONLY=cpu for the cost of the
#                       split alone (issue 13), about 5 minutes
#   BENCH_BEFORE_BUILD  cpu.sh also runs the daemons of this build (e.g. of
#                       the tree before a change), shown as "before"
#   BENCH_BEFORE_LABEL  its name in the report
#   BENCH_BUILD_LABEL   what the report calls BUILD (default: git describe
#                       of this source tree)
#   BENCH_MODE          full or smoke; the scripts' headers list the rest
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${BUILD:?set BUILD to the build directory}"
results=${1:-$here/results}
export BENCH_MODE=${BENCH_MODE:-full}
[ "$(id -u)" = 0 ] || { echo "run.sh: run as root (network namespaces)" >&2; exit 2; }
mkdir -p "$results"
data=$(mktemp -d /tmp/ptpsep-bench-data.XXXXXX)
trap 'rm -rf "$data"' EXIT
export BENCH_OUT=$data BUILD
t0=$SECONDS
BENCH_ONLY=${BENCH_ONLY:-traffic sync cpu}
for part in $BENCH_ONLY; do
	case $part in
	traffic|sync|cpu|scale) bash "$here/$part.sh" ;;
	*) echo "run.sh: BENCH_ONLY: traffic, sync, cpu or scale, not $part" >&2; exit 2 ;;
	esac
done
python3 - "$data/info.json" "$BENCH_MODE" "$((SECONDS - t0))" \
	"$("$BUILD/ctl/ptpctl" -v 2>&1 | head -1) (${BENCH_BUILD_LABEL:-$(git -C "$here" describe --always --dirty 2>/dev/null)})" \
	"$BENCH_ONLY" <<'PY'
import json, os, platform, subprocess, sys, time
def run(*a):
    try:
        return subprocess.run(a, capture_output=True, text=True).stdout.strip() or \
            subprocess.run(a, capture_output=True, text=True).stderr.strip()
    except OSError:
        return None
def pkg(p):
    return run("dpkg-query", "-W", "-f=${Version}", p)
cpu = None
for line in open("/proc/cpuinfo"):
    if line.startswith("model name"):
        cpu = line.split(":", 1)[1].strip()
        break
out, mode, el, ver, only = sys.argv[1:]
json.dump({"date": time.strftime("%Y-%m-%d %H:%M %Z"), "mode": mode,
           "machine": platform.machine(), "cpu": cpu, "nproc": os.cpu_count(),
           "kernel": platform.release(), "ptpsep": ver,
           "linuxptp": "ptp4l %s (Debian %s)" % (run("ptp4l", "-v"), pkg("linuxptp")),
           "ptp4l_slaves": "free_running 1 (tests/bench/lib.sh refuses otherwise)",
           "iperf3": pkg("iperf3"), "perf": run("perf", "--version"),
           "elapsed": "%s s" % el, "parts": only.split()}, open(out, "w"))
PY
stamp=$(date +%Y%m%d-%H%M)
python3 "$here/report.py" "$data" "$results/latest.md"
cp "$results/latest.md" "$results/$stamp.md"
rm -rf "$results/latest"
mkdir -p "$results/latest"
cp "$data"/*.json "$results/latest/"
echo "bench: report in $results/latest.md ($((SECONDS - t0)) s)"
