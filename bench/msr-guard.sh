#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# MSR accesses per context switch: a regression guard that cannot flake.
# In the guest, with pmcdrv loaded:
#   tests/vm/run -- bench/msr-guard.sh        (bench/run builds build/bench/pingpong)
#
# The ping-pong (build/bench/pingpong) runs pinned to one CPU under a pmcdrv
# session while the msr:read_msr, msr:write_msr, msr:rdpmc and
# sched:sched_switch tracepoints record (bench/lib/msrtrace.sh).  For every
# switch between the two ping-pong tasks the PMU MSR accesses that follow it
# are counted; the count is exact (no timing), and interrupts that hit a
# window are excluded (their accesses run in interrupt context).  Each case
# asserts both bounds on the most frequent count of each direction
# (parent->child, child->parent), and that nearly every window has that count.
#
# The bounds are the exact counts of the switch path (docs/design.md,
# "The switch path"), so a change that adds or drops an access fails: 0
# between two tasks of one session; with --no-inherit N rdpmc + 1 wrmsr
# (GLOBAL_CTRL) to stop N counters and 1 wrmsr to start them again.  Into
# an address space that may execute RDPMC (build/bench/pingpong-rdpmc: both
# processes map their self-read page): 2N rdpmc and no rdmsr or wrmsr
# between two tasks of one session (each side's share of the counts); from
# one session to another N rdpmc + 1 wrmsr to stop, N wrmsr to zero the
# counters the other session used ("Scrubbed counters") and 1 to start;
# from one session to another where neither may execute RDPMC
# (pingpong-rdpmc pmcdrv-ioctl): with the same user-mode events N rdpmc
# and nothing else (the counters run on for the incoming session, "Handed
# over counters"), with events that count in the kernel too N rdpmc +
# 1 wrmsr to stop and 1 to start.  Under a cgroup session (pmcctl stat -G)
# with the two tasks in different cgroups, N rdpmc per switch (one fold),
# in the same cgroup nothing.
#
# make check runs it as tests/guest/55-msr-switch.sh, with
# MSR_GUARD_PINGPONG=build/tests/pingpong (tests/guest/pingpong.c) and
# MSR_GUARD_PINGPONG_RDPMC=build/tests/pingpong-rdpmc (tests/guest/pingpong-rdpmc.c).
cd "$(dirname "$0")/.." || exit 125
. tests/lib/guest.sh
. bench/lib/msrtrace.sh

pp=${MSR_GUARD_PINGPONG:-build/bench/pingpong}
ppr=${MSR_GUARD_PINGPONG_RDPMC:-build/bench/pingpong-rdpmc}
ROUNDS=${MSR_GUARD_ROUNDS:-200}
CPU=${MSR_GUARD_CPU:-0}
passed=0 failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1: $2"; failed=$((failed + 1)); }
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $2"; }

# bounds CASE: "P2C_LO P2C_HI C2P_LO C2P_HI" of PMU MSR accesses per switch.
# p2c: parent -> child; c2p: child -> parent.  With --no-inherit only the
# parent is tracked: p2c stops and folds it (GLOBAL_CTRL, then one rdpmc
# per counter), c2p enables it again (GLOBAL_CTRL).
bounds() {
	case $1 in
	untracked-idle)		echo 0 0 0 0 ;;	# module loaded, no session: no probe at all
	untracked-session)	echo 0 0 0 0 ;;	# a session on another task: lookup only
	inherit-1)		echo 0 0 0 0 ;;	# one session: its counters keep running
	inherit-2)		echo 0 0 0 0 ;;
	inherit-7)		echo 0 0 0 0 ;;
	no-inherit-1)		echo 2 2 1 1 ;;
	no-inherit-2)		echo 3 3 1 1 ;;
	no-inherit-7)		echo 8 8 1 1 ;;
	# Both tasks may execute RDPMC (pingpong-rdpmc): one session, each
	# side's share (N rdpmc out, N in); a session each, N rdpmc + 1 wrmsr
	# out, N wrmsr (scrub) + 1 wrmsr in, both ways.
	rdpmc-shared-1)		echo 2 2 2 2 ;;
	rdpmc-shared-2)		echo 4 4 4 4 ;;
	rdpmc-shared-7)		echo 14 14 14 14 ;;
	rdpmc-sessions-1)	echo 4 4 4 4 ;;
	rdpmc-sessions-2)	echo 6 6 6 6 ;;
	rdpmc-sessions-7)	echo 16 16 16 16 ;;
	# A session each, no self-read page (pingpong-rdpmc pmcdrv-ioctl), the
	# same user-mode events: N rdpmc to fold the outgoing session, and the
	# counters run on for the incoming one.  Counting the kernel too: N
	# rdpmc + 1 wrmsr to stop, 1 wrmsr to start (the same events on the
	# same counters: no event select differs, and nothing to scrub).
	sessions-1)		echo 1 1 1 1 ;;
	sessions-2)		echo 2 2 2 2 ;;
	sessions-7)		echo 7 7 7 7 ;;
	sessions-uk-1)		echo 3 3 3 3 ;;
	sessions-uk-2)		echo 4 4 4 4 ;;
	# A cgroup session (pmcctl stat -G) on the ping-pong's CPU: a switch
	# between tasks of one counted cgroup costs nothing; into another
	# counted cgroup, or into or out of a cgroup not counted, one fold: N
	# rdpmc and no register write (docs/design.md, "Cgroup sessions").
	cgroup-same-2)		echo 0 0 0 0 ;;
	cgroup-two-1)		echo 1 1 1 1 ;;
	cgroup-two-2)		echo 2 2 2 2 ;;
	cgroup-two-7)		echo 7 7 7 7 ;;
	cgroup-out-2)		echo 2 2 2 2 ;;
	esac
}

# guard CASE PREFIX...: trace one ping-pong run under PREFIX, check the bounds.
# guard CASE $ppr MODE EVENTS: the same for pingpong-rdpmc's tasks.
guard() {
	local case=$1 out rc stats d line mode lo hi w k b i=0 comm=pingpong
	shift
	[ "${1:-}" = "$ppr" ] && comm=pingpong-rdpmc
	# The trace events stay enabled from one case to the next (see below),
	# so pmcdrv's probes, registered again by this case's session or still
	# registered from the last one, run after the sched_switch event's.
	msr_trace_window
	if [ "$comm" = pingpong ]; then
		out=$("$@" $pp "$ROUNDS" "$CPU" 0 2>&1)
	else
		out=$("$@" "$ROUNDS" "$CPU" 0 2>&1)
	fi
	rc=$?
	msr_trace_pause "$CPU" /tmp/msr-guard.trace
	if [ "$rc" != 0 ]; then
		fail "$case" "the ping-pong failed ($rc): $out"
		return
	fi
	k=$(msr_trace_overrun "$CPU")
	[ "${k:-0}" = 0 ] || { fail "$case" "$k trace events lost (buffer full)"; return; }
	stats=$(msr_switch_stats /tmp/msr-guard.trace $comm)
	read -ra b <<<"$(bounds "$case")"
	for d in p2c c2p; do
		line=$(grep "^dir=$d " <<<"$stats")
		mode=$(field mode "$line") w=$(field windows "$line") k=$(field at_mode "$line")
		lo=${b[$i]} hi=${b[$((i + 1))]}
		i=$((i + 2))
		# A window is two ping-pong tasks back to back: a kworker running in
		# between (the debug kernel has more of them) takes one away.
		if [ -z "$mode" ] || [ $((w * 10)) -lt $((ROUNDS * 9)) ]; then
			fail "$case $d" "only ${w:-0} switches between the ping-pong tasks traced (want >= 90% of $ROUNDS)"
		elif [ $((k * 10)) -lt $((w * 9)) ]; then
			fail "$case $d" "no dominant count: $line"
		elif [ "$mode" -lt "$lo" ] || [ "$mode" -gt "$hi" ]; then
			fail "$case $d" "$mode PMU MSR accesses per switch, want $lo..$hi ($line)"
		else
			pass "$case $d: $mode PMU MSR accesses per switch (bounds $lo..$hi; $k of $w switches)"
		fi
	done
}

if ! module_loaded; then
	echo "FAIL: msr-guard: pmcdrv is not loaded"
	exit 1
fi
[ -x "$pp" ] || { echo "FAIL: msr-guard: $pp not built (bench/run or make tests builds it)"; exit 1; }
# The trace events are enabled once, for every case, after pmcdrv's probes
# have gone: they stay registered for a second after the last session
# (docs/design.md).  Registered before the sched_switch trace event, they
# would run before it, and each switch's MSR accesses would be counted in the
# window before its record: p2c's as c2p's.  Registered after it, they run
# after it, however often they come and go between the cases.
sleep 1.2
if ! msr_trace_start; then
	echo "FAIL: msr-guard: cannot enable the msr/sched tracepoints (tracefs)"
	exit 1
fi
trap 'msr_trace_stop "$CPU" /dev/null' EXIT
guard untracked-idle
# A session on an unrelated task (a hardware one when there is a PMU).
ev=task-clock
have_pmu && ev=instructions:u
pmcctl run -o /dev/null -e $ev -- sleep 100000 &
holder=$!
for i in $(seq 200); do	# counting starts at its exec of sleep
	c=$(cat /proc/$holder/task/$holder/children 2>/dev/null | tr -d ' ')
	[ -n "$c" ] && grep -q '^sleep$' /proc/"$c"/comm 2>/dev/null && break
	sleep 0.05
done
guard untracked-session
kill $(cat /proc/$holder/task/$holder/children 2>/dev/null) 2>/dev/null
wait $holder 2>/dev/null

# The 7-event cases: the 7 counters of Skylake.  On a hybrid CPU a model
# event names its core type (perf's cpu_core/ and cpu_atom/ PMUs, each with
# its CPUs and rdpmc attribute): that of $CPU, where the ping-pong runs.
rdpmc_attr=/sys/bus/event_source/devices/cpu/rdpmc
ev7_last=r10000c0:u
in_cpulist() {	# CPU LIST: is CPU in the kernel's cpu list LIST ("0-3,8")?
	local r
	for r in ${2//,/ }; do
		[ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && return 0
	done
	return 1
}
for pmu in cpu_core cpu_atom; do
	d=/sys/bus/event_source/devices/$pmu
	[ -r $d/cpus ] || continue
	rdpmc_attr=$d/rdpmc
	in_cpulist "$CPU" "$(cat $d/cpus)" && ev7_last="$pmu/event=0xc0,cmask=1/u"
done
EV7=instructions:u,cycles:u,ref-cycles:u,r00c0:u,r003c:u,r013c:u,$ev7_last

if ! have_pmu; then
	echo "SKIP: hardware-event cases: no PMU in this guest"
else
	guard inherit-1 pmcctl run -e instructions:u --
	guard inherit-2 pmcctl run -e instructions:u,cycles:u --
	guard inherit-7 pmcctl run -e "$EV7" --
	guard no-inherit-1 pmcctl run --no-inherit -e instructions:u --
	guard no-inherit-2 pmcctl run --no-inherit -e instructions:u,cycles:u --
	guard no-inherit-7 pmcctl run --no-inherit -e "$EV7" --
	if [ ! -x "$ppr" ]; then
		echo "FAIL: msr-guard: $ppr not built (bench/run or make tests builds it)"
		failed=$((failed + 1))
	else
		guard sessions-1 "$ppr" pmcdrv-ioctl instructions:u
		guard sessions-2 "$ppr" pmcdrv-ioctl instructions:u,cycles:u
		guard sessions-7 "$ppr" pmcdrv-ioctl "$EV7"
		guard sessions-uk-1 "$ppr" pmcdrv-ioctl instructions
		guard sessions-uk-2 "$ppr" pmcdrv-ioctl instructions,cycles
	fi
	# Cgroup sessions, where the kernel has cgroup v2 (not the debug lane's).
	cg=/sys/fs/cgroup
	if grep -qw cgroup2 /proc/filesystems && { grep -q " $cg cgroup2 " /proc/mounts ||
						   mount -t cgroup2 none $cg; }; then
		mkdir -p $cg/mgA $cg/mgB $cg/mgC
		cgguard() {
			local case=$1 parent=$2 child=$3
			shift 3
			guard "$case" env PINGPONG_CGROUP_PARENT=$cg/$parent PINGPONG_CGROUP_CHILD=$cg/$child \
				pmcctl stat -C "$CPU" -o /dev/null -G mgA,mgB "$@" --
		}
		cgguard cgroup-same-2 mgA mgA -e instructions:u,cycles:u
		cgguard cgroup-two-1 mgA mgB -e instructions:u
		cgguard cgroup-two-2 mgA mgB -e instructions:u,cycles:u
		cgguard cgroup-two-7 mgA mgB -e "$EV7"
		cgguard cgroup-out-2 mgA mgC -e instructions:u,cycles:u
		rmdir $cg/mgA $cg/mgB $cg/mgC
	else
		echo "SKIP: cgroup cases: no cgroup v2 in this kernel"
	fi
	if [ ! -x "$ppr" ]; then
		:
	elif [ "$(cat $rdpmc_attr 2>/dev/null)" = 0 ] || [ ! -e $rdpmc_attr ]; then
		echo "SKIP: RDPMC cases: RDPMC is not open to self-read pages here (perf's rdpmc attribute)"
	else
		for m in shared sessions; do
			how=pmcdrv-shared
			[ $m = sessions ] && how=pmcdrv
			guard rdpmc-$m-1 "$ppr" $how instructions:u
			guard rdpmc-$m-2 "$ppr" $how instructions:u,cycles:u
			guard rdpmc-$m-7 "$ppr" $how "$EV7"
		done
	fi
fi
echo "msr-guard: $passed passed, $failed failed"
[ "$failed" = 0 ]
