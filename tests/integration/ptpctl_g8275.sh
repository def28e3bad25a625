#!/bin/bash
# ptpctl_g8275.sh - `ptpctl status` shows the G.8275.x alternate BMCA's
# settings (G.8275.1/G.8275.2 6.3: G.8275.defaultDS.localPriority,
# G.8275.portDS.localPriority, and maxStepsRemoved) when that comparison is
# in use, and nothing of them otherwise.  Two nodes over L2 in two
# namespaces:
#   A: dataset_comparison G.8275.x, G.8275.defaultDS.localPriority 90,
#      maxStepsRemoved 20, and in [eth0] G.8275.portDS.localPriority 77:
#      `ptpctl --json status` has local_priority 90 and its port
#      local_priority 77, max_steps_removed 20; the text output shows them;
#   B: the default (IEEE 1588 comparison): no local_priority nor
#      max_steps_removed anywhere in the JSON, no such line in the text.
#
#   BUILD=build/default bash tests/integration/ptpctl_g8275.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
CTL=$BUILD/ctl/ptpctl

tag="pg$$"
A="${tag}a"; B="${tag}b"
itest_pair "$A" "$B" || exit 1
itest_tmpdir da
itest_tmpdir db
itest_conf "$da/ptp.conf" "$da" network_transport L2 \
	dataset_comparison G.8275.x G.8275.defaultDS.localPriority 90 \
	maxStepsRemoved 20
# itest_conf ends with the [eth0] section: a port key goes there.
echo "G.8275.portDS.localPriority 77" >>"$da/ptp.conf"
itest_conf "$db/ptp.conf" "$db" network_transport L2
itest_daemons "$A" "$da" "$da/ptp.conf" || exit 1
itest_daemons "$B" "$db" "$db/ptp.conf" || exit 1
itest_wait_file "$da/clockd/ctl.sock" 10 || { fail "clockd A did not start"; exit 1; }
itest_wait_file "$db/clockd/ctl.sock" 10 || { fail "clockd B did not start"; exit 1; }
sleep 1

ja=$(ip netns exec "$A" "$CTL" -f "$da/ptp.conf" --json status)
jb=$(ip netns exec "$B" "$CTL" -f "$db/ptp.conf" --json status)
ta=$(ip netns exec "$A" "$CTL" -f "$da/ptp.conf" status)
tb=$(ip netns exec "$B" "$CTL" -f "$db/ptp.conf" status)
python3 - "$ja" "$jb" <<'PYEOF'
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
fails = 0
def check(what, ok, detail):
    global fails
    print(("PASS" if ok else "FAIL") + ": %s (%s)" % (what, detail))
    fails += 0 if ok else 1
pa = a["ports"][0]
check("G.8275.x: clock local_priority 90", a.get("local_priority") == 90,
      a.get("local_priority"))
check("G.8275.x: port local_priority 77, max_steps_removed 20",
      pa.get("local_priority") == 77 and pa.get("max_steps_removed") == 20,
      pa)
keys = set(b) | set(k for p in b["ports"] for k in p)
check("IEEE 1588: no local_priority, no max_steps_removed",
      not keys & {"local_priority", "max_steps_removed"}, sorted(keys))
sys.exit(1 if fails else 0)
PYEOF
[ $? = 0 ] || itest_fails=$((itest_fails + 1))
if grep -Eq '^local priority +90$' <<<"$ta" &&
	grep -q 'localPriority 77, maxStepsRemoved 20' <<<"$ta"; then
	pass "G.8275.x: the text shows local priority 90 and the port's 77, 20"
else
	fail "G.8275.x: text: $ta"
fi
if grep -Eqi 'local ?priority' <<<"$tb"; then
	fail "IEEE 1588: the text shows a localPriority: $tb"
else
	pass "IEEE 1588: no localPriority in the text"
fi
echo "ptpctl_g8275: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
