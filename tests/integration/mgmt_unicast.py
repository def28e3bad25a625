#!/usr/bin/env python3
"""mgmt_unicast.py - one Management GET to a PTP port over UDPv4, and where
its answer arrives (tests/integration/mgmt_unicast.sh runs it in the peer
namespace).

  mgmt_unicast.py MY_ADDR DEST unicast|multicast

Sends GET DEFAULT_DATA_SET from MY_ADDR:320 to DEST:320 (unicast: the
unicastFlag set, 13.3.2.8) or to 224.0.1.129:320 (multicast), and listens
3 s on two sockets: one bound to MY_ADDR:320 (unicast only) and one bound
to 224.0.1.129:320 (multicast only).  Prints one line per answer to our
sequenceId: "RESPONSE unicast|multicast FLAG=0|1 ID=0x2000", or NONE.
"""
import select
import socket
import struct
import sys
import time

PRIMARY = "224.0.1.129"
GENERAL = 320
ME = bytes.fromhex("aabbccfffe000002")
MY_PORT = 7
SEQ = 0x4242


def get_default_ds(unicast):
    # 13.3 common header (34 octets) then 15.4 management fields (14):
    # targetPortIdentity (all ones: every clock and port), startingBoundary
    # Hops, boundaryHops, actionField GET (0), reserved; then one
    # MANAGEMENT TLV (15.5.2: tlvType 1, lengthField 2, managementId
    # DEFAULT_DATA_SET 0x2000, no data for a GET).
    tlv = struct.pack(">HHH", 0x0001, 2, 0x2000)
    hdr = bytearray(48)
    hdr[0] = 0x0D                      # majorSdoId 0, messageType Management
    hdr[1] = 0x02                      # versionPTP 2
    struct.pack_into(">H", hdr, 2, 48 + len(tlv))
    hdr[4] = 0                         # domainNumber
    hdr[6] = 0x04 if unicast else 0    # flagField[0] bit 2: unicastFlag
    hdr[20:28] = ME
    struct.pack_into(">HHBb", hdr, 28, MY_PORT, SEQ, 0x04, 0x7F)
    hdr[34:44] = b"\xff" * 10          # targetPortIdentity
    hdr[44] = 1                        # startingBoundaryHops
    hdr[45] = 1                        # boundaryHops
    hdr[46] = 0                        # actionField: GET
    return bytes(hdr) + tlv


def main():
    me, dest, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    uc = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    uc.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    uc.bind((me, GENERAL))
    mc = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    mc.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    mc.bind((PRIMARY, GENERAL))
    mc.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                  socket.inet_aton(PRIMARY) + socket.inet_aton(me))
    uc.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                  socket.inet_aton(me))
    uc.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
    msg = get_default_ds(mode == "unicast")
    uc.sendto(msg, (dest if mode == "unicast" else PRIMARY, GENERAL))
    names = {uc: "unicast", mc: "multicast"}
    seen = 0
    end = time.monotonic() + 3
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        r, _, _ = select.select([uc, mc], [], [], left)
        for s in r:
            b, _ = s.recvfrom(2048)
            # A Management answer to us: messageType 0xD, our sequenceId,
            # actionField RESPONSE (2), a MANAGEMENT TLV.
            if (len(b) < 54 or b[0] & 0x0F != 0x0D or b[20:28] == ME or
                    struct.unpack_from(">H", b, 30)[0] != SEQ or
                    b[46] & 0x0F != 2):
                continue
            tlv_type, _, mid = struct.unpack_from(">HHH", b, 48)
            print("RESPONSE %s FLAG=%d ID=0x%04x" % (
                names[s], 1 if b[6] & 0x04 else 0,
                mid if tlv_type == 1 else 0))
            seen += 1
    if not seen:
        print("NONE")


main()
