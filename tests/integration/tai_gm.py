#!/usr/bin/env python3
"""tai_gm.py - a grandmaster on the PTP timescale, as any ptp4l on a PHC or
any commercial grandmaster is (tests/integration/rogue_gm.sh runs it in a
namespace it made; it touches nothing else).

  tai_gm.py IFACE SECONDS

Over L2 (01-1B-19-00-00-00, EtherType 0x88F7, AF_PACKET), once a second:
an Announce with priority1 0, ptpTimescale, currentUtcOffsetValid and
timeTraceable set and currentUtcOffset 37 (IEEE 1588-2019 7.2.4, 8.2.4), a
two-step Sync and its Follow_Up whose preciseOriginTimestamp is TAI: the
system clock (UTC) + 37 s, read right after the Sync left.  Every Delay_Req
is answered with a Delay_Resp carrying the TAI time it was read at.  Time
stamps are taken in user space: good to some tens of microseconds, enough
to tell 37 s.  Prints "TAI_GM syncs=N delay_resps=N".
"""
import select
import socket
import struct
import sys
import time

ETH_P_1588 = 0x88F7
PRIMARY_MAC = bytes.fromhex("011b19000000")
ME = bytes.fromhex("0266aafffe00007a")
UTC_OFFSET = 37
# timePropertiesDS flags (octet 1 of flagField): ptpTimescale,
# currentUtcOffsetValid, timeTraceable
FLAGS = 0x0008 | 0x0004 | 0x0010
TWO_STEP = 0x0200


def header(mtype, length, seq, flags=0, corr=0, interval=0):
    control = {0x0: 0, 0x1: 1, 0x8: 2, 0x9: 3}.get(mtype, 5)
    return struct.pack(">BBHBBHq4s8sHHBb", mtype, 2, length, 0, 0, flags,
                       corr, b"\0" * 4, ME, 1, seq & 0xFFFF, control,
                       interval)


def ts(ns):
    sec, nsec = divmod(ns, 1000000000)
    return struct.pack(">HIL", (sec >> 32) & 0xFFFF, sec & 0xFFFFFFFF, nsec)


def msg(mtype, body, seq, **kw):
    return header(mtype, 34 + len(body), seq, **kw) + body


def tai_ns():
    return time.time_ns() + UTC_OFFSET * 1000000000


def announce(seq):
    body = ts(0) + struct.pack(">hBBBBHB8sHB", UTC_OFFSET, 0, 0, 6, 0x21,
                               0x4E5D, 0, ME, 0, 0x20)
    return msg(0xB, body, seq, flags=FLAGS)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tai_gm.py IFACE SECONDS")
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_1588))
    s.bind((sys.argv[1], ETH_P_1588))
    src = s.getsockname()[4]
    end = time.monotonic() + float(sys.argv[2])
    nxt = 0.0
    seq = resps = 0

    def send(payload):
        frame = PRIMARY_MAC + src + struct.pack(">H", ETH_P_1588) + payload
        try:
            s.send(frame + b"\0" * max(0, 60 - len(frame)))
        except OSError:
            pass

    while time.monotonic() < end:
        now = time.monotonic()
        if now >= nxt:
            nxt = now + 1.0
            seq += 1
            send(announce(seq))
            send(msg(0x0, ts(0), seq, flags=TWO_STEP))
            t1 = tai_ns()
            send(msg(0x8, ts(t1), seq, flags=FLAGS))
        r, _, _ = select.select([s], [], [], max(0.0, min(nxt, end) -
                                                time.monotonic()))
        if not r:
            continue
        d = s.recv(2048)
        t4 = tai_ns()
        p = d[14:]
        if len(p) < 44 or p[0] & 0x0F != 0x1 or p[20:28] == ME:
            continue
        rseq = struct.unpack(">H", p[30:32])[0]
        corr = struct.unpack(">q", p[8:16])[0]
        send(msg(0x9, ts(t4) + p[20:30], rseq, corr=corr, flags=FLAGS))
        resps += 1
    print("TAI_GM syncs=%d delay_resps=%d" % (seq, resps))


if __name__ == "__main__":
    main()
