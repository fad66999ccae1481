#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test of the project, on a fresh Debian 12 machine as root.
#   1. deps     install what is missing (tests/deps.sh)
#   2. build    libpmc, pmcctl, test programs (WERROR=1); pmcdrv.ko against the guest kernel
#   3. unit     shared logic and libpmc under ASan+UBSan (CUnit)
#      unit-coverage  the same tests built with gcov: line and branch coverage
#               of user/ and common/ (tests/coverage.sh --unit)
#      layers   one-way layers, read off the built objects (tests/layers-check.sh)
#      man      docs/pmcctl.1 renders cleanly and matches every --help
#      plot     pmcctl plot of the two-phase fixture: PNG, SVG, exit codes (tests/plot-check.sh)
#      mpi      pmcctl run under MPICH's and Open MPI's launchers, pmcctl report over
#               the ranks' files (tests/mpi-check.sh, on the host)
#   4. kbuild   module at W=1 + sparse against Debian's 6.1 and 6.12 (cloud, amd64, rt),
#               the syscore probe's proof, checkpatch --strict
#      pkg      Debian packages + lintian, DKMS against the guest kernel, make install,
#               the packaged pieces in the guest (tests/pkg-check.sh)
#   5. qemu     the project's QEMU with the emulated PMU (cached; tests/qemu/build),
#               and what only its trace shows (tests/qemu/init-check)
#   6. guest    tests/guest/* in the guest with the emulated PMU, again on a CPU
#               without PMU, on Debian's 6.12 cloud kernel and 6.12 PREEMPT_RT kernel
#               (6.12-rt-amd64) with the PMU;
#               the PMU-facing scripts on each other PMU model (perfmon v4, 8 GP
#               counters, no full-width writes, 40-bit counters)
#   7. debug    tests/guest/* on a debug kernel built from Debian's source (KASAN,
#               lockdep, kmemleak, pm_test), then a kmemleak scan; the module's
#               line and branch coverage over it (gcov, tests/coverage.sh)
# Stages 6 and 7 run as lanes side by side, PMCDRV_CHECK_JOBS at a time (default:
# the CPU count); their output is printed whole, lane by lane, once all are done.
# Each stage ends with "STAGE: N passed, N failed" (optionally ", N skipped");
# the last line totals the passes and failures.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
total_p=0 total_f=0 total_s=0
summary=() failures=()

# count NAME RC SECONDS OUTPUT: add up a finished stage's closing counts.
count() {
	local name=$1 rc=$2 secs=$3 out=$4 line p f s
	line=$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$out" | tail -n1)
	if [ -n "$line" ]; then
		p=$(sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
		f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
		s=$(sed -nE 's/.*, ([0-9]+) skipped.*/\1/p' <<<"$line")
	else
		p=$([ "$rc" = 0 ] && echo 1 || echo 0)
		f=$([ "$rc" = 0 ] && echo 0 || echo 1)
	fi
	# A stage that fails must count at least one failure, whatever it printed.
	[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	total_s=$((total_s + ${s:-0}))
	# Each stage's wall-clock seconds, to see where CI's 90 minutes go.
	summary+=("$(printf '%-12s %4d passed, %d failed%s (%d s)' "$name" "$p" "$f" "${s:+, $s skipped}" "$secs")")
	# What failed, again at the end of the log, where a CI page that shows
	# only the tail still shows it: the stage's FAIL lines, or its last lines
	# when it printed none (a timeout, a crash, a hung guest).
	[ "$f" = 0 ] && return
	failures+=("---- $name (exit $rc):")
	if grep -q '^FAIL' "$out"; then
		mapfile -t -O "${#failures[@]}" failures < <(grep '^FAIL' "$out" | head -n 20)
	else
		mapfile -t -O "${#failures[@]}" failures < <(tail -n 50 "$out")
	fi
}

# stage NAME COMMAND...: run, stream its output, add up its closing counts.
stage() {
	local name=$1 out rc t0
	shift
	echo "==== $name: $*"
	t0=$SECONDS
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	count "$name" "$rc" $((SECONDS - t0)) "$out"
	rm -f "$out"
	return "$rc"
}

# Lanes: the guest stages run side by side, PMCDRV_CHECK_JOBS at a time
# (default: the CPU count).  Each guest is one single-threaded QEMU (TCG with
# icount), so on CI's 2 cores one lane at a time left a core idle for most of
# make check.  A lane is a function whose stages (lstage) run one after the
# other; its output is held back and printed whole, lane by lane in the order
# the lanes were queued, once all have finished, so the log reads as if they
# had run in turn.  A line says when each lane starts and ends.
lanes_dir=$(mktemp -d)
trap 'rm -rf "$lanes_dir"' EXIT
jobs_max=${PMCDRV_CHECK_JOBS:-$(nproc)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "make check: PMCDRV_CHECK_JOBS must be a positive number" >&2; exit 2; }
lanes=()

# lstage NAME COMMAND...: one stage of a lane, run in the lane's background job.
lstage() {
	local name=$1 d rc t0
	shift
	d=$lanes_dir/$lane
	echo "$name" >>"$d/stages"
	echo "==== $name: $*" >"$d/$name.out"
	t0=$SECONDS
	"$@" >>"$d/$name.out" 2>&1
	rc=$?
	echo "$rc $((SECONDS - t0))" >"$d/$name.rc"
	return "$rc"
}

# queue LANE: start lane function LANE once fewer than jobs_max lanes run.
queue() {
	local lane=$1
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	mkdir -p "$lanes_dir/$lane"
	lanes+=("$lane")
	echo "==== lane $lane started ($(date -u +%H:%M:%S))"
	(
		t0=$SECONDS
		"$lane"
		rc=$?
		echo "==== lane $lane finished in $((SECONDS - t0)) s, exit $rc ($(date -u +%H:%M:%S))"
	) &
}

# drain: wait for every lane, then print and count their stages in order.
drain() {
	local lane name rc secs
	wait
	for lane in "${lanes[@]}"; do
		[ -f "$lanes_dir/$lane/stages" ] || continue
		while read -r name; do
			cat "$lanes_dir/$lane/$name.out"
			read -r rc secs <"$lanes_dir/$lane/$name.rc" 2>/dev/null || { rc=1 secs=0; }
			count "$name" "$rc" "$secs" "$lanes_dir/$lane/$name.out"
		done <"$lanes_dir/$lane/stages"
	done
	lanes=()
}

build() {
	eval "$(tests/vm/kernel)" || return 1
	make -s WERROR=1 tests build/tests/unit-cov && make -s module KDIR="$GUEST_KDIR"
}

# build_copy DIR FLAVOUR [VAR=VALUE...]: pmcdrv built from a copy under
# build/DIR against the kernel of GUEST_FLAVOUR=FLAVOUR, so builds for several
# kernels coexist; the VAR=VALUEs go to its make (PMCDRV_DEBUG=1: kmod/debug.h).
build_copy() {
	local k dir=$1 flavour=$2
	shift 2
	k=$(GUEST_FLAVOUR=$flavour tests/vm/kernel) || return 1
	eval "$k"
	rm -rf "build/$dir" && mkdir -p "build/$dir" && cp -r Kbuild kmod common include "build/$dir/" &&
	make -s -C "$GUEST_KDIR" M="$PWD/build/$dir" clean &&
	make -s -C "$GUEST_KDIR" M="$PWD/build/$dir" "$@" modules
}

stage deps tests/deps.sh || { echo "make check: cannot install dependencies" >&2; exit 1; }
stage build build
stage unit build/tests/unit
stage unit-coverage tests/coverage.sh --unit
stage layers tests/layers-check.sh
stage man tests/man-check.sh
stage plot tests/plot-check.sh
stage mpi tests/mpi-check.sh
stage serve tests/serve-check.sh
stage kbuild tests/kbuild-check.sh
# QEMU before pkg: pkg's guest run uses the project's QEMU when it is built,
# and on a fresh machine it is not built yet (it then ran on a CPU without
# a PMU and skipped the counting checks).
qemu_ok=0
if [ -x tests/qemu/build ]; then
	stage qemu tests/qemu/build && qemu_ok=1
fi
# What only QEMU's trace shows: INIT and the emulated PMU (a guest boot).
[ "$qemu_ok" = 1 ] && stage qemu-init tests/qemu/init-check
# tests/vm/stress refuses, and records nothing, when a run cannot start.
stage stress-check tests/vm/stress-check
stage pkg tests/pkg-check.sh
# The guest lanes: the two long ones first (the PMU lane, and the debug lane,
# the longest with its kernel build on an empty cache), the short ones last, so
# that with two jobs no long lane starts late (measured: docs/testing.md).
# The PMU lane runs 600 of 75-abuse's load/unload cycles (the other lanes its
# default 100): about 4 more minutes, hence the longer timeout.  It ran 1,000
# (741 s of the host's) until make check passed 75 minutes (docs/testing.md).
# 64-metrics walks every metric of the model, and 74-serve abuses the
# exporter's HTTP side, in the PMU lane only (PMCDRV_METRIC_WALK=0 in the
# debug, 6.12 and RT lanes, PMCDRV_SERVE_ABUSE=0 in the 6.12 and RT lanes).
lane_pmu() {
	lstage guest-pmu tests/vm/run --timeout 2400 -- env PMCDRV_ABUSE_CYCLES=600 tests/guest/run-all
}
# The debug kernel (tests/vm/kernel-debug) is built once from linux-source-6.1 and cached;
# the module with the delay points race tests use (kmod/debug.h), and with gcov
# (PMCDRV_GCOV=1: the kernel has CONFIG_GCOV_KERNEL): the guest sends its counts
# out, and the coverage stage prints kmod/'s line and branch coverage over the
# whole suite, with an HTML report in build/coverage/kmod/html (tests/coverage.sh).
# KCFLAGS=-Werror: a warning only this kernel's options raise (a KASAN frame
# over the kernel's FRAME_WARN) fails the build, as W=1 warnings fail kbuild-check.
lane_debug() {
	lstage build-debug build_copy debug debug PMCDRV_DEBUG=1 PMCDRV_GCOV=1 KCFLAGS=-Werror || return 1
	lstage guest-debug tests/coverage.sh --extract build/coverage/kmod -- \
		env GUEST_FLAVOUR=debug tests/vm/run --module build/debug/kmod/pmcdrv.ko \
		--mem 2G --timeout 5400 --append log_buf_len=8M -- env PMCDRV_METRIC_WALK=0 \
		PMCDRV_GCOV_DUMP=1 tests/guest/run-debug
	local rc=$?
	lstage coverage tests/coverage.sh --report build/debug build/coverage/kmod
	return "$rc"
}
# Debian's 6.12 (bookworm-security; GUEST_FLAVOUR=6.12-FLAVOUR resolves the
# newest 6.12 of that flavour): the whole suite on the cloud kernel, and on
# PREEMPT_RT, mainline in 6.12.  The 6.12 RT lane replaced the 6.1 RT lane
# (docs/testing.md says why); 6.1 rt-amd64 is still built in the kbuild stage.
# 6.12's perf knows hybrid parts by their cpu_core and cpu_atom PMUs, and
# takes each type's counters from CPUID leaf 0x23 where there is one: the
# hybrid test on the emulated Alder Lake with leaf 0x23 (adl23) under 6.12
# too (about 40 s).
lane_612() {
	local rc=0
	lstage build-612 build_copy 612 6.12-cloud-amd64 || return 1
	lstage guest-612 env GUEST_FLAVOUR=6.12-cloud-amd64 tests/vm/run \
		--module build/612/kmod/pmcdrv.ko --timeout 1800 -- env PMCDRV_METRIC_WALK=0 \
		PMCDRV_SERVE_ABUSE=0 PMCDRV_FUZZ_SECONDS=15 tests/guest/run-all || rc=1
	if [ "$qemu_ok" = 1 ]; then
		lstage guest-612-adl23 env GUEST_FLAVOUR=6.12-cloud-amd64 tests/vm/run --pmu-model adl23 \
			--module build/612/kmod/pmcdrv.ko -- tests/guest/run-all 10-module 41-hybrid || rc=1
	fi
	return "$rc"
}
lane_rt() {
	lstage build-rt build_copy rt 6.12-rt-amd64 &&
		lstage guest-rt env GUEST_FLAVOUR=6.12-rt-amd64 tests/vm/run --module build/rt/kmod/pmcdrv.ko \
			--timeout 1800 -- env PMCDRV_METRIC_WALK=0 PMCDRV_SERVE_ABUSE=0 \
			PMCDRV_FUZZ_SECONDS=15 tests/guest/run-all
}
# A real Prometheus on the host scrapes pmcctl serve in a guest (passt
# networking): exact cgroup counts through its query API (tests/prom-check.sh,
# about 75 s).
lane_prom() {
	lstage prom tests/prom-check.sh
}
# The guest without a PMU: a model lane, its subset documented (docs/testing.md).
# 75-abuse (about 200 s) and 74-serve's HTTP abuse (about 30 s) are left out:
# nothing in them differs without a PMU, and the four full lanes run both.
# The fuzzer runs 15 guest seconds here and in the 6.12 cloud, RT and hybrid
# lanes (30 in the PMU and debug lanes): 30 cost about 210 s of the host's.
lane_nopmu() {
	local nopmu=(env PMCDRV_SERVE_ABUSE=0 PMCDRV_FUZZ_SECONDS=15 PMCDRV_GUEST_LEAVE_OUT=75-abuse
		     tests/guest/run-all)
	if [ "$qemu_ok" = 1 ]; then
		lstage guest-nopmu tests/vm/run --timeout 1800 --no-pmu -- "${nopmu[@]}"
	else
		lstage guest-nopmu tests/vm/run -- "${nopmu[@]}"
	fi
}
# The other PMU models (tests/vm/run --pmu-model, tests/qemu/README.md),
# each on the scripts that exercise the PMU: a few minutes a lane.
lane_models() {
	local model rc=0
	local td
	for model in v4 gp8 nofw w40; do
		# v4 and gp8 count the Skylake top-down events: level 1 without PERF_METRICS,
		# -M TopdownL1 against perf's, and the two-phase run pmcctl plot draws
		# (with their own counter count and PMU version: the exact MSR
		# accesses per switch; nofw and w40 differ from the default model
		# in counter writes and width only, which 55-msr-switch's counts
		# do not depend on)
		td=""
		case $model in v4|gp8) td="55-msr-switch 67-topdown-gp 64-metrics 86-plot" ;; esac
		lstage "guest-$model" tests/vm/run --pmu-model "$model" -- tests/guest/run-all \
			10-module 40-emulated-pmu 50-sessions 60-pmcctl $td || rc=1
	done
	return "$rc"
}
# The emulated Sapphire Rapids (perfmon v5, PERF_METRICS): the PMU-facing
# scripts and the top-down test, which skips on every other model.
lane_spr() {
	lstage guest-spr tests/vm/run --timeout 1800 --pmu-model spr -- tests/guest/run-all \
		10-module 40-emulated-pmu 50-sessions 55-msr-switch 58-selfread 60-pmcctl 62-regions 64-metrics \
		66-topdown
}
# The emulated hybrid Alder Lake (a P-core and an E-core): the module and the
# hybrid test, which skips on every other model, with the scripts that pass
# there and reach the hybrid paths (load/unload, the ioctls and the claim,
# MSR accesses per switch, the self-read page, the security checks, attach,
# the MSR device, cgroups, CPU and task sessions together, stat, the fuzzer:
# docs/testing.md says why the
# others are not yet); again with CPUID leaf 0x23 (adl23: each core type's counters
# enumerated as Meteor Lake and later do), the module and the hybrid test.
# A lane of its own, queued before the shorter no-PMU, SPR and Prometheus
# lanes.
lane_adl() {
	local rc=0
	lstage guest-adl tests/vm/run --pmu-model adl -- env PMCDRV_FUZZ_SECONDS=15 tests/guest/run-all \
		10-module 20-loadunload 41-hybrid 50-sessions 55-msr-switch 58-selfread 65-security \
		68-attach 70-msr-fallback 76-cgroup 77-share 80-stat 90-fuzz || rc=1
	lstage guest-adl23 tests/vm/run --pmu-model adl23 -- tests/guest/run-all 10-module 41-hybrid || rc=1
	return "$rc"
}
# The order (longest first, as measured in docs/testing.md) ends the two
# queues close together: PMU, debug, models, RT, 6.12, hybrid, no PMU, SPR,
# Prometheus.
[ "$qemu_ok" = 1 ] && queue lane_pmu
queue lane_debug
[ "$qemu_ok" = 1 ] && queue lane_models
queue lane_rt
queue lane_612
[ "$qemu_ok" = 1 ] && queue lane_adl
queue lane_nopmu
[ "$qemu_ok" = 1 ] && queue lane_spr
[ "$qemu_ok" = 1 ] && queue lane_prom
drain

echo "==== summary"
printf '%s\n' "${summary[@]}"
[ "$total_s" != 0 ] && echo "($total_s tests skipped: their SKIP lines above say why)"
if [ "${#failures[@]}" != 0 ]; then
	echo "==== what failed"
	printf '%s\n' "${failures[@]}"
fi
echo "make check took $SECONDS s"
echo "$total_p passed, $total_f failed"
[ "$total_f" = 0 ]
