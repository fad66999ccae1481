# SPDX-License-Identifier: GPL-2.0
# Helpers for tests/guest/*.sh (bash, inside the guest, from the project root).
# The module this guest was booted with (tests/vm/run --module), relative to the project root.
PMCDRV_KO=${PMCDRV_KO:-kmod/pmcdrv.ko}
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
# check NAME COMMAND...: PASS when COMMAND succeeds, else FAIL with its output.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(echo "$out" | tail -n 5 | tr '\n' ' ')"; fi
}
# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}
module_loaded() { grep -q '^pmcdrv ' /proc/modules; }
# child_of PARENT COMM: the pid of PARENT's child named COMM, if any (the
# guest's busybox has no pgrep).
child_of() {
	local d
	for d in /proc/[0-9]*; do
		[ "$(cat "$d/comm" 2>/dev/null)" = "$2" ] || continue
		[ "$(awk '$1 == "PPid:" { print $2 }' "$d/status" 2>/dev/null)" = "$1" ] && echo "${d#/proc/}" && return 0
	done
	return 1
}
# Does this guest have the emulated PMU (per CPUID, as user space sees it)?
# wait_unclaimed: true once INFO stops saying held_by_pmcdrv; the module lets go
# of the PMU 1 s after the last session stops counting (docs/design.md).
wait_unclaimed() {
	local i
	for i in $(seq 60); do
		[ "$(pmcctl info --json | jq -r .counters.held_by_pmcdrv)" = false ] && return 0
		sleep 0.05
	done
	return 1
}
# csv_count EV [CGROUP]: EV's count (CGROUP's, -G) in perf's or pmcctl's -x,
# output on stdin.  On a hybrid part perf splits it into cpu_core/EV/ and
# cpu_atom/EV/ rows (<not counted> where the task never ran): their sum.
# pmcctl prints the exact sum itself as EV's row beside them, and that row is
# taken.
csv_count() {
	awk -F, -v e="$1" -v g="${2-}" '
		g != "" && $4 != g { next }
		$3 == e && !own { own = 1; v = $1 }
		$3 == "cpu_core/" e "/" || $3 == "cpu_atom/" e "/" { n++; if ($1 ~ /^[0-9]+$/) s += $1 }
		END { if (own) print v; else if (n) print s }'
}
# A hybrid part (perf's cpu_core PMU)?  perf's rows by core type are read
# raw there (perf_raw: --no-scale): scaled, each by its own running time,
# they add up to more than a task that moved between the types did.
hybrid_cpu() { [ -d /sys/bus/event_source/devices/cpu_core ]; }
perf_raw=()
hybrid_cpu && perf_raw=(--no-scale)
# on_pcore CMD...: CMD where the Skylake-like truths hold.  On the emulated
# hybrid (--pmu-model adl) CPU 0 is the P-core (2 cycles an instruction, the
# cpu_core metrics and events), CPU 1 the E-core (3 cycles an instruction):
# CMD runs pinned to CPU 0 there; elsewhere as it is.
on_pcore() {
	if hybrid_cpu; then taskset -c 0 "$@"; else "$@"; fi
}
# pcore_ev EV: a model event as pmcctl names it where the P-core counts it:
# cpu_core/EV/ on a hybrid part (its metrics' events, and what a model event
# without a core type must be spelled there), EV elsewhere.
pcore_ev() {
	if hybrid_cpu; then echo "cpu_core/$1/"; else echo "$1"; fi
}
# near A B [TOL]: |A - B| <= TOL (0.5 by default), A not empty (percentages, floats)
near() { awk -v a="$1" -v b="$2" -v t="${3:-0.5}" 'BEGIN { d = a - b; exit !(a != "" && d >= -t && d <= t) }'; }
# region_td OUT REGION METRIC: a region's top-down share in the -x, output OUT of
# pmcctl run --regions --topdown (its "region-topdown" lines)
region_td() { awk -F, -v r="$2" -v m="$3" '$1 == "region-topdown" && $2 == r && $4 == m { print $3 }' <<<"$1"; }
# shuttle PID: move the only child of PID between CPUs 0 and 1 every few ms
# until PID ends; wait for it and print how often the child was moved.
shuttle() {
	local runner=$1 moves=0 pid=""
	while kill -0 "$runner" 2>/dev/null; do
		[ -n "$pid" ] || pid=$(cat /proc/$runner/task/$runner/children 2>/dev/null | tr -d ' ')
		if [ -n "$pid" ] && taskset -p -c $((moves % 2)) "$pid" >/dev/null 2>&1; then
			moves=$((moves + 1))
		fi
		sleep 0.005
	done
	wait "$runner"
	echo "$moves"
}
# td_close A B: two metric-only CSV lines (--topdown -x,) of at least 4 values agree,
# each within 0.5 (perf prints them with one decimal).
td_close() {
	awk -F, -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, ","); m = split(b, y, ",");
		if (n != m || n < 4) exit 1
		for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < -0.5 || d > 0.5) exit 1 } }'
}
have_pmu() { [ "$(pmcctl info --json | jq -r .perfmon.available)" = true ]; }

# skl_topdown_lane LABEL: true on the models whose GP counters count Skylake's top-down
# events (v4, gp8); otherwise prints "SKIP: LABEL: why" and returns 1.
skl_topdown_lane() {
	local model=${PMCDRV_PMU_MODEL:-default}

	if ! have_pmu; then
		echo "SKIP: $1: no PMU in this guest"
		return 1
	fi
	case $model in
	v4|gp8) return 0 ;;
	spr) echo "SKIP: $1: the spr model has PERF_METRICS (66-topdown.sh), not Skylake's top-down events" ;;
	*) echo "SKIP: $1: the $model model counts the Skylake top-down events as 0 (tests/qemu/README.md; the v4 and gp8 models count them)" ;;
	esac
	return 1
}

# klog_splats N: the first lines of the kernel log after line N that look like a
# splat (warning, BUG, lockdep, KASAN, UBSAN, hang, RCU stall); mark N with $(dmesg | wc -l).
klog_splats() {
	dmesg | tail -n +"$(($1 + 1))" |
		grep -E 'WARNING:|BUG:|Oops|Call Trace|lockdep|KASAN|UBSAN|general protection|hung_task|INFO: task .* blocked|rcu_sched self-detected|rcu: INFO' |
		head -n 5
}
