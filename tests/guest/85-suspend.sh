# SPDX-License-Identifier: GPL-2.0
# Suspend and resume with sessions counting: with CONFIG_PM_DEBUG,
# pm_test=core runs the whole suspend path short of entering S3 -- freezer,
# devices, secondary CPUs offline, pmcdrv's syscore suspend and resume on the
# last CPU with IRQs off -- and the counts must stay exact.  Debian's kernels
# have no pm_test: there every check is a visible SKIP (the debug lane,
# GUEST_FLAVOUR=debug, runs them).
. tests/lib/guest.sh

loop=build/progs/loop
n() { printf '%09d' "$1"; }		# fixed width: constant per-run overhead
skip() { echo "SKIP: suspend/resume: $*"; }
pmc_value() {
	local ev=$1
	shift
	pmcctl run -x, -e "$ev" "$@" 2>&1 >/dev/null | awk -F, -v e="$ev" '$3 == e { print $1 }'
}

if [ ! -w /sys/power/pm_test ]; then
	skip "no /sys/power/pm_test (kernel without CONFIG_PM_DEBUG, as Debian's $(uname -r))"
	exit 0
fi
if ! grep -qw core /sys/power/pm_test || ! grep -qw mem /sys/power/state; then
	skip "pm_test level 'core' or state 'mem' unavailable (pm_test: $(cat /sys/power/pm_test); state: $(cat /sys/power/state))"
	exit 0
fi

old_level=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/power/pm_test)
delay=/sys/module/suspend/parameters/pm_test_delay
old_delay=$(cat $delay 2>/dev/null || true)
restore() {
	echo "${old_level:-none}" >/sys/power/pm_test
	[ -n "$old_delay" ] && echo "$old_delay" >$delay
}
trap restore EXIT
echo core >/sys/power/pm_test
[ -n "$old_delay" ] && echo 0 >$delay
# One suspend to RAM stopped at the core level: syscore suspend and resume run.
suspend_core() { echo mem >/sys/power/state; }
syscore_runs() { dmesg | grep -c 'suspend debug: Waiting'; }

before=$(syscore_runs)
check "pm_test=core: echo mem > /sys/power/state succeeds without a session" suspend_core
expect_eq "pm_test=core: the core level was reached (kernel log)" "$(( $(syscore_runs) - before ))" 1

# The suspending task itself is tracked: at syscore suspend it is what runs
# on the last CPU, so pmcdrv's callbacks fold and stop its counters, and
# restart them at resume.  build/progs/suspend (tests/progs/suspend.S: loop,
# write "mem" to /sys/power/state, loop; no libc, no signal handlers) runs
# the same user instructions at every pm_test level, so instructions:u must
# be equal when the suspend stops at 'platform' (before CPUs go offline),
# 'processors' (after the secondary CPUs went offline) and 'core' (after
# syscore suspend and resume).
if have_pmu; then
	ev=instructions:u
else
	skip "no PMU: the exact checks below count nothing; only task-clock sessions cross suspend"
	ev=task-clock
fi
N=$(n 1000000)
# at_level LEVEL: the count of a tracked task that suspends with pm_test=LEVEL.
at_level() {
	echo "$1" >/sys/power/pm_test
	pmc_value $ev -- build/progs/suspend
	echo core >/sys/power/pm_test
}
before=$(syscore_runs)
susp=$(at_level core)
check "suspending task tracked: the core level was reached" test $(( $(syscore_runs) - before )) = 1
check "suspending task tracked: counted ($ev = '$susp')" test -n "$susp"
if have_pmu; then
	base1=$(at_level platform)
	base2=$(at_level platform)
	procs=$(at_level processors)
	if [ "$base1" != "$base2" ]; then
		fail "suspending task tracked: pm_test=platform twice gives the same count" "$base1 vs $base2"
	else
		expect_eq "suspending task tracked: pm_test=processors (CPU hotplug) equals pm_test=platform" \
			"$procs" "$base1"
		expect_eq "suspending task tracked: pm_test=core (syscore callbacks) equals pm_test=platform" \
			"$susp" "$base1"
		# 2 x (1 + 2,000,000) for the loops, 5 + 2 + 5 + 2 for open/write and their
		# checks, 3 for exit: the count of tests/progs/suspend.S, by hand.
		expect_eq "suspending task tracked: exactly the program's 4,000,019 instructions" "$susp" 4000019
	fi

	# A task counting while others suspend: frozen, migrated off the CPUs
	# that go offline, thawed; its count is the loop's exact 2N + 103.
	big=600000000
	pmcctl run -x, -e instructions:u -o /tmp/susp-loop -- $loop "$(n $big)" &
	runner=$!
	cycles=0
	sleep 0.5
	while kill -0 $runner 2>/dev/null && [ $cycles -lt 3 ]; do
		suspend_core && cycles=$((cycles + 1))
		sleep 0.2
	done
	wait $runner
	check "loop counting through suspends: $cycles suspend(s) while it ran" test $cycles -ge 1
	expect_eq "loop counting through suspends: exactly 2N + 103" \
		"$(cut -d, -f1 /tmp/susp-loop)" $((2 * big + 103))

	# CPU sessions on every CPU across suspend: the secondary CPU's session
	# stops at offline and restarts at online, CPU 0's at syscore; loops
	# run after resume on each CPU are counted at least exactly.
	ncpu=$(nproc)
	cpus=0-$((ncpu - 1))
	pmcctl stat -C $cpus -A -j -e instructions:u -o /tmp/susp-stat -- \
		sh -c "echo mem >/sys/power/state && for c in \$(seq 0 $((ncpu - 1))); do taskset -c \$c $loop $N; done"
	rc=$?
	expect_eq "CPU sessions across suspend: pmcctl stat exits 0" "$rc" 0
	for c in $(seq 0 $((ncpu - 1))); do
		v=$(jq -r "select(.cpu == \"$c\" and .event == \"instructions:u\") | .[\"counter-value\"]" /tmp/susp-stat 2>/dev/null | cut -d. -f1)
		check "CPU sessions across suspend: CPU $c counted its loop after resume (${v:-none} >= $((2 * 1000000 + 103)))" \
			test "${v:-0}" -ge $((2 * 1000000 + 103))
	done
fi
