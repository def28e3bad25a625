#!/bin/bash
# man_keys.sh - ptpsep.conf(5) lists every key of the table in
# lib/cfg_keys.c (read here from the source, independently of
# doc/gen-keys), and the three pages format without groff warnings.
set -uo pipefail
: "${top_srcdir:=.}" "${top_builddir:=.}"
page=$top_builddir/doc/ptpsep.conf.5
fails=0

[ -f "$page" ] || { echo "FAIL: $page not built"; exit 1; }
keys=$(sed -n '/^static const struct cfg_key keys\[\] = {/,/^};/p' \
	"$top_srcdir/lib/cfg_keys.c" |
	grep -oE '^[[:space:]]*(ITEM_[A-Z0-9]+|[GPO]_[A-Z0-9]+)\("[^"]+"' |
	sed 's/.*("//; s/"$//')
n=$(grep -c . <<<"$keys")
if [ "$n" -lt 100 ]; then
	echo "FAIL: read only $n keys from lib/cfg_keys.c"; exit 1
fi
missing=0
while read -r k; do
	grep -qxF ".B $(sed 's/-/\\-/g' <<<"$k")" "$page" || {
		echo "FAIL: key $k missing from ptpsep.conf.5"; missing=$((missing + 1)); }
done <<<"$keys"
[ "$missing" = 0 ] && echo "PASS: ptpsep.conf.5 lists all $n keys" ||
	fails=$((fails + 1))
listed=$(sed -n '/^\.SH KEYS/,/^\.SH FILES/p' "$page" | grep -c '^\.TP')
if [ "$listed" = "$n" ]; then
	echo "PASS: $listed entries, one per key"
else
	echo "FAIL: $listed entries for $n keys"; fails=$((fails + 1))
fi

if command -v groff >/dev/null; then
	for p in "$page" "$top_srcdir/doc/ptp-netd.8" "$top_srcdir/doc/ptp-clockd.8"; do
		w=$(LC_ALL=C groff -man -ww -z -Tutf8 "$p" 2>&1)
		if [ -z "$w" ]; then
			echo "PASS: ${p##*/} formats cleanly"
		else
			echo "FAIL: ${p##*/}: $w"; fails=$((fails + 1))
		fi
	done
fi
[ "$fails" = 0 ]
