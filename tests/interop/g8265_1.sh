#!/bin/bash
# g8265_1.sh - ITU-T G.8265.1 (telecom profile for frequency
# synchronization: UDPv4 unicast with negotiation, hybrid E2E) against
# linuxptp, every node running Debian's own G.8265.1.cfg: g8275_2.sh's gm
# (our grandmaster -> ptp4l client) and sl (ptp4l grandmaster -> our
# client) cases with that file, domain 4.
#
# What G.8265.1 changes in ptp4l 3.1.1 is only what its file says: unicast
# negotiation, hybrid_e2e, inhibit_multicast_service (and, from linuxptp
# 4.0, domainNumber 4).  ptp4l has no frequency-only servo, no G.8265.1
# master selection (it runs the default BMCA) and no QL/clockClass
# mapping; a ptp4l client steers phase and frequency as in any profile,
# and so does ours.
#
#   BUILD=build/default tests/interop/g8265_1.sh [gm|sl]...
here=$(cd "$(dirname "$0")" && pwd)
UPROF=G.8265.1 exec bash "$here/g8275_2.sh" "$@"
