#!/bin/bash
# nlmon.sh - netd's rtnetlink link monitor against the kernel (root).
#
# In a network namespace of its own (nlm-*) with a veth pair, nlmon_test
# watches nlm-v0 go up, down, change MAC, be deleted and be re-created, and
# checks the events' order and ifindexes.  Nothing outside the namespace is
# touched; the namespace is removed on exit, also on failure.
set -euo pipefail

BUILD=${BUILD:?BUILD must name the build directory}
prog="$BUILD/tests/integration/nlmon_test"
ns="nlm-$$"

[ "$(id -u)" = 0 ] || { echo "nlmon.sh: needs root"; exit 77; }
[ -x "$prog" ] || { echo "nlmon.sh: $prog not built"; exit 1; }

cleanup() { ip netns del "$ns" 2>/dev/null || true; }
trap cleanup EXIT

ip netns add "$ns"
ip -n "$ns" link add nlm-v0 type veth peer name nlm-v1
ip netns exec "$ns" "$prog"
echo "nlmon.sh: PASS"
