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
# its UDS socket, in domain IOP_DOMAIN (0 unless set); prints pmc's answer.
# ptp4l answers management in its own domain only, over UDS too: a test
# whose ptp4l runs in another domain sets IOP_DOMAIN.
iop_pmc() {
	ip netns exec "$1" "$PMC" -u -s "$2/ptp4l.uds" \
		-i "$2/pmc.$BASHPID.uds" -b 0 -d "${IOP_DOMAIN:-0}" "$3" 2>&1
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

# iop_unicast_setup: what the unicast tests (unicast_*.sh) share: MEASURE,
# SETTLE, LOCK_TIMEOUT (seconds) and FREE_SKIP (samples) from the
# environment, else 30, 10, 90 and 10; CONFIGS, Debian's linuxptp example
# files (LINUXPTP_CONFIGS), whose UNICAST-SLAVE.cfg and UNICAST-MASTER.cfg
# must be there; MASTER_IP and SLAVE_IP, itest_pair's two namespaces.
iop_unicast_setup() {
	MEASURE=${MEASURE:-30}
	SETTLE=${SETTLE:-10}
	LOCK_TIMEOUT=${LOCK_TIMEOUT:-90}
	FREE_SKIP=${FREE_SKIP:-10}
	CONFIGS=${LINUXPTP_CONFIGS:-/usr/share/doc/linuxptp/configs}
	MASTER_IP=10.201.0.1
	SLAVE_IP=10.201.0.2
	iop_need_files "$CONFIGS/UNICAST-SLAVE.cfg" "$CONFIGS/UNICAST-MASTER.cfg"
}

# iop_need_files FILE...: each of Debian's linuxptp example files is there.
iop_need_files() {
	local f
	for f in "$@"; do
		[ -r "$f" ] || { echo "FAIL: $f missing (linuxptp)"; exit 1; }
	done
}

# iop_debian_cfg FILE DIR SRC GLOBALS SED...: a ptp4l.conf of ptp4l's
# safety and path settings (iop_ptp4l_conf), then Debian's file SRC with
# the sed expressions SED applied and its [eth1] section on dropped (there
# is no eth1), then a [global] section (ptp4l's own syntax for "back to
# global") of the lines GLOBALS (may be empty) and free_running 1 and
# kernel_leap 0 last, whatever SRC says (iop_ptp4l checks the lines).
iop_debian_cfg() {
	local f=$1 dir=$2 src=$3 globals=$4
	shift 4
	iop_ptp4l_conf "$f" "$dir"
	sed "$@" -e '/^\[eth1\]/,$d' "$src" >>"$f"
	grep -v '^free_running\|^kernel_leap' "$f" >"$f.tmp"
	{
		echo "[global]"
		[ -z "$globals" ] || printf '%s\n' "$globals"
		echo "free_running 1"
		echo "kernel_leap 0"
	} >>"$f.tmp"
	mv "$f.tmp" "$f"
}

# iop_utab FILE ID IFACE LINES [KEY VALUE]...: append a unicast master
# table ID (logQueryInterval 2) of the address lines LINES (e.g. "UDPv4
# 10.201.0.1", or "peer_address X" and "L2 X" on two lines) and the port
# section [IFACE] that uses it, with the KEY VALUE lines; ours and ptp4l's
# syntax alike.  [IFACE] must not be in FILE yet.
iop_utab() {
	local f=$1 id=$2 ifc=$3 lines=$4
	shift 4
	printf '[unicast_master_table]\ntable_id %s\nlogQueryInterval 2\n%s\n[%s]\nunicast_master_table %s\n' \
		"$id" "$lines" "$ifc" "$id" >>"$f"
	while [ $# -ge 2 ]; do echo "$1 $2" >>"$f"; shift 2; done
}

# iop_start_pair GM CAPNS GNS CNS PD OD [IFACE]: one grandmaster and one
# client: a capture on CAPNS's eth0 into PD/capture.pcapng (iop_capture_pid
# its PID), then the grandmaster in GNS and after it the client in CNS.
# GM ours: our daemons (OD/ptp.conf) serve and the ptp4l of PD is the
# client; GM ptp4l: the other way round.  The ptp4l runs on IFACE (eth0).
iop_start_pair() {
	local gm=$1 capns=$2 gns=$3 cns=$4 pd=$5 od=$6 ifc=${7:-eth0}
	iop_capture_start "$capns" eth0 "$pd/capture.pcapng" || return 1
	if [ "$gm" = ours ]; then
		itest_daemons "$gns" "$od" "$od/ptp.conf" || return 1
		iop_ptp4l "$cns" "$pd" "$ifc" || return 1
	else
		iop_ptp4l "$gns" "$pd" "$ifc" || return 1
		itest_daemons "$cns" "$od" "$od/ptp.conf" || return 1
	fi
}

# iop_wait_samples LOG PATTERN N SECONDS: until LOG has N lines matching.
iop_wait_samples() {
	local t0=$SECONDS
	until [ "$(grep -c -- "$2" "$1" 2>/dev/null)" -ge "$3" ]; do
		((SECONDS - t0 > $4)) && return 1
		sleep 1
	done
}

# iop_measure_free TAG NAME PD OD: a free-running ptp4l client (DIR PD) of
# our grandmaster (DIR OD) prints FREE_SKIP offsets within LOCK_TIMEOUT s
# (else fails, shows both logs and returns 1); its offsets from that
# FREE_SKIP-th sample over MEASURE s meet itest_measure's free bounds (as
# sync.sh's), reported as NAME.
iop_measure_free() {
	local tag=$1 name=$2 pd=$3 od=$4 from
	if ! iop_wait_samples "$pd/ptp4l.log" 'master offset' "$FREE_SKIP" \
	    "$LOCK_TIMEOUT"; then
		fail "$tag: ptp4l printed no $FREE_SKIP offsets in ${LOCK_TIMEOUT}s"
		tail -20 "$pd/ptp4l.log"; tail -20 "$od/clockd.log"
		return 1
	fi
	from=$(grep -n 'master offset' "$pd/ptp4l.log" | sed -n "${FREE_SKIP}p" |
		cut -d: -f1)
	sleep "$MEASURE"
	itest_measure "$tag: $name" "$pd/ptp4l.log" "$((from - 1))" free
}

# iop_measure_servo TAG NAME OD PD: our client (DIR OD) of a ptp4l (DIR PD)
# locks (its first s2 sample) within LOCK_TIMEOUT s (else fails, shows both
# logs and returns 1); SETTLE s later, MEASURE s of its offsets meet
# itest_measure's servo bounds, reported as NAME.
iop_measure_servo() {
	local tag=$1 name=$2 od=$3 pd=$4 from
	if ! iop_wait_samples "$od/clockd.log" ' s2 freq' 1 "$LOCK_TIMEOUT"; then
		fail "$tag: $name did not lock in ${LOCK_TIMEOUT}s"
		tail -20 "$od/clockd.log"; tail -20 "$pd/ptp4l.log"
		return 1
	fi
	pass "$tag: $name locked"
	sleep "$SETTLE"
	from=$(wc -l <"$od/clockd.log")
	sleep "$MEASURE"
	itest_measure "$tag: $name" "$od/clockd.log" "$from" servo
}

# iop_one_step TAG OD: our clock of DIR OD stepped exactly once (its
# first offset), never again.
iop_one_step() {
	local steps
	steps=$(grep -c 'stepping the clock' "$2/clockd.log")
	if [ "$steps" = 1 ]; then
		pass "$1: our clock stepped exactly once"
	else
		fail "$1: our clock stepped $steps times"
	fi
}

# iop_no_refusal TAG LOG [PATTERN]: LOG (a ptp4l's or ours) has no line
# of a refused unicast grant (PATTERN, by default 'rejected\|refused').
iop_no_refusal() {
	local re=${3:-'rejected\|refused'}
	if grep -q -- "$re" "$2"; then
		fail "$1: $(basename "$2") logged a refusal"; grep -- "$re" "$2"
	else
		pass "$1: $(basename "$2") logged no refused grant"
	fi
}

# iop_ptp4l_parent TAG NS DIR ID [PORT]: the ptp4l of DIR has our clock
# ID as its grandmaster and, with PORT, our port ID-PORT as its parent.
iop_ptp4l_parent() {
	local tag=$1 ns=$2 dir=$3 id=$4 port=${5:-} par="" gm
	gm=$(iop_pmc_field "$ns" "$dir" 'GET PARENT_DATA_SET' grandmasterIdentity)
	[ -z "$port" ] ||
		par=$(iop_pmc_field "$ns" "$dir" 'GET PARENT_DATA_SET' parentPortIdentity)
	if [ -n "$id" ] && [ "$gm" = "$id" ] &&
	   { [ -z "$port" ] || [ "$par" = "$id-$port" ]; }; then
		pass "$tag: ptp4l's grandmaster is ours ($gm)${port:+, its parent $par}"
	else
		fail "$tag: ptp4l's grandmaster '$gm'${port:+, parent '$par'}, ours '$id'"
	fi
}

# iop_gm_is_ptp4l TAG NS DIR PNS PD: our clock (DIR, in NS) has the ptp4l
# of PD (in PNS) as its grandmaster.
iop_gm_is_ptp4l() {
	local gm pid
	gm=$(iop_status "$2" "$3" gm_identity)
	pid=$(iop_ptp_id "$4" "$5")
	if [ -n "$gm" ] && [ "$gm" = "$pid" ]; then
		pass "$1: our grandmaster is ptp4l's $gm"
	else
		fail "$1: our grandmaster '$gm', ptp4l '$pid'"
	fi
}

# iop_expect_count TAG FILE FILTER OP N: the number of frames of FILE the
# display filter FILTER matches is OP ([ ]'s -eq, -gt ...) N; a filter
# tshark fails on fails.
iop_expect_count() {
	local n
	if n=$(iop_count "$2" "$3") && [ "$n" "$4" "$5" ]; then
		pass "$1: wire: $n frames [$3] ($4 $5)"
	else
		fail "$1: wire: ${n:-?} frames [$3], expected $4 $5"
	fi
}

# iop_wire_profile TAG FILE: every PTP frame of FILE (IOP_WIRE_ALL, a
# display filter) is as the profile says: none matches "(IOP_WIRE_ALL) &&
# (IOP_WIRE_BAD)"; IOP_WIRE_WHAT says what that is, for the report.  The
# profile's test sets the three.
iop_wire_profile() {
	local n bad f="($IOP_WIRE_ALL) && ($IOP_WIRE_BAD)"
	if ! n=$(iop_count "$2" "$IOP_WIRE_ALL") || ! bad=$(iop_count "$2" "$f"); then
		fail "$1: tshark could not read $2"
		return 1
	fi
	if [ "$n" -gt 0 ] && [ "$bad" = 0 ]; then
		pass "$1: all $n PTP frames $IOP_WIRE_WHAT"
	else
		fail "$1: $bad of $n PTP frames not $IOP_WIRE_WHAT"
		"$TSHARK" -r "$2" -n -Y "$f" -T fields -e ip.dst -e eth.dst \
			-e ptp.v2.domainnumber -e ptp.v2.flags.unicast 2>/dev/null |
			sort | uniq -c | head
	fi
}

# ---- the telecom profiles (g8275_1.sh, g8275_2.sh) ---------------------------
# The test fills iop_prof with the profile's KEY VALUE words (its file's,
# then domainNumber and what else every node of the test runs).

# iop_our_conf FILE DIR KEY VALUE...: the profile for our daemons.
iop_our_conf() {
	local f=$1 dir=$2
	shift 2
	itest_conf "$f" "$dir" "${iop_prof[@]}" "$@"
}

# iop_ptp_conf DIR KEY VALUE...: the profile for a ptp4l (DIR/ptp4l.conf).
iop_ptp_conf() {
	local dir=$1
	shift
	iop_ptp4l_conf "$dir/ptp4l.conf" "$dir" "${iop_prof[@]}" "$@"
}

# iop_ptp_id NS DIR: a ptp4l's clockIdentity.
iop_ptp_id() {
	iop_pmc_field "$1" "$2" 'GET DEFAULT_DATA_SET' clockIdentity
}

# iop_gm_id KIND NS DIR: the grandmaster of our clock (KIND ours) or of a
# ptp4l (KIND ptp4l) of DIR in NS.
iop_gm_id() {
	if [ "$1" = ours ]; then
		iop_status "$2" "$3" gm_identity
	else
		iop_pmc_field "$2" "$3" 'GET PARENT_DATA_SET' grandmasterIdentity
	fi
}

# iop_gm_is KIND NS DIR WANT: that clock's grandmaster is WANT.
iop_gm_is() { [ "$(iop_gm_id "$1" "$2" "$3")" = "$4" ]; }

# iop_gm_holds KIND NS DIR WANT HOLD: that clock takes WANT as its
# grandmaster within BMC_TIMEOUT s and still has it HOLD s later.  Else
# iop_got is the one it has, and its log's tail is shown.
iop_gm_holds() {
	iop_got=""
	iop_wait "$BMC_TIMEOUT" iop_gm_is "$1" "$2" "$3" "$4" && sleep "$5" &&
		iop_gm_is "$1" "$2" "$3" "$4" && return 0
	iop_got=$(iop_gm_id "$1" "$2" "$3")
	if [ "$1" = ours ]; then tail -5 "$3/clockd.log"; else tail -5 "$3/ptp4l.log"; fi
	return 1
}

# iop_lp_setup NSPREFIX [ADDR]: two grandmasters of the profile, ours in
# namespace ga (directory gad) and a ptp4l in gb (gbd), linked by their
# eth0 to eth1 and eth2 of the client node sn; with ADDR 1, over
# 10.201.1.0/24 (ga .1, sn .2) and 10.201.2.0/24 (gb .1, sn .2).  Captures
# on both grandmasters' links (ga_cap, gb_cap their PIDs); sets ga_id and
# gb_id to the two clock identities.
iop_lp_setup() {
	ga="$1a"; gb="$1b"; sn="$1s"
	itest_ns "$ga"; itest_ns "$gb"; itest_ns "$sn"
	itest_link "$ga" eth0 "$sn" eth1
	itest_link "$gb" eth0 "$sn" eth2
	if [ "${2:-0}" = 1 ]; then
		ip -n "$ga" addr add 10.201.1.1/24 dev eth0
		ip -n "$sn" addr add 10.201.1.2/24 dev eth1
		ip -n "$gb" addr add 10.201.2.1/24 dev eth0
		ip -n "$sn" addr add 10.201.2.2/24 dev eth2
	fi
	itest_tmpdir gad
	itest_tmpdir gbd
	iop_our_conf "$gad/ptp.conf" "$gad"
	iop_ptp_conf "$gbd"
	iop_capture_start "$ga" eth0 "$gad/capture.pcapng" || return 1
	ga_cap=$iop_capture_pid
	iop_capture_start "$gb" eth0 "$gbd/capture.pcapng" || return 1
	gb_cap=$iop_capture_pid
	iop_ptp4l "$gb" "$gbd" eth0 || return 1
	itest_daemons "$ga" "$gad" "$gad/ptp.conf" || return 1
	iop_wait 20 iop_lp_ids || { fail "lp: no clock identities"; return 1; }
	echo "INFO: lp: grandmasters: ours (eth1) $ga_id, ptp4l (eth2) $gb_id"
}

# iop_lp_ids: ga_id and gb_id, the clock identities of our grandmaster (ga,
# gad) and ptp4l's (gb, gbd); fails until both are known.
iop_lp_ids() {
	ga_id=$(iop_status "$ga" "$gad" clock_identity)
	gb_id=$(iop_ptp_id "$gb" "$gbd")
	# iop_status prints None for a field clockd does not show yet.
	[ -n "$ga_id" ] && [ "$ga_id" != None ] && [ -n "$gb_id" ] &&
		[ "$gb_id" != None ]
}

# iop_lp_equal_quality: the two grandmasters' Announce (on the captures of
# iop_lp_setup, stopped) carry the same clockClass, clockAccuracy,
# offsetScaledLogVariance and priority2, one value each.
iop_lp_equal_quality() {
	local a b f='-e ptp.v2.an.grandmasterclockclass -e ptp.v2.an.grandmasterclockaccuracy -e ptp.v2.an.grandmasterclockvariance -e ptp.v2.an.priority2'
	a=$("$TSHARK" -r "$gad/capture.pcapng" -n -Y "ptp.v2.messagetype == 11 && ptp.v2.clockidentity == $(iop_cid_hex "$ga_id")" -T fields $f 2>/dev/null | sort -u)
	b=$("$TSHARK" -r "$gbd/capture.pcapng" -n -Y "ptp.v2.messagetype == 11 && ptp.v2.clockidentity == $(iop_cid_hex "$gb_id")" -T fields $f 2>/dev/null | sort -u)
	if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$(wc -l <<<"$a")" = 1 ]; then
		pass "lp: both grandmasters announce class/accuracy/variance/priority2 $(tr '\t' / <<<"$a")"
	else
		fail "lp: grandmasters differ: ours [$a], ptp4l [$b]"
	fi
}
