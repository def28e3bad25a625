#!/bin/bash
# capture.sh - capture real PTPv2 frames from linuxptp's ptp4l and pmc for the
# codec's test vectors (tests/unit/vectors_ptp4l.h, tests/fuzz/corpus/ptp_msg).
#
# Safety: all traffic stays inside two network namespaces made here (prefix
# "codecvec-") joined by one veth pair; every ptp4l slave runs with
# free_running 1 and a ptp4l master never adjusts a clock, so the machine's
# clock is never stepped or slewed.  The EXIT trap kills only the PIDs this
# script started and deletes only the namespaces it made.
#
# Usage: sudo tests/vectors/capture.sh OUTDIR [SECONDS]
# Writes OUTDIR/{l2_e2e,l2_p2p,udp4_unicast}.pcap and OUTDIR/*.log.
set -eu

out=${1:?usage: capture.sh OUTDIR [SECONDS]}
secs=${2:-10}
mkdir -p "$out"
out=$(cd "$out" && pwd)
chmod 0777 "$out"	# dumpcap may drop to a non-root user to write

tag=$$
nsm=codecvec-m-$tag
nss=codecvec-s-$tag
ifm=cvm$tag
ifs=cvs$tag
pids=()
made_ns=()
tmp=$(mktemp -d)

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	for p in "${made_ns[@]}"; do
		ip netns delete "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || { echo "capture.sh: needs root" >&2; exit 1; }
for c in ptp4l pmc tshark ip; do
	command -v $c >/dev/null || { echo "capture.sh: $c missing" >&2; exit 1; }
done

ip netns add "$nsm"; made_ns+=("$nsm")
ip netns add "$nss"; made_ns+=("$nss")
ip link add "$ifm" netns "$nsm" type veth peer name "$ifs" netns "$nss"
ip -n "$nsm" addr add 10.250.77.1/24 dev "$ifm"
ip -n "$nss" addr add 10.250.77.2/24 dev "$ifs"
ip -n "$nsm" link set lo up
ip -n "$nss" link set lo up
ip -n "$nsm" link set "$ifm" up
ip -n "$nss" link set "$ifs" up
# veth has no fixed MAC; pin them so the captures are reproducible.
ip -n "$nsm" link set "$ifm" address 02:00:5e:00:77:01 2>/dev/null || true
ip -n "$nss" link set "$ifs" address 02:00:5e:00:77:02 2>/dev/null || true
sleep 1

# Common settings of every run.  free_running 1 on both sides: neither
# ptp4l ever adjusts a clock (a master would not anyway, but a ptp4l that
# is not free running writes the clock's frequency back at start-up).
common() {
	cat <<CONF
[global]
free_running		1
kernel_leap		0
logging_level		6
verbose			1
use_syslog		0
tx_timestamp_timeout	100
logAnnounceInterval	0
logSyncInterval		-1
logMinDelayReqInterval	-1
logMinPdelayReqInterval	-1
CONF
}

# $1 = run name, $2 = transport option, $3 = extra master config,
# $4 = extra slave config, $5 = pmc transport option (empty: no pmc)
run() {
	local name=$1 topt=$2 mextra=$3 sextra=$4 popt=$5 cap pm ps
	# Global keys first: the extras may open [sections].
	{ common; printf 'uds_address\t\t%s\n' "$tmp/$name-m.sock"; \
	  printf '%b\n' "$mextra"; } > "$tmp/$name-m.cfg"
	{ common; printf 'uds_address\t\t%s\n' "$tmp/$name-s.sock"; \
	  printf 'slaveOnly\t\t1\n'; \
	  printf '%b\n' "$sextra"; } > "$tmp/$name-s.cfg"
	cp "$tmp/$name-m.cfg" "$tmp/$name-s.cfg" "$out/"

	ip netns exec "$nsm" tshark -q -n -i "$ifm" -F pcap \
		-w "$out/$name.pcap" -a duration:$((secs + 2)) \
		>"$out/$name-tshark.log" 2>&1 &
	cap=$!; pids+=("$cap")
	sleep 2
	ip netns exec "$nsm" ptp4l $topt -S -f "$tmp/$name-m.cfg" \
		-i "$ifm" >"$out/$name-master.log" 2>&1 &
	pm=$!; pids+=("$pm")
	ip netns exec "$nss" ptp4l $topt -S -f "$tmp/$name-s.cfg" \
		-i "$ifs" >"$out/$name-slave.log" 2>&1 &
	ps=$!; pids+=("$ps")
	sleep $((secs / 2))
	if [ -n "$popt" ]; then
		# Management over the wire from the slave's namespace: GETs
		# answered with data, one SET answered with an error status,
		# a GET with an empty data field (-z), and one GET with
		# majorSdoId (transportSpecific) 1 that ptp4l ignores.
		ip netns exec "$nss" pmc $popt -i "$ifs" -b 0 \
			-s "$tmp/$name-m.sock" \
			'GET CURRENT_DATA_SET' 'GET PARENT_DATA_SET' \
			'GET USER_DESCRIPTION' 'SET PRIORITY1 100' \
			>"$out/$name-pmc.log" 2>&1 || true
		ip netns exec "$nss" pmc $popt -i "$ifs" -b 0 -z \
			-s "$tmp/$name-m.sock" 'GET TIME_PROPERTIES_DATA_SET' \
			>>"$out/$name-pmc.log" 2>&1 || true
		ip netns exec "$nss" pmc $popt -i "$ifs" -b 0 -t 1 \
			-s "$tmp/$name-m.sock" 'GET DEFAULT_DATA_SET' \
			>>"$out/$name-pmc.log" 2>&1 || true
	fi
	sleep $((secs - secs / 2))
	kill "$pm" "$ps" 2>/dev/null || true
	wait "$pm" "$ps" 2>/dev/null || true
	wait "$cap" 2>/dev/null || true
}

# 1. Layer 2, end to end delay, two-step, with path trace TLVs on Announce.
run l2_e2e "-2 -E" "path_trace_enabled\t1" "path_trace_enabled\t1" "-2"
# 2. Layer 2, peer to peer delay (Pdelay_*), 802.1AS-style FOLLOW_UP_INFO TLV.
run l2_p2p "-2 -P" "follow_up_info\t\t1" "follow_up_info\t\t1" "-2"
# 3. UDPv4 unicast negotiation (Signaling with REQUEST/GRANT TLVs), E2E.
run udp4_unicast "-4 -E" "unicast_listen\t\t1" \
	"[unicast_master_table]\ntable_id\t\t1\nlogQueryInterval\t1\nUDPv4\t\t\t10.250.77.1\n[$ifs]\nunicast_master_table\t1" \
	"-4"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "ptp4l: $(ptp4l -v)"
	echo "linuxptp package: $(dpkg-query -W -f '${Version}' linuxptp 2>/dev/null)"
	echo "tshark: $(tshark -v 2>/dev/null | head -1)"
	echo "kernel: $(uname -r)"
} > "$out/capture-info.txt"
echo "capture.sh: wrote $out"
