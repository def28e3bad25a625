#!/usr/bin/env python3
"""mgmt_send.py - send hand-made PTP Management messages over L2 and report
what comes back (tests/integration/mgmt.sh runs it in the peer namespace).

  mgmt_send.py IFACE CLOCKID CASE    one case, prints NONE, RESPONSE N or
                                     ERROR CODE (MANAGEMENT_ERROR_STATUS)
  mgmt_send.py IFACE CLOCKID flood N N random malformed messages

CLOCKID (xxxxxx.xxxx.xxxxxx) is the clock whose answers count.  Frames go
to 01-1B-19-00-00-00 with EtherType 0x88F7 on an AF_PACKET socket; only
the namespace the test made is touched.
"""
import os
import random
import socket
import struct
import sys
import time

ETH_P_1588 = 0x88F7
DST = bytes.fromhex("011b19000000")
ME = bytes.fromhex("aabbccfffe000001")
MY_PORT = 9


def management(seq, action, tlv, target_port=0xFFFF, hops=0, msglen=None,
               domain=0):
    body = bytearray(48)
    body[0] = 0x0D
    body[1] = 0x02
    body[4] = domain
    body[20:28] = ME
    struct.pack_into(">HHBb", body, 28, MY_PORT, seq, 4, 0x7F)
    body[34:42] = b"\xff" * 8
    struct.pack_into(">HBBB", body, 42, target_port, hops, hops, action)
    msg = bytes(body) + tlv
    length = len(msg) if msglen is None else msglen
    return msg[:2] + struct.pack(">H", length) + msg[4:]


def mtlv(mid, data=b"", length=None):
    if len(data) % 2:
        data += b"\0"
    n = 2 + len(data) if length is None else length
    return struct.pack(">HHH", 1, n, mid) + data


CASES = {
    # name: (action, tlv, target_port, msglen)
    "get_current": (0, mtlv(0x2001), 0xFFFF, None),
    "get_port_all": (0, mtlv(0x2004), 0xFFFF, None),
    "unknown_id": (0, mtlv(0x1234), 0xFFFF, None),
    "unknown_np_id": (0, mtlv(0xC0FE), 0xFFFF, None),
    "bad_length": (0, mtlv(0x2001, b"\0" * 4), 0xFFFF, None),
    "set_getonly": (1, mtlv(0x2000, b"\0" * 20), 0xFFFF, None),
    "set_priority1": (1, mtlv(0x2005, b"\x05\0"), 0xFFFF, None),
    "command": (3, mtlv(0x0005), 0xFFFF, None),
    "no_such_port": (0, mtlv(0x2004), 9, None),
    "unserved": (0, mtlv(0x2008), 0xFFFF, None),
    # malformed: the codec refuses them, nothing is answered
    "truncated_tlv": (0, mtlv(0x2001, length=40), 0xFFFF, None),
    "odd_tlv": (0, struct.pack(">HHHB", 1, 3, 0x2001, 0), 0xFFFF, None),
    "short_tlv": (0, struct.pack(">HH", 1, 0), 0xFFFF, None),
    "no_tlv": (0, b"", 0xFFFF, None),
    "trailing": (0, mtlv(0x2001) + b"\0\0", 0xFFFF, None),
    "msglen_over": (0, mtlv(0x2001), 0xFFFF, 200),
    "bad_action": (7, mtlv(0x2001), 0xFFFF, None),
}


def open_sock(iface):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_1588))
    s.bind((iface, ETH_P_1588))
    src = s.getsockname()[4]
    return s, src


def send(s, src, payload):
    frame = DST + src + struct.pack(">H", ETH_P_1588) + payload
    if len(frame) < 60:
        frame += b"\0" * (60 - len(frame))
    s.send(frame)


def answers(s, clockid, seq, wait=1.5):
    """Management replies from clockid to us with this sequenceId."""
    out = []
    end = time.monotonic() + wait
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return out
        s.settimeout(left)
        try:
            frame = s.recv(2048)
        except socket.timeout:
            return out
        p = frame[14:]
        if len(p) < 52 or p[0] & 0x0F != 0x0D:
            continue
        if p[20:28] != clockid or p[34:42] != ME:
            continue
        if struct.unpack(">H", p[30:32])[0] != seq:
            continue
        ttype = struct.unpack(">H", p[48:50])[0]
        if ttype == 2:
            out.append(("ERROR", struct.unpack(">H", p[52:54])[0]))
        else:
            out.append(("RESPONSE", p[46] & 0x0F))


def main():
    iface, cid, case = sys.argv[1], sys.argv[2], sys.argv[3]
    clockid = bytes.fromhex(cid.replace(".", ""))
    s, src = open_sock(iface)
    if case == "flood":
        rnd = random.Random(1)
        n = int(sys.argv[4])
        for i in range(n):
            base = management(i & 0xFFFF, rnd.choice([0, 1, 3]),
                              mtlv(rnd.choice([0x2000, 0x2001, 0x2004,
                                               0x2005, 0xC000, 0x0001,
                                               rnd.randrange(65536)]),
                                   os.urandom(rnd.choice([0, 1, 2, 18, 50]))))
            b = bytearray(base)
            for _ in range(rnd.randrange(4)):
                b[rnd.randrange(34, len(b))] = rnd.randrange(256)
            if rnd.random() < 0.3:
                b = b[:rnd.randrange(34, len(b) + 1)]
            send(s, src, bytes(b))
            if i % 100 == 99:
                time.sleep(0.05)
        print("SENT", n)
        return
    action, tlv, port, msglen = CASES[case]
    seq = random.randrange(1, 65535)
    send(s, src, management(seq, action, tlv, port, msglen=msglen))
    got = answers(s, clockid, seq)
    if not got:
        print("NONE")
    elif got[0][0] == "ERROR":
        print("ERROR", got[0][1])
    else:
        print("RESPONSE", len(got))


if __name__ == "__main__":
    main()
