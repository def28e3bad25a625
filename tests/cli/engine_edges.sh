#!/bin/bash
# engine_edges.sh - clockd's engine sees neither the channel's wire types
# nor libevent (doc/design.md; issue 13): every clockd/*.c but the daemon's
# edges is compiled with -H and must include no protobuf-c header (*.pb-c.h,
# protobuf-c/) and no libevent header (event2/).  The edges are the files
# that translate between the channel and the engine or run the daemon's own
# sockets: netd_client.c, env_event.c, ctlsrv.c, pmcsock.c, sandbox.c,
# main.c.  A new engine file is checked without being listed here.
# Needs no root.
set -uo pipefail
: "${top_srcdir:=.}" "${top_builddir:=.}"
CC=${CC:-cc}
EDGES=" netd_client.c env_event.c ctlsrv.c pmcsock.c sandbox.c main.c "
fails=0
n=0

for src in "$top_srcdir"/clockd/*.c; do
	f=${src##*/}
	case "$EDGES" in *" $f "*) continue ;; esac
	n=$((n + 1))
	# -H lists every header opened, one per line, on stderr.
	if ! hdrs=$("$CC" -fsyntax-only -H -DHAVE_CONFIG_H \
	    -I"$top_builddir" -I"$top_builddir/lib" -I"$top_builddir/proto" \
	    -I"$top_srcdir" -I"$top_srcdir/lib" -I"$top_srcdir/clockd" \
	    "$src" 2>&1); then
		echo "FAIL: clockd/$f does not compile on its own:"
		echo "$hdrs" | grep -v '^\.' | head -5
		fails=$((fails + 1))
		continue
	fi
	bad=$(echo "$hdrs" | grep -E '^\.+ .*(\.pb-c\.h|protobuf-c/|event2/)' |
	    sed 's/^\.* //' | sort -u)
	if [ -n "$bad" ]; then
		echo "FAIL: clockd/$f includes $(echo $bad)"
		fails=$((fails + 1))
	fi
done
if [ "$n" -lt 10 ]; then
	echo "FAIL: only $n engine files found under $top_srcdir/clockd"
	exit 1
fi
[ "$fails" -eq 0 ] && echo "PASS: $n engine files of clockd/ include no protobuf-c and no libevent header"
exit $((fails > 0))
