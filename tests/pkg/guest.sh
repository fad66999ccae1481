#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest, for tests/pkg-check.sh: tests/vm/run --module build/pkg/pmcdrv.ko
# -- tests/pkg/guest.sh build/pkg [SUFFIX].  SUFFIX (-612): the module DKMS built
# for another kernel, build/pkg/pmcdrv-612.ko with build/pkg/build-id-612; the
# session tests are left out there (that kernel's lane runs them on the same
# source).  The DKMS-built module (loaded by the guest's
# init), the scratch root the packages were unpacked into (P/root), and the
# program built against it through pkg-config (P/libpmc-user):
#   - the module is the DKMS build, /dev/pmcdrv is 0600 root:root by default;
#   - the session tests (tests/guest/50-sessions.sh) pass on it;
#   - the program and pmcctl from the scratch root count;
#   - with the package's udev rule applied (its GROUP and MODE, as udev would),
#     a user in group pmc counts its own command; a user outside it gets
#     pmcctl's permission error naming the fix.
. tests/lib/guest.sh
P=${1:?usage: tests/pkg/guest.sh BUILD/PKG [SUFFIX]}
suffix=${2:-}
root=$PWD/$P/root
ma=x86_64-linux-gnu
pmcctl_pkg=$root/usr/bin/pmcctl
loop=$PWD/build/progs/loop

# ---- the module -------------------------------------------------------------------
# Its GNU build ID (the last 20 bytes of the note) against the one pkg-check.sh read from the .ko.
id=$(od -An -v -tx1 /sys/module/pmcdrv/notes/.note.gnu.build-id 2>/dev/null | tr -d ' \n' | tail -c 40)
want=$(cat "$P/build-id$suffix")
[ -n "$want" ] && [ "$id" = "$want" ] && pass "the loaded module is the DKMS build (build ID $id)" ||
	fail "the loaded module is the DKMS build" "build ID '$id', the DKMS .ko's '$want'"
expect_eq "/dev/pmcdrv: the module's default mode, 0600 root:root" "$(stat -c '%a %U:%G' /dev/pmcdrv)" \
	"600 root:root"

# ---- the session tests on the DKMS module ---------------------------------------------
if [ -z "$suffix" ]; then
	echo "--- tests/guest/50-sessions.sh on the DKMS module"
	bash tests/guest/50-sessions.sh 2>&1 | sed -E 's/^(PASS|FAIL|SKIP): /\1: 50-sessions: /'
fi

# ---- the program built through pkg-config, pmcctl from the scratch root -------------------
export LD_LIBRARY_PATH=$root/usr/lib/$ma
n=1000000
if have_pmu; then ev=task-clock,instructions:u; else ev=task-clock; fi
out=$("$P/libpmc-user" "$ev" $n 2>&1)
expect_eq "libpmc-user (pkg-config build, scratch root's libpmc.so.0): exit 0" "$?" 0
echo "$out"
tc=$(awk '$1 == "task-clock" { print $2 }' <<<"$out")
[ -n "$tc" ] && [ "$tc" -gt 0 ] && pass "libpmc-user: task-clock counted ($tc ns)" ||
	fail "libpmc-user: task-clock" "got '$tc'"
if have_pmu; then
	ins=$(awk '$1 == "instructions:u" { print $2 }' <<<"$out")
	# The loop is 2N instructions; the rest is libpmc's return from attach and its call to disable.
	[ -n "$ins" ] && [ "$ins" -ge $((2 * n)) ] && [ "$ins" -lt $((2 * n + 10000)) ] &&
		pass "libpmc-user: instructions:u = the loop's 2N + a little ($ins)" ||
		fail "libpmc-user: instructions:u" "got '$ins', want 2N=$((2 * n)) to 2N+10000"
fi
unset LD_LIBRARY_PATH
out=$("$pmcctl_pkg" run -x, -e ${ev/instructions:u/0x00c0:u} -- $loop "$(printf '%09d' $n)" 2>&1 >/dev/null)
expect_eq "pmcctl from the scratch root: run exits 0" "$?" 0
if have_pmu; then
	expect_eq "pmcctl from the scratch root: the loop's exact count 2N+103" \
		"$(awk -F, '$3 == "0x00c0:u" { print $1 }' <<<"$out")" $((2 * n + 103))
fi

# ---- group pmc, as the package installs it ----------------------------------------------
rule=$root/lib/udev/rules.d/60-pmcdrv.rules
group=$(sed -n 's/.*KERNEL=="pmcdrv".*GROUP="\([^"]*\)".*/\1/p' "$rule")
mode=$(sed -n 's/.*KERNEL=="pmcdrv".*MODE="\([^"]*\)".*/\1/p' "$rule")
expect_eq "the udev rule: group pmc, mode 0660" "$group $mode" "pmc 0660"
chmod 755 /
grep -q '^pmc:' /etc/group || echo 'pmc:x:990:alice' >>/etc/group
grep -q '^alice:' /etc/group || echo 'alice:x:1001:' >>/etc/group
grep -q '^bob:' /etc/group || echo 'bob:x:1002:' >>/etc/group
grep -q '^alice:' /etc/passwd || echo 'alice:x:1001:1001:in group pmc:/tmp:/bin/sh' >>/etc/passwd
grep -q '^bob:' /etc/passwd || echo 'bob:x:1002:1002:not in group pmc:/tmp:/bin/sh' >>/etc/passwd
# What udev does with the rule when the device appears.
chgrp "$group" /dev/pmcdrv && chmod "$mode" /dev/pmcdrv
expect_eq "/dev/pmcdrv after the rule: 660 root:pmc" "$(stat -c '%a %U:%G' /dev/pmcdrv)" "660 root:pmc"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 3 >/proc/sys/kernel/perf_event_paranoid	# Debian's default: no unprivileged perf
expect_eq "alice is in group pmc" "$(su alice -s /bin/sh -c 'id -Gn' </dev/null | tr ' ' '\n' | grep -x pmc)" pmc
as() { su "$1" -s /bin/sh -c "$2" </dev/null; }
if have_pmu; then uev=0x00c0:u; else uev=task-clock; fi
out=$(as alice "$pmcctl_pkg run -x, -e $uev -- $loop $(printf '%09d' $n)" 2>&1 >/dev/null)
expect_eq "alice (group pmc) counts her own command at paranoid 3: exit 0" "$?" 0
val=$(awk -F, -v e=$uev '$3 == e { print $1 }' <<<"$out")
if have_pmu; then
	expect_eq "alice: the loop's exact count 2N+103" "$val" $((2 * n + 103))
else
	[ -n "$val" ] && [ "$val" != 0 ] && pass "alice: task-clock counted ($val)" || fail "alice: task-clock" "$out"
fi
out=$(as alice "LD_LIBRARY_PATH=$root/usr/lib/$ma $PWD/$P/libpmc-user task-clock $n" 2>&1)
expect_eq "alice: the pkg-config program counts too" "$?" 0
if have_pmu; then
	out=$(as alice "$pmcctl_pkg run -x, -e instructions:k -- true" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 1 ] && grep -q "CAP_PERFMON" <<<"$out" &&
		pass "alice: kernel mode still needs CAP_PERFMON at paranoid 3 (exit 1)" ||
		fail "alice: kernel mode at paranoid 3" "exit $rc: $out"
else
	echo "SKIP: alice: kernel-mode events: no PMU in this guest"
fi
out=$(as alice "$pmcctl_pkg stat -a -e task-clock -t 0.1" 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q "CAP_PERFMON" <<<"$out" &&
	pass "alice: CPU sessions still need CAP_PERFMON (exit 1)" || fail "alice: stat -a" "exit $rc: $out"
out=$(as bob "$pmcctl_pkg run -e task-clock -- true" 2>&1)
rc=$?
echo "bob: $out"
expect_eq "bob (not in group pmc): exit 3" "$rc" 3
grep -q "no permission" <<<"$out" && grep -q "usermod -aG pmc" <<<"$out" &&
	pass "bob: the permission error names the fix (usermod -aG pmc)" ||
	fail "bob: permission error" "'$out' does not say 'no permission' and 'usermod -aG pmc'"
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
chgrp root /dev/pmcdrv && chmod 600 /dev/pmcdrv
