#!/bin/bash
# units.sh - the systemd units as built: `systemd-analyze verify` is clean
# and `systemd-analyze security --offline=yes` rates ptp-clockd 1.5 or lower
# and ptp-netd 3.5 or lower (the plain units and a template instance).
# Needs no root; skipped (77) without systemd-analyze or --offline.
set -uo pipefail
: "${top_builddir:=.}"
b=$(cd "$top_builddir" && pwd)
CLOCKD_MAX=${CLOCKD_MAX:-1.5}
NETD_MAX=${NETD_MAX:-3.5}

command -v systemd-analyze >/dev/null ||
	{ echo "SKIP: no systemd-analyze (Debian: systemd)"; exit 77; }
systemd-analyze security --help 2>/dev/null | grep >/dev/null -- '--offline' ||
	{ echo "SKIP: systemd-analyze has no --offline (systemd < 250)"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

# The units point at the installed binaries; verify wants them to exist,
# so run it on copies that point at this build's.
for u in netd clockd; do
	for f in "ptp-$u.service" "ptp-$u@.service"; do
		[ -f "$b/etc/$f" ] || { echo "FAIL: $b/etc/$f not built"; exit 1; }
		out=${f/@/@demo}
		sed -e "s|^ExecStart=[^ ]*/ptp-$u |ExecStart=$b/$u/ptp-$u |" \
			"$b/etc/$f" >"$work/$out"
	done
done

cd "$work"
# --man=no: the pages are not installed here (Documentation= names them).
if msgs=$(systemd-analyze verify --man=no ./*.service 2>&1) && [ -z "$msgs" ]; then
	echo "PASS: systemd-analyze verify: no messages"
else
	echo "FAIL: systemd-analyze verify:"; echo "$msgs"
	fails=$((fails + 1))
fi

for f in ./*.service; do
	name=${f#./}
	case $name in
	ptp-clockd*) max=$CLOCKD_MAX ;;
	*) max=$NETD_MAX ;;
	esac
	line=$(systemd-analyze security --offline=yes --no-pager "$f" 2>&1 |
		grep 'Overall exposure level')
	score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$line")
	if [ -z "$score" ]; then
		echo "FAIL: $name: no exposure level in systemd-analyze's output"
		systemd-analyze security --offline=yes --no-pager "$f" 2>&1 | tail -5
		fails=$((fails + 1))
	elif awk -v s="$score" -v m="$max" 'BEGIN { exit !(s <= m) }'; then
		echo "PASS: $name: exposure $score <= $max"
	else
		echo "FAIL: $name: exposure $score > $max"
		systemd-analyze security --offline=yes --no-pager "$f" 2>&1 | grep '✗'
		fails=$((fails + 1))
	fi
done
echo "units: $fails failure(s)"
[ "$fails" = 0 ]
