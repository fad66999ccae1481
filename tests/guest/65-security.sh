# SPDX-License-Identifier: GPL-2.0
# Security (docs/security.md), each check as an unprivileged user: who may be
# attached to (against the kernel's own PTRACE_MODE_READ_REALCREDS verdict),
# setuid exec, perf_event_paranoid and the device-group opt-in
# (security_attach); another user's counts through RDPMC, the fork/ATTACH
# race, ATTACH racing exit, the confused deputy and paranoid 3's capability
# (security_leaks).
. tests/lib/guest.sh

bin=build/tests/security_attach
if [ ! -x $bin ]; then
	fail "security_attach" "$bin not built (make tests)"
	exit 0
fi
# The guest's initramfs root is mode 0700: let nobody reach its programs and
# files, as on any installed system.
chmod 755 /
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
# A setuid-root copy of the test program and a plain one, where nobody can run them.
dir=$(mktemp -d /tmp/pmcd-sec.XXXXXX)
chmod 755 "$dir"
cp $bin "$dir/suid" && cp $bin "$dir/plain"
chown root:root "$dir/suid" "$dir/plain"
chmod 4755 "$dir/suid"
chmod 755 "$dir/plain"
$bin "$dir/suid" "$dir/plain"
leaks=build/tests/security_leaks
if [ -x $leaks ]; then
	cp $leaks "$dir/leaks-suid"
	chown root:root "$dir/leaks-suid"
	chmod 4755 "$dir/leaks-suid"
	$leaks "$dir/leaks-suid"
else
	fail "security_leaks" "$leaks not built (make tests)"
fi
rm -rf "$dir"
