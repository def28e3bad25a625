#!/usr/bin/env python3
# It only reads figures: the benchmarks' ptp4l slaves all run with free_running 1 (tests/bench/lib.sh).
"""report.py - the Markdown report of a benchmark run.

    report.py DIR OUT.md [--check]

DIR holds traffic.json, sync.json, cpu.json (from traffic.sh, sync.sh,
cpu.sh) and info.json (machine and versions, from run.sh).  With --check,
exit 1 if any figure of the report is missing (the smoke test's check).
"""
import json
import os
import statistics
import sys

missing = []


def need(v, what):
    if v is None:
        missing.append(what)
        return "n/a"
    return v


def med(v):
    return statistics.median(v) if v else None


def fmt(v, f="{:.0f}"):
    if isinstance(v, str):	# need()'s "n/a"
        return v
    return "n/a" if v is None else f.format(v)


def spread(v, f="{:.0f}"):
    if not v:
        return "n/a"
    return f.format(min(v)) + "–" + f.format(max(v))


def traffic(t, out):
    cf = t["configs"]
    names = {"none": "nothing running", "ours_l2": "ptpsep, L2",
             "ptp4l_l2": "ptp4l, L2", "ours_udp4": "ptpsep, UDPv4"}
    base = cf.get("none", {})
    b_pps = med(base.get("udp_pps"))
    b_cpu = med(base.get("udp_pps_per_cpu_s"))
    b_tcp = med(base.get("tcp_bps"))
    out.append("## 1. Cost to unrelated traffic\n")
    out.append(
        "UDP flood: 18-byte datagrams (minimum-size frames) from namespace "
        "A to B over one veth, sender pinned to CPU %d, receiver to CPU %d "
        "(busy-polling); %d rounds, configurations alternating, %.0f s of "
        "flood and %.0f s of TCP (iperf3) each; medians with min–max.  "
        "*pps* is what B's IP layer took in per second; *per CPU-s* the "
        "same per CPU-second of the sender (insensitive to other load on "
        "the machine).  Master in A, slave in B.\n"
        % (t["cpu_sender"], t["cpu_receiver"], t["reps"], t["udp_seconds"],
           t["tcp_seconds"]))
    out.append("| configuration | packet sockets (A / B) | flood pps (median, min–max) "
               "| vs nothing | pps per CPU-s | vs nothing | TCP Gbit/s | vs nothing |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for c in t["order"]:
        d = cf.get(c)
        if d is None:
            need(None, "traffic " + c)
            continue
        p, pc, tc = med(d.get("udp_pps")), med(d.get("udp_pps_per_cpu_s")), \
            med(d.get("tcp_bps"))
        need(p, c + " pps")
        need(pc, c + " pps per cpu")
        need(tc, c + " tcp")
        rel = lambda a, b: "n/a" if a is None or not b else \
            "%.1f%%" % (100.0 * a / b)
        socks = "%s / %s" % (d.get("sockets_master") or "none",
                             d.get("sockets_slave") or "none")
        out.append("| %s | %s | %s (%s) | %s | %s | %s | %s | %s |" % (
            names[c], socks, fmt(p), spread(d.get("udp_pps")), rel(p, b_pps),
            fmt(pc), rel(pc, b_cpu),
            fmt(tc / 1e9 if tc else None, "{:.2f}"), rel(tc, b_tcp)))
    out.append("")
    out.append("Packet sockets: protocol as in `/proc/net/packet` "
               "(`0003` = ETH_P_ALL, a tap on every frame; `88f7` = ETH_P_1588); "
               "UDPv4 uses UDP sockets only.\n")
    if t.get("perf"):
        out.append("CPU profile during the flood (`perf record -e cpu-clock -a -g`, "
                   "%.0f s, %s round(s)): share of the busy samples of both "
                   "CPUs whose stack runs through a packet tap "
                   "(`packet_rcv`, `tpacket_rcv`, `dev_queue_xmit_nit` and "
                   "the `skb_clone` under it) or BPF execution "
                   "(`___bpf_prog_run`, `bpf_prog_*`).\n"
                   % (t["perf_seconds"], "the first %d" % min(
                       t["reps"], len(base.get("tap_share_pct", [])))))
        out.append("| configuration | tap path, % of busy samples | of which BPF | samples |")
        out.append("| --- | --- | --- | --- |")
        for c in t["order"]:
            d = cf.get(c, {})
            tp = med(d.get("tap_share_pct"))
            need(tp, c + " tap share")
            out.append("| %s | %s (%s) | %s | %s |" % (
                names[c], fmt(tp, "{:.2f}"),
                spread(d.get("tap_share_pct"), "{:.2f}"),
                fmt(med(d.get("bpf_share_pct")), "{:.2f}"),
                fmt(med(d.get("perf_samples")))))
        out.append("")
    else:
        out.append("perf is not usable here: no profile.\n")


def sync(s, out):
    iv = s["intervals"]
    out.append("## 2. Synchronization quality\n")
    out.append(
        "L2, E2E, software time stamps, one veth per pair, the four pairs "
        "of one interval at the same time.  Our slaves' virtual clocks start "
        "1.5 s and +80 ppm off.  Both ends of every link run on this "
        "machine's CLOCK_REALTIME, so a free-running ptp4l slave measures no "
        "frequency difference, only the noise of measuring over this link: "
        "**noise** = RMS of its offsets' residual after a least-squares "
        "straight line over time.  Our slave's figures take every offset it "
        "measured in the window (also the Syncs its spike filter kept from "
        "the servo); *lock* = first `s2` line, from the process start "
        "(BMCA included).  Window: the last %s s of a %s s run (interval 0), "
        "the last %s s of %s s (interval −4).\n" % (
            s["window_s"]["0"], s["run_s"]["0"], s["window_s"]["-4"],
            s["run_s"]["-4"]))
    out.append("| logSyncInterval | master → slave | offset RMS ns | max abs offset ns "
               "| RMS without spikes | spikes / samples | time to lock s |")
    out.append("| --- | --- | --- | --- | --- | --- | --- |")
    names = {"ours_ours": "ptpsep → ptpsep", "ptp4l_ours": "ptp4l → ptpsep",
             "ptp4l_fr": "ptp4l → ptp4l free-running (noise)",
             "ours_fr": "ptpsep → ptp4l free-running (noise)"}
    for i in ("0", "-4"):
        for p in ("ours_ours", "ptp4l_ours", "ptp4l_fr", "ours_fr"):
            d = iv.get(i, {}).get(p, {})
            tag = "%s %s" % (i, p)
            if d.get("kind") == "freerun":
                out.append("| %s | %s | %s (noise) | %s | raw RMS %s | – / %s | – |" % (
                    i, names[p], fmt(need(d.get("noise_rms_ns"), tag + " noise")),
                    fmt(need(d.get("noise_max_abs_ns"), tag + " noise max")),
                    fmt(d.get("raw_rms_ns")), d.get("samples", 0)))
            else:
                out.append("| %s | %s | %s | %s | %s | %s / %s | %s |" % (
                    i, names[p], fmt(need(d.get("rms_ns"), tag + " rms")),
                    fmt(need(d.get("max_abs_ns"), tag + " max")),
                    fmt(d.get("rms_no_spikes_ns")), d.get("spikes", 0),
                    d.get("samples", 0),
                    fmt(need(d.get("lock_s"), tag + " lock"), "{:.1f}")))
    out.append("")


# Issue 13's targets at 128 + 128 messages a second: netd + clockd against
# ptp4l on each side.
TARGETS = (("cpu_s_per_min", "CPU", 1.5), ("syscalls_per_s", "system calls", 2.0),
           ("vmhwm_kb", "peak RSS", 1.5))
# Shown per side beside the targets, with no target of their own: the
# wake-ups (voluntary context switches, cpu.sh) and the CPU each costs,
# which together make the CPU figure (issue 13).
WAKEUPS = (("wakeups_per_s", "wake-ups/s"),
           ("us_per_wakeup", "µs CPU per wake-up"))
IMPL_NAMES = {"before": "ptpsep before", "ours": "ptpsep", "ptp4l": "ptp4l"}


def side_sums(c):
    """{(impl, rate, side): {metric: sum over the side's processes}}."""
    tot = {}
    for r in c["rows"]:
        a = tot.setdefault((r["impl"], r["log_interval"], r["side"]), {})
        for k in ("cpu_s_per_min", "syscalls_per_s", "vmhwm_kb", "messages",
                  "rss_anon_kb", "rss_file_kb", "pss_kb", "uss_kb",
                  "cpu_s_per_min_perf", "wakeups_per_s", "involuntary_per_s"):
            v = r.get(k)
            if k == "messages":
                # both processes of a side count the same frames
                a[k] = v
            elif v is None or a.get(k, 0) is None:
                a[k] = None
            else:
                a[k] = a.get(k, 0) + v
    for a in tot.values():
        # the side's CPU over the side's wake-ups
        w, cpu_ = a.get("wakeups_per_s"), a.get("cpu_s_per_min")
        a["us_per_wakeup"] = (cpu_ / 60 * 1e6 / w
                              if w and cpu_ is not None else None)
    return tot


def ratio(a, b):
    return None if a is None or not b else a / b


def rate_short(li):
    return "%g + %g" % (2 ** -li, 2 ** -li)


def rate_name(li):
    n = 2 ** -li
    return "%g + %g messages/s (log interval %d)" % (n, n, li)


def cpu(c, out):
    impls = c.get("impls", ["ours", "ptp4l"])
    out.append("## 3. CPU, system calls and memory\n")
    out.append(
        "L2, E2E, software time stamps, one veth, the implementations one "
        "after the other in the same run, master and slave each in its own "
        "namespace.  Per rate and implementation: %.0f s of warm-up, then "
        "%.0f s for CPU (on-CPU time of every thread, "
        "`/proc/PID/task/*/schedstat`, the total of utime + stime without "
        "their ticks), then %.0f s for system calls (`perf stat -e "
        "raw_syscalls:sys_enter -p PID`; a window of its own, as counting "
        "slows every call: *CPU under perf* is the CPU time of that "
        "window).  Peak RSS = VmHWM at the end, every process at the same "
        "age (%.0f s).  *Messages* = PTP frames received and sent in the CPU "
        "window (netd's counters, which clockd sees once each; ptp4l's "
        "PORT_STATS_NP).  *Wake-ups* = voluntary context switches of all "
        "the process's threads in the CPU window "
        "(`voluntary_ctxt_switches`, `/proc/PID/task/*/status`): one each "
        "time it blocks waiting for work, so one per wake-up; *µs CPU per "
        "wake-up* = its CPU time over them.  Involuntary switches "
        "(preemptions, which follow the machine's other load) are shown "
        "apart and not counted.%s\n"
        % (c["warm_s"], c["measure_s"], c["syscall_s"],
           c["warm_s"] + c["measure_s"] + c["syscall_s"],
           "  *ptpsep before* = the daemons of %s, same configuration."
           % c["before"] if "before" in impls else ""))
    out.append("| implementation | rate msg/s | side | process | CPU s/min "
               "| CPU under perf s/min | messages | µs CPU per message "
               "| system calls/s | peak RSS KiB | RSS at end, anon + file KiB "
               "| wake-ups/s | µs CPU per wake-up | involuntary switches/s |")
    out.append("|" + " --- |" * 14)
    for r in c["rows"]:
        tag = "%s %s %s %s" % (r["impl"], r["log_interval"], r["side"],
                               r["process"])
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                   "| %s | %s | %s |" % (
            r["impl"], rate_short(r["log_interval"]), r["side"],
            r["process"],
            fmt(need(r["cpu_s_per_min"], tag + " cpu"), "{:.3f}"),
            fmt(r.get("cpu_s_per_min_perf"), "{:.3f}"),
            fmt(need(r["messages"], tag + " messages")),
            fmt(need(r["us_per_message"], tag + " per message"), "{:.1f}"),
            fmt(need(r.get("syscalls_per_s"), tag + " syscalls"), "{:.0f}"),
            need(r["vmhwm_kb"], tag + " rss"),
            "%s + %s" % (r.get("rss_anon_kb"), r.get("rss_file_kb")),
            fmt(need(r.get("wakeups_per_s"), tag + " wake-ups")),
            fmt(need(r.get("us_per_wakeup"), tag + " per wake-up"), "{:.1f}"),
            fmt(r.get("involuntary_per_s"))))
    out.append("")
    tot = side_sums(c)
    cols = [i for i in ("before", "ours", "ptp4l") if i in impls]
    out.append("Per side: ptpsep = netd + clockd; ratios against ptp4l, with "
               "issue 13's target (at 128 + 128 messages/s).\n")
    head = ["rate msg/s", "side", "figure"] + [IMPL_NAMES[i] for i in cols]
    head += ["%s / ptp4l" % IMPL_NAMES[i] for i in cols if i != "ptp4l"]
    head += ["target"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + " --- |" * len(head))
    for li in c.get("log_intervals", [-7]):
        for side in ("master", "slave"):
            for k, name, tgt in TARGETS:
                v = {i: tot.get((i, li, side), {}).get(k) for i in cols}
                f = "{:.0f}" if k != "cpu_s_per_min" else "{:.3f}"
                row = [rate_short(li), side,
                       name + (" s/min" if k == "cpu_s_per_min" else
                               "/s" if k == "syscalls_per_s" else " KiB")]
                row += [fmt(v[i], f) for i in cols]
                row += [fmt(ratio(v[i], v.get("ptp4l")), "{:.2f}×")
                        for i in cols if i != "ptp4l"]
                row += ["≤ %.1f×" % tgt if li == -7 else "–"]
                out.append("| " + " | ".join(row) + " |")
            for k, name in WAKEUPS:
                v = {i: tot.get((i, li, side), {}).get(k) for i in cols}
                if all(x is None for x in v.values()):
                    continue	# a cpu.json from before cpu.sh counted them
                f = "{:.1f}" if k == "us_per_wakeup" else "{:.0f}"
                row = [rate_short(li), side, name]
                row += [fmt(v[i], f) for i in cols]
                row += [fmt(ratio(v[i], v.get("ptp4l")), "{:.2f}×")
                        for i in cols if i != "ptp4l"]
                row += ["–"]
                out.append("| " + " | ".join(row) + " |")
    out.append("")


def scale(c, out):
    out.append("## 4. A grandmaster serving N unicast clients (scale.sh)\n")
    out.append("L2, software time stamps, negotiation: every client asks for "
               "Announce (1 per 2 s), Sync and Delay_Resp grants and sends "
               "Delay_Reqs at its granted rate (tests/bench/uclients).  "
               "Up to 2000 Syncs a second in all the two grandmasters run "
               "side by side (*pair*), each on its own veth pair with its own "
               "clients, over the same window; beyond it each runs alone.  "
               "CPU is its processes' on-CPU "
               "time over the window (netd + clockd, or ptp4l).  *Served*: "
               "clients holding all three grants at the end; *Sync min*: "
               "the least-served client's Syncs against its grant; "
               "*Delay_Resp min*: the least-served client's share of the "
               "window's Delay_Reqs that were answered.\n")
    out.append("| grandmaster | clients | Sync/s each | served | refused | "
               "CPU (cores) | µs per client per s | Sync/s in all | "
               "Sync min / median | Delay_Resp min | peak RSS (KiB) |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
               "---: | ---: | ---: |")
    for r in c.get("runs", []):
        u = r["uclients"]
        sf = u.get("sync_fraction") or {}
        df = u.get("delay_resp_fraction") or {}
        ref = sum(u["refusals"].values())
        out.append("| %s | %d | %g | %d | %d | %.3f | %.1f | %.0f | %s / %s "
                   "| %s | %d |" % (
                       r["impl"] + (" (pair)" if r.get("side_by_side")
                                    else ""), r["clients"], 2.0 ** -r["log_sync"],
                       u["served"], ref, r["cpu_cores"],
                       r["cpu_us_per_client_s"], u["rx_per_s"]["sync"],
                       fmt(sf.get("min"), "{:.2f}"),
                       fmt(sf.get("median"), "{:.2f}"),
                       fmt(df.get("min"), "{:.2f}"), r["peak_rss_kb"]))
    pairs = {}
    for r in c.get("runs", []):
        if r.get("side_by_side"):
            pairs.setdefault((r["clients"], r["log_sync"]), {}).setdefault(
                r["impl"], []).append(r["cpu_cores"])
    for (n, ls), v in sorted(pairs.items()):
        if "ours" in v and "ptp4l" in v:
            rs = sorted(a / b for a, b in zip(v["ours"], v["ptp4l"]) if b)
            if rs:
                out.append("- %d clients at %g Sync/s, side by side: ours / "
                           "ptp4l CPU %s (median %.2f)" % (
                               n, 2.0 ** -ls,
                               ", ".join("%.2f" % x for x in rs),
                               rs[len(rs) // 2]))
    out.append("")


def reading(parts):
    r = []
    t = parts.get("traffic.json")
    if t:
        cf = t["configs"]
        b = med(cf.get("none", {}).get("udp_pps"))
        bc = med(cf.get("none", {}).get("udp_pps_per_cpu_s"))
        for c, name in (("ours_l2", "ptpsep (L2)"), ("ours_udp4", "ptpsep (UDPv4)"),
                        ("ptp4l_l2", "ptp4l (L2)")):
            p = med(cf.get(c, {}).get("udp_pps"))
            pc = med(cf.get(c, {}).get("udp_pps_per_cpu_s"))
            tp = med(cf.get(c, {}).get("tap_share_pct"))
            if p and b:
                r.append("- Flood with %s running: %.1f%% of nothing running "
                         "(median pps; target for ptpsep ≥ 99%%: %s), %.1f%% per "
                         "sender CPU-second%s." % (
                             name, 100 * p / b,
                             "met" if p / b >= 0.99 else "missed by %.1f points"
                             % (99 - 100 * p / b),
                             100 * pc / bc if pc and bc else float("nan"),
                             "; %.2f%% of busy CPU samples in the tap path" % tp
                             if tp is not None else ""))
    s = parts.get("sync.json")
    if s:
        for i in ("0", "-4"):
            d = s["intervals"].get(i, {})
            o = d.get("ours_ours", {}).get("rms_ns")
            on = d.get("ours_ours", {}).get("rms_no_spikes_ns")
            n1 = d.get("ptp4l_fr", {}).get("noise_rms_ns")
            n2 = d.get("ours_fr", {}).get("noise_rms_ns")
            po = d.get("ptp4l_ours", {}).get("rms_ns")
            if o is not None and n1 is not None:
                r.append("- logSyncInterval %s: our slave's offset RMS against "
                         "our master %.0f ns (%.0f ns without the Syncs its "
                         "spike filter set aside) against a measurement noise "
                         "of %.0f ns (ptp4l → ptp4l free-running) and %s ns "
                         "(ptpsep → ptp4l free-running): %s; against a ptp4l "
                         "master %s ns." % (
                             i, o, on if on is not None else float("nan"), n1,
                             fmt(n2), "target met" if o <= n1 else
                             "target (the ptp4l noise) missed by %.1f×; the "
                             "free-running ptp4l slave sees about as much "
                             "noise from our master, so the excess comes "
                             "from our master's time stamps, not the slave's "
                             "servo" % (o / n1) if n2 and o <= 1.2 * n2 else
                             "target missed by %.1f×" % (o / n1),
                             fmt(po)))
    c = parts.get("cpu.json")
    if c:
        tot = side_sums(c)
        for li in c.get("log_intervals", []):
            if li != -7:
                continue
            for side in ("master", "slave"):
                p = tot.get(("ptp4l", li, side), {})
                for impl in ("before", "ours"):
                    o = tot.get((impl, li, side))
                    if not o or not p:
                        continue
                    parts_ = []
                    for k, name, tgt in TARGETS:
                        q = ratio(o.get(k), p.get(k))
                        if q is None:
                            parts_.append("%s n/a" % name)
                            continue
                        parts_.append("%s %.2f× (target ≤ %.1f×: %s)" % (
                            name, q, tgt, "met" if q <= tgt else "missed"))
                    r.append("- %s, %s side, at %s: netd + clockd against "
                             "ptp4l: %s." % (IMPL_NAMES[impl], side,
                                             rate_name(li), "; ".join(parts_)))
                    if o.get("wakeups_per_s") and p.get("wakeups_per_s"):
                        per = {pr["process"]: pr["wakeups_per_s"]
                               for pr in c["rows"] if pr["impl"] == impl
                               and pr["log_interval"] == li
                               and pr["side"] == side
                               and pr.get("wakeups_per_s") is not None}
                        n = 2 ** -li
                        r.append("  Wake-ups: %.0f/s (%s) vs %.0f/s, %.2f×; "
                                 "%.1f vs %.1f per Sync interval; CPU per "
                                 "wake-up %.1f µs vs %.1f µs (%.2f×)." % (
                                     o["wakeups_per_s"],
                                     ", ".join("%s %.0f" % kv
                                               for kv in sorted(per.items())),
                                     p["wakeups_per_s"],
                                     o["wakeups_per_s"] / p["wakeups_per_s"],
                                     o["wakeups_per_s"] / n,
                                     p["wakeups_per_s"] / n,
                                     o["us_per_wakeup"], p["us_per_wakeup"],
                                     o["us_per_wakeup"] / p["us_per_wakeup"]))
                    if o.get("rss_anon_kb") is not None and p.get("rss_anon_kb"):
                        r.append("  Resident at the end: anonymous %d KiB vs "
                                 "%d KiB, mapped files (the program and its "
                                 "libraries; shared with other processes "
                                 "where they map the same: a statically "
                                 "linked daemon's only with its other "
                                 "instances) %d KiB vs %d KiB." % (
                                     o["rss_anon_kb"], p["rss_anon_kb"],
                                     o["rss_file_kb"], p["rss_file_kb"]))
                    if o.get("pss_kb") is not None and p.get("pss_kb"):
                        r.append("  The machine's memory they stand for: PSS "
                                 "%d KiB vs %d KiB (%.2f×), USS (private) "
                                 "%d KiB vs %d KiB (%.2f×)." % (
                                     o["pss_kb"], p["pss_kb"],
                                     o["pss_kb"] / p["pss_kb"],
                                     o["uss_kb"], p["uss_kb"],
                                     o["uss_kb"] / p["uss_kb"]))
        cp = [(r_["cpu_s_per_min_perf"] / r_["cpu_s_per_min"] - 1) * 100
              for r_ in c["rows"] if r_.get("cpu_s_per_min_perf") is not None
              and r_["cpu_s_per_min"]]
        if cp:
            r.append("- CPU in the system call window against the CPU window "
                     "(perf's counting, and other load of the machine): "
                     "median %+.0f %%, %+.0f to %+.0f %% over the processes "
                     "(the system calls have a window of their own, so that "
                     "counting them does not weigh on the CPU figures)." % (
                         statistics.median(cp), min(cp), max(cp)))
    return r


def main():
    d, dest = sys.argv[1], sys.argv[2]
    check = "--check" in sys.argv[3:]
    load = lambda n: json.load(open(os.path.join(d, n)))
    info = load("info.json")
    out = ["# ptpsep benchmarks: %s\n" % info["date"]]
    if info.get("mode") != "full":
        out.append("**%s run: durations cut to seconds; the figures only "
                   "show that the scripts work.**\n" % info.get("mode"))
    out.append("| | |\n| --- | --- |")
    for k in ("machine", "cpu", "nproc", "kernel", "ptpsep", "linuxptp",
              "iperf3", "perf", "elapsed"):
        out.append("| %s | %s |" % (k, need(info.get(k), "info " + k)))
    out.append("")
    out.append("How: `make bench` (tests/bench/run.sh); the scripts' "
               "headers say what each figure is.  `BENCH_ONLY=cpu` runs "
               "part 3 alone; `BENCH_BEFORE_BUILD=DIR` (a build of an older "
               "tree, e.g. `git archive d7cfe8c`) adds its daemons to part "
               "3 as *before*.  Every ptp4l slave runs "
               "with free_running 1: it measures, never adjusts a clock.\n")
    parts = {}
    for name, fn in (("traffic.json", traffic), ("sync.json", sync),
                     ("cpu.json", cpu), ("scale.json", scale)):
        if name[:-5] not in info.get("parts", [name[:-5]]):
            out.append("(%s: not run; BENCH_ONLY=%s)\n" % (
                name[:-5], " ".join(info["parts"])))
            continue
        try:
            parts[name] = load(name)
        except (OSError, ValueError):
            need(None, name)
            continue
        fn(parts[name], out)
    out.append("## Reading (computed from the tables)\n")
    out.extend(reading(parts))
    out.append("")
    with open(dest, "w") as f:
        f.write("\n".join(out) + "\n")
    if check and missing:
        print("report: missing: " + ", ".join(missing), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
