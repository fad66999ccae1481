# SPDX-License-Identifier: GPL-2.0
# pmcctl stat: whole CPUs (pmcdrv's CPU sessions), as a user runs it.
. tests/lib/guest.sh
loop=build/progs/loop
ncpu=$(nproc)

# Usage errors: exit 2 and a message naming the problem.
check "stat --help" pmcctl stat --help
pmcctl stat -e task-clock -t 0.1 2>/tmp/err
expect_eq "stat without -a or -C -> 2" "$?" 2
check "stat without -a or -C points to pmcctl run" grep -q "pmcctl run" /tmp/err
pmcctl stat -C 0-x -t 0.1 2>/tmp/err
expect_eq "stat -C 0-x -> 2" "$?" 2
check "stat -C 0-x names the bad term" grep -q "'x'" /tmp/err
pmcctl stat -C 0,"$ncpu" -t 0.1 2>/tmp/err
expect_eq "stat -C with an absent CPU -> 2" "$?" 2
check "stat -C: the message names the CPU and the online ones" grep -q "CPU $ncpu is not online (online: 0" /tmp/err
pmcctl stat -a -e task-clock,cs -t 0.1 2>/tmp/err
expect_eq "stat -e cs -> 2" "$?" 2
check "stat -e cs: counted per task, use pmcctl run" grep -q "'cs' is counted per task.*pmcctl run" /tmp/err
pmcctl stat -a -I 5 -t 0.1 2>/dev/null
expect_eq "stat -I 5 (below 10 ms) -> 2" "$?" 2
pmcctl stat -a -t 0 2>/dev/null
expect_eq "stat -t 0 -> 2" "$?" 2
pmcctl stat -a -t 1 -- true 2>/dev/null
expect_eq "stat -t with a command -> 2" "$?" 2
pmcctl stat -a -x, -j -t 0.1 2>/dev/null
expect_eq "stat -x with -j -> 2" "$?" 2

# Counting for a duration: every CPU's time, summed or per CPU.
out=$(pmcctl stat -a -e task-clock -t 0.3 2>&1)
expect_eq "stat -a -t 0.3: exit 0" "$?" 0
check "stat -a: 'system wide' header" grep -q "Performance counter stats for 'system wide'" <<<"$out"
ms=$(awk '/msec task-clock/ { gsub(",", "", $1); print int($1) }' <<<"$out")
check "stat -a: task-clock is at least $ncpu x 300 ms (got ${ms:-none})" test "${ms:-0}" -ge $((ncpu * 300))
check "stat -a: CPUs utilized printed" grep -q "CPUs utilized" <<<"$out"
check "stat -a: elapsed time printed" grep -q "seconds time elapsed" <<<"$out"
out=$(pmcctl stat -a -A -e task-clock -t 0.2 2>&1)
check "stat -a -A: one task-clock line per CPU" test "$(grep -c '^CPU[0-9]\+ .*msec task-clock' <<<"$out")" = "$ncpu"
out=$(pmcctl stat -C 0 -e task-clock -t 0.1 2>&1)
check "stat -C 0: 'CPU(s) 0' header" grep -q "for 'CPU(s) 0'" <<<"$out"
out=$(pmcctl stat -a -A -j -e task-clock -t 0.1 2>&1)
check "stat -A -j: valid JSON, one object per CPU, each with its cpu" \
	jq -e -s "length == $ncpu and all(.[]; has(\"cpu\"))" <<<"$out"
out=$(pmcctl stat -a -x';' -e task-clock -t 0.1 2>&1)
check "stat -x';': one CSV line" grep -qE '^[0-9.]+;msec;task-clock;' <<<"$out"
pmcctl stat -a -o /tmp/stat.out -e task-clock -t 0.1 2>/dev/null
check "stat -o FILE writes the counts" grep -q 'msec task-clock' /tmp/stat.out
out=$(pmcctl stat -C 0 -I 100 -e task-clock -t 0.45 2>&1)
n=$(grep -cE '^ +[0-9]+\.[0-9]{9} +[0-9.,]+ +msec task-clock' <<<"$out")
check "stat -C 0 -I 100 -t 0.45: at least 4 interval lines (got $n)" test "$n" -ge 4
low=$(awk '/msec task-clock/ && $(NF-2) + 0 < 0.75 { print }' <<<"$out" | head -n 1)
check "stat -I: CPUs utilized is per interval (about 1 per CPU), not per run" test -z "$low"
check "stat -I: perf's column line first" test "$(head -n 1 <<<"$out")" = '#           time             counts unit events'
check "stat -I: no header" sh -c "! grep -q 'Performance counter stats' <<'EOF'
$out
EOF"

# With a command: its exit status, exec errors, signals.
pmcctl stat -a -e task-clock -- sh -c 'exit 3' 2>/dev/null
expect_eq "stat -- CMD: CMD's exit status" "$?" 3
pmcctl stat -a -e task-clock -- /nonexistent/cmd 2>/tmp/err
expect_eq "stat -- missing command -> 127" "$?" 127
check "stat: not-found message names the command" grep -q "cannot run '/nonexistent/cmd'" /tmp/err
# signals NAME WANT SIGNAL... -- COMMAND...: start COMMAND (stderr to /tmp/err), send each
# SIGNAL 0.3 s apart, and expect exit status WANT.
signals() {
	local name=$1 want=$2 sigs=() pid
	shift 2
	while [ "$1" != -- ]; do sigs+=("$1"); shift; done
	shift
	"$@" 2>/tmp/err &
	pid=$!
	for s in "${sigs[@]}"; do
		sleep 0.3
		kill "-$s" $pid
	done
	wait $pid
	expect_eq "$name" "$?" "$want"
}
signals "stat without a command: SIGINT ends it, exit 130 as perf" 130 INT -- pmcctl stat -a -e task-clock
check "stat: SIGINT still prints the counts" grep -q 'msec task-clock' /tmp/err
signals "stat -- sleep: SIGTERM reaches the command (143)" 143 TERM -- pmcctl stat -a -e task-clock -- sleep 30
check "stat: counts printed after the command was killed" grep -q 'msec task-clock' /tmp/err
signals "stat -- sleep: SIGUSR1 reaches the command (138)" 138 USR1 -- pmcctl stat -a -e task-clock -- sleep 30
signals "stat without a command: USR1 ignored, TERM ends it (143)" 143 USR1 TERM -- pmcctl stat -a -e task-clock
# nohup: an ignored SIGHUP stays ignored, for pmcctl and for the command.
signals "stat under nohup: SIGHUP ignored, the command finishes (0)" 0 HUP -- \
	sh -c 'trap "" HUP; exec pmcctl stat -a -e task-clock -- sleep 1'
signals "run under nohup: SIGHUP ignored, the command finishes (0)" 0 HUP -- \
	sh -c 'trap "" HUP; exec pmcctl run -e task-clock -- sleep 1'

# CPU and task sessions count side by side (77-share has the counts); one CPU session per CPU.
pmcctl stat -a -e task-clock -t 3 2>/dev/null &
pid=$!
sleep 0.5
pmcctl run -e task-clock -- true 2>/tmp/err
expect_eq "run while stat counts -> 0" "$?" 0
pmcctl stat -C 0 -e task-clock -t 0.1 2>/tmp/err
expect_eq "a second stat on the same CPU -> 4" "$?" 4
check "second stat: says busy and why" grep -q "CPU 0: busy" /tmp/err
wait $pid
expect_eq "the first stat still ends normally" "$?" 0
pmcctl run -e task-clock -- true 2>/dev/null
expect_eq "run after stat ended -> 0" "$?" 0

# Not root: whole-CPU counting needs CAP_PERFMON while perf_event_paranoid > 0.
chmod 755 /
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
chmod 666 /dev/pmcdrv
out=$(su nobody -s /bin/sh -c "$PWD/build/bin/pmcctl stat -a -e task-clock -t 0.1" 2>&1 </dev/null)
rc=$?
chmod 600 /dev/pmcdrv
expect_eq "stat as nobody -> 1" "$rc" 1
check "stat as nobody: names CAP_PERFMON and the sysctl" grep -q "CAP_PERFMON.*perf_event_paranoid" <<<"$out"

# Hardware counters: the loop's instructions:u, summed over every CPU, at least its exact count.
if have_pmu; then
	n=3000000
	want=$((2 * n + 103))
	out=$(pmcctl stat -a -x, -e instructions:u,r00c0:u -- $loop $n 2>&1)
	expect_eq "stat -a -- loop: exit 0" "$?" 0
	fixed=$(awk -F, '$3 == "instructions:u" { print $1 }' <<<"$out")
	gp=$(awk -F, '$3 == "r00c0:u" { print $1 }' <<<"$out")
	check "stat -a: instructions:u (fixed) >= $want (got ${fixed:-none})" test "${fixed:-0}" -ge $want
	check "stat -a: r00c0:u (GP) >= $want (got ${gp:-none})" test "${gp:-0}" -ge $want
	out=$(pmcctl stat -a -e cycles,instructions -t 0.2 2>&1)
	check "stat -a: IPC beside instructions" grep -q 'insn per cycle' <<<"$out"
	pmcctl stat -a -e instructions:u -t 0.1 2>/dev/null
	check "after stat the PMU is released within 3 s (not CLAIMED)" wait_unclaimed
fi

# Without the module: exit 3 and the fix; no MSR fallback for whole CPUs.
rmmod pmcdrv
pmcctl stat -a -e task-clock -t 0.1 2>/tmp/err
expect_eq "stat without the module -> 3" "$?" 3
check "stat without the module names insmod" grep -q 'insmod' /tmp/err
insmod "$PMCDRV_KO"
check "module reloaded" module_loaded
