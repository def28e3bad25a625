#!/bin/bash
# The daemons' memory layout, as far as it is fixed at link time:
#  - the thread-local storage of ptp-netd and ptp-clockd (the TLS program
#    header's MemSiz) stays at most 8 KiB: glibc clears a thread's whole
#    static TLS block when the thread starts, so every byte of it is
#    resident in each process whether used or not (lib/ipc.c's decode
#    arena was 64 KiB of it: 64 KiB of RssAnon in each daemon);
#  - a build where configure chose static daemons (the default when the
#    static libraries link) has daemons without a program interpreter
#    (statically linked), one with --disable-static-daemons or sanitizers
#    has both dynamically linked; ptpctl is dynamic either way;
#  - either way the daemons are position-independent (ELF type DYN), so
#    that the kernel places netd, which holds privileges, at random.
set -u
b=${top_builddir:-.}
fails=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
command -v readelf >/dev/null || { echo "FAIL: readelf missing (binutils)"; exit 1; }

# What configure chose (static by default when the static libraries
# link; --disable-static-daemons or a sanitizer build: dynamic).
[ -r "$b/config.h" ] || { echo "FAIL: $b/config.h missing"; exit 1; }
static=no
grep -q '^#define PTPSEP_STATIC_DAEMONS 1' "$b/config.h" && static=yes
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
		pass "$p: linked $linked (configure: static daemons $static)"
	else
		fail "$p: linked $linked, but configure chose static daemons: $static"
	fi
done
if readelf -lW "$b/ctl/ptpctl" 2>/dev/null | grep -q INTERP; then
	pass "ctl/ptpctl: linked dynamic"
else
	fail "ctl/ptpctl: not linked dynamically"
fi
[ "$fails" -eq 0 ] || { echo "memory_layout: $fails failure(s)"; exit 1; }
exit 0
