#!/bin/bash
# The leapfile key at --check-config and at clockd's start: tzdata's
# leap-seconds.list (tests/vectors, expired 2026-06-28) is accepted with a
# warning that it has expired; a missing file, a malformed one (CRLF, an
# offset jump of 2) and, as root, one that clockd_user cannot read are
# refused with the reason, by both daemons' --check-config and by
# clockd's start; without a leapfile nothing is read.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

vec=$s/tests/vectors/leap-seconds.list
[ -r "$vec" ] || { echo "FAIL: $vec missing"; exit 1; }
cp "$vec" "$tmp/good.list"
chmod 0644 "$tmp/good.list"
chmod 0755 "$tmp"
sed 's/$/\r/' "$vec" >"$tmp/crlf.list"
sed 's/^3692217600\([[:space:]]*\)37/3692217600\138/' "$vec" >"$tmp/jump.list"
grep -qE '^3692217600[[:space:]]+38' "$tmp/jump.list" || fail "jump.list not made"

# conf LEAPFILE: a configuration with time_stamping software (no PHC)
conf() {
	printf '[global]\ntime_stamping software\nclock_device system\nleapfile %s\n' \
		"$1" >"$tmp/ptp.conf"
}

# expect PROG RC PATTERN what: --check-config's exit code and a line
expect() {
	local prog=$1 rc=$2 pat=$3 what=$4 out got
	out=$("$b/$prog" -f "$tmp/ptp.conf" --check-config 2>&1)
	got=$?
	if [ "$got" = "$rc" ] && grep -qE -- "$pat" <<<"$out"; then
		pass "${prog##*/}: $what"
	else
		fail "${prog##*/}: $what (exit $got, want $rc; /$pat/):"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
}

for prog in clockd/ptp-clockd netd/ptp-netd; do
	conf "$tmp/good.list"
	if [ "$(date -u +%s)" -ge 1782604800 ]; then
		expect $prog 0 "leapfile .*good.list has expired" \
			"tzdata's file accepted, expired: warned"
	else
		expect $prog 0 "configuration .* OK" "tzdata's file accepted"
	fi
	conf "$tmp/none.list"
	expect $prog 1 "leapfile .*none.list: No such file or directory" \
		"a missing file refused"
	conf "$tmp/crlf.list"
	expect $prog 1 "leapfile .*crlf.list: line 1: carriage return" \
		"CRLF refused"
	conf "$tmp/jump.list"
	expect $prog 1 "leapfile .*jump.list: line [0-9]+: offset not the previous one \+1 or -1" \
		"an offset jump of 2 refused"
	conf "$tmp"
	expect $prog 1 "leapfile .*: not a regular file" "a directory refused"
	# clockd reads the file as clockd_user: root checks that for it
	if [ "$(id -u)" = 0 ] && id ptpsep-clockd >/dev/null 2>&1; then
		cp "$vec" "$tmp/secret.list"
		chown 0:0 "$tmp/secret.list"
		chmod 0600 "$tmp/secret.list"
		conf "$tmp/secret.list"
		expect $prog 1 "leapfile .*secret.list: not readable by clockd_user ptpsep-clockd \(mode 600" \
			"a file clockd_user cannot read refused"
		chgrp ptpsep-clockd "$tmp/secret.list"
		chmod 0640 "$tmp/secret.list"
		expect $prog 0 "configuration .* OK" \
			"readable through clockd_user's group"
	else
		echo "NOTE: not root or no ptpsep-clockd user: the clockd_user read check is not run"
	fi
done

# clockd's start (not --check-config) refuses a malformed file the same way
conf "$tmp/crlf.list"
out=$(timeout 10 "$b/clockd/ptp-clockd" -m -f "$tmp/ptp.conf" 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "leapfile .*crlf.list: line 1: carriage return" <<<"$out"; then
	pass "clockd's start refuses a malformed leapfile"
else
	fail "clockd's start with a CRLF leapfile: exit $rc: $out"
fi

[ $fails = 0 ] && echo "leapfile.sh: all passed" || echo "leapfile.sh: $fails failed"
exit $((fails > 0))
