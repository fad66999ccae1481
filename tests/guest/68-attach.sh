# SPDX-License-Identifier: GPL-2.0
# pmcctl run -p/-t: counting tasks that already run (attach_target.c), against
# perf stat -p on identical runs; the ends of a count (the target's exit,
# --duration, SIGINT, SIGTERM); -M over the attached counts; the errors, and
# the ptrace rule as nobody.
. tests/lib/guest.sh

bin=$PWD/build/tests/attach_target
if [ ! -x $bin ]; then
	fail "attach_target" "$bin not built (make tests)"
	exit 0
fi
tmp=$(mktemp -d /tmp/pmcd-attach.XXXXXX)
chmod 755 "$tmp"

# sysno PID [TID]: the system call the task is blocked in (/proc/PID/task/TID/syscall), or "".
sysno() { cut -d' ' -f1 "/proc/$1/task/${2:-$1}/syscall" 2>/dev/null; }
# wait_blocked PID [TID]: until the task sleeps in read(2) (system call 0).
wait_blocked() {
	local i
	for i in $(seq 1000); do
		[ "$(sysno "$@")" = 0 ] && return 0
		sleep 0.01
	done
	return 1
}
# wait_counting PID: until a counter (pmcctl, perf) is done attaching and waits
# (clock_nanosleep, nanosleep, poll, ppoll, epoll_wait, epoll_pwait, pselect6).
wait_counting() {
	local i
	for i in $(seq 1000); do
		case "$(sysno "$1")" in 230 | 35 | 7 | 271 | 232 | 281 | 270) return 0 ;; esac
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.01
	done
	return 1
}
# start_target NAME ARGS...: attach_target in the background, blocked reading
# the fifo $tmp/NAME (held open for writing on fd 9): $tpid.
start_target() {
	local fifo=$tmp/$1
	shift
	rm -f "$fifo"
	mkfifo "$fifo"
	${pin:+taskset -c "$pin"} $bin "$@" <"$fifo" &
	tpid=$!
	exec 9>"$fifo"
	wait_blocked $tpid
}
# release [N]: a line for each of N tasks blocked on the fifo (default 1): at
# least a byte for each of attach_target's reads, a line for a shell's read.
release() {
	yes | head -n "${1:-1}" >&9
	exec 9>&-
}
# value FILE EVENT: the count of EVENT in -x, output.
# value FILE EVENT: EVENT's count in FILE, perf's or pmcctl's -x, output
# (on a hybrid part, the sum of perf's rows by core type: csv_count).
value() { csv_count "$2" <"$1"; }

# count_target NAME WHO MODE ARGS...: attach_target MODE ARGS, blocked on the
# fifo NAME; counted (-x, instructions:u) by WHO: perf (perf stat -p), pmc
# (pmcctl run -p) or pmc-t1 (pmcctl run -t T1, the threads mode's first
# thread); then released.  $rc: the counter's exit status; $val: its count.
count_target() {
	local name=$1 who=$2 cpid t1 t
	shift 2
	start_target $name "$@"
	if [ "$1" = threads ]; then
		t1=$(ls /proc/$tpid/task | grep -vx $tpid)
		wait_blocked $tpid "$t1"
	fi
	if [ "$1" = many ]; then
		# Every thread blocked in its read.
		for t in $(ls /proc/$tpid/task); do wait_blocked $tpid $t; done
		[ "$(ls /proc/$tpid/task | wc -l)" = $(($2 + 1)) ] || echo "FAIL: many: not $2 + 1 threads"
	fi
	case $who in
	perf) perf stat -x, "${perf_raw[@]}" -e instructions:u -p $tpid 2>$tmp/$name.out 9>&- & ;;
	pmc) pmcctl run -x, -e instructions:u -p $tpid 2>$tmp/$name.out 9>&- & ;;
	pmc-i) pmcctl run -i -x, -e instructions:u -p $tpid 2>$tmp/$name.out 9>&- & ;;
	pmc-t1) pmcctl run -x, -e instructions:u -t "$t1" 2>$tmp/$name.out 9>&- & ;;
	pmc-M) pmcctl run -x, -e instructions:u -M tma_info_thread_ipc -p $tpid 2>$tmp/$name.out 9>&- & ;;
	esac
	cpid=$!
	wait_counting $cpid
	if [ "$1" = many ]; then release $(($2 + 1)); else release; fi
	# The target first: perf stat -p waits until /proc/PID is gone, zombie included.
	wait $tpid
	wait $cpid
	rc=$?
	val=$(value $tmp/$name.out instructions:u)
}

if have_pmu; then
	# ---- exact from the moment of attach --------------------------------------------
	# The target retires 2N + 4 user instructions after its read returns
	# (attach_target.c); perf stat -p on an identical run is the reference.
	n=1000000
	count_target f1 perf one $n
	perf_v=$val
	count_target f2 pmc one $n
	expect_eq "run -p: the target's exit ends the count, exit 0" "$rc" 0
	expect_eq "run -p: instructions:u is perf stat -p's on an identical run" "$val" "$perf_v"
	expect_eq "run -p: instructions:u is exactly 2N + 4 from the attach" "$val" $((2 * n + 4))

	# -M: the metric of the attached task's counts, the count still exact.
	if pmcctl list --json --metrics tma_info_thread_ipc 2>/dev/null | jq -e '.metrics | length > 0' >/dev/null; then
		# On a hybrid part tma_info_thread_ipc is the P-cores' metric: the task on CPU 0, one.
		pin=
		hybrid_cpu && pin=0
		count_target f8 pmc-M one $n
		pin=
		expect_eq "run -p -M tma_info_thread_ipc: exit 0" "$rc" 0
		expect_eq "run -p -M: instructions:u still exactly 2N + 4" "$val" $((2 * n + 4))
		ins=$(value $tmp/f8.out INST_RETIRED.ANY) cyc=$(value $tmp/f8.out CPU_CLK_UNHALTED.THREAD)
		ipc=$(awk -F, '$NF == "tma_info_thread_ipc" { print $(NF - 1) }' $tmp/f8.out)
		check "run -p -M: IPC $ipc is the task's instructions / cycles ($ins / $cyc) to 0.01" \
			awk -v i="$ins" -v c="$cyc" -v m="$ipc" 'BEGIN { d = m - i / c; exit !(c > 0 && m != "" && d < 0.01 && d > -0.01) }'
	else
		echo "SKIP: run -p -M: no tma_info_thread_ipc for this model"
	fi

	# ---- threads: -p counts every thread, also those created after the attach -----
	n0=3000000 n1=1000000 n2=5000000
	count_target f3 pmc threads $n0 $n1 $n2
	expect_eq "run -p threads: exit 0" "$rc" 0
	v=$val
	loops=$((2 * (n0 + n1 + n2)))
	# Beyond the loops: main's libc (read, write, pthread_create, join), T2's start and exit.
	check "run -p threads: main, T1 and T2 (created after) counted: $v >= $loops, < +200000" \
		test "${v:-0}" -ge $loops -a "${v:-0}" -lt $((loops + 200000))
	count_target f4 perf threads $n0 $n1 $n2
	pv=$val
	check "run -p threads: within 0.1% of perf stat -p ($v, perf $pv)" \
		test $((v - pv < 0 ? pv - v : v - pv)) -le $((pv / 1000))

	# -i: the threads there are at the attach only, not T2.
	count_target f6 pmc-i threads $n0 $n1 $n2
	v=$val
	loops=$((2 * (n0 + n1)))
	check "run -p -i: main and T1, not T2: $v >= $loops, < +200000" \
		test "${v:-0}" -ge $loops -a "${v:-0}" -lt $((loops + 200000))

	# 40 threads and main blocked: one session each, summed, exact.
	k=40 n=100000
	count_target f7 pmc many $k $n
	expect_eq "run -p: $k + 1 threads: exit 0" "$rc" 0
	expect_eq "run -p: $k + 1 threads, each 2N + 4, summed exactly" "$val" $(((k + 1) * (2 * n + 4)))

	# -t T1: only that thread, exactly as the single-threaded target.
	count_target f5 pmc-t1 threads $n0 $n1 $n2
	expect_eq "run -t: the thread's exit ends the count, exit 0" "$rc" 0
	expect_eq "run -t T1: only T1, exactly 2N1 + 4" "$val" $((2 * n1 + 4))
else
	echo "SKIP: run -p/-t instruction counts: no PMU in this guest"
fi

# ---- the ends of a count --------------------------------------------------------------
sleep 1000 &
spid=$!
t0=${EPOCHREALTIME/./}
pmcctl run -e task-clock -p $spid --duration 0.5 2>$tmp/dur
rc=$?
t=$(((${EPOCHREALTIME/./} - t0) / 1000))
expect_eq "run -p --duration 0.5: exit 0" "$rc" 0
check "run -p --duration: counted 0.5 s to 5 s (${t} ms)" test $t -ge 500 -a $t -lt 5000
check "run -p: perf's header 'process id'" grep -q "Performance counter stats for process id '$spid'" $tmp/dur
check "run -p --duration: the task still runs" kill -0 $spid

# The process's own exit ends the count, although a child it created after the
# attach (counted, inherited) runs on: as perf stat -p.
rm -f $tmp/f6
mkfifo $tmp/f6
bash -c "read x; sleep 100 >/dev/null 2>&1 & echo \$! >$tmp/child" <$tmp/f6 &
tpid=$!
exec 9>$tmp/f6
wait_blocked $tpid
pmcctl run -e task-clock,context-switches -x, -p $tpid 2>$tmp/fork 9>&- &
cpid=$!
wait_counting $cpid
release
wait $tpid
t0=${EPOCHREALTIME/./}
wait $cpid
rc=$?
t=$(((${EPOCHREALTIME/./} - t0) / 1000))
expect_eq "run -p: the process's exit ends the count (child running on): exit 0" "$rc" 0
check "run -p: ended within 5 s of the process's exit (${t} ms), not the child's" test $t -lt 5000
kill "$(cat $tmp/child)"

# SIGINT ends the count and prints it; the exit status is perf stat's (it
# re-raises the signal after printing).
pmcctl run -e task-clock -p $spid 2>$tmp/int &
cpid=$!
wait_counting $cpid
kill -INT $cpid
wait $cpid
rc=$?
check "run -p: SIGINT prints the counts" grep -q "task-clock" $tmp/int
perf stat -e task-clock -p $spid 2>$tmp/perfint &
cpid=$!
wait_counting $cpid
kill -INT $cpid
wait $cpid
expect_eq "run -p: exit status after SIGINT is perf stat -p's" "$rc" "$?"
expect_eq "run -p: after SIGINT, killed by it (130)" "$rc" 130
pmcctl run -e task-clock -p $spid 2>$tmp/term &
cpid=$!
wait_counting $cpid
kill -TERM $cpid
wait $cpid
expect_eq "run -p: SIGTERM -> 143" "$?" 143
check "run -p: SIGTERM prints the counts" grep -q "task-clock" $tmp/term

# ---- errors ------------------------------------------------------------------------------
pmcctl run -e task-clock -p 12,,3 2>$tmp/err
expect_eq "run -p 12,,3 -> 2" "$?" 2
check "malformed list: names the list and the fix" grep -q "'12,,3': an empty item" $tmp/err
pmcctl run -e task-clock -p 1x 2>$tmp/err
expect_eq "run -p 1x -> 2" "$?" 2
check "malformed id: names it" grep -q "'1x' is not a process id" $tmp/err
pmcctl run -e task-clock -p $spid -- true 2>$tmp/err
expect_eq "run -p with a command -> 2" "$?" 2
pmcctl run -e task-clock -p $spid --regions 2>$tmp/err
expect_eq "run -p --regions -> 2" "$?" 2
pmcctl run -e task-clock -p $spid -t $spid 2>$tmp/err
expect_eq "run -p and -t -> 2" "$?" 2
pmcctl run -e task-clock --duration 1 -- true 2>$tmp/err
expect_eq "run --duration with a command -> 2" "$?" 2
pmcctl run -e task-clock --duration 0 -p $spid 2>$tmp/err
expect_eq "run --duration 0 -> 2" "$?" 2
pid_max=$(cat /proc/sys/kernel/pid_max)
gone=$((pid_max - 1))
pmcctl run -e task-clock -p $gone 2>$tmp/err
expect_eq "run -p (no such process) -> 1" "$?" 1
check "no such process: says so" grep -q "no process $gone" $tmp/err
pmcctl run -e task-clock -t $gone 2>$tmp/err
check "no such thread: says so" grep -q "no thread $gone" $tmp/err
# kthreadd is pid 2.
pmcctl run -e task-clock -p 2 2>$tmp/err
expect_eq "run -p kthreadd -> 1" "$?" 1
check "a kernel thread: says so" grep -q "is a kernel thread" $tmp/err
# A task another session counts.
pmcctl run -e task-clock -p $spid 2>/dev/null &
cpid=$!
wait_counting $cpid
pmcctl run -e task-clock -p $spid 2>$tmp/err
expect_eq "run -p of a task another session counts -> 4" "$?" 4
check "already counted: says so" grep -q "already counted by another pmcdrv session" $tmp/err
kill -INT $cpid
wait $cpid

# ---- the ptrace rule, as nobody (device 0666, perf_event_paranoid 2) ------------------------
chmod 755 /
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
paranoid_was=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 >/proc/sys/kernel/perf_event_paranoid
chmod 666 /dev/pmcdrv
pmc=$PWD/build/bin/pmcctl
asnobody() { su nobody -s /bin/bash -c "$1" </dev/null; }

# Another user's (root's) process.
out=$(asnobody "$pmc run -e task-clock -p $spid --duration 0.2" 2>&1)
expect_eq "nobody: -p root's process -> 1" "$?" 1
check "nobody: root's process: another user, CAP_SYS_PTRACE" \
	grep -q "belongs to another user.*CAP_SYS_PTRACE" <<<"$(tr '\n' ' ' <<<"$out")"
# A setuid program nobody started (a setuid-root copy of the target, blocked
# reading a pipe): its effective and saved uid are root's.
cp $bin "$tmp/suid" && chown root:root "$tmp/suid" && chmod 4755 "$tmp/suid"
# until_euid0 PID: until the task runs the setuid image (euid 0).
until_euid0='for i in $(seq 500); do awk "/^Uid:/ { exit \$3 != 0 }" /proc/$p/status && break; sleep 0.01; done'
out=$(asnobody "sleep 100 2>/dev/null | $tmp/suid one 1000 & p=\$!; $until_euid0
	$pmc run -e task-clock -p \$p --duration 0.2; echo rc=\$?; kill \$p" 2>&1)
check "nobody: -p a setuid program -> 1" grep -q "rc=1" <<<"$out"
check "nobody: setuid: names the ids and CAP_SYS_PTRACE" \
	grep -q "runs with ids other than yours.*setuid.*CAP_SYS_PTRACE" <<<"$(tr '\n' ' ' <<<"$out")"
# A non-dumpable process of nobody's own: prctl(PR_SET_DUMPABLE, 0), then "ready".
mkdir "$tmp/nobody" && chown nobody "$tmp/nobody"
out=$(asnobody "$bin nodump >$tmp/nobody/nd & p=\$!
	for i in \$(seq 500); do grep -q ready $tmp/nobody/nd && break; sleep 0.01; done
	$pmc run -e task-clock -p \$p --duration 0.2; echo rc=\$?; kill \$p" 2>&1)
check "nobody: -p a non-dumpable process -> 1" grep -q "rc=1" <<<"$out"
check "nobody: non-dumpable: says so and CAP_SYS_PTRACE" \
	grep -q "not dumpable.*CAP_SYS_PTRACE" <<<"$(tr '\n' ' ' <<<"$out")"
# One's own plain process.
out=$(asnobody "sleep 100 & p=\$!; $pmc run -e task-clock -p \$p --duration 0.2; echo rc=\$?; kill \$p" 2>&1)
check "nobody: -p its own process -> 0" grep -q "rc=0" <<<"$out"
check "nobody: its own process: counts printed" grep -q "task-clock" <<<"$out"

chmod 600 /dev/pmcdrv
echo "$paranoid_was" >/proc/sys/kernel/perf_event_paranoid
kill $spid
wait $spid 2>/dev/null
rm -rf "$tmp"
