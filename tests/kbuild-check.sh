#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel-code quality gates:
#   - the module builds with W=1 and sparse (C=1) without a single warning
#     against every kernel of KERNELS (Debian's headers metapackages);
#   - the kernel API probes of kmod/Kbuild (kmod/compat.h): the same source
#     builds against a 6.12 tree with the old syscore API and one with the
#     new, and fails, with compat.h's #error, when the probe is taken away;
#   - checkpatch.pl --strict is clean on every kernel source file.
# Prints PASS/FAIL lines and "kbuild: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
CACHE=${PMCDRV_CACHE:-/var/cache/pmcdrv}
eval "$(tests/vm/kernel)"
check_label=kbuild
. tests/lib/host.sh

command -v sparse >/dev/null || { echo "sparse missing: run 'make deps'" >&2; exit 2; }

# The kernels the module must build against, as Debian's linux-headers-NAME
# metapackages: 6.1 (bookworm's own) and 6.12 (bookworm-security), cloud,
# generic and PREEMPT_RT.  A kernel series added later is one line.
KERNELS=(
	cloud-amd64 amd64 rt-amd64
	6.12-cloud-amd64 6.12-amd64 6.12-rt-amd64
)
# A 6.12 release with the syscore API from before "syscore: Pass context data
# to callbacks" (Debian's 6.12.115 and later have the new one).
OLD_SYSCORE=6.12.111+deb12

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# kdir_of NAME: the build tree of linux-headers-NAME, installed if missing.
kdir_of() {
	local meta=linux-headers-$1 dep
	if ! dpkg-query -W -f='${Status}' "$meta" 2>/dev/null | grep -q 'ok installed'; then
		echo "installing $meta" >&2
		apt-get install -y --no-install-recommends "$meta" >&2 || {
			apt-get update >&2 && apt-get install -y --no-install-recommends "$meta" >&2; } || return 1
	fi
	dep=$(dpkg-query -W -f='${Depends}' "$meta")
	dep=/usr/src/${dep%% *}
	[ -d "$dep" ] && echo "$dep"
}

# copy DIR: the module's sources under build/kbuild/DIR, so builds coexist.
copy() {
	rm -rf "build/kbuild/$1" && mkdir -p "build/kbuild/$1" &&
		cp -r Kbuild kmod common include "build/kbuild/$1/"
}

# w1 NAME KDIR: build at W=1 + sparse in build/kbuild/NAME; PASS when silent.
w1() {
	local name=$1 kdir=$2 out=build/kbuild/$1.log warnings
	copy "$name" || return 1
	if nice -n 10 make -C "$kdir" M="$PWD/build/kbuild/$name" W=1 C=2 modules >"$out" 2>&1; then
		warnings=$(grep -E 'warning:|error:' "$out" | grep -v 'Skipping BTF' || true)
		if [ -z "$warnings" ]; then
			pass "$name ($(basename "$kdir")): module builds with W=1 and sparse (C=2), no warnings"
		else
			fail "$name ($(basename "$kdir")): W=1 and sparse, no warnings" "$(head -n 20 <<<"$warnings")"
		fi
	else
		fail "$name ($(basename "$kdir")): module builds with W=1 and sparse (C=2)" "$(tail -n 30 "$out")"
	fi
}

rm -rf build/kbuild
mkdir -p build/kbuild
declare -A kdirs
for k in "${KERNELS[@]}"; do
	kdirs[$k]=$(kdir_of "$k") || fail "headers of $k" "cannot install linux-headers-$k"
done
# Two builds at a time; each prints its PASS/FAIL line to its own file.
for k in "${KERNELS[@]}"; do
	[ -n "${kdirs[$k]:-}" ] || continue
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
	( passed=0 failed=0; w1 "$k" "${kdirs[$k]}" >"build/kbuild/$k.result"; echo "$passed $failed" >>"build/kbuild/$k.result" ) &
done
wait
for k in "${KERNELS[@]}"; do
	[ -f "build/kbuild/$k.result" ] || continue
	sed '$d' "build/kbuild/$k.result"
	read -r p f < <(tail -n1 "build/kbuild/$k.result")
	passed=$((passed + p)) failed=$((failed + f))
done

# ---- the syscore probe ------------------------------------------------------------
# The old API's tree: Debian's headers of $OLD_SYSCORE, unpacked into the cache
# (not installed: apt would replace the newer ones), their absolute links fixed.
old_tree() {
	local dir=$CACHE/headers/$OLD_SYSCORE tmp f
	if [ ! -f "$dir/.done" ]; then
		echo "fetching linux-headers-$OLD_SYSCORE-cloud-amd64 into $dir" >&2
		tmp=$dir.tmp
		rm -rf "$tmp" && mkdir -p "$tmp/root" || return 1
		(cd "$tmp" && apt-get download "linux-headers-$OLD_SYSCORE-common" \
			"linux-headers-$OLD_SYSCORE-cloud-amd64" "linux-kbuild-$OLD_SYSCORE" >&2) || return 1
		for f in "$tmp"/*.deb; do dpkg-deb -x "$f" "$tmp/root" || return 1; done
		rm -f "$tmp"/*.deb
		# The flavour's Makefile includes the common one by absolute path.
		sed -i "s|/usr/src/|$dir/root/usr/src/|" \
			"$tmp/root/usr/src/linux-headers-$OLD_SYSCORE-cloud-amd64/Makefile" || return 1
		rm -rf "$dir" && mv "$tmp" "$dir" && touch "$dir/.done" || return 1
	fi
	echo "$dir/root/usr/src/linux-headers-$OLD_SYSCORE-cloud-amd64"
}

# cpu_session NAME KDIR [VAR=VALUE...]: compile kmod/cpu_session.o, the syscore
# user, with the probes' variables as given; its log in build/kbuild/NAME.log.
cpu_session() {
	local name=$1 kdir=$2
	shift 2
	copy "$name" &&
		nice -n 10 make -C "$kdir" M="$PWD/build/kbuild/$name" "$@" kmod/cpu_session.o \
			>"build/kbuild/$name.log" 2>&1
}

# syscore_h KDIR: the tree's <linux/syscore_ops.h> (Debian's flavour Makefile
# includes the common tree's).
syscore_h() {
	local src
	src=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$1/Makefile")
	echo "${src:-$1}/include/linux/syscore_ops.h"
}

new=${kdirs[6.12-cloud-amd64]:-}
if old=$(old_tree); then
	if grep -qw register_syscore_ops "$(syscore_h "$old")" && ! grep -qw register_syscore "$(syscore_h "$old")"; then
		pass "$OLD_SYSCORE declares the old syscore API (register_syscore_ops)"
	else
		fail "$OLD_SYSCORE's syscore API" "expected register_syscore_ops() only"
	fi
	w1 "old-syscore-$OLD_SYSCORE" "$old"
	if cpu_session probe-off-old "$old" pmcd-have-syscore=y pmcd-have-syscore-ops=n; then
		fail "the new syscore API forced on $OLD_SYSCORE fails to compile" "it compiled"
	elif grep -qE "error: implicit declaration of function .register_syscore." build/kbuild/probe-off-old.log; then
		pass "the new syscore API forced on $OLD_SYSCORE fails to compile (no register_syscore())"
	else
		fail "the new syscore API forced on $OLD_SYSCORE" "$(grep -m3 error: build/kbuild/probe-off-old.log)"
	fi
else
	fail "headers of $OLD_SYSCORE" "cannot fetch them (apt-get download)"
fi
if [ -n "$new" ]; then
	if grep -qw register_syscore "$(syscore_h "$new")"; then
		pass "$(basename "$new") declares the new syscore API (register_syscore)"
	else
		fail "$(basename "$new")'s syscore API" "expected register_syscore()"
	fi
	# The probe taken away: neither API known, compat.h's #error names what is missing.
	if cpu_session probe-none "$new" pmcd-have-syscore=n pmcd-have-syscore-ops=n; then
		fail "without the syscore probe the build fails" "it compiled"
	elif grep -q 'error: #error "pmcdrv: no known syscore API' build/kbuild/probe-none.log; then
		pass "without the syscore probe the build fails with compat.h's #error naming the API"
	else
		fail "without the syscore probe: compat.h's #error" "$(grep -m3 error: build/kbuild/probe-none.log)"
	fi
	# The probe answering as a version test would (6.12 < 6.19: old API).
	if cpu_session probe-old-new "$new" pmcd-have-syscore=n pmcd-have-syscore-ops=y; then
		fail "the old syscore API forced on $(basename "$new") fails to compile" "it compiled"
	elif grep -qE "error: implicit declaration of function .register_syscore_ops." build/kbuild/probe-old-new.log; then
		pass "the old syscore API forced on $(basename "$new") fails to compile (no register_syscore_ops())"
	else
		fail "the old syscore API forced on $(basename "$new")" "$(grep -m3 error: build/kbuild/probe-old-new.log)"
	fi
fi

# checkpatch.pl is not in the headers package: take it from linux-source once.
ckdir=$CACHE/checkpatch-$(dpkg-query -W -f='${Version}' linux-headers-$GUEST_RELEASE 2>/dev/null || echo unknown)
if [ ! -x "$ckdir/checkpatch.pl" ]; then
	src=$(apt-cache depends linux-headers-$GUEST_RELEASE 2>/dev/null | sed -n 's/.*Depends: linux-kbuild-\([0-9.]*\)$/\1/p' | head -n1)
	src=${src:-6.1}
	echo "fetching checkpatch.pl from linux-source-$src into $ckdir" >&2
	tmp=$(mktemp -d)
	if (cd "$tmp" && apt-get download "linux-source-$src" >&2) &&
	   dpkg-deb --fsys-tarfile "$tmp"/linux-source-*.deb |
	   tar -xO "./usr/src/linux-source-$src.tar.xz" |
	   tar -xJ -C "$tmp" --wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'; then
		mkdir -p "$ckdir"
		cp "$tmp"/linux-source-*/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$ckdir/"
		chmod +x "$ckdir/checkpatch.pl"
	fi
	rm -rf "$tmp"
fi
if [ -x "$ckdir/checkpatch.pl" ]; then
	ck() { "$ckdir/checkpatch.pl" --no-tree --strict --terse --show-types "$@" 2>&1 |
		grep -E ': (WARNING|ERROR|CHECK):' || true; }
	# shim.h's user-space half must use stdint, and spells the kernel's attribute macros.
	out=$(ck -f $(ls kmod/*.c kmod/*.h | grep -v '\.mod\.c$') \
		common/*.c include/pmcdrv/pmu.h include/uapi/linux/pmcdrv.h
	      ck --ignore PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO -f include/pmcdrv/shim.h)
	if [ -z "$out" ]; then
		pass "checkpatch.pl --strict clean"
	else
		fail "checkpatch.pl --strict clean" "$(echo "$out" | head -n 30)"
	fi
else
	fail "checkpatch.pl available" "could not fetch linux-source to get scripts/checkpatch.pl"
fi

# Every guest run carries the whole tree (tests/vm/run): keep only the logs.
find build/kbuild -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +

# Leave a normal build behind for the guest.
make -s -C "$GUEST_KDIR" M="$PWD" modules >/dev/null 2>&1 || fail "module rebuild" "plain build failed"
finish
