#!/bin/bash
# mgmt_unicast.sh - a Management request that came unicast is answered
# unicast to its sender (IEEE 1588-2019 16.1; RFC 9760 section 12, the
# Enterprise Profile), one that came multicast is answered multicast (as
# ptp4l).  ptp-netd and ptp-clockd over UDPv4 in namespace A (10.201.0.1,
# alone: master of its domain); the test client tests/integration/
# mgmt_unicast.py in namespace B (10.201.0.2) listens on two sockets, one
# bound to its own address (unicast only), one to 224.0.1.129 (multicast
# only), and sends GET DEFAULT_DATA_SET:
#   1. unicast to 10.201.0.1:320 with the unicastFlag: exactly one
#      RESPONSE DEFAULT_DATA_SET, on the unicast socket, with the
#      unicastFlag set, none on the multicast one;
#   2. multicast to 224.0.1.129:320: the answer on the multicast socket,
#      without the unicastFlag, none on the unicast one.
# The sender talked first, so netd's per-peer rule (unicast only to a peer
# heard) allows the answer.
#
#   BUILD=build/default bash tests/integration/mgmt_unicast.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

tag="mu$$"
A="${tag}a"; B="${tag}b"
itest_pair "$A" "$B" || exit 1
itest_tmpdir dir
itest_conf "$dir/ptp.conf" "$dir" network_transport UDPv4
itest_daemons "$A" "$dir" "$dir/ptp.conf" || exit 1
# Master once its Announce receipt timeout has passed with nobody heard.
if ! itest_wait_log "$dir/clockd.log" 'MASTER' 30; then
	fail "clockd did not become master"; tail -20 "$dir/clockd.log"; exit 1
fi

# ask MODE WANT: the client's answer lines must be exactly WANT.
ask() {
	local out
	out=$(ip netns exec "$B" python3 "$here/mgmt_unicast.py" 10.201.0.2 \
		10.201.0.1 "$1" 2>&1)
	if [ "$out" = "$2" ]; then
		pass "$1 GET DEFAULT_DATA_SET: $out"
	else
		fail "$1 GET DEFAULT_DATA_SET: got '$out', want '$2'"
	fi
}
ask unicast "RESPONSE unicast FLAG=1 ID=0x2000"
ask multicast "RESPONSE multicast FLAG=0 ID=0x2000"

if grep -q 'has not heard' "$dir/netd.log"; then
	fail "netd refused a unicast answer"; grep 'has not heard' "$dir/netd.log"
fi
echo "mgmt_unicast: $itest_fails failure(s)"
[ "$itest_fails" = 0 ]
