#!/usr/bin/env python3
"""hostile_peer.py - a hostile host on a PTP link (tests/integration/hostile.sh
runs it in the peer namespace it made; it touches nothing else).

  hostile_peer.py rogue IFACE l2|udp4 SECONDS
      A rogue grandmaster (Announce priority1 0, two-step Sync) whose
      Follow_Ups carry preciseOriginTimestamp 2^48-1 s, and a peer-delay
      responder that answers every Pdelay_Req with a Pdelay_Resp and a
      Pdelay_Resp_Follow_Up with t2 = t3 = 2^48-1 s (issue 11, item 3).
      Prints "ROGUE pdelay_req=N answered=N syncs=N".
  hostile_peer.py malformed IFACE l2|udp4 COUNT SEED
      COUNT malformed PTP messages of every messageType: random bytes,
      truncated headers and bodies, wrong versions, reserved types, bad
      messageLength, bad TLVs (overrun, odd, trailing, short, PTPText
      overrun), timestamps with nanoseconds >= 10^9 or 2^48-1 s, extreme
      correctionFields and log intervals.  Prints "SENT N".

L2 frames go to 01-1B-19-00-00-00 or 01-80-C2-00-00-0E with EtherType
0x88F7 (AF_PACKET); UDPv4 datagrams to 224.0.1.129 / 224.0.0.107, event
types to port 319 and general ones to 320 (now and then the wrong one).
"""
import random
import select
import socket
import struct
import sys
import time

ETH_P_1588 = 0x88F7
PRIMARY_MAC = bytes.fromhex("011b19000000")
PDELAY_MAC = bytes.fromhex("0180c200000e")
PRIMARY_IP = "224.0.1.129"
PDELAY_IP = "224.0.0.107"
ROGUE = bytes.fromhex("0266aafffe0000aa")
MAX48 = (1 << 48) - 1

# messageType: minimum messageLength (IEEE 1588-2019 13.5-13.12, 15.4.1)
MIN_LEN = {0x0: 44, 0x1: 44, 0x2: 54, 0x3: 54, 0x8: 44, 0x9: 54, 0xA: 54,
           0xB: 64, 0xC: 44, 0xD: 48}


def header(mtype, length, seq, flags=0, corr=0, src=ROGUE, port=1,
           interval=0, version=2, domain=0):
    control = {0x0: 0, 0x1: 1, 0x8: 2, 0x9: 3, 0xD: 4}.get(mtype, 5)
    return struct.pack(">BBHBBHq4s8sHHBb", mtype & 0xFF, version & 0xFF,
                       length & 0xFFFF, domain, 0, flags, corr, b"\0" * 4,
                       src, port, seq & 0xFFFF, control, interval)


def ts(sec, nsec):
    return struct.pack(">HIL", (sec >> 32) & 0xFFFF, sec & 0xFFFFFFFF,
                       nsec & 0xFFFFFFFF)


def msg(mtype, body, seq, **kw):
    return header(mtype, 34 + len(body), seq, **kw) + body


def announce(seq, prio1=0, interval=0, steps=0, tail=b""):
    body = (ts(0, 0) + struct.pack(">hBBBBHB8sHB", 37, 0, prio1, 6, 0x21,
                                   0x4E5D, 0, ROGUE, steps, 0x20) + tail)
    return msg(0xB, body, seq, flags=0x0008, interval=interval)


class Link:
    """Sends and receives PTP payloads on IFACE over L2 or UDPv4."""

    def __init__(self, iface, transport):
        self.transport = transport
        if transport == "l2":
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                              socket.htons(ETH_P_1588))
            s.bind((iface, ETH_P_1588))
            self.src = s.getsockname()[4]
            self.socks = [s]
            return
        self.socks = []
        for port in (319, 320):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE,
                         iface.encode())
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
            s.bind(("", port))
            for group in (PRIMARY_IP, PDELAY_IP):
                mreq = struct.pack("4s4si", socket.inet_aton(group),
                                   socket.inet_aton("0.0.0.0"),
                                   socket.if_nametoindex(iface))
                s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                             mreq)
            mreqn = struct.pack("4s4si", socket.inet_aton("0.0.0.0"),
                                socket.inet_aton("0.0.0.0"),
                                socket.if_nametoindex(iface))
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, mreqn)
            self.socks.append(s)

    def send(self, payload, pdelay=False, event=None):
        if event is None:
            event = len(payload) > 0 and (payload[0] & 0x08) == 0
        try:
            if self.transport == "l2":
                dst = PDELAY_MAC if pdelay else PRIMARY_MAC
                frame = dst + self.src + struct.pack(">H", ETH_P_1588)
                frame += payload
                if len(frame) < 60:
                    frame += b"\0" * (60 - len(frame))
                self.socks[0].send(frame)
            else:
                s = self.socks[0 if event else 1]
                s.sendto(payload, (PDELAY_IP if pdelay else PRIMARY_IP,
                                   319 if event else 320))
        except OSError:
            pass	# ENOBUFS under load: that frame is lost, go on

    def recv(self, timeout):
        r, _, _ = select.select(self.socks, [], [], timeout)
        if not r:
            return None
        d = r[0].recv(2048)
        return d[14:] if self.transport == "l2" else d


def rogue(link, seconds):
    end = time.monotonic() + seconds
    nxt = 0.0
    seq = 0
    reqs = answered = 0
    while time.monotonic() < end:
        now = time.monotonic()
        if now >= nxt:
            nxt = now + 0.25
            seq += 1
            link.send(announce(seq))
            link.send(msg(0x0, ts(0, 0), seq, flags=0x0200))
            link.send(msg(0x8, ts(MAX48, 0), seq))
        p = link.recv(max(0.0, min(nxt, end) - time.monotonic()))
        if p is None or len(p) < 44 or p[0] & 0x0F != 0x2:
            continue
        if p[20:28] == ROGUE:
            continue
        reqs += 1
        rseq = struct.unpack(">H", p[30:32])[0]
        req_port = p[20:30]
        corr = struct.unpack(">q", p[8:16])[0]
        link.send(msg(0x3, ts(MAX48, 0) + req_port, rseq, flags=0x0200),
                  pdelay=True)
        link.send(msg(0xA, ts(MAX48, 0) + req_port, rseq, corr=corr),
                  pdelay=True)
        answered += 1
    print("ROGUE pdelay_req=%d answered=%d syncs=%d" % (reqs, answered, seq))


def tlv(ttype, data, length=None):
    n = len(data) if length is None else length
    return struct.pack(">HH", ttype, n & 0xFFFF) + data


def bad_tlvs(r):
    """A TLV suffix that is wrong in one way or another."""
    k = r.randrange(8)
    if k == 0:
        return tlv(r.choice([1, 3, 8, 0x2000, 0x8001]), b"\0" * 4,
                   r.choice([5, 200, 0xFFFF]))	# overruns
    if k == 1:
        return tlv(1, b"\0" * 3)		# odd length
    if k == 2:
        return tlv(8, b"\0" * 2) + bytes(r.randrange(1, 4))	# trailing
    if k == 3:
        return tlv(1, b"")			# management TLV without id
    if k == 4:
        # USER_DESCRIPTION whose PTPText claims more than it has
        return tlv(1, struct.pack(">HB", 0x0002, 200) + b"x" * 7)
    if k == 5:
        return tlv(2, struct.pack(">HH", 0xFFFF, 0x2001))	# short error
    if k == 6:
        return tlv(r.randrange(65536), bytes(r.randrange(0, 40, 2)))
    return bytes(r.randrange(256) for _ in range(r.randrange(1, 30)))


def malformed(r, i):
    mtype = r.choice(list(MIN_LEN))
    seq = i & 0xFFFF
    src = bytes(r.randrange(256) for _ in range(8))
    k = i % 10
    if k == 0:		# random bytes
        return bytes(r.randrange(256) for _ in range(r.randrange(0, 120)))
    body = bytes(r.randrange(256) for _ in range(MIN_LEN[mtype] - 34 + 16))
    full = msg(mtype, body[:MIN_LEN[mtype] - 34], seq, src=src)
    if k == 1:		# truncated header or body, length consistent
        n = r.randrange(0, MIN_LEN[mtype])
        return (full[:2] + struct.pack(">H", n) + full[4:])[:n]
    if k == 2:		# a version other than 2
        v = r.choice([0, 1, 3, 0x12, 0xF])
        return full[:1] + bytes([v]) + full[2:]
    if k == 3:		# reserved messageType
        return bytes([r.choice([4, 5, 6, 7, 0xE, 0xF])]) + full[1:]
    if k == 4:		# messageLength that lies
        n = r.choice([0, 1, 33, MIN_LEN[mtype] - 1, len(full) + 1,
                      0xFFFF])
        return full[:2] + struct.pack(">H", n) + full[4:]
    if k == 5:		# bad TLVs after a correct body
        b = full + bad_tlvs(r)
        return b[:2] + struct.pack(">H", len(b)) + b[4:]
    if k == 6:		# time stamps out of range
        t = r.choice([ts(0, 1000000000), ts(MAX48, 999999999),
                      ts(MAX48, 0xFFFFFFFF), ts(0x7FFFFFFFFFFF, 0)])
        b = bytearray(full)
        b[34:44] = t
        return bytes(b)
    if k == 7:		# extreme correctionField, twoStep flags, intervals
        b = bytearray(full)
        b[8:16] = struct.pack(">q", r.choice([-(1 << 63), (1 << 63) - 1,
                                              -1, 1 << 62]))
        b[6:8] = struct.pack(">H", r.choice([0x0200, 0xFFFF, 0]))
        b[33] = r.choice([0x80, 0x7F, 0x7E, 0xE0])
        return bytes(b)
    if k == 8:		# Announce with hostile fields
        return announce(seq, prio1=r.randrange(256),
                        interval=r.choice([-128, -30, 31, 127]),
                        steps=r.choice([0, 254, 255, 0xFFFF]),
                        tail=bad_tlvs(r) if r.random() < 0.5 else b"")
    # Management with random ids, actions and data
    mb = (b"\xff" * 8 + struct.pack(">HBBBB", 0xFFFF, 0, 0,
                                     r.choice([0, 1, 3, 7, 0xF]), 0))
    t = tlv(r.choice([1, 2]), struct.pack(">H", r.choice(
        [0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x0001, 0xC000,
         r.randrange(65536)])) + bytes(r.randrange(0, 30)))
    return msg(0xD, mb + t, seq, src=src)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cmd, iface, transport = sys.argv[1:4]
    link = Link(iface, transport)
    if cmd == "rogue":
        rogue(link, float(sys.argv[4]))
        return
    if cmd != "malformed":
        sys.exit(__doc__)
    count, seed = int(sys.argv[4]), int(sys.argv[5])
    r = random.Random(seed)
    for i in range(count):
        p = malformed(r, i)
        event = r.random() < 0.1 and not (len(p) and p[0] & 0x08 == 0)
        link.send(p, pdelay=r.random() < 0.3,
                  event=event if event else None)
        if i % 50 == 49:
            time.sleep(0.01)	# let netd and clockd read, not only drop
    print("SENT", count)


if __name__ == "__main__":
    main()
