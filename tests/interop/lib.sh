# lib.sh - helpers shared by the interop tests against linuxptp (sourced,
# not run; check.sh skips it).  On top of tests/integration/lib.sh (network
# namespaces, our daemons, cleanup on EXIT) it starts ptp4l, asks it with
# pmc, and captures and checks the wire with tshark.
#
# Safety: every ptp4l runs with `free_running 1` and `kernel_leap 0`
# (iop_ptp4l_conf writes them last and refuses a caller's other value), software time stamping (-S), and its
# own UDS socket in the test's temporary directory, so it never touches the
# real clock nor a system ptp4l.  Our clocks are netd's `virtual` clocks.

. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../integration" && pwd)/lib.sh"

PTP4L=${PTP4L:-ptp4l}
PMC=${PMC:-pmc}
TSHARK=${TSHARK:-tshark}

iop_need() {
	local t
	for t in "$PTP4L" "$PMC" "$TSHARK"; do
		command -v "$t" >/dev/null || {
			echo "FAIL: $t is not installed (check.sh installs linuxptp and tshark)"
			exit 1
		}
	done
}

# iop_ptp4l_conf FILE DIR KEY VALUE...: a ptp4l.conf for a ptp4l whose UDS
# socket is DIR/ptp4l.uds.  The interface comes from -i on the command line.
iop_ptp4l_conf() {
	local f=$1 dir=$2
	shift 2
	{
		echo "[global]"
		echo "uds_address $dir/ptp4l.uds"
		echo "time_stamping software"
		echo "summary_interval 0"
		echo "logging_level 6"
		echo "use_syslog 0"
		while [ $# -ge 2 ]; do
			if [ "$1" = free_running ]; then
				echo "iop_ptp4l_conf: free_running is always 1" >&2
				exit 1
			fi
			if [ "$1" = kernel_leap ] && [ "$2" != 0 ]; then
				echo "iop_ptp4l_conf: kernel_leap is always 0" >&2
				exit 1
			fi
			[ "$1" = kernel_leap ] || echo "$1 $2"
			shift 2
		done
		# Never touch the real clock, master or slave.  kernel_leap 0
		# too: a ptp4l on CLOCK_REALTIME that sees leap61 sets STA_INS
		# on this machine's clock even with free_running 1 (it handles
		# the UTC offset before it looks at free_running).
		echo "free_running 1"
		echo "kernel_leap 0"
	} >"$f"
}

# iop_ptp4l NS DIR IFACE...: start ptp4l (DIR/ptp4l.conf, log DIR/ptp4l.log)
# with software time stamping, logging to stdout, on the given interfaces.
iop_ptp4l() {
	local ns=$1 dir=$2 ifs=() i
	shift 2
	for i in "$@"; do ifs+=(-i "$i"); done
	grep -qx 'free_running 1' "$dir/ptp4l.conf" &&
		grep -qx 'kernel_leap 0' "$dir/ptp4l.conf" || {
		fail "refusing to start ptp4l without free_running 1 and kernel_leap 0"
		return 1
	}
	itest_start "$ns" "$dir/ptp4l.log" "$PTP4L" -f "$dir/ptp4l.conf" \
		"${ifs[@]}" -S -m -q
	itest_wait_file "$dir/ptp4l.uds" 10 || {
		fail "ptp4l did not start in $ns"; cat "$dir/ptp4l.log"; return 1
	}
}

# iop_pmc NS DIR COMMAND: one management request to the ptp4l of DIR over
# its UDS socket; prints pmc's answer.
iop_pmc() {
	ip netns exec "$1" "$PMC" -u -s "$2/ptp4l.uds" \
		-i "$2/pmc.$BASHPID.uds" -b 0 "$3" 2>&1
	rm -f "$2/pmc.$BASHPID.uds"
}

# iop_pmc_field NS DIR COMMAND FIELD: one field of a pmc answer.
iop_pmc_field() {
	iop_pmc "$1" "$2" "$3" | awk -v f="$4" '$1 == f { print $2; exit }'
}

# iop_cid_hex ID: a clock identity as ptp4l and ptpctl print it
# (001122.3344.556677) as tshark's ptp.v2.clockidentity (0x0011223344556677).
iop_cid_hex() {
	local h=${1//./}
	echo "0x${h,,}"
}

# iop_capture_start NS IFACE FILE: tshark capturing on IFACE in NS into
# FILE until the test ends (or iop_capture_stop).  Waits until it captures.
iop_capture_start() {
	local ns=$1 ifc=$2 f=$3
	touch "$f"
	itest_start "$ns" "$f.log" "$TSHARK" -q -n -i "$ifc" -w "$f"
	iop_capture_pid=${itest_pids[$((${#itest_pids[@]} - 1))]}
	# tshark says "Capturing on ..." once it is running.
	itest_wait_log "$f.log" 'Capturing on' 20 ||
		{ fail "tshark did not start in $ns"; cat "$f.log"; return 1; }
}

# iop_capture_stop PID: stop one capture (tshark flushes the file on SIGINT).
iop_capture_stop() {
	kill -INT "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# iop_count FILE FILTER: how many frames of FILE match the display filter
# FILTER; fails (and prints nothing) if tshark does, e.g. on a filter this
# tshark does not know, so that a broken check can never pass.
iop_count() {
	local out
	out=$("$TSHARK" -r "$1" -n -Y "$2" 2>/dev/null) || return 1
	grep -c . <<<"$out"
	return 0
}

# iop_wire_check TAG FILE OURS_FILTER TYPES...: wire correctness of a
# capture (issue 6), with tshark 4.0's display filters:
#  - every frame that is PTP by its EtherType or UDP port (0x88f7, 319,
#    320) decodes as PTPv2 (ptp.v2.versionptp == 2);
#  - no frame is malformed (_ws.malformed) and no frame carries expert
#    info of error severity (_ws.expert.severity == error);
#  - the frames matching OURS_FILTER (a display filter selecting our side,
#    e.g. by clock identity) include every messageType named in TYPES
#    (tshark's ptp.v2.messagetype values: 0 Sync, 1 Delay_Req, 2 Pdelay_Req,
#    3 Pdelay_Resp, 8 Follow_Up, 9 Delay_Resp, 10 Pdelay_Resp_Follow_Up,
#    11 Announce).
# iop_wire_selftest shows that the first two catch what they must.
iop_wire_check() {
	local tag=$1 f=$2 ours=$3 n_ptp n_v2 n_bad n_err t missing=() seen
	shift 3
	local base='eth.type == 0x88f7 || udp.port == 319 || udp.port == 320'
	if ! n_ptp=$(iop_count "$f" "$base") ||
	   ! n_v2=$(iop_count "$f" "($base) && ptp.v2.versionptp == 2") ||
	   ! n_bad=$(iop_count "$f" '_ws.malformed') ||
	   ! n_err=$(iop_count "$f" '_ws.expert.severity == error') ||
	   ! seen=$("$TSHARK" -r "$f" -n -Y "($base) && ($ours)" -T fields \
		-e ptp.v2.messagetype 2>/dev/null); then
		fail "$tag: wire: tshark could not read $f"
		return 1
	fi
	seen=$(sort -u <<<"$seen" | tr '\n' ' ')
	for t in "$@"; do
		grep -qw -- "$(printf '0x%02x' "$t")" <<<"$seen" || missing+=("$t")
	done
	if [ "$n_ptp" -gt 0 ] && [ "$n_ptp" = "$n_v2" ] && [ "$n_bad" = 0 ] &&
	   [ "$n_err" = 0 ] && [ ${#missing[@]} = 0 ]; then
		pass "$tag: wire: $n_ptp PTP frames, all PTPv2, 0 malformed, 0 expert errors; ours has types $seen"
	else
		fail "$tag: wire: $n_ptp PTP frames, $n_v2 PTPv2, $n_bad malformed, $n_err expert errors; ours has types [$seen], missing [${missing[*]}]"
		"$TSHARK" -r "$f" -n -Y "_ws.malformed || _ws.expert.severity == error" \
			-V 2>/dev/null | head -60
		return 1
	fi
}

# iop_wire_selftest DIR: iop_wire_check on made-up captures: a good Sync
# passes; a truncated one, one whose messageLength overruns the frame, and
# one of versionPTP 1 each fail.  (Checks whose filters matched nothing
# would pass anything.)
iop_wire_selftest() {
	local d=$1 c out ok=1
	python3 - "$d" <<'PY' || { fail "wire self-test: cannot write captures"; return; }
import struct, sys
def pcap(path, payloads):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, p in enumerate(payloads):
            fr = bytes.fromhex("011b19000000020000000001") + b"\x88\xf7" + p
            f.write(struct.pack("<IIII", i, 0, len(fr), len(fr)) + fr)
sync = bytearray(44)
sync[1] = 0x12                          # minorVersionPTP 1, versionPTP 2
struct.pack_into(">H", sync, 2, 44)     # messageLength
sync[20:28] = bytes.fromhex("020000fffe000001")
long_ = bytearray(sync); struct.pack_into(">H", long_, 2, 200)
v1 = bytearray(sync); v1[1] = 0x11
d = sys.argv[1]
pcap(d + "/good.pcap", [bytes(sync)])
pcap(d + "/trunc.pcap", [bytes(sync), bytes(sync[:20])])
pcap(d + "/len.pcap", [bytes(sync), bytes(long_)])
pcap(d + "/v1.pcap", [bytes(sync), bytes(v1)])
PY
	out=$(iop_wire_check selftest "$d/good.pcap" "ptp" 0 2>&1) ||
		{ ok=0; echo "$out"; }
	for c in trunc len v1; do
		if out=$(iop_wire_check "selftest $c" "$d/$c.pcap" "ptp" 0 2>&1); then
			ok=0
			echo "$out"
		fi
	done
	# (the checks ran in subshells: their PASS/FAIL did not count)
	if [ $ok = 1 ]; then
		pass "wire self-test: a good Sync passes; truncated, overlong messageLength and PTPv1 fail"
	else
		fail "wire self-test: the checks do not catch what they must"
	fi
}

# iop_stop_pids FROM TO: stop the processes itest_pids[FROM..TO-1] started
# (one case of a test) and blank their entries, so that the cleanup on EXIT
# never signals a PID that may have been reused.
iop_stop_pids() {
	local i
	for ((i = $1; i < $2; i++)); do
		[ -n "${itest_pids[$i]}" ] && kill "${itest_pids[$i]}" 2>/dev/null
	done
	for ((i = $1; i < $2; i++)); do
		[ -n "${itest_pids[$i]}" ] && wait "${itest_pids[$i]}" 2>/dev/null
		itest_pids[$i]=""
	done
	return 0
}

# iop_status NS DIR FIELD: one field of our `ptpctl --json status`.
iop_status() {
	itest_status_field "$1" "$2" "$3" 2>/dev/null
}

# iop_port_states NS DIR: our ports' states, in port order ("SLAVE MASTER").
iop_port_states() {
	ip netns exec "$1" "$BUILD/ctl/ptpctl" -f "$2/ptp.conf" --json status \
		2>/dev/null | python3 -c 'import json, sys
print(" ".join(p["state"] for p in
    sorted(json.load(sys.stdin)["ports"], key=lambda p: p["port"])))'
}

# iop_wait SECONDS COMMAND...: retry COMMAND every second until it succeeds.
iop_wait() {
	local t0=$SECONDS limit=$1
	shift
	until "$@"; do
		((SECONDS - t0 > limit)) && return 1
		sleep 1
	done
}
