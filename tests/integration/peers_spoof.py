#!/usr/bin/env python3
"""peers_spoof.py - a host on a PTP link that spoofs many sources, and a
counter of the PTP frames that reach it (tests/integration/peers.sh runs
it in the peer namespace it made; it touches nothing else).

  peers_spoof.py l2 IFACE COUNT SEED
      COUNT Announce messages to 01-1B-19-00-00-00, EtherType 0x88F7,
      each from another random unicast source MAC.  Prints "SENT N".
  peers_spoof.py udp4 IFACE COUNT SEED PREFIX
      COUNT Announce messages in UDP/IPv4 to 224.0.1.129:320, each from
      another source address PREFIX.X.Y (PREFIX: two octets, an on-link
      /16 of the receiver, so that its reverse-path filter takes them),
      built whole and sent on a packet socket.  Prints "SENT N".
  peers_spoof.py count IFACE SECONDS
      Counts the PTP frames (L2 0x88F7, or UDP to 319/320 over IPv4)
      addressed to IFACE's own MAC, and the L2 ones to 01-1B-19-00-00-00,
      for SECONDS.  Prints "READY" when listening, then
      "COUNT l2=N udp4=M l2mcast=K".
"""
import random
import socket
import struct
import sys
import time

ETH_P_1588 = 0x88F7
PRIMARY_MAC = bytes.fromhex("011b19000000")
PRIMARY_V4_MAC = bytes.fromhex("01005e000181")	# 224.0.1.129


def announce(seq, src):
    body = struct.pack(">HIL", 0, 0, 0) + struct.pack(
        ">hBBBBHB8sHB", 37, 0, 200, 248, 0xFE, 0xFFFF, 200, src, 0, 0xA0)
    hdr = struct.pack(">BBHBBHq4s8sHHBb", 0xB, 2, 34 + len(body), 0, 0, 0,
                      0, b"\0" * 4, src, 1, seq & 0xFFFF, 5, 1)
    return hdr + body


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4_udp(src, dst, dport, payload):
    udp = struct.pack(">HHHH", dport, dport, 8 + len(payload), 0) + payload
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 1,
                     17, 0, src, dst)
    ip = ip[:10] + struct.pack(">H", csum(ip)) + ip[12:]
    return ip + udp


def send(kind, iface, count, seed, prefix=None):
    r = random.Random(seed)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    own = s.getsockname()[4][:6]
    seen = set()
    n = 0
    while n < count:
        if kind == "l2":
            mac = bytes([r.randrange(256) & 0xFE | 0x02]) + \
                r.randbytes(5)
            if mac in seen:
                continue
            seen.add(mac)
            src = mac[:3] + b"\xff\xfe" + mac[3:]
            frame = PRIMARY_MAC + mac + struct.pack(">H", ETH_P_1588) + \
                announce(n, src)
        else:
            x, y = r.randrange(1, 255), r.randrange(1, 255)
            if (x, y) in seen:
                continue
            seen.add((x, y))
            ip = bytes(prefix) + bytes([x, y])
            pkt = ipv4_udp(ip, socket.inet_aton("224.0.1.129"), 320,
                           announce(n, b"\x02" + ip + b"\xfe\x00\x01"))
            frame = PRIMARY_V4_MAC + own + struct.pack(">H", 0x0800) + pkt
        while True:
            try:
                s.send(frame)
                break
            except BlockingIOError:
                time.sleep(0.001)
            except OSError as e:
                if e.errno != 105:	# ENOBUFS: the queue is full
                    raise
                time.sleep(0.001)
        n += 1
        if n % 500 == 0:
            time.sleep(0.002)	# let the receiver keep up
    print("SENT %d" % n, flush=True)


def count(iface, seconds):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(0x0003))
    s.bind((iface, 0))
    own = s.getsockname()[4][:6]
    print("READY", flush=True)
    end = time.monotonic() + seconds
    l2 = u4 = mc = 0
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        s.settimeout(left)
        try:
            f, addr = s.recvfrom(2048)
        except socket.timeout:
            break
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        et = struct.unpack(">H", f[12:14])[0]
        if f[:6] == PRIMARY_MAC and et == ETH_P_1588:
            mc += 1
            continue
        if f[:6] != own:
            continue
        if et == ETH_P_1588:
            l2 += 1
        elif et == 0x0800 and f[23] == 17:
            ihl = (f[14] & 0x0F) * 4
            if struct.unpack(">H", f[14 + ihl + 2:14 + ihl + 4])[0] in \
                    (319, 320):
                u4 += 1
    print("COUNT l2=%d udp4=%d l2mcast=%d" % (l2, u4, mc), flush=True)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cmd, iface = sys.argv[1:3]
    if cmd == "count":
        count(iface, float(sys.argv[3]))
    elif cmd == "l2":
        send("l2", iface, int(sys.argv[3]), int(sys.argv[4]))
    elif cmd == "udp4":
        prefix = [int(x) for x in sys.argv[5].split(".")]
        send("udp4", iface, int(sys.argv[3]), int(sys.argv[4]), prefix)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
