#!/bin/bash
# The daemons' memory layout, as far as it is fixed at link time:
#  - the thread-local storage of ptp-netd and ptp-clockd (the TLS program
#    header's MemSiz) stays at most 8 KiB: glibc clears a thread's whole
#    static TLS block when the thread starts, so every byte of it is
#    resident in each process whether used or not (lib/ipc.c's decode
#    arena was 64 KiB of it: 64 KiB of RssAnon in each daemon);
#  - a build configured with --enable-static-daemons has daemons without
#    a program interpreter (statically linked), and one without has both
#    dynamically linked (ptpctl is dynamic either way);
#  - either way the daemons are position-independent (ELF type DYN), so
#    that the kernel places netd, which holds privileges, at random.
set -u
b=${top_builddir:-.}
fails=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
command -v readelf >/dev/null || { echo "FAIL: readelf missing (binutils)"; exit 1; }

static=no
grep -q -- "--enable-static-daemons" "$b/config.status" 2>/dev/null &&
	! grep -q -- "--enable-static-daemons=no\|--disable-static-daemons" \
		"$b/config.status" && static=yes
for p in netd/ptp-netd clockd/ptp-clockd; do
	f=$b/$p
	[ -x "$f" ] || { fail "$p not built"; continue; }
	hdr=$(readelf -hlW "$f") || { fail "$p: readelf failed"; continue; }
	if grep -q '^ *Type: *DYN' <<<"$hdr"; then
		pass "$p: position-independent"
	else
		fail "$p: not position-independent (no ASLR of the program)"
	fi
	tls=$(awk '$1 == "TLS" { print $6 }' <<<"$hdr")	# 0x...
	tls=$((${tls:-0}))
	if [ "$tls" -le 8192 ]; then
		pass "$p: TLS block $tls bytes (at most 8192)"
	else
		fail "$p: TLS block $tls bytes, over 8192: each byte is resident"
	fi
	if grep -q INTERP <<<"$hdr"; then linked=dynamic; else linked=static; fi
	want=dynamic
	[ "$static" = yes ] && want=static
	if [ "$linked" = "$want" ]; then
		pass "$p: linked $linked (--enable-static-daemons=$static)"
	else
		fail "$p: linked $linked, but --enable-static-daemons=$static"
	fi
done
[ "$fails" -eq 0 ] || { echo "memory_layout: $fails failure(s)"; exit 1; }
exit 0
