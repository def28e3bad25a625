#!/bin/bash
# ptpctl.sh - ptpctl and the control sockets of both daemons (issue 5).
#
# Three ptpsep nodes, each in its own network namespace with one veth to a
# bridge in a fourth namespace: masters A (priority1 100) and B (priority1
# 110), and a client-only slave S whose virtual clock starts 1.5 s and
# +80 ppm off.  Checks, in order:
#   1. `ptpctl status --json` on the locked slave: port SLAVE, gm_identity
#      = A's clock_identity (from `ptpctl status --json` on A, port MASTER),
#      servo_state locked with clock_refusal none,
#      and an offset and path delay that agree with S's own log lines;
#   2. `ptpctl netd --json` counters rise with traffic;
#   3. `ptpctl metrics` parses as OpenMetrics (prometheus_client's parser);
#   4. hostile control clients on both of S's sockets (garbage, cut-short
#      requests, hang-ups, floods, too many connections; niced, so that it
#      is the daemons' handling that is tested, not a CPU-starved machine)
#      do not disturb synchronization: no s0/s1 line, no step, small
#      |offset|;
#   5. `ptpctl set priority1` on A from `nobody` exits 4 and changes
#      nothing; from a member of admin_group and from root it works, and
#      A's priority1 120 makes S choose B;
#   6. every command against S's stopped daemons exits 3 with one line
#      naming the socket.
#
#   BUILD=build/default tests/integration/ptpctl.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
CTL=$BUILD/ctl/ptpctl
LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
ABUSE_S=${ABUSE_S:-20}
OFFSET_MAX=${OFFSET_MAX:-100000}	# ns, |offset| while abused (behaviour, not precision)
SWITCH_TIMEOUT=${SWITCH_TIMEOUT:-60}
ADMIN_GROUP=ptpsep-admin

# Debian's python3 (check.sh installs python3-prometheus-client for it).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
command -v "$PY" >/dev/null || { fail "python3 is needed"; exit 1; }

tag="pc$$"
br="${tag}br"
a="${tag}a"; b="${tag}b"; s="${tag}s"

# ---- topology: a bridge in its own namespace, one veth per node -------------
ip netns add "$br"; itest_nss+=("$br")
ip -n "$br" link add br0 type bridge forward_delay 0 stp_state 0 \
	mcast_snooping 0
ip -n "$br" link set br0 up
i=1
for ns in "$a" "$b" "$s"; do
	ip netns add "$ns"; itest_nss+=("$ns")
	ip link add eth0 netns "$ns" type veth peer name "p$i" netns "$br"
	ip -n "$br" link set "p$i" master br0
	ip -n "$br" link set "p$i" up
	ip -n "$ns" link set lo up
	ip -n "$ns" addr add "10.202.0.$i/24" dev eth0
	ip -n "$ns" link set eth0 up
	i=$((i + 1))
done

itest_tmpdir ad; itest_tmpdir bd; itest_tmpdir sd
itest_conf "$ad/ptp.conf" "$ad" priority1 100 admin_group "$ADMIN_GROUP"
itest_conf "$bd/ptp.conf" "$bd" priority1 110 admin_group "$ADMIN_GROUP"
itest_conf "$sd/ptp.conf" "$sd" clientOnly 1 admin_group "$ADMIN_GROUP" \
	virtual_clock_offset_ns 1500000000 virtual_clock_freq_ppb 80000
itest_daemons "$a" "$ad" "$ad/ptp.conf" || exit 1
itest_daemons "$b" "$bd" "$bd/ptp.conf" || exit 1
itest_daemons "$s" "$sd" "$sd/ptp.conf" || exit 1
s_netd_pid=${itest_pids[-2]}
s_clockd_pid=${itest_pids[-1]}
for d in "$ad" "$bd" "$sd"; do
	itest_wait_file "$d/clockd/ctl.sock" 10 ||
		{ fail "no clockd control socket in $d"; cat "$d/clockd.log"; exit 1; }
done

# jq-less JSON access: jget JSON EXPR (EXPR in Python, the object is j)
jget() {
	"$PY" -c 'import json, sys; j = json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- lock --------------------------------------------------------------------
t0=$SECONDS
until grep -q ' s2 freq' "$sd/clockd.log"; do
	if ((SECONDS - t0 > LOCK_TIMEOUT)); then
		fail "S: no lock within ${LOCK_TIMEOUT}s"; tail -20 "$sd/clockd.log"
		exit 1
	fi
	sleep 0.5
done
echo "INFO: S locked after $((SECONDS - t0)) s"
sleep 5
settled=$(wc -l <"$sd/clockd.log")

# ---- 1. status on the slave and on the master -------------------------------
a_json=$("$CTL" -f "$ad/ptp.conf" --json status); rc=$?
s_json=$("$CTL" -f "$sd/ptp.conf" status --json); rc2=$?
echo "INFO: A: $a_json"
echo "INFO: S: $s_json"
if [ $rc = 0 ] && [ $rc2 = 0 ]; then pass "status --json exits 0"; else fail "status --json: exit $rc/$rc2"; fi
a_id=$(jget "$a_json" 'j["clock_identity"]')
b_id=$(jget "$("$CTL" -f "$bd/ptp.conf" --json status)" 'j["clock_identity"]')
[ "$(jget "$a_json" 'j["ports"][0]["state"]')" = MASTER ] &&
[ "$(jget "$a_json" 'j["gm_identity"]')" = "$a_id" ] &&
	pass "A reports MASTER and itself as grandmaster ($a_id)" ||
	fail "A: not MASTER of itself"
[ "$(jget "$s_json" 'j["ports"][0]["state"]')" = SLAVE ] &&
	pass "S reports its port SLAVE" || fail "S: port not SLAVE"
[ "$(jget "$s_json" 'j["gm_identity"]')" = "$a_id" ] &&
	pass "S reports A ($a_id) as grandmaster" || fail "S: grandmaster is not A"
[ "$(jget "$s_json" 'j["servo_state"]')" = locked ] &&
	pass "S reports servo_state locked" || fail "S: servo not locked"
[ "$(jget "$s_json" 'j["clock_refusal"]')" = none ] &&
	pass "S reports clock_refusal none" ||
	fail "S: clock_refusal '$(jget "$s_json" 'j["clock_refusal"]')' while locked"
for k in clock_identity gm_identity offset_ns mean_path_delay_ns freq_ppb \
	servo_state clock_refusal ports gm_clock_class steps_removed \
	since_state_change_s; do
	jget "$s_json" "j[\"$k\"]" >/dev/null 2>&1 || fail "status --json lacks $k"
done
[ "$(jget "$s_json" 'sorted(j["ports"][0].keys())')" = \
  "['iface', 'port', 'since_state_change_s', 'state']" ] ||
	fail "ports[] fields: $(jget "$s_json" 'sorted(j["ports"][0].keys())')"

# Offset and delay against clockd's own lines: ptpctl's values must be one
# of the logged samples, or at least within the spread of the last ones.
off=$(jget "$s_json" 'j["offset_ns"]')
dly=$(jget "$s_json" 'j["mean_path_delay_ns"]')
grep 'master offset' "$sd/clockd.log" | grep -v spike | tail -20 >"$sd/last.txt"
awk -v o="$off" -v d="$dly" '
	{ for (i = 1; i <= NF; i++) { if ($i == "offset") x = $(i + 1);
	    if ($i == "delay") y = $(i + 1) }
	  if (n == 0 || x < omin) omin = x; if (n == 0 || x > omax) omax = x;
	  if (n == 0 || y < dmin) dmin = y; if (n == 0 || y > dmax) dmax = y;
	  if (x == o && y == d) exact = 1; n++ }
	END {
	  os = omax - omin; ds = dmax - dmin;
	  ok = exact || (o >= omin - os && o <= omax + os && d >= dmin - ds && d <= dmax + ds);
	  printf "%s: S offset %d ns, delay %d ns vs last %d log samples: offset %d..%d, delay %d..%d%s\n",
	    ok ? "PASS" : "FAIL", o, d, n, omin, omax, dmin, dmax,
	    exact ? " (the same sample as a log line)" : "";
	  exit !ok }' "$sd/last.txt" || itest_fails=$((itest_fails + 1))

# ---- 2. netd counters rise ---------------------------------------------------
sum_netd() {
	jget "$1" 'sum(p["rx_event"] + p["rx_general"] + p["tx_event"] + p["tx_general"] for p in j["ports"])'
}
n1=$("$CTL" -f "$sd/ptp.conf" netd --json) || fail "netd --json failed"
sleep 3
n2=$("$CTL" -f "$sd/ptp.conf" netd --json) || fail "netd --json failed"
c1=$(sum_netd "$n1"); c2=$(sum_netd "$n2")
rx1=$(jget "$n1" 'j["ports"][0]["rx_event"]'); rx2=$(jget "$n2" 'j["ports"][0]["rx_event"]')
if ((c2 > c1 && rx2 > rx1)); then
	pass "netd --json counters rise: frames $c1 -> $c2, rx_event $rx1 -> $rx2 in 3 s"
else
	fail "netd --json counters did not rise: $c1 -> $c2, rx_event $rx1 -> $rx2"
fi

# ---- 3. metrics parse as OpenMetrics -----------------------------------------
"$CTL" -f "$sd/ptp.conf" metrics >"$sd/metrics.txt"; rc=$?
[ $rc = 0 ] || fail "metrics: exit $rc"
"$PY" - "$sd/metrics.txt" <<'EOF' && pass "metrics parse as OpenMetrics" || fail "metrics do not parse as OpenMetrics"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
assert text.endswith("# EOF\n"), "no # EOF at the end"
fams = {f.name: f for f in text_string_to_metric_families(text)}
for name in ("ptpsep_up", "ptpsep_offset_nanoseconds",
             "ptpsep_mean_path_delay_nanoseconds", "ptpsep_frequency_ppb",
             "ptpsep_port_state", "ptpsep_netd_rx_frames"):
    assert name in fams, "no family " + name
assert all(n.startswith("ptpsep_") for n in fams), "a name without ptpsep_"
st = [s for s in fams["ptpsep_port_state"].samples]
assert st and st[0].labels["state"] == "SLAVE" and st[0].value == 9, st
assert fams["ptpsep_netd_rx_frames"].type == "counter"
cr = fams["ptpsep_clock_refusal"].samples
assert cr and cr[0].value == 0, cr	# none, while locked
print("INFO: %d metric families, %d samples" % (len(fams),
      sum(len(f.samples) for f in fams.values())))
EOF

# ---- 4. hostile control clients do not disturb synchronization ---------------
ver=$(sed -n 's/^#define IPC_PROTOCOL_VERSION[[:space:]]*\([0-9]*\)u.*/\1/p' "$here/../../lib/ipc.h")
before=$(wc -l <"$sd/clockd.log")
# For comparison: the samples between settling and the abuse.
sed -n "$((settled + 1)),${before}p" "$sd/clockd.log" | grep 'master offset' |
	grep -v spike | awk '{ for (i = 1; i <= NF; i++) if ($i == "offset") o = $(i + 1);
	  n++; a = o < 0 ? -o : o; if (a > mx) mx = a }
	END { printf "INFO: before the abuse: %d samples, max |offset| %d ns\n", n, mx }'
ip netns exec "$s" nice -n 19 "$PY" "$here/ctl_abuse.py" "$sd/clockd/ctl.sock" "$ABUSE_S" "${ver:-1}" &
ab1=$!
ip netns exec "$s" nice -n 19 "$PY" "$here/ctl_abuse.py" "$sd/netd-ctl.sock" "$ABUSE_S" "${ver:-1}" &
ab2=$!
wait $ab1; wait $ab2
sleep 2
kill -0 "$s_clockd_pid" 2>/dev/null && kill -0 "$s_netd_pid" 2>/dev/null &&
	pass "S's clockd and netd survived the abuse" || fail "a daemon of S died under abuse"
tail -n +"$((before + 1))" "$sd/clockd.log" | grep 'master offset' >"$sd/abuse.txt"
# What the abuse must not do is disturb the clock: every sample the servo
# used stays within OFFSET_MAX.  Offsets the servo kept out (a Sync whose
# software time stamp the kernel took late on this busy host: the abusers
# and two other test scripts share its two cores) are measurement, not
# clock, errors: shown, not bound (one run with the scripts three at a
# time saw a 399 us late Sync; one beside clockd_sync.sh's six pairs, 9
# late Syncs in 22), while at least 5 samples reach the servo.
awk -v max="$OFFSET_MAX" '
	{ for (i = 1; i <= NF; i++) if ($i == "offset") o = $(i + 1);
	  a = o < 0 ? -o : o }
	/spike, not used/ { sp++; if (a > spmx) spmx = a; next }
	{ if (a > mx) mx = a
	  st = ""; for (i = 1; i <= NF; i++) if ($i ~ /^s[0-9]$/) st = $i;
	  n++; if (st != "s2" && st != "s3") bad++ }
	END {
	  ok = n >= 5 && bad == 0 && mx < max;
	  printf "%s: under abuse S logged %d samples, %d not s2/s3, max |offset| %d ns (< %d); %d spike(s) not used (max %d ns)\n",
	    ok ? "PASS" : "FAIL", n, bad, mx, max, sp, spmx;
	  exit !ok }' "$sd/abuse.txt" || itest_fails=$((itest_fails + 1))
if tail -n +"$((before + 1))" "$sd/clockd.log" | grep >/dev/null 'stepping the clock'; then
	fail "S stepped its clock during the abuse"
fi
st=$("$CTL" -f "$sd/ptp.conf" --json status) &&
	[ "$(jget "$st" 'j["ports"][0]["state"]')" = SLAVE ] &&
	pass "after the abuse ptpctl still gets answers and S is SLAVE" ||
	fail "after the abuse: no answer or S not SLAVE"

# ---- 5. set priority1: refused for nobody, allowed for admins ---------------
out=$(runuser -u nobody -- "$CTL" -f "$ad/ptp.conf" set priority1 120 2>&1); rc=$?
p1=$(jget "$("$CTL" -f "$ad/ptp.conf" --json datasets default)" 'j["priority1"]')
if [ $rc = 4 ] && [ "$p1" = 100 ]; then
	pass "set from nobody exits 4 and priority1 stays 100 ($out)"
else
	fail "set from nobody: exit $rc, priority1 now $p1"
fi
sleep 3
[ "$(jget "$("$CTL" -f "$sd/ptp.conf" --json status)" 'j["gm_identity"]')" = "$a_id" ] &&
	pass "after the refused set S still follows A" || fail "S left A after a refused set"
if setpriv --reuid=nobody --regid=nogroup --groups="$(getent group "$ADMIN_GROUP" | cut -d: -f3)" \
	"$CTL" -f "$ad/ptp.conf" set priority1 100 >/dev/null; then
	pass "set from nobody with supplementary group $ADMIN_GROUP is allowed"
else
	fail "set from a member of $ADMIN_GROUP refused"
fi
"$CTL" -f "$ad/ptp.conf" set priority1 300 2>/dev/null; rc=$?
[ $rc = 2 ] && pass "set priority1 300 exits 2 (bad argument)" || fail "set priority1 300: exit $rc"
out=$("$CTL" -f "$ad/ptp.conf" --json set priority1 120); rc=$?
if [ $rc = 0 ] && [ "$(jget "$out" 'j["default_ds"]["priority1"]')" = 120 ]; then
	pass "root: set priority1 120 on A"
else
	fail "root: set priority1 120 on A: exit $rc, $out"
fi
t0=$SECONDS
while :; do
	gm=$(jget "$("$CTL" -f "$sd/ptp.conf" --json status)" 'j["gm_identity"]')
	[ "$gm" = "$b_id" ] && break
	if ((SECONDS - t0 > SWITCH_TIMEOUT)); then break; fi
	sleep 1
done
if [ "$gm" = "$b_id" ]; then
	pass "S chose B ($b_id) $((SECONDS - t0)) s after A's priority1 became 120"
else
	fail "S still follows $gm, not B ($b_id), ${SWITCH_TIMEOUT}s after the set"
fi

# ---- 6. every command against stopped daemons --------------------------------
kill "$s_clockd_pid" "$s_netd_pid"
wait "$s_clockd_pid" "$s_netd_pid" 2>/dev/null
for cmd in status ports datasets "datasets port 1" foreign netd \
	"set priority1 1" "watch -c 2" metrics; do
	# shellcheck disable=SC2086
	"$CTL" -f "$sd/ptp.conf" $cmd >/dev/null 2>"$sd/err.txt"; rc=$?
	lines=$(wc -l <"$sd/err.txt")
	sock="$sd/clockd/ctl.sock"
	[ "$cmd" = netd ] && sock="$sd/netd-ctl.sock"
	if [ $rc = 3 ] && [ "$lines" = 1 ] && grep -qF "$sock" "$sd/err.txt"; then
		pass "stopped: '$cmd' exits 3: $(cat "$sd/err.txt")"
	elif [ "$cmd" = metrics ] && [ $rc = 3 ] && [ "$lines" = 2 ] &&
		grep -qF "$sd/clockd/ctl.sock" "$sd/err.txt" && grep -qF "$sd/netd-ctl.sock" "$sd/err.txt"; then
		pass "stopped: 'metrics' exits 3, one line per socket"
	else
		fail "stopped: '$cmd' exit $rc, $lines line(s): $(cat "$sd/err.txt")"
	fi
done

echo "ptpctl: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
