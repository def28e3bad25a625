#!/bin/bash
# check.sh - install what is missing, build, and run every test of ptpsep.
#
#   sudo ./check.sh            everything (what CI runs)
#   sudo ./check.sh --quick    one build and its unit tests only
#
# Builds happen out of tree under build/: a normal -Werror build, an
# ASan+UBSan build, a clang libFuzzer build for the fuzz smoke, and
# `make distcheck`.  Integration and interop tests (network namespaces,
# root) run against the normal build, up to ITEST_JOBS (3) at once (see
# run_pool).  Every step's output goes to build/logs/; the end of the run
# lists each step's duration and repeats the FAIL lines of failed steps.
# Nothing is retried: the real-time tests have loose bounds (they lock,
# offsets stay within a few microseconds), and the precise timing figures
# are bound by the simulator's cases (tests/sim), which run with the unit
# tests.
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
quick=0
[ "${1:-}" = "--quick" ] && quick=1
jobs=$(nproc 2>/dev/null || echo 2)
passed=0
failed=0
failed_names=()

say() { printf '\n=== %s\n' "$*"; }

if [ "$(id -u)" != 0 ]; then
	echo "check.sh: run as root (sudo ./check.sh): it installs packages and creates network namespaces" >&2
	exit 2
fi

# ---- Debian packages ---------------------------------------------------------
# The static daemons (configure's default) link the .a files these ship:
# libc6-dev (from build-essential), libevent-dev, libprotobuf-c-dev,
# libcap-ng-dev, libseccomp-dev.
pkgs=(build-essential autoconf automake libtool pkg-config
      libevent-dev libprotobuf-c-dev protobuf-c-compiler libcap-ng-dev
      libcmocka-dev clang libclang-rt-14-dev llvm iproute2 linuxptp tshark
      iputils-ping procps libseccomp-dev systemd groff-base python3 python3-prometheus-client
      iperf3 linux-perf valgrind)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# tshark asks whether non-root users may capture; answer no.
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
		debconf-set-selections
	apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# ---- users and groups the daemons and tests use -------------------------------
for u in ptpsep-netd ptpsep-clockd; do
	id -u "$u" >/dev/null 2>&1 ||
		useradd --system --no-create-home --home-dir /nonexistent \
			--shell /usr/sbin/nologin "$u"
done
getent group ptpsep-admin >/dev/null || groupadd --system ptpsep-admin

# ---- build helpers ---------------------------------------------------------
logdir=$top/build/logs
rm -rf "$logdir"
mkdir -p "$logdir"

# step_log NAME: where a step's output is kept (build/logs/NAME.log).
step_log() { printf '%s/%s.log' "$logdir" "$(tr -c 'A-Za-z0-9._-' _ <<<"$1")"; }

# took NAME T0: one line per step with its duration, kept for the summary,
# so that the run's time budget (15 minutes) can be read from CI's output.
durations=()
took() { durations+=("$(printf '%5d s  %s' $((SECONDS - $2)) "$1")"); }

run_step() {	# name, command...
	local name=$1 log t0=$SECONDS; shift
	log=$(step_log "$name")
	say "$name"
	if "$@" 2>&1 | tee "$log"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failed_names+=("$name")
		echo "check.sh: FAILED: $name"
	fi
	took "$name" $t0
}

# run_pool JOBS: the scripts queued with pool_add, JOBS at once.  Each
# integration and interop script makes its own namespaces, links and
# temporary directories (named by its PID) and waits on the network far
# more than it computes, so they can share the two CPUs.  A "heavy" script
# (one that runs many pairs at once or floods a daemon) never runs beside
# another heavy one, so that their loads do not add up.  A script's output
# goes to its log, which is printed whole when it ends.
pool_names=()
pool_cmds=()
pool_add() {	# name, command (a string for bash -c)...
	pool_names+=("$1")
	pool_cmds+=("$2")
}
pool_heavy() {
	case $1 in
	*/clockd_sync.sh | */interop/sync.sh | */interop/chain.sh | */ptpctl.sh) return 0 ;;
	esac
	return 1
}
run_pool() {
	local jobs=$1 n=${#pool_names[@]} i rc pid name log
	local running=0 heavy=0 left=${#pool_names[@]}
	local -a state=() t0=()
	local -A idx=()
	for ((i = 0; i < n; i++)); do state[i]=queued; done
	while ((left > 0)); do
		for ((i = 0; i < n && running < jobs; i++)); do
			[ "${state[i]}" = queued ] || continue
			name=${pool_names[i]}
			if pool_heavy "$name" && ((heavy > 0)); then continue; fi
			echo "check.sh: start $name"
			bash -c "${pool_cmds[i]}" >"$(step_log "$name")" 2>&1 &
			idx[$!]=$i
			t0[i]=$SECONDS
			state[i]=running
			running=$((running + 1))
			if pool_heavy "$name"; then heavy=$((heavy + 1)); fi
		done
		rc=0
		wait -n -p pid || rc=$?
		i=${idx[$pid]}
		name=${pool_names[i]}
		log=$(step_log "$name")
		state[i]=done
		running=$((running - 1))
		left=$((left - 1))
		if pool_heavy "$name"; then heavy=$((heavy - 1)); fi
		say "$name ($((SECONDS - t0[i])) s)"
		cat "$log"
		if [ $rc = 0 ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			failed_names+=("$name")
			echo "check.sh: FAILED: $name"
		fi
		took "$name" "${t0[i]}"
	done
}

build_and_check() {	# dir, configure args...
	local dir=$1; shift
	rm -rf "build/$dir"
	mkdir -p "build/$dir"
	(cd "build/$dir" && "$top/configure" -q "$@" && make -s -j"$jobs" &&
	 make -s -j"$jobs" check) || {
		for log in "build/$dir"/tests/*/*.log "build/$dir"/test-suite.log; do
			[ -f "$log" ] && grep -q -E '^(FAIL|ERROR)|FAILED|ERROR:|runtime error' "$log" &&
				{ echo "--- $log"; tail -40 "$log"; }
		done
		return 1
	}
	# Show the cmocka summaries so the counts appear in the log.
	cat "build/$dir"/tests/unit/*.log | grep -E '^\[  (PASSED|FAILED)' || true
}

say "autoreconf"
autoreconf -fi >/dev/null 2>&1 || { autoreconf -fi; exit 1; }

run_step "build + unit tests (-Werror)" build_and_check default --enable-werror
if [ $quick = 0 ]; then
	run_step "build + unit tests (ASan+UBSan)" \
		build_and_check sanitizers --enable-werror --enable-sanitizers
	fuzz() {
		rm -rf build/fuzz && mkdir -p build/fuzz &&
		(cd build/fuzz && "$top/configure" -q CC=clang --enable-fuzzing &&
		 make -s -j"$jobs" && make -s fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-5}")
	}
	# A smoke: each target 5 s from its seed corpus, enough to show that
	# it builds, runs and does not crash at once.  A campaign is
	# `make fuzz-smoke FUZZ_SECONDS=600` in build/fuzz.
	run_step "fuzz smoke (libFuzzer)" fuzz
	run_step "make distcheck" \
		bash -c "cd build/default && make -s -j$jobs distcheck >distcheck.log 2>&1 || { tail -40 distcheck.log; exit 1; }"
fi

# ---- integration and interop tests (root, network namespaces) ----------------
# The longest first, so that the pool ends together; then the two that
# must have the host to themselves: gm_offset.sh compares our grandmaster's
# time stamps with ptp4l's to a few hundred nanoseconds, bench_smoke.sh
# runs iperf3, which keeps a CPU busy, and coalesce.sh loads both CPUs
# with 1,000 clients at 16/s and bounds what they got.
if [ $quick = 0 ]; then
	solo=(tests/interop/gm_offset.sh tests/integration/bench_smoke.sh
	      tests/integration/coalesce.sh)
	first=(tests/integration/rogue_gm.sh tests/integration/clockd_resilience.sh
	       tests/interop/sync.sh tests/integration/mgmt.sh tests/interop/chain.sh
	       tests/integration/ptpctl.sh tests/integration/sandbox.sh
	       tests/integration/clockd_sync.sh tests/integration/hostile.sh)
	queued=" ${solo[*]} lib.sh "
	for t in "${first[@]}" tests/integration/*.sh tests/interop/*.sh; do
		[ -e "$t" ] || continue
		[ "${t##*/}" = lib.sh ] && continue	# helpers, not a test
		case $queued in *" $t "*) continue ;; esac
		queued+="$t "
		pool_add "$t" "env BUILD='$top/build/default' bash '$t'"
		# The hostile cases once more against the ASan+UBSan daemons
		# (built above with -fno-sanitize-recover=all): a sanitizer
		# report, or a daemon that died, fails the step.  SAN_BUILD
		# makes the script start the daemons from that build.
		if [ "$t" = tests/integration/hostile.sh ]; then
			pool_add "$t (ASan+UBSan daemons)" \
				"env BUILD='$top/build/default' SAN_BUILD='$top/build/sanitizers' bash '$t'"
		fi
	done
	run_pool "${ITEST_JOBS:-3}"
	for t in "${solo[@]}"; do
		if [ -e "$t" ]; then
			run_step "$t" env BUILD="$top/build/default" bash "$t"
		fi
	done
fi

# The reasons, where CI shows only the end of the output.
echo
echo "check.sh: time per step"
printf '    %s\n' "${durations[@]}"
echo "check.sh: $SECONDS s in all"
for name in "${failed_names[@]}"; do
	echo "check.sh: failed: $name"
	# A run that failed without a FAIL line (a crash, a syntax error) must
	# not end check.sh here: grep's exit 1 under pipefail would.
	grep -E '^(FAIL|ERROR)|FAILED' "$(step_log "$name")" | head -15 | sed 's/^/    /' || true
done
if [ $failed -gt 0 ]; then
	echo "check.sh: failed steps: ${failed_names[*]}"
fi
echo "check.sh: logs of every step in build/logs/"
echo "check: $passed passed, $failed failed"
[ $failed = 0 ]
