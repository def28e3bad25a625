#!/usr/bin/env python3
"""perf_taps.py - share of CPU samples in the packet-tap path.

Reads `perf script -F comm,cpu,ip,sym` of a `perf record -e cpu-clock -a -g`
profile on stdin and prints four numbers:

    total busy tap bpf

total: all samples; busy: those not in the idle loop; tap: busy samples
whose call chain runs through a packet tap (packet_rcv, tpacket_rcv,
packet_rcv_spkt: a packet socket's receive hook, reached for every frame
when the socket is ETH_P_ALL; dev_queue_xmit_nit: the transmit-side tap,
which clones each outgoing skb for the ETH_P_ALL sockets) or through BPF
program execution (___bpf_prog_run, a JIT-ed bpf_prog_*: the socket
filters those taps run); bpf: the busy samples in BPF execution alone.
"""
import re
import sys

TAP = {"packet_rcv", "tpacket_rcv", "packet_rcv_spkt", "dev_queue_xmit_nit"}
BPF = re.compile(r"^(___bpf_prog_run|__bpf_prog_run\d*|bpf_prog_[0-9a-f]+)")
IDLE_LEAF = re.compile(r"(safe_halt|default_idle|cpu_idle_poll|poll_idle|"
                       r"mwait_idle|intel_idle|acpi_idle|native_halt|"
                       r"cpuidle_enter|do_idle)")


def classify(stack, counts):
    if not stack:
        return
    counts[0] += 1
    if IDLE_LEAF.search(stack[0]) and "do_idle" in stack:
        return
    counts[1] += 1
    bpf = any(BPF.match(s) for s in stack)
    if bpf or any(s in TAP for s in stack):
        counts[2] += 1
    if bpf:
        counts[3] += 1


def main():
    counts = [0, 0, 0, 0]
    stack = []
    for line in sys.stdin:
        if line.startswith("\t") or line.startswith(" "):
            parts = line.split()
            if len(parts) >= 2:
                # "ip sym": drop a "+0x..." offset if perf printed one.
                stack.append(parts[1].split("+0x")[0])
            continue
        classify(stack, counts)
        stack = []
    classify(stack, counts)
    if counts[0] == 0:
        sys.exit("perf_taps: no samples")
    print(*counts)


if __name__ == "__main__":
    main()
