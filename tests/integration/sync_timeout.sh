#!/bin/bash
# sync_timeout.sh - syncReceiptTimeout on a slave (clockd/port.c): a ptpsep
# master and slave over UDPv4 in two namespaces, Sync every 0.25 s, Announce
# every 2 s, and on the slave announceReceiptTimeout 10 (20 s or more).
# Once the slave takes samples the master's clockd is stopped (SIGSTOP):
#  1. syncReceiptTimeout 4: within 5 s (4 x 0.25 s = 1 s, well before the
#     announce receipt timeout) the slave logs "sync receipt timeout" and
#     leaves SLAVE; after SIGCONT it takes samples again.
#  2. Control, syncReceiptTimeout 0 (the default): no sync receipt timeout
#     in the same 5 s.
#
#   BUILD=build/default tests/integration/sync_timeout.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

SAMPLE_TIMEOUT=${SAMPLE_TIMEOUT:-60}
stopped=""
cont() { [ -n "$stopped" ] && kill -CONT "$stopped" 2>/dev/null; stopped=""; }
trap 'cont; itest_cleanup' EXIT

# run_case NAME SYNC_RECEIPT_TIMEOUT
run_case() {
	local name=$1 srt=$2 tag m s dm sl from t0 mpid
	tag="st$$${name:0:1}"
	m="${tag}m"; s="${tag}s"
	itest_pair "$m" "$s"
	itest_tmpdir dm
	itest_tmpdir sl
	itest_conf "$dm/ptp.conf" "$dm" priority1 100 logSyncInterval -2 \
		logAnnounceInterval 1 announceReceiptTimeout 2
	itest_conf "$sl/ptp.conf" "$sl" clientOnly 1 logSyncInterval -2 \
		logAnnounceInterval 1 announceReceiptTimeout 10 \
		syncReceiptTimeout "$srt"
	itest_daemons "$m" "$dm" "$dm/ptp.conf" || return
	mpid=${itest_pids[-1]}		# the master's clockd
	itest_daemons "$s" "$sl" "$sl/ptp.conf" || return
	if ! itest_wait_log "$sl/clockd.log" ' freq ' "$SAMPLE_TIMEOUT"; then
		fail "$name: no Sync sample"; tail -20 "$sl/clockd.log"
		itest_stop; return
	fi
	sleep 1
	from=$(($(wc -l <"$sl/clockd.log") + 1))
	t0=$SECONDS
	kill -STOP "$mpid" && stopped=$mpid
	if [ "$srt" != 0 ]; then
		if itest_wait_log "$sl/clockd.log" 'sync receipt timeout' 5 "$from"; then
			pass "$name: sync receipt timeout after $((SECONDS - t0)) s"
		else
			fail "$name: no sync receipt timeout within 5 s"
		fi
		tail -n +"$from" "$sl/clockd.log" | grep >/dev/null 'announce receipt timeout' &&
			fail "$name: announce receipt timeout came first" ||
			pass "$name: before any announce receipt timeout"
		tail -n +"$from" "$sl/clockd.log" | grep >/dev/null 'SLAVE to LISTENING\|UNCALIBRATED to LISTENING' &&
			pass "$name: the slave's port left SLAVE" ||
			fail "$name: the port stayed: $(tail -n +"$from" "$sl/clockd.log" | tail -5)"
		cont
		from=$(($(wc -l <"$sl/clockd.log") + 1))
		if itest_wait_log "$sl/clockd.log" ' freq ' 30 "$from"; then
			pass "$name: samples again after the master came back"
		else
			fail "$name: no sample after the master came back"
		fi
	else
		sleep 5
		tail -n +"$from" "$sl/clockd.log" | grep >/dev/null 'sync receipt timeout' &&
			fail "$name: sync receipt timeout with syncReceiptTimeout 0" ||
			pass "$name: no sync receipt timeout in 5 s (syncReceiptTimeout 0)"
		cont
	fi
	itest_stop
}

run_case timeout 4
run_case default 0
[ "$itest_fails" = 0 ]
