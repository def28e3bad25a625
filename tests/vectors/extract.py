#!/usr/bin/env python3
"""extract.py - turn the pcaps of capture.sh into the codec's test vectors.

Usage: extract.py CAPDIR HEADER CORPUSDIR

For each CAPDIR/{l2_e2e,l2_p2p,udp4_unicast}.pcap it takes the PTP payload
(after the Ethernet header for EtherType 0x88F7, after the UDP header for
UDP ports 319/320) of a selection of frames: the first frame of each
(messageType, source, destination), every Management and Signaling frame,
and the frames answering the selected ones (Follow_Up of a Sync, Delay_Resp
of a Delay_Req, Pdelay_Resp and Pdelay_Resp_Follow_Up of a Pdelay_Req).

Expected field values come from tshark's own PTP dissector (tshark -T
fields), an independent decoder, and are written next to the bytes into
HEADER as C arrays.  A few frames go to CORPUSDIR as fuzz seeds.
"""
import os
import struct
import subprocess
import sys

RUNS = ["l2_e2e", "l2_p2p", "udp4_unicast"]
FIELDS = ["frame.number", "ptp.v2.messagetype", "ptp.v2.messagelength",
          "ptp.v2.domainnumber", "ptp.v2.sequenceid", "ptp.v2.clockidentity",
          "ptp.v2.sourceportid", "ptp.v2.flags", "ptp.v2.logmessageperiod",
          "ptp.v2.controlfield", "ptp.v2.majorsdoid",
          "ptp.v2.mm.managementId", "ptp.v2.mm.action",
          "ptp.v2.an.tlvType", "ptp.v2.sig.tlv.tlvType", "ptp.v2.mm.tlvType"]
TYPE_NAMES = {0: "sync", 1: "delay_req", 2: "pdelay_req", 3: "pdelay_resp",
              8: "follow_up", 9: "delay_resp", 10: "pdelay_resp_fup",
              11: "announce", 12: "signaling", 13: "management"}


def pcap_frames(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic != 0xA1B2C3D4:
        raise SystemExit("%s: not a little-endian libpcap file" % path)
    if struct.unpack("<I", data[20:24])[0] != 1:
        raise SystemExit("%s: not Ethernet" % path)
    off, num = 24, 0
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack("<IIII", data[off:off + 16])
        off += 16
        num += 1
        yield num, data[off:off + incl]
        off += incl


def ptp_payload(frame):
    """(payload, transport, src, dst) or None."""
    etype = struct.unpack(">H", frame[12:14])[0]
    if etype == 0x88F7:
        return frame[14:], "L2", frame[6:12].hex(), frame[0:6].hex()
    if etype != 0x0800:
        return None
    ip = frame[14:]
    ihl = (ip[0] & 0xF) * 4
    if ip[9] != 17:
        return None
    udp = ip[ihl:]
    sport, dport, ulen = struct.unpack(">HHH", udp[:6])
    if dport not in (319, 320):
        return None
    return udp[8:ulen], "UDPv4", ip[12:16].hex(), ip[16:20].hex()


def tshark_fields(path):
    cmd = ["tshark", "-r", path, "-n", "-Y", "ptp", "-T", "fields",
           "-E", "separator=;", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    out = subprocess.run(cmd, check=True, capture_output=True,
                         text=True).stdout
    rows = {}
    for line in out.splitlines():
        v = line.split(";")
        rows[int(v[0])] = dict(zip(FIELDS, v))
    return rows


def num(s, default=-1):
    return default if s == "" else int(s, 0)


def select(frames):
    """frames: list of (num, payload, transport, src, dst)."""
    chosen, seen = [], set()
    for fr in frames:
        n, p, t, src, dst = fr
        mt = p[0] & 0xF
        key = (mt, src, dst)
        if mt in (12, 13) or key not in seen:
            seen.add(key)
            chosen.append(n)
    # Answers to the chosen requests, matched on sequenceId and port.
    byn = {fr[0]: fr for fr in frames}
    extra = []
    for n in chosen:
        p = byn[n][1]
        mt, seq, spid = p[0] & 0xF, p[30:32], p[20:30]
        for fr in frames:
            q = fr[1]
            qt = q[0] & 0xF
            if fr[0] <= n or q[30:32] != seq:
                continue
            if (mt == 0 and qt == 8 and q[20:30] == spid) or \
               (mt == 1 and qt == 9 and q[44:54] == spid) or \
               (mt == 2 and qt in (3, 10) and q[44:54] == spid):
                extra.append(fr[0])
    return sorted(set(chosen + extra))


def pair_of(vecs, i):
    """Index of the frame answering vecs[i], or -1."""
    p = vecs[i]["data"]
    mt = p[0] & 0xF
    for j, w in enumerate(vecs):
        q = w["data"]
        qt = q[0] & 0xF
        if w["run"] != vecs[i]["run"] or q[30:32] != p[30:32]:
            continue
        if (mt == 0 and qt == 8 and q[20:30] == p[20:30]) or \
           (mt == 1 and qt == 9 and q[44:54] == p[20:30]) or \
           (mt == 2 and qt == 3 and q[44:54] == p[20:30]) or \
           (mt == 3 and qt == 10 and q[44:54] == p[44:54]):
            return j
    return -1


def main():
    capdir, header, corpus = sys.argv[1:4]
    vecs = []
    for run in RUNS:
        path = os.path.join(capdir, run + ".pcap")
        rows = tshark_fields(path)
        frames = []
        for n, fr in pcap_frames(path):
            r = ptp_payload(fr)
            if r is not None:
                frames.append((n,) + r)
        for n in select(frames):
            _, p, t, src, dst = next(f for f in frames if f[0] == n)
            row = rows[n]
            tlv = num(row["ptp.v2.an.tlvType"]) if row["ptp.v2.an.tlvType"] \
                else num(row["ptp.v2.sig.tlv.tlvType"]) \
                if row["ptp.v2.sig.tlv.tlvType"] \
                else num(row["ptp.v2.mm.tlvType"])
            vecs.append({
                "run": run, "frame": n, "transport": t, "data": p,
                "name": "%s_%s_%d" % (run, TYPE_NAMES[p[0] & 0xF], n),
                "type": num(row["ptp.v2.messagetype"]),
                "len": num(row["ptp.v2.messagelength"]),
                "domain": num(row["ptp.v2.domainnumber"]),
                "seq": num(row["ptp.v2.sequenceid"]),
                "clock": num(row["ptp.v2.clockidentity"]),
                "port": num(row["ptp.v2.sourceportid"]),
                "flags": num(row["ptp.v2.flags"]),
                "interval": num(row["ptp.v2.logmessageperiod"]),
                "control": num(row["ptp.v2.controlfield"]),
                "sdo": num(row["ptp.v2.majorsdoid"], 0),
                "mgmt_id": num(row["ptp.v2.mm.managementId"]),
                "action": num(row["ptp.v2.mm.action"]),
                "tlv": tlv,
            })
    for i in range(len(vecs)):
        vecs[i]["pair"] = pair_of(vecs, i)

    out = []
    out.append("/*\n * vectors_ptp4l.h - PTP messages captured from linuxptp "
               "ptp4l/pmc 3.1.1.\n *\n * GENERATED by tests/vectors/extract.py "
               "from the pcaps in tests/vectors/captures/\n * (made by "
               "tests/vectors/capture.sh); see tests/vectors/README.md.\n"
               " * Expected values are tshark's PTP dissector's.  Do not edit."
               "\n */\n#ifndef PTPSEP_VECTORS_PTP4L_H\n"
               "#define PTPSEP_VECTORS_PTP4L_H\n\n#include <stddef.h>\n"
               "#include <stdint.h>\n\n")
    out.append("struct ptp4l_vector {\n"
               "\tconst char *name;\t/* run_type_framenumber */\n"
               "\tconst char *transport;\t/* \"L2\" or \"UDPv4\" */\n"
               "\tconst uint8_t *data;\t/* PTP payload */\n"
               "\tsize_t len;\t\t/* bytes captured after the L2/UDP header */\n"
               "\tunsigned int msg_type, msg_len, domain, seq;\n"
               "\tuint64_t clock_identity;\n"
               "\tunsigned int port, flags;\n"
               "\tint log_interval;\n"
               "\tunsigned int control, major_sdo_id;\n"
               "\tint mgmt_id, action;\t/* -1 unless Management */\n"
               "\tint tlv_type;\t\t/* first TLV's type per tshark, or -1 */\n"
               "\tint pair;\t\t/* index of the answering frame, or -1 */\n"
               "};\n\n")
    for v in vecs:
        out.append("static const uint8_t vec_%s[%d] = {\n" %
                   (v["name"], len(v["data"])))
        d = v["data"]
        for i in range(0, len(d), 12):
            out.append("\t" + " ".join("0x%02x," % b for b in d[i:i + 12])
                       + "\n")
        out.append("};\n\n")
    out.append("static const struct ptp4l_vector ptp4l_vectors[] = {\n")
    for v in vecs:
        out.append("\t{ \"%s\", \"%s\", vec_%s, sizeof(vec_%s),\n"
                   "\t  0x%x, %d, %d, %d, 0x%016xULL, %d, 0x%04x, %d, %d, %d,"
                   "\n\t  %d, %d, %d, %d },\n" %
                   (v["name"], v["transport"], v["name"], v["name"],
                    v["type"], v["len"], v["domain"], v["seq"], v["clock"],
                    v["port"], v["flags"], v["interval"], v["control"],
                    v["sdo"], v["mgmt_id"], v["action"], v["tlv"], v["pair"]))
    out.append("};\n\n#define PTP4L_NVECTORS "
               "(sizeof(ptp4l_vectors) / sizeof(ptp4l_vectors[0]))\n\n"
               "#endif /* PTPSEP_VECTORS_PTP4L_H */\n")
    with open(header, "w") as f:
        f.write("".join(out))

    os.makedirs(corpus, exist_ok=True)
    seeded = set()
    for v in vecs:
        key = (v["transport"], v["type"], len(v["data"]))
        if key in seeded:
            continue
        seeded.add(key)
        with open(os.path.join(corpus, v["name"] + ".bin"), "wb") as f:
            f.write(v["data"])
    print("%d vectors, %d seeds" % (len(vecs), len(seeded)))


if __name__ == "__main__":
    main()
