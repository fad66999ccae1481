# SPDX-License-Identifier: GPL-2.0
# Stress and abuse, bounded in count and time: a fork storm under one
# inherited session, many sessions open at once, the session owner exiting
# while its task runs, rmmod under load, load/unload cycles with sessions
# churning, CPU hotplug while sessions count, the fork pool running dry, and
# closing a session that tracks thousands of tasks, and a loop of short
# sessions (IPIs and probe registrations bounded).
# Counts are exact where they are defined; after each part the kernel log has
# no new splat.  Leaves the module loaded with default parameters.
#   PMCDRV_ABUSE_FORKS     processes of the fork storm (default 10000, in waves of 5, 1 ms apart)
#   PMCDRV_ABUSE_SESSIONS  sessions open at once (default 1000)
#   PMCDRV_ABUSE_TRACKED   tasks tracked by the session that is closed (default 2000)
#   PMCDRV_ABUSE_CYCLES    load/unload cycles with sessions churning (default 100;
#                          make check's PMU lane runs 600).  1000 cost 4 min 41 s
#                          of QEMU CPU time in the PMU lane (2026-11-23), so the
#                          other lanes keep the default
# On the debug kernel (-pmcdrv-debug-) the defaults are scaled down (see below).
. tests/lib/guest.sh

loop=$PWD/build/progs/loop
storm=$PWD/build/progs/storm
abuse=$PWD/build/tests/abuse_sessions
n() { printf '%09d' "$1"; }

forks=${PMCDRV_ABUSE_FORKS:-10000}
nsess=${PMCDRV_ABUSE_SESSIONS:-1000}
tracked=${PMCDRV_ABUSE_TRACKED:-2000}
cycles=${PMCDRV_ABUSE_CYCLES:-100}
case $(uname -r) in
*-pmcdrv-debug-*)	# about 3x slower: keep the lane's time bounded
	forks=${PMCDRV_ABUSE_FORKS:-2000}
	nsess=${PMCDRV_ABUSE_SESSIONS:-300}
	tracked=${PMCDRV_ABUSE_TRACKED:-1000}
	cycles=${PMCDRV_ABUSE_CYCLES:-30} ;;
esac

for f in "$loop" "$storm" "$abuse"; do
	[ -x "$f" ] || { fail "abuse: $f" "not built (make tests)"; exit 0; }
done

mark=$(dmesg | wc -l)
# clean NAME: no new splat since the last clean, no file holds the module.
clean() {
	local splat
	splat=$(klog_splats "$mark")
	mark=$(dmesg | wc -l)
	if [ -n "$splat" ]; then fail "$1: kernel log clean" "$(tr '\n' ' ' <<<"$splat")"; else pass "$1: kernel log clean"; fi
}
refcnt_zero() { expect_eq "$1: no open file holds the module (refcnt)" "$(cat /sys/module/pmcdrv/refcnt 2>/dev/null)" 0; }
no_claim() { check "$1: INFO shows no claim within 3 s" wait_unclaimed; }
reload_default() { module_loaded || insmod "$PMCDRV_KO"; }
t0=$(date +%s)
lap() { echo "time: $1: $(($(date +%s) - t0)) s"; t0=$(date +%s); }

pmu=false
have_pmu && pmu=true
ev=task-clock
$pmu && ev=instructions:u
[ "$pmu" = false ] && echo "SKIP: exact instruction counts: no PMU in this guest (software events only)"

# ---- fork storm: $forks processes under one inherited session ----------------------
# storm W K N: W waves of K children, 1 ms apart (tests/progs/storm.S).  The
# fork pool's refill runs on an unbound high-priority workqueue, on whichever
# CPU is free, so the storm must lose no task: a run whose output says some
# could not be tracked fails.
k=5
w=$((forks / k))
# storm_run W N: the session's count of storm W K N; "lost: ..." when the run
# lost tasks, "exit S" when pmcctl failed.
storm_run() {
	local out
	out=$(pmcctl run -x, -e "$ev" -- "$storm" "$(n "$1")" "$(n $k)" "$(n "$2")" 2>&1 >/dev/null) ||
		{ echo "exit $?"; return; }
	if grep -q 'could not be tracked' <<<"$out"; then
		echo "lost: $(grep -h 'could not be tracked' <<<"$out")"
		return
	fi
	awk -F, -v e="$ev" '$3 == e { print $1 }' <<<"$out"
}
c1=$(storm_run $w 1000)
c0=$(storm_run $w 0)
if [[ "$c1" == exit* || "$c0" == exit* ]]; then
	fail "fork storm: $((w * k)) processes in waves of $k ran" "$c1 / $c0"
elif [[ "$c1" == lost* || "$c0" == lost* ]]; then
	fail "fork storm: $((w * k)) processes in waves of $k, none lost" "N=1000: $c1 / N=0: $c0"
elif $pmu; then
	pass "fork storm: $((w * k)) processes in waves of $k ran, none lost"
	expect_eq "fork storm: count(W,K,N) - count(W,K,0) = W*K*2N exactly" \
		"$((c1 - c0))" $((w * k * 2000))
else
	pass "fork storm: $((w * k)) processes in waves of $k ran, none lost"
	check "fork storm: task-clock counted ($c1 ms)" test "${c1%.*}" -gt 0
fi
refcnt_zero "fork storm"
clean "fork storm"
lap "fork storm"

# ---- $nsess sessions open at once --------------------------------------------------
want=""
$pmu && want=$(pmcctl run -x, -e instructions:u -- "$loop" "$(n 100000)" 2>&1 >/dev/null |
	awk -F, '$3 == "instructions:u" { print $1 }')
"$abuse" many "$nsess" "$loop" "$(n 100000)" $want
refcnt_zero "$nsess sessions closed"
no_claim "$nsess sessions closed"
clean "$nsess sessions"
lap "$nsess sessions"

# ---- the session owner exits (or is killed) while its task runs --------------------
"$abuse" owner "$loop" "$(n 50000000)"
refcnt_zero "owner gone"
no_claim "owner gone"
check "owner gone: rmmod works" rmmod pmcdrv
reload_default
clean "owner gone"
lap "owner"

# ---- the fork pool runs dry ---------------------------------------------------------
# abuse_sessions confines the unbound workqueues to CPU 0 for the burst and
# puts their CPUs back; put back here too, should it die half-way.
wqmask=$(cat /sys/devices/virtual/workqueue/cpumask 2>/dev/null)
"$abuse" pool 200
[ -n "$wqmask" ] && echo "$wqmask" >/sys/devices/virtual/workqueue/cpumask
refcnt_zero "pool dry"
clean "pool dry"
lap "pool"

# ---- closing a session that tracks thousands of tasks -------------------------------
# Close untracks them in batches under the raw hash lock (docs/design.md,
# "Latency bounds"); afterwards none is tracked and nothing leaks.
"$abuse" close "$tracked"
refcnt_zero "close wide"
no_claim "close wide"
clean "close wide"
lap "close wide"

# ---- rmmod in a loop under load: refused while sessions exist, works after ----------
# The counted command runs until the rmmod loop is over, so the number of
# attempts does not depend on how fast this kernel is.
rm -f /tmp/abuse-stop
pmcctl run -x, -e "$ev" -o /tmp/abuse-long -- \
	sh -c 'while [ ! -e /tmp/abuse-stop ]; do '"$loop"' 001000000; done' &
long=$!
( for i in $(seq 30); do pmcctl run -x, -e task-clock -- true >/dev/null 2>&1; done ) &
churn=$!
for i in $(seq 100); do [ "$(cat /sys/module/pmcdrv/refcnt)" != 0 ] && break; sleep 0.02; done
refused=0 tries=0
while kill -0 $long 2>/dev/null && [ $tries -lt 10 ]; do
	tries=$((tries + 1))
	if rmmod pmcdrv 2>/dev/null; then
		fail "rmmod under load" "attempt $tries succeeded with a session open"
		insmod "$PMCDRV_KO"
		break
	fi
	refused=$((refused + 1))
	sleep 0.02
done
touch /tmp/abuse-stop
wait $long
lrc=$?
wait $churn
check "rmmod under load: refused $refused of $tries times while a session counted" \
	test "$refused" = "$tries" -a "$tries" = 10
expect_eq "rmmod under load: the counted command completed" "$lrc" 0
check "rmmod under load: its count is there" test -s /tmp/abuse-long
check "rmmod after the load: works" rmmod pmcdrv
reload_default
clean "rmmod under load"
lap "rmmod under load"

# ---- load/unload cycles with sessions churning ---------------------------------------
# Each cycle: a session starts while rmmod races it (either may win: rmmod is
# refused, or pmcctl finds no module, exit 3), then the module must unload.
ok=0 raced=0 badrc=""
for i in $(seq "$cycles"); do
	module_loaded || insmod "$PMCDRV_KO" || { fail "cycles: insmod at cycle $i" "failed"; break; }
	pmcctl run -x, -e task-clock -- true >/dev/null 2>&1 &
	bg=$!
	pmcctl run -x, -e task-clock -- true >/dev/null 2>&1
	rc=$?
	rmmod pmcdrv 2>/dev/null || raced=$((raced + 1))
	wait $bg
	brc=$?
	case $rc/$brc in 0/0 | 0/3) ;; *) badrc="$badrc cycle $i: $rc/$brc" ;; esac
	module_loaded && { rmmod pmcdrv || { fail "cycles: rmmod at cycle $i" "refused with no session"; break; }; }
	ok=$((ok + 1))
done
reload_default
expect_eq "$cycles load/unload cycles with sessions churning ($raced rmmod refused mid-session)" "$ok" "$cycles"
expect_eq "cycles: every session ran or found no module (exit 0 or 3)" "$badrc" ""
clean "cycles"
lap "$cycles cycles"

# ---- CPU hotplug in a loop while sessions count --------------------------------------
if [ ! -w /sys/devices/system/cpu/cpu1/online ]; then
	echo "SKIP: hotplug: no CPU 1 with an online switch"
else
	big=$(n 300000000)
	solo=$(taskset -c 0 pmcctl run -x, -e "$ev" -- "$loop" "$big" 2>&1 >/dev/null | awk -F, -v e="$ev" '$3 == e { print $1 }')
	taskset -c 0 pmcctl run -x, -e "$ev" -o /tmp/abuse-hp0 -- "$loop" "$big" &
	r0=$!
	pmcctl run -x, -e "$ev",task-clock -o /tmp/abuse-hp1 -- "$loop" "$big" &
	r1=$!
	flips=0
	while kill -0 $r0 2>/dev/null && [ $flips -lt 40 ]; do
		echo $((flips % 2)) >/sys/devices/system/cpu/cpu1/online && flips=$((flips + 1))
		sleep 0.01
	done
	wait $r0
	rc0=$?
	wait $r1
	rc1=$?
	echo 1 >/sys/devices/system/cpu/cpu1/online
	check "hotplug: cpu1 toggled $flips times while two task sessions counted" test "$flips" -ge 4
	expect_eq "hotplug: both counted commands completed" "$rc0/$rc1" 0/0
	got=$(awk -F, -v e="$ev" '$3 == e { print $1 }' /tmp/abuse-hp0)
	if $pmu; then
		expect_eq "hotplug: instructions:u of a loop pinned to CPU 0 exact" "$got" "$solo"
		expect_eq "hotplug: instructions:u of the unpinned loop exact" \
			"$(awk -F, -v e="$ev" '$3 == e { print $1 }' /tmp/abuse-hp1)" "$solo"
	else
		check "hotplug: task-clock of the pinned loop counted ($got)" test "${got%.*}" -gt 0
	fi
	# A CPU session per CPU, after the task sessions (77-share runs both at once through hotplug).
	cev=task-clock
	$pmu && cev=task-clock,instructions:u
	pmcctl stat -C 0,1 -A -x, -e $cev -o /tmp/abuse-stat -- sh -c '
		for i in $(seq 10); do
			echo 0 >/sys/devices/system/cpu/cpu1/online; sleep 0.01
			echo 1 >/sys/devices/system/cpu/cpu1/online; sleep 0.01
		done'
	src=$?
	echo 1 >/sys/devices/system/cpu/cpu1/online
	expect_eq "hotplug: CPU sessions on CPU 0 and 1 through 10 offline/online cycles (exit 0)" "$src" 0
	check "hotplug: both CPU sessions counted task-clock" \
		test "$(grep -c 'task-clock' /tmp/abuse-stat)" -ge 2
	refcnt_zero "hotplug"
	clean "hotplug"
	lap "hotplug"
fi

reload_default

# ---- session churn: what a loop of short sessions costs the other CPUs ------------
# churn.c: $nchurn cycles of open, CONFIG, ATTACH, DISABLE, ENABLE, close; the
# probes registered at most once a second, the IPIs within a per-cycle bound.
nchurn=1000
case $(uname -r) in *-pmcdrv-debug-*) nchurn=300 ;; esac
sleep 1.5	# the probes of the parts above have gone (they linger 1 s)
"$PWD/build/tests/churn" "$nchurn"
refcnt_zero "churn"
clean "churn"
lap "churn"

check "module loaded at the end" module_loaded
