#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel-code quality gates, against the guest kernel's headers:
#   - the module builds with W=1 and sparse (C=1) without a single warning;
#   - checkpatch.pl --strict is clean on every kernel source file.
# Prints PASS/FAIL lines and "kbuild: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
CACHE=${PMCDRV_CACHE:-/var/cache/pmcdrv}
eval "$(tests/vm/kernel)"
check_label=kbuild
. tests/lib/host.sh

command -v sparse >/dev/null || { echo "sparse missing: run 'make deps'" >&2; exit 2; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -s -C "$GUEST_KDIR" M="$PWD" clean >/dev/null 2>&1
if make -C "$GUEST_KDIR" M="$PWD" W=1 C=2 modules >"$log" 2>&1; then
	warnings=$(grep -E 'warning:|error:' "$log" | grep -v 'Skipping BTF' || true)
	if [ -z "$warnings" ]; then
		pass "module builds with W=1 and sparse (C=2), no warnings"
	else
		fail "module builds with W=1 and sparse (C=2), no warnings" "$(echo "$warnings" | head -n 20)"
	fi
else
	fail "module builds with W=1 and sparse (C=2)" "$(tail -n 30 "$log")"
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
	# compat.h exists to test kernel versions; shim.h's user-space half must use stdint.
	out=$(ck -f $(ls kmod/*.c kmod/*.h | grep -v -e '\.mod\.c$' -e '/compat\.h$') \
		common/*.c include/pmcdrv/pmu.h include/uapi/linux/pmcdrv.h
	      ck --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f kmod/compat.h
	      ck --ignore PREFER_KERNEL_TYPES -f include/pmcdrv/shim.h)
	if [ -z "$out" ]; then
		pass "checkpatch.pl --strict clean"
	else
		fail "checkpatch.pl --strict clean" "$(echo "$out" | head -n 30)"
	fi
else
	fail "checkpatch.pl available" "could not fetch linux-source to get scripts/checkpatch.pl"
fi

# Leave a normal build behind for the guest.
make -s -C "$GUEST_KDIR" M="$PWD" modules >/dev/null 2>&1 || fail "module rebuild" "plain build failed"
finish
