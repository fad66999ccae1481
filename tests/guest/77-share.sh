# SPDX-License-Identifier: GPL-2.0
# CPU and task sessions on one CPU (docs/design.md "CPU and task sessions
# together"): root's pmcctl stat -C 1 counts CPU 1 while pmcctl run counts a
# loop there.
#   - apart (the CPU session on fixed counter 2, the task on fixed counter 0
#     and GP counter 0): both on their counters all the time, the task's
#     counts exact (2N+103)
#   - placed around it (both want fixed counter 0): the CPU session keeps
#     it, the task's instructions go to a GP counter there, exact
#   - full (the CPU session on every counter the default model has; on one
#     with more, on fixed counter 2, which the task's ref-cycles alone can
#     use): the CPU session counts the loop; the task yields on CPU 1, all
#     its events at once, and says so: not counted there, its time running 0
#   - moved between CPU 0 (free) and CPU 1 (taken) several times: the task's
#     raw count is what it did on CPU 0, its time running below its time
#     enabled, and the scaled estimate near 2N+103 (an estimate: time is
#     the guest's, not the loop's, so it is checked within 15%)
#   - a CPU session and a task session through CPU hotplug, and the kernel
#     log stays clean
# The self-read page beside a CPU session (RDPMC: the CPU session is held
# off) is in 58-selfread.
. tests/lib/guest.sh

module_loaded || insmod "$PMCDRV_KO"
klog0=$(dmesg | wc -l)
loop=build/progs/loop
n() { printf '%09d' "$1"; }
N=2000000
want=$((2 * N + 103))
col() { awk -F, -v e="$1" -v c="$2" '$3 == e { print $c }'; }

# Software events: the two kinds side by side, without a PMU too.
pmcctl stat -C 1 -x, -e task-clock -o /tmp/share-cpu -- \
	taskset -c 1 pmcctl run -x, -e task-clock,context-switches -o /tmp/share-task -- $loop "$(n 1000)"
expect_eq "software: stat -C 1 around run on CPU 1 -> 0" "$?" 0
check "software: the CPU session counted task-clock" grep -q ',task-clock,' /tmp/share-cpu
check "software: the task session counted task-clock" grep -q ',task-clock,' /tmp/share-task

if ! have_pmu; then
	echo "SKIP: sharing hardware counters: no PMU in this guest"
	exit 0
fi

# share WHAT CPU_EVENTS TASK_EVENTS: stat -C 1 with CPU_EVENTS around run with TASK_EVENTS of
# the loop pinned to CPU 1 (their CSV in /tmp/share-cpu and /tmp/share-task); then the CPU
# session's CPU_EVENT (the first) saw the loop, on its counter all its time.
share() {
	local ev=${2%%,*} cpu
	pmcctl stat -C 1 -x, -e "$2" -o /tmp/share-cpu -- \
		taskset -c 1 pmcctl run -x, -e "$3" -o /tmp/share-task -- $loop "$(n $N)"
	expect_eq "$1: exit 0" "$?" 0
	cpu=$(col "$ev" 1 </tmp/share-cpu)
	check "$1: the CPU session (pinned) counted the loop ($ev ${cpu:-none} >= $want)" \
		test "${cpu:-0}" -ge $want
	check "$1: the CPU session's counter ran all its time ($(col "$ev" 5 </tmp/share-cpu)%, to 0.1%)" \
		near "$(col "$ev" 5 </tmp/share-cpu)" 100 0.1
}

# ---- apart: fixed counter 2 for the CPU; fixed 0 and GP 0 for the task -----------------------
# (r00c0 goes to GP counter 0 when instructions, the same event, has fixed counter 0)
# ref-cycles:u counts the loop's instructions under icount.
share apart ref-cycles:u instructions:u,r00c0:u
expect_eq "apart: the task's instructions:u (fixed 0) exactly 2N+103" \
	"$(col instructions:u 1 </tmp/share-task)" $want
expect_eq "apart: the task's r00c0:u (GP 0) exactly 2N+103" "$(col r00c0:u 1 </tmp/share-task)" $want
expect_eq "apart: the task's counters ran all its time (100%)" "$(col r00c0:u 5 </tmp/share-task)" 100.00

# ---- placed around it: fixed counter 0 wanted by both ---------------------------------------
share placed instructions:u instructions:u,ref-cycles:u
expect_eq "placed: the task's instructions:u, on a GP counter there, exactly 2N+103" \
	"$(col instructions:u 1 </tmp/share-task)" $want
expect_eq "placed: ... all its time (100%)" "$(col instructions:u 5 </tmp/share-task)" 100.00
expect_eq "placed: the task's ref-cycles:u (fixed 2) exactly 2N+103" \
	"$(col ref-cycles:u 1 </tmp/share-task)" $want

# ---- full: every counter of CPU 1 the CPU session's -----------------------------------------
# Skylake's 4 GP and 3 fixed counters, or the hybrid part's common 6 and 3 (tests/lib/counters.h);
# on a model with more (spr's 8 GP) the task yields all the same: ref-cycles has fixed 2 alone.
all=instructions:u,cycles:u,ref-cycles:u,r00c0:u,r003c:u,r013c:u,r10000c0:u
hybrid_cpu && all=instructions:u,cycles:u,ref-cycles:u,r00c0:u,r003c:u,r013c:u,cpu_atom/event=0xc0,cmask=1/u,cpu_atom/event=0x3c,cmask=1/u,cpu_atom/event=0xc0,cmask=2/u
share full "$all" instructions:u,ref-cycles:u
expect_eq "full: the task's instructions:u did not count on CPU 1" \
	"$(col instructions:u 1 </tmp/share-task)" "<not counted>"
expect_eq "full: ... and its time running there is 0" "$(col instructions:u 4 </tmp/share-task)" 0
# A session's counters are loaded together: all of its events yield at once.
expect_eq "full: the task's ref-cycles:u yields with it" "$(col ref-cycles:u 1 </tmp/share-task)" \
	"<not counted>"

# ---- moved: CPU 0 free, CPU 1 taken ---------------------------------------------------------
pmcctl stat -C 1 -x, -e "$all" -o /tmp/share-cpu -- sleep 30 &
stat=$!
sleep 0.5
# (ref-cycles is fixed counter 2's alone: the task cannot be placed around the CPU session)
taskset -c 0 pmcctl run -x, --no-scale -e instructions:u,ref-cycles:u -o /tmp/share-raw -- \
	$loop "$(n $((N * 50)))" &
moves=$(shuttle $!)
raw=$(col instructions:u 1 </tmp/share-raw)
pct=$(col instructions:u 5 </tmp/share-raw)
# TERM, not INT: stat passes it on to its command (Ctrl-C reaches that from the terminal),
# so the sleep ends now, not in 30 s.
kill -TERM $stat
wait $stat
big=$((2 * N * 50 + 103))
check "moved: the loop was moved between the CPUs ($moves moves)" test "$moves" -ge 2
check "moved ($moves moves): the raw count is the CPU 0 share (0 < ${raw:-none} < $big)" \
	test "${raw:-0}" -gt 0 -a "${raw:-0}" -lt $big
check "moved: time running below time enabled (0 < ${pct:-none}% < 100%)" \
	awk -v p="${pct:-0}" 'BEGIN { exit !(p > 0 && p < 100) }'
# The scaled estimate: the raw count over the share of time (icount: time is instructions).
est=$(awk -v r="${raw:-0}" -v p="${pct:-0}" 'BEGIN { if (p > 0) printf "%.0f", r * 100 / p }')
check "moved: the scaled estimate ${est:-none} within 15% of 2N+103 ($big)" \
	awk -v e="${est:-0}" -v w=$big 'BEGIN { d = e / w - 1; exit !(d > -0.15 && d < 0.15) }'

# ---- hotplug with both kinds at once --------------------------------------------------------
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	pmcctl stat -C 0,1 -A -x, -e instructions:u,r00c0:u -o /tmp/share-hp -- sh -c '
		for i in $(seq 4); do
			echo 0 >/sys/devices/system/cpu/cpu1/online; sleep 0.01
			echo 1 >/sys/devices/system/cpu/cpu1/online; sleep 0.01
		done' &
	hp=$!
	# ref-cycles:u (fixed counter 2, free on both CPUs) counts the loop's instructions (icount).
	pmcctl run -x, -e ref-cycles:u -o /tmp/share-hptask -- $loop "$(n $((N * 10)))"
	hpwant=$((2 * N * 10 + 103))
	expect_eq "hotplug: the task session beside CPU sessions through offline/online -> 0" "$?" 0
	wait $hp
	expect_eq "hotplug: the CPU sessions on CPU 0 and 1 -> 0" "$?" 0
	echo 1 >/sys/devices/system/cpu/cpu1/online
	expect_eq "hotplug: the task's ref-cycles:u (apart) exactly its loop's 2N+103" \
		"$(col ref-cycles:u 1 </tmp/share-hptask)" $hpwant
	check "hotplug: both CPU sessions counted" test "$(grep -c ',instructions:u,' /tmp/share-hp)" -ge 2
else
	echo "SKIP: hotplug with both kinds: CPU 1 has no online switch"
fi

splats=$(klog_splats "$klog0")
expect_eq "sharing: the kernel log stays clean" "$splats" ""
