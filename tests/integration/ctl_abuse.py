#!/usr/bin/python3
"""ctl_abuse.py - a hostile local client of a ptpsep control socket.

    ctl_abuse.py SOCKET SECONDS PROTOCOL_VERSION
    ctl_abuse.py SOCKET SECONDS PROTOCOL_VERSION hold N

For SECONDS, over and over: datagrams of random bytes (before and after a
valid Hello), oversized datagrams, a valid request cut short (the protobuf
truncated), connections closed right after a request (before the answer),
connections that flood requests without reading an answer, a connection
that asks as fast as the daemon answers, and more idle connections than the
daemon admits.  Only read requests are sent: nothing here may change the
daemon.  Prints what it did; exits 0 unless the socket was never reachable.

With "hold N": opens N connections one after the other, says Hello on each
and reads the answer, prints one line "hold: admitted=A busy=B other=O
text=..." (text: the first error's message, or a reset/OS error) and keeps
the admitted connections open for SECONDS (issue 11 item 6: a user holding
every connection it can must not lock root out).
"""
import errno
import os
import random
import socket
import sys
import time

path, seconds, version = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])


def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


# CtlRequest{hello: Hello{protocol_version, role: ROLE_CTL (3)}}
hello_body = b"\x08" + varint(version) + b"\x10\x03"
HELLO = b"\x0a" + varint(len(hello_body)) + hello_body
STATUS = b"\x12\x00"            # CtlRequest{status: {}}
PORTS = b"\x1a\x00"             # CtlRequest{ports: {}}
DATASET = b"\x22\x02\x08\x01"   # CtlRequest{dataset: {kind: DEFAULT}}
FOREIGN = b"\x2a\x00"           # CtlRequest{foreign: {}}
READS = [STATUS, PORTS, DATASET, FOREIGN]

counts = {}


def count(k, n=1):
    counts[k] = counts.get(k, 0) + n


def connect(block=True):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(2.0 if block else 0.0)
    try:
        s.connect(path)
    except OSError:
        s.close()
        count("connect_failed")
        return None
    return s


def send(s, data):
    try:
        s.send(data)
        return True
    except OSError:
        return False


def garbage():
    s = connect()
    if s is None:
        return
    if random.random() < 0.5:
        send(s, HELLO)
    send(s, os.urandom(random.randint(1, 3000)))
    s.close()
    count("garbage")


def oversized():
    s = connect()
    if s is None:
        return
    send(s, HELLO)
    send(s, b"\x12" + os.urandom(20000))
    s.close()
    count("oversized")


def truncated():
    s = connect()
    if s is None:
        return
    send(s, HELLO[: random.randint(1, len(HELLO) - 1)])
    s.close()
    s = connect()
    if s is None:
        return
    send(s, HELLO)
    send(s, DATASET[:3])
    s.close()
    count("truncated")


def hangup():
    s = connect()
    if s is None:
        return
    send(s, HELLO)
    send(s, random.choice(READS))
    s.close()
    count("hangup")


def flood():
    s = connect(block=False)
    if s is None:
        return
    n = 0
    for req in [HELLO] + [random.choice(READS)] * 500:
        try:
            s.send(req)
            n += 1
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                break
            time.sleep(0.001)
    s.close()
    count("flood_requests", n)


def fast(deadline):
    s = connect()
    if s is None:
        return
    n = 0
    try:
        s.send(HELLO)
        s.recv(20000)
        while time.monotonic() < deadline:
            s.send(STATUS)
            if not s.recv(20000):
                break
            n += 1
    except OSError:
        pass
    s.close()
    count("fast_requests", n)


def decode_error(data):
    """(code, message) of a CtlResponse{error: Error{code, message}}."""
    def fields(b):
        i, out = 0, {}
        while i < len(b):
            key, i = readvar(b, i)
            f, wt = key >> 3, key & 7
            if wt == 0:
                v, i = readvar(b, i)
            elif wt == 2:
                n, i = readvar(b, i)
                v, i = b[i:i + n], i + n
            else:
                raise ValueError("wire type %d" % wt)
            out[f] = v
        return out

    def readvar(b, i):
        v = shift = 0
        while True:
            c = b[i]
            i += 1
            v |= (c & 0x7F) << shift
            shift += 7
            if not c & 0x80:
                return v, i
    top = fields(data)
    for f, v in top.items():
        if isinstance(v, bytes):
            try:
                e = fields(v)
            except (ValueError, IndexError):
                continue
            if 1 in e and isinstance(e.get(2), bytes):
                return e[1], e[2].decode("utf-8", "replace")
    return None


def hold(n):
    held, busy, other, text = [], 0, 0, ""
    for _ in range(n):
        s = connect()
        if s is None:
            other += 1
            continue
        try:
            s.send(HELLO)
            data = s.recv(20000)
        except OSError as e:
            other += 1
            text = text or "os error: %s" % e.strerror
            s.close()
            continue
        err = decode_error(data) if data else None
        if data and err is None:
            held.append(s)
            continue
        if err is not None and err[0] == 2:     # ERROR_BUSY
            busy += 1
            text = text or err[1]
        else:
            other += 1
            text = text or ("closed" if not data else "error %r" % (err,))
        s.close()
    print("hold: admitted=%d busy=%d other=%d text=%s" %
          (len(held), busy, other, text), flush=True)
    time.sleep(seconds)
    for s in held:
        s.close()


if len(sys.argv) > 5 and sys.argv[4] == "hold":
    hold(int(sys.argv[5]))
    sys.exit(0)

end = time.monotonic() + seconds
idle = []
if connect() is None:
    print("ctl_abuse: cannot connect to %s" % path)
    sys.exit(1)
while time.monotonic() < end:
    # More idle connections than the daemon admits.
    while len(idle) < 12:
        s = connect()
        if s is None:
            break
        idle.append(s)
    for fn in (garbage, oversized, truncated, hangup, flood):
        fn()
    fast(min(end, time.monotonic() + 0.5))
    if random.random() < 0.2:
        for s in idle:
            s.close()
        idle = []
for s in idle:
    s.close()
print("ctl_abuse %s: %s" % (path, " ".join(
    "%s=%d" % kv for kv in sorted(counts.items()))))
