#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test of the project, on a fresh Debian 12 machine as root.
#   1. deps     install what is missing (tests/deps.sh)
#   2. build    libpmc, pmcctl, test programs; pmcdrv.ko against the guest kernel
#   3. unit     shared logic and libpmc under ASan+UBSan (CUnit)
#      man      docs/pmcctl.1 renders cleanly and matches every --help
#   4. kbuild   module at W=1 + sparse, checkpatch --strict
#   5. qemu     the project's QEMU with the emulated PMU (cached; tests/qemu/build)
#   6. guest    tests/guest/* in the guest with the emulated PMU, again on a CPU
#               without PMU, and on Debian's PREEMPT_RT kernel (rt-amd64) with the PMU
#   7. debug    tests/guest/* on the debug kernel (KASAN, lockdep, kmemleak, pm_test)
# Each stage ends with "STAGE: N passed, N failed"; the last line totals them.
set -uo pipefail
cd "$(dirname "$0")/.."
total_p=0 total_f=0
summary=()

# stage NAME COMMAND...: run, stream its output, add up its closing counts.
stage() {
	local name=$1 out rc line p f
	shift
	echo "==== $name: $*"
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$out" | tail -n1)
	if [ -n "$line" ]; then
		p=$(sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
		f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
	else
		p=$([ "$rc" = 0 ] && echo 1 || echo 0)
		f=$([ "$rc" = 0 ] && echo 0 || echo 1)
	fi
	# A stage that fails must count at least one failure, whatever it printed.
	[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	summary+=("$(printf '%-8s %4d passed, %d failed' "$name" "$p" "$f")")
	rm -f "$out"
	return "$rc"
}

build() {
	eval "$(tests/vm/kernel)" || return 1
	make -s tests && make -s module KDIR="$GUEST_KDIR"
}

# The PREEMPT_RT module is built from a copy, so both builds can coexist.
build_rt() {
	local k
	k=$(GUEST_FLAVOUR=rt-amd64 tests/vm/kernel) || return 1
	eval "$k"
	rm -rf build/rt && mkdir -p build/rt && cp -r kmod include build/rt/ &&
	(cd build/rt/kmod && rm -f -- *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers) &&
	make -s -C "$GUEST_KDIR" M="$PWD/build/rt/kmod" modules
}

# The debug kernel (tests/vm/kernel-debug: KASAN, KFENCE, lockdep, kmemleak...),
# built from Debian's source and cached; pmcdrv is built from a copy under build/debug.
build_debug() {
	local k
	k=$(GUEST_FLAVOUR=debug tests/vm/kernel) || return 1
	eval "$k"
	rm -rf build/debug && mkdir -p build/debug && cp -r kmod include build/debug/ &&
	(cd build/debug/kmod && rm -f -- *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers) &&
	make -s -C "$GUEST_KDIR" M="$PWD/build/debug/kmod" modules
}

stage deps tests/deps.sh || { echo "make check: cannot install dependencies" >&2; exit 1; }
stage build build
stage unit build/tests/unit
stage man tests/man-check.sh
stage kbuild tests/kbuild-check.sh
qemu_ok=0
if [ -x tests/qemu/build ]; then
	stage qemu tests/qemu/build && qemu_ok=1
fi
if [ "$qemu_ok" = 1 ]; then
	stage guest-pmu tests/vm/run -- tests/guest/run-all
	stage guest-nopmu tests/vm/run --no-pmu -- tests/guest/run-all
else
	stage guest-nopmu tests/vm/run -- tests/guest/run-all
fi
if stage build-rt build_rt; then
	stage guest-rt env GUEST_FLAVOUR=rt-amd64 tests/vm/run --module build/rt/kmod/pmcdrv.ko \
		-- tests/guest/run-all
fi

if stage build-debug build_debug; then
	stage guest-debug env GUEST_FLAVOUR=debug tests/vm/run --module build/debug/kmod/pmcdrv.ko \
		--mem 2G --timeout 5400 --append log_buf_len=8M -- tests/guest/run-debug
fi

echo "==== summary"
printf '%s\n' "${summary[@]}"
echo "$total_p passed, $total_f failed"
[ "$total_f" = 0 ]
