#!/usr/bin/env python3
"""sync_stats.py - offsets of a slave's log over a window, as JSON.

    sync_stats.py KIND LOG WINDOW_S

KIND is `servo` (a slave that steers its clock: ours) or `freerun` (ptp4l
with free_running 1: it measures the offset but never corrects it).  LOG
is the slave's log: ptp4l's lines, which clockd also writes,
    NAME[MONOTONIC]: master offset N sX freq F path delay D
and clockd's "master offset N spike, not used" for a Sync its filter kept
from the servo.  The window is the last WINDOW_S seconds of samples.

servo: offset RMS and max |offset| over the window, every measured offset
counted (also the spikes: they are what the slave measured; the RMS
without them is given too), time to lock (first s2 line) from the start
of the process (its first log line) and from its first offset sample.

freerun: the measurement noise of the link.  A free-running slave's offset
moves with the frequency difference of the two clocks (here both are this
machine's CLOCK_REALTIME, so ideally none), so the noise is the RMS of the
residual after a least-squares straight line through offset against time;
max |residual| beside it, and the raw RMS and the slope (ppb) for context.
"""
import json
import math
import re
import sys

LINE = re.compile(r"\[(\d+\.\d+)\]: master offset\s+(-?\d+)\s+(s\d|spike)")


def parse(path):
    t_first = None
    samples = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"\[(\d+\.\d+)\]:", line)
            if m and t_first is None:
                t_first = float(m.group(1))
            m = LINE.search(line)
            if m:
                samples.append((float(m.group(1)), int(m.group(2)),
                                m.group(3)))
    return t_first, samples


def rms(v):
    return math.sqrt(sum(x * x for x in v) / len(v)) if v else None


def main():
    kind, path, window = sys.argv[1], sys.argv[2], float(sys.argv[3])
    t_first, s = parse(path)
    out = {"kind": kind, "samples_total": len(s)}
    if not s:
        json.dump(out, sys.stdout)
        return
    t_end = s[-1][0]
    t_from = t_end - window
    if kind == "servo":
        lock = next((t for t, _, st in s if st == "s2"), None)
        if lock is not None:
            out["lock_s"] = round(lock - t_first, 2)
            out["lock_from_first_sample_s"] = round(lock - s[0][0], 2)
            t_from = max(t_from, lock)
        else:
            out["lock_s"] = None
        w = [(t, o, st) for t, o, st in s if t > t_from] if lock else []
        offs = [o for _, o, _ in w]
        kept = [o for _, o, st in w if st != "spike"]
        out.update({
            "window_s": round(w[-1][0] - w[0][0], 1) if w else 0,
            "samples": len(offs),
            "spikes": len(offs) - len(kept),
            "unlocked": sum(1 for _, _, st in w if st not in ("s2", "s3",
                                                             "spike")),
            "rms_ns": rms(offs),
            "rms_no_spikes_ns": rms(kept),
            "max_abs_ns": max((abs(o) for o in offs), default=None),
            "mean_ns": sum(offs) / len(offs) if offs else None,
        })
    else:
        # Skip the first samples: the path delay estimate settles.
        w = [(t, o) for t, o, _ in s[2:] if t > t_from]
        out["window_s"] = round(w[-1][0] - w[0][0], 1) if len(w) > 1 else 0
        out["samples"] = len(w)
        if len(w) >= 3:
            ts = [t - w[0][0] for t, _ in w]
            os_ = [o for _, o in w]
            n = len(w)
            mt, mo = sum(ts) / n, sum(os_) / n
            sxx = sum((t - mt) ** 2 for t in ts)
            b = sum((t - mt) * (o - mo) for t, o in zip(ts, os_)) / sxx
            res = [o - (mo + b * (t - mt)) for t, o in zip(ts, os_)]
            out.update({
                "noise_rms_ns": rms(res),
                "noise_max_abs_ns": max(abs(r) for r in res),
                "raw_rms_ns": rms(os_),
                "mean_ns": mo,
                "slope_ppb": b,
            })
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
