# SPDX-License-Identifier: GPL-2.0
# PMU MSR accesses per context switch, exact, from the kernel's msr:* and
# sched:sched_switch tracepoints: bench/msr-guard.sh on the ping-pong of
# tests/guest/pingpong.c (bench/pingpong.c) and tests/guest/pingpong-rdpmc.c
# (bench/pingpong-rdpmc.c).  Both bounds of every case are the exact counts
# (no timing, nothing to flake): 0 per switch between two tasks of one
# session; N rdpmc + 1 wrmsr out and 1 wrmsr in between a task counting N
# events and an untracked one; into tasks that may execute RDPMC, 2N rdpmc
# within one session and N rdpmc + N + 2 wrmsr from one session to another.
# docs/design.md, "The switch path".
. tests/lib/guest.sh

module_loaded || insmod "$PMCDRV_KO"
MSR_GUARD_PINGPONG=build/tests/pingpong MSR_GUARD_PINGPONG_RDPMC=build/tests/pingpong-rdpmc \
	bash bench/msr-guard.sh

# ---- the global registers when pmcdrv lets a CPU go -----------------------------
# Releasing the PMU puts back the GLOBAL_CTRL bits of the counters pmcdrv used
# as it found them (their event selects are zero by then) and clears the
# GLOBAL_STATUS overflow bits they set, through GLOBAL_OVF_CTRL.  A session
# counts r00c0:u (a GP counter) and instructions:u (fixed 0) on one CPU;
# while its task blocks, every GP counter is set 16 events from wrapping
# (a legacy write sign-extends bit 31), so the one in use overflows when the
# task runs on.  FIFOs order it all: no timing.
if have_pmu; then
	modprobe msr
	cpu=$(($(nproc) > 1 ? 1 : 0))
	gctrl=0x10000000f		# GP 0-3 and fixed 0 enabled: bits pmcdrv uses
	wrmsr -p $cpu 0x38f $gctrl
	wrmsr -p $cpu 0x390 0x70000000f
	dir=$(mktemp -d)
	mkfifo "$dir/go" "$dir/done"
	taskset -c $cpu pmcctl run -e r00c0:u,instructions:u -- \
		sh -c "read x <'$dir/go'; build/progs/loop 000001000; read x <'$dir/done'" >/dev/null 2>&1 &
	run_pid=$!
	exec 3>"$dir/go"		# opens once the task has run on $cpu and blocks
	for m in 0xc1 0xc2 0xc3 0xc4; do wrmsr -p $cpu $m 0xfffffff0; done
	echo go >&3
	exec 3>&-
	exec 4>"$dir/done"		# the loop has run
	status=$(rdmsr -p $cpu -c 0x38e)
	check "msr: a GP counter of the session wrapped (GLOBAL_STATUS $status)" \
		test $((status & 0xf)) -ne 0
	echo done >&4
	exec 4>&-
	wait $run_pid
	rm -rf "$dir"
	expect_eq "msr: GLOBAL_CTRL as found once the session ended" \
		"$(rdmsr -p $cpu -c 0x38f)" "$gctrl"
	status=$(rdmsr -p $cpu -c 0x38e)
	expect_eq "msr: no overflow bit of pmcdrv's counters left in GLOBAL_STATUS" \
		"$(printf '0x%x' $((status & 0x70000000f)))" 0x0
else
	echo "SKIP: global register checks: no PMU in this guest"
fi
