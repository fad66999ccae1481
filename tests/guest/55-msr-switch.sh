# SPDX-License-Identifier: GPL-2.0
# PMU MSR accesses per context switch, exact, from the kernel's msr:* and
# sched:sched_switch tracepoints: bench/msr-guard.sh on the ping-pong of
# tests/guest/pingpong.c (bench/pingpong.c).  Both bounds of every case are
# the exact counts (no timing, nothing to flake): 0 per switch between two
# tasks of one session; N rdpmc + 1 wrmsr out and 1 wrmsr in between a task
# counting N events and an untracked one.  docs/design.md, "The switch path".
. tests/lib/guest.sh

module_loaded || insmod "$PMCDRV_KO"
MSR_GUARD_PINGPONG=build/tests/pingpong bash bench/msr-guard.sh
