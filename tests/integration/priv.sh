#!/bin/bash
# priv.sh - netd's privilege drop (netd/priv.c) against the kernel (root).
#
# priv_test forks one child per combination of kept capabilities; each
# child unshares its own network namespace (so its test sockets touch
# nothing), drops to ptpsep-netd and checks /proc/self/status and what the
# kept capabilities allow.  check.sh creates the user.
set -euo pipefail

BUILD=${BUILD:?BUILD must name the build directory}
prog="$BUILD/tests/integration/priv_test"

[ "$(id -u)" = 0 ] || { echo "priv.sh: needs root"; exit 77; }
[ -x "$prog" ] || { echo "priv.sh: $prog not built"; exit 1; }
id -u ptpsep-netd >/dev/null 2>&1 ||
	{ echo "priv.sh: user ptpsep-netd missing (check.sh creates it)"; exit 1; }

"$prog" ptpsep-netd
echo "priv.sh: PASS"
