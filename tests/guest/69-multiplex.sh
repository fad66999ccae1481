# SPDX-License-Identifier: GPL-2.0
# Multiplexing (tests/guest/mux.c): 12 events on the emulated PMU's 4 GP +
# 3 fixed counters (6 GP + 3 on the hybrid model: the core types' common
# subset) over a steady loop give scaled counts within 1% of the
# exact ones, each event's time_running is its share of the rotation, a
# group's events share one time_running, bad mux_interval_ns is EINVAL and a
# session that fits runs all the time.  Then the rotation's hard hrtimer
# itself, from timer:hrtimer_expire_entry: ticks about every mux_interval_ns
# of counting (10 times as many at 2 ms as at 20 ms), and none at all for a
# session that fits the counters.
. tests/lib/guest.sh

module_loaded || insmod "$PMCDRV_KO"
if ! have_pmu; then
	echo "SKIP: multiplex: no PMU in this guest"
	return 0 2>/dev/null || exit 0
fi
if [ ! -x build/tests/mux ]; then
	fail "multiplex" "build/tests/mux not built (make tests)"
	return 0 2>/dev/null || exit 0
fi
# The bounds.  On the debug kernel (-pmcdrv-debug-: KASAN, lockdep, kmemleak)
# the counted time also holds the program's start and exit, made several
# times slower there (page faults, exec, exit under KASAN): the rate of user
# instructions is not steady over it, so whichever events are on the
# counters then are under- or over-estimated.  Measured there: mux.c's task
# session 1.1-1.3% off, each event's share off its plan by up to 0.015
# (partial rounds of the rotation); pmcctl's runs, which count the exec too,
# up to 6.4% off (a CPU session), and perf's own multiplexing 2.5-3.0% off
# on the same runs.  mux.c's loop itself is steady, but there the kernel's
# own work inside the counted time (interrupts and softirqs, KASAN-slow) is
# 7% of it and comes in bursts: at 0.2 s, about 5 rounds of the rotation, an
# event on the counters for 1 step in 10 was once 5.3% off (CI, 2026-11-24).
# So there mux.c counts 8 times as long (40 rounds: a burst weighs an eighth)
# with bounds of 5% and 0.1 of a share, and pmcctl's accuracy checks are
# skipped (said so): that lane is for KASAN, lockdep and kmemleak, which the
# same runs exercise.
# 12 instructions:u share fixed counter 0 and the GP counters: each runs
# (GP + 1)/12 of the time (5/12, 41.67%, on 4 GP counters; 7/12 on the
# hybrid model's 6), pcnt-running within -6/+5 of that rounded.
gp=$(pmcctl info --json | jq -r .perfmon.gp_counters)
units=$((gp + 1))
share=$(awk -v u=$units 'BEGIN { printf "%.2f", u * 100 / 12 }')
tol=1 stol=0.05 ctol=3 debug=0 iters=100000000
sh_lo=$(((units * 100 + 6) / 12 - 6)) sh_hi=$(((units * 100 + 6) / 12 + 5))
case $(uname -r) in
*-pmcdrv-debug-*) tol=5 stol=0.1 debug=1 iters=800000000 ;;
esac
echo "multiplex: bounds: scaled within $tol% (CPU session $ctol%), shares within $stol, pcnt-running $sh_lo-$sh_hi"
# acc NAME CMD...: an accuracy check, skipped on the debug kernel (above).
acc() {
	[ "$debug" = 1 ] || { check "$@"; return; }
	if "${@:2}" >/dev/null 2>&1; then
		pass "$1"
	else
		echo "SKIP: $1: off the bound, not asserted on the debug kernel (see 69-multiplex.sh)"
	fi
}
# On a hybrid part on the P-core: its cycles are 2 an instruction, as mux.c takes them.
MUX_TOL_PCT=$tol MUX_SHARE_TOL=$stol MUX_ITERS=$iters on_pcore build/tests/mux

TRACEFS=/sys/kernel/tracing
[ -e "$TRACEFS/trace" ] || mount -t tracefs nodev "$TRACEFS"
# Rotation ticks (pmcd_mux_tick) while `mux --run ARGS` counts.
mux_ticks() {
	echo 0 >"$TRACEFS/tracing_on"
	echo 0 >"$TRACEFS/events/enable"
	echo 1 >"$TRACEFS/events/timer/hrtimer_expire_entry/enable" || return 1
	echo >"$TRACEFS/trace"
	echo 1 >"$TRACEFS/tracing_on"
	local rc=0
	build/tests/mux --run "$@" || rc=$?
	echo 0 >"$TRACEFS/tracing_on"
	echo 0 >"$TRACEFS/events/enable"
	if [ "$rc" -ne 0 ]; then
		echo "mux-run-failed-$rc"
	else
		grep -c 'function=pmcd_mux_tick' "$TRACEFS/trace"
	fi
}
# 100M iterations: 200M instructions, 0.2 s of the guest's icount clock.
t2=$(mux_ticks 2000000 100000000)
t20=$(mux_ticks 20000000 100000000)
tdef=$(mux_ticks 0 100000000)
tfit=$(mux_ticks 0 100000000 fit)
echo "multiplex: ticks at 2 ms: $t2, at 20 ms: $t20, default: $tdef, fitting session: $tfit"
check "multiplex: 2 ms interval ticks about 100 times in 0.2 s ($t2)" \
	test "${t2:-0}" -ge 70 2>/dev/null -a "${t2:-0}" -le 130
check "multiplex: 20 ms interval ticks about 10 times ($t20)" \
	test "${t20:-0}" -ge 6 -a "${t20:-0}" -le 14
check "multiplex: default interval (1000/HZ ms) ticks 200000/(1000/HZ) times in 0.2 s ($tdef)" \
	test "${tdef:-0}" -ge 10
expect_eq "multiplex: no rotation tick for a session that fits the counters" "$tfit" 0

# ---- pmcctl: perf stat's scaling, the (xx.xx%) column, --no-scale, compare -----------
N=100000000
exact=$((2 * N))
ev=instructions:u
for i in $(seq 11); do ev="$ev,instructions:u"; done
# All 12 within $tol% of 2N (the loop's own few instructions are far below that).
within() {	# JSON lines of pmcctl run -j; field; each value within $tol% of $exact?
	jq -e -s --argjson x "$exact" --arg f "$2" --argjson t "$tol" \
		'length == 12 and all(.[]; (.[$f] | tonumber) > $x * (1 - $t / 100) and (.[$f] | tonumber) < $x * (1 + $t / 100))' <<<"$1"
}
# On a hybrid part run and stat print each event's rows by core type too
# (cpu_core/instructions:u/, cpu_atom/instructions:u/, 41-hybrid checks
# them); these checks take the sums, the rows named as -e names them.  Not
# in a pipe: jq starting on the other vCPU while the loop runs takes guest
# time from it under -icount, and the rate the estimates assume is unsteady.
sums() { jq -c 'select((.event // "") | startswith("cpu_") | not)'; }
out=$(pmcctl run -j -e "$ev" -- build/progs/loop $N 2>&1); out=$(sums <<<"$out")
acc "pmcctl run: 12 instructions:u on $gp+3 counters, each scaled within $tol% of 2N" within "$out" counter-value
acc "pmcctl run -j: each event's pcnt-running is its share ($units counters of 12 units: $share%, $sh_lo-$sh_hi)" \
	jq -e -s --argjson lo $sh_lo --argjson hi $sh_hi 'all(.[]; ."pcnt-running" > $lo and ."pcnt-running" < $hi)' <<<"$out"
out=$(pmcctl run -e "$ev" -- build/progs/loop $N 2>&1)
check "pmcctl run: text shows perf's (xx.xx%) column on each multiplexed count" \
	test "$(awk -v lo=$((sh_lo - 6)) -v hi=$((sh_hi + 3)) '$2 == "instructions:u" && $3 ~ /^\([0-9.]+%\)$/ {
		p = substr($3, 2) + 0; if (p >= lo && p < hi) n++ } END { print n + 0 }' <<<"$out")" = 12
out=$(pmcctl run -j --no-scale -e "$ev" -- build/progs/loop $N 2>&1); out=$(sums <<<"$out")
check "pmcctl run --no-scale: raw counts, each about its share of 2N" \
	jq -e -s --argjson x "$exact" --argjson lo $((sh_lo - 6)) --argjson hi $((sh_hi + 3)) \
		'length == 12 and all(.[]; ."counter-value" < $x * $hi / 100 and ."counter-value" > $x * $lo / 100)' <<<"$out"
pmcctl run --regions -e "$ev" -- build/examples/matmul 16 >/dev/null 2>/tmp/err
expect_eq "pmcctl run --regions with more events than counters: refused, exit 2" "$?" 2
check "... the message says a region needs all its events counting" grep -q 'a region needs all of them counting' /tmp/err
out=$(pmcctl run -j -e instructions:u,cycles:u -- build/progs/loop $N 2>&1); out=$(sums <<<"$out")
check "pmcctl run: a session that fits has no percentage below 100" \
	jq -e -s 'all(.[]; ."pcnt-running" == 100)' <<<"$out"
out=$(pmcctl compare -j -e "$ev" -- build/progs/loop $N 2>&1)
acc "pmcctl compare: pmcdrv and perf_event (both multiplexing) scaled within $tol% of 2N" \
	jq -e -s --argjson x "$exact" --argjson t "$tol" 'length == 12 and all(.[]; .pmcdrv > $x * (1 - $t / 100) and .pmcdrv < $x * (1 + $t / 100) and .perf_event > $x * (1 - $t / 100) and .perf_event < $x * (1 + $t / 100))' <<<"$out"
echo "$out" | head -3
# A CPU session multiplexes too (its tick runs while it is enabled): the loop pinned to CPU 1.
# The CPU also idles (and runs taskset) before and after the loop, on whichever steps are
# loaded then: the load is not steady over the time counted, so the estimates came out
# 1.2-1.4% low here (the task session's are within 0.05%) although nothing was lost (with
# --no-scale the 12 raw counts summed to 5 x (2N + 32,500): 5 counters at every moment).
# 3% is the bound.
if [ "$(nproc)" -gt 1 ]; then
	out=$(pmcctl stat -C 1 -j -e "$ev" -- taskset -c 1 build/progs/loop $N 2>&1); out=$(sums <<<"$out")
	acc "pmcctl stat -C 1: 12 instructions:u of a CPU session, each scaled within $ctol% of 2N" \
		jq -e -s --argjson x "$exact" --argjson t "$ctol" 'length == 12 and all(.[]; ."counter-value" > $x * (1 - $t / 100) and ."counter-value" < $x * (1 + $t / 100))' <<<"$out"
	acc "pmcctl stat -C 1 -j: each pcnt-running about $units/12 ($sh_lo-$sh_hi)" \
		jq -e -s --argjson lo $sh_lo --argjson hi $sh_hi 'all(.[]; ."pcnt-running" > $lo and ."pcnt-running" < $hi)' <<<"$out"
	echo "$out" | head -3
fi
