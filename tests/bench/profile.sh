#!/bin/bash
# profile.sh - where the time and the system calls of each process go, at
# a high message rate: a master and a slave, ours (ptp-netd + ptp-clockd
# on each side) and then ptp4l (free_running 1), on the same kind of veth,
# L2, E2E, software time stamps, logSyncInterval and
# logMinDelayReqInterval RATE (-7: 128 Syncs + 128 Delay_Reqs a second).
#
# After WARM seconds, for every process at once: `strace -c -f -p PID` for
# SECONDS seconds (a system call histogram; strace slows the process, so
# its figures are counts, not times), then `perf record -e cpu-clock -g -p
# PID` for SECONDS seconds, its top TOP symbols (`perf report
# --no-children -g none`, user and kernel).  Writes a Markdown page.
#
#   BUILD=<build dir> BENCH_OUT=<dir> [RATE=-7] [PROFILE_SECONDS=10] [TOP=25]
#   [WHO="ours ptp4l"] tests/bench/profile.sh OUT.md
#
# BUILD may be any build of the tree, also an old one (the "before"
# figures of issue 13 come from a build of commit d7cfe8c).  Not part of
# `make bench`: it is a tool for finding where the cost is.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

out=${1:?usage: profile.sh OUT.md}
RATE=${RATE:--7} SECS=${PROFILE_SECONDS:-10} TOP=${TOP:-25} WARM=${WARM:-8}
WHO=${WHO:-ours ptp4l}
command -v strace >/dev/null || die "strace is not installed"
command -v perf >/dev/null || die "perf is not installed"
common=(logSyncInterval "$RATE" logMinDelayReqInterval "$RATE"
	logAnnounceInterval 0 network_transport L2 delay_mechanism E2E)

# profile_procs IMPL SIDE:PROC:PID...: strace, then perf, of every PID at
# once; the sections appended to $bench_tmp/IMPL.md.
profile_procs() {
	local impl=$1 x side proc pid sp=() f
	shift
	for x in "$@"; do
		IFS=: read -r side proc pid <<<"$x"
		timeout -s INT "$SECS" strace -c -f -p "$pid" \
			-o "$bench_tmp/$impl-$side-$proc.strace" 2>/dev/null &
		sp+=($!)
	done
	wait "${sp[@]}"
	bench_procs=("$@")
	bench_perf_each "$bench_tmp/$impl" perf "$SECS" record -q -e cpu-clock -g
	for x in "$@"; do
		IFS=: read -r side proc pid <<<"$x"
		f=$bench_tmp/$impl-$side-$proc
		{
			echo "### $impl, $side, $proc"
			echo
			echo "\`strace -c -f -p\`, $SECS s:"
			echo
			echo '```'
			cat "$f.strace"
			echo '```'
			echo
			echo "\`perf record -e cpu-clock -g -p\`, $SECS s: samples by"
			echo "object (\`--sort dso -n\`), the top $TOP symbols (self), the top 15 in"
			echo "user space:"
			echo
			echo '```'
			perf report -i "$f.perf" --no-children --stdio -g none \
				--sort dso -n 2>/dev/null |
				grep -v '^#' | grep -v '^$' | head -n 8
			echo
			perf report -i "$f.perf" --no-children --stdio -g none \
				--percent-limit 0 2>/dev/null |
				grep -v '^#' | grep -v '^$' | head -n "$TOP"
			echo
			echo "user space only (top 15):"
			perf report -i "$f.perf" --no-children --stdio -g none \
				--percent-limit 0 2>/dev/null |
				grep -v '^#' | grep -v '^$' | grep -vF '[k]' | head -n 15
			echo '```'
			echo
		} >>"$bench_tmp/$impl.md"
	done
}

A=bp$$a B=bp$$b
bench_pair "$A" "$B"
for impl in $WHO; do
	d=$bench_tmp/$impl
	case $impl in
	ours)
		say "profile: ours ($BUILD), $WARM s + 2 x $SECS s"
		bench_ours nm cm "$A" "$d/m" "${common[@]}" priority1 100
		bench_ours ns cs "$B" "$d/s" "${common[@]}" clientOnly 1 \
			virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
		sleep "$WARM"
		bench_alive "$nm" "$cm" "$ns" "$cs" || die "profile: our daemons exited"
		profile_procs ours master:netd:"$nm" master:clockd:"$cm" \
			slave:netd:"$ns" slave:clockd:"$cs"
		bench_stop "$nm" "$cm" "$ns" "$cs" ;;
	ptp4l)
		say "profile: ptp4l, $WARM s + 2 x $SECS s"
		bench_ptp4l pm "$A" "$d/m" master "${common[@]}"
		bench_ptp4l ps "$B" "$d/s" slave "${common[@]}"
		sleep "$WARM"
		bench_alive "$pm" "$ps" || die "profile: ptp4l exited"
		profile_procs ptp4l master:ptp4l:"$pm" slave:ptp4l:"$ps"
		bench_stop "$pm" "$ps" ;;
	*) die "profile: WHO: ours or ptp4l, not $impl" ;;
	esac
done
{
	echo "# Profile at logSyncInterval $RATE / logMinDelayReqInterval $RATE"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build $BUILD ($("$PTPCTL" -v 2>&1 | head -1));"
	echo "L2, E2E, software time stamps, one veth; $WARM s warm-up, then per"
	echo "process at once strace -c for $SECS s, then perf record for $SECS s."
	echo "tests/bench/profile.sh wrote this page."
	echo
	echo "| implementation | side | process | system calls | of which failed | perf samples |"
	echo "| --- | --- | --- | --- | --- | --- |"
	for f in "$bench_tmp"/*.strace; do
		IFS=- read -r impl side proc <<<"$(basename "$f" .strace)"
		# strace's total line: "100.00 SECONDS [USECS] CALLS [ERRORS] total"
		printf '| %s | %s | %s | %s | %s | %s |\n' "$impl" "$side" "$proc" \
			"$(awk '$NF == "total" { print NF == 6 ? $4 : $(NF - 1) }' "$f")" \
			"$(awk '$NF == "total" { print NF == 6 ? $5 : 0 }' "$f")" \
			"$(perf report -i "${f%.strace}.perf" --no-children --stdio -g none --sort dso -n \
				2>/dev/null | awk '/^ +[0-9.]+% +[0-9]+ / { n += $2 } END { print n + 0 }')"
	done
	echo
	for impl in $WHO; do cat "$bench_tmp/$impl.md"; done
} >"$out"
say "profile: wrote $out"
