#!/bin/sh
# Replays each fuzz target's seed corpus (tests/fuzz/corpus/NAME) through the
# target built with replay_main.c.  A crash or sanitizer report fails the test.
set -u
rc=0
for t in $FUZZ_TARGETS; do
	name=${t##*/fuzz_}
	dir="$top_srcdir/tests/fuzz/corpus/$name"
	if [ ! -d "$dir" ]; then
		echo "FAIL: $t: no seed corpus at $dir"
		rc=1
		continue
	fi
	if "$top_builddir/$t" "$dir"; then
		echo "PASS: $t"
	else
		echo "FAIL: $t"
		rc=1
	fi
done
exit $rc
