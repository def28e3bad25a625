#!/bin/sh
# The daemons' --check-config: linuxptp's default.cfg loads with warnings
# only (exit 0); a typo'd key fails naming file, line and key; a bad value
# fails the same way; --help/--version work; every program refuses an
# unknown option with exit 2.
set -u
b=${top_builddir:-.}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

default_cfg=/usr/share/doc/linuxptp/configs/default.cfg
if [ ! -r "$default_cfg" ]; then
	# check.sh installs linuxptp; without it this check cannot run.
	echo "FAIL: $default_cfg missing (apt-get install linuxptp)"
	exit 1
fi

for prog in clockd/ptp-clockd netd/ptp-netd; do
	name=${prog#*/}
	out=$("$b/$prog" -f "$default_cfg" --check-config 2>"$tmp/err")
	rc=$?
	if [ $rc = 0 ] && grep -q "configuration $default_cfg OK" <<EOF2
$out
EOF2
	then
		pass "$name accepts linuxptp's default.cfg"
	else
		fail "$name on default.cfg: exit $rc: $out $(cat "$tmp/err")"
	fi
	if grep -q "warning: .*default.cfg:[0-9]*: key '[A-Za-z_0-9.]*' is known to ptp4l but not implemented" "$tmp/err"; then
		pass "$name warns about unimplemented keys, naming file, line and key"
	else
		fail "$name gave no warning naming an unimplemented key: $(head -3 "$tmp/err")"
	fi
	if grep -q -i "error" "$tmp/err"; then
		fail "$name reported an error on default.cfg: $(grep -i error "$tmp/err" | head -3)"
	fi
done

printf '[global]\n# a comment\ndomainNumber 0\ndomianNumber 3\n' > "$tmp/typo.cfg"
"$b/clockd/ptp-clockd" -f "$tmp/typo.cfg" --check-config >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc != 0 ] && grep -q "typo.cfg:4: unknown key 'domianNumber'" "$tmp/err"; then
	pass "typo'd key: exit $rc, names file, line and key"
else
	fail "typo'd key: exit $rc: $(cat "$tmp/err")"
fi

printf '[global]\npriority1 256\n' > "$tmp/range.cfg"
"$b/clockd/ptp-clockd" -f "$tmp/range.cfg" --check-config >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc != 0 ] && grep -q "range.cfg:2:.*priority1" "$tmp/err"; then
	pass "out-of-range value: exit $rc, names file, line and key"
else
	fail "out-of-range value: exit $rc: $(cat "$tmp/err")"
fi

"$b/clockd/ptp-clockd" -f "$tmp/missing.cfg" --check-config >/dev/null 2>&1 &&
	fail "missing file accepted" || pass "missing file refused"

for prog in clockd/ptp-clockd netd/ptp-netd ctl/ptpctl; do
	"$b/$prog" --version | grep -q "$PACKAGE_VERSION_RE" &&
		pass "${prog#*/} --version" || fail "${prog#*/} --version"
	"$b/$prog" --help | grep -q "usage:" &&
		pass "${prog#*/} --help" || fail "${prog#*/} --help"
	"$b/$prog" --no-such-option >/dev/null 2>&1
	[ $? = 2 ] && pass "${prog#*/} refuses an unknown option (exit 2)" ||
		fail "${prog#*/} unknown option not exit 2"
done

# Command-line key overrides are range-checked like the file.
"$b/netd/ptp-netd" --domainNumber=300 --check-config >/dev/null 2>&1
[ $? != 0 ] && pass "bad --key=value refused" || fail "bad --key=value accepted"
"$b/netd/ptp-netd" --domainNumber=24 -i eth0 --check-config >"$tmp/out" 2>&1 &&
	grep -q "1 port" "$tmp/out" && pass "--key=value and -i accepted" ||
	fail "--key=value and -i: $(cat "$tmp/out")"

echo "check_config: $fails failure(s)"
[ $fails = 0 ]
