#!/bin/bash
# man_keys.sh - ptpsep.conf(5) lists every key of the table in
# lib/cfg_keys.c (read here from the source, independently of
# doc/gen-keys), etc/README.md files each key under the status the table
# gives it, and the three pages format without groff warnings.
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
# The KEYS section ends at the next .SH, whatever it is.
listed=$(awk '/^\.SH /{in_keys = ($2 == "KEYS")} in_keys' "$page" | grep -c '^\.TP')
if [ "$listed" = "$n" ]; then
	echo "PASS: $listed entries, one per key"
else
	echo "FAIL: $listed entries for $n keys"; fails=$((fails + 1))
fi

# etc/README.md files every key under the status the table gives it: an
# implemented ptp4l key in "ptp4l keys ptpsep implements", an unimplemented
# one under "... does not implement" (or the 4.x list), an own key in
# "ptpsep's own keys".  The status comes from doc/gen-keys --status.
readme=$top_srcdir/etc/README.md
status=$("$top_builddir/doc/gen-keys" --status) ||
	{ echo "FAIL: doc/gen-keys --status"; exit 1; }
# section_keys TITLE: the keys of the table under the heading TITLE.
section_keys() {
	awk -v t="$1" '/^#/ { on = ($0 == t); next }
		on && /^\| `/ { split($0, f, "`"); print f[2] }' "$readme"
}
own=$(sed -n '/^static const struct cfg_key keys\[\] = {/,/^};/p' \
	"$top_srcdir/lib/cfg_keys.c" | grep -oE '^[[:space:]]*O_[A-Z0-9]+\("[^"]+"' |
	sed 's/.*("//; s/"$//')
r_own=$(section_keys "## ptpsep's own keys")
r_impl=$(section_keys "## ptp4l keys ptpsep implements")
r_unimpl=$( (section_keys "## ptp4l keys ptpsep knows but does not implement (warning)"
	section_keys "### Keys added by linuxptp 4.x (warning)") )
wrong=0
while read -r k st; do
	if grep -qxF "$k" <<<"$own"; then
		where=$r_own; label="ptpsep's own keys"
	elif [ "$st" = implemented ]; then
		where=$r_impl; label="keys ptpsep implements"
	else
		where=$r_unimpl; label="keys ptpsep does not implement"
	fi
	if ! grep -qxF "$k" <<<"$where"; then
		echo "FAIL: etc/README.md: $k ($st) is not under $label"
		wrong=$((wrong + 1))
	fi
done <<<"$status"
all=$(printf '%s\n%s\n%s\n' "$r_own" "$r_impl" "$r_unimpl" | grep -c .)
if [ "$wrong" = 0 ] && [ "$all" = "$(grep -c . <<<"$status")" ]; then
	echo "PASS: etc/README.md files all $all keys under their status"
else
	echo "FAIL: etc/README.md: $wrong keys misfiled, $all rows for $(grep -c . <<<"$status") keys"
	fails=$((fails + 1))
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
