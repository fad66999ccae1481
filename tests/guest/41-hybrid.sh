# SPDX-License-Identifier: GPL-2.0
# Hybrid parts (P-cores and E-cores) on the emulated Alder Lake
# (tests/vm/run --pmu-model adl: vCPU 0 a P-core, vCPU 1 an E-core; the model
# is in tests/qemu/README.md, "A hybrid Alder Lake"):
#   - INFO says HYBRID; the counters are leaf 0xA's common subset (6 GP,
#     fixed 0-2), no top-down metric in common; the load message says so
#   - top-down on the P-core alone (its fixed counter 3 and PERF_METRICS):
#     cpu_core/slots/ and the 8 metrics as the model has them and as perf
#     counts them; 0 on the E-core, which never has its P-core-only MSRs
#     touched (traced); a task moved between them: slots 8 x its P-core
#     instructions; --topdown as perf stat --topdown on the P-core
#   - architectural events count exactly on either core type and across
#     them: a task's count is one sum, equal to the task's instructions
#     wherever it ran, and to perf's cpu_core + cpu_atom rows of the same run
#     when it did not move; cycles show where it ran (CPI 2 on the P-core,
#     3 on the E-core)
#   - run's rows by core type (READ's split, pmcdrv_read_types): the P-core's
#     and the E-core's raw counts, exact where the task was pinned (the other
#     type's 0) and adding up exactly to the sum when it moved, never scaled
#     (each type's cycles are that type's CPI times its instructions);
#     --cputype, --hybrid-merge, CSV and JSON
#   - events of one core type (cpu_core/EVENT/, cpu_atom/EVENT/, named from
#     the kernel's data per type): exact on their type, 0 on the other,
#     adding up to the sum when the task moved, with their share of the
#     time; on the P-core its GP counters 6 and 7 too (9 events of the
#     P-cores counted), more than a type's counters taking turns on that
#     type's counters (each scaled by its time there, never the whole time),
#     and more than the counters that fit each type's (six GP events of
#     each type and one of none) counted exactly on each
#   - the self-read page of such a session on each type: its type's events
#     each on a counter of its own, the other type's with no index
#   - a model-specific event without a core type is refused, naming why
#   - stat -a -A: each CPU's row at its own type's ratio; the MSR device's
#     one-CPU count on each type, naming the core type
#   - regions and the self-read page (RDPMC) on each core type, and a region
#     whose thread moves between them adding up across both
# Elsewhere (not hybrid) everything here SKIPs, saying why.
. tests/lib/guest.sh

if ! have_pmu; then
	echo "SKIP: hybrid: no PMU in this guest"
	exit 0
fi
module_loaded || insmod "$PMCDRV_KO"
klog0=$(dmesg | wc -l)
if [ "$(pmcctl info --json | jq -r .perfmon.hybrid)" != true ]; then
	echo "SKIP: hybrid: this guest's CPU is not hybrid (tests/vm/run --pmu-model adl is)"
	exit 0
fi

loop=build/progs/loop
n() { printf '%09d' "$1"; }
N=200000
want=$((2 * N + 103))
val() { awk -F, -v e="$1" '$3 == e { print $1 }'; }
# vals EVENT: the distinct values of EVENT's rows (an event asked for more than once)
vals() { awk -F, -v e="$1" '$3 == e { print $1 }' | sort -u | tr '\n' ' '; }
# evs N EVENT: EVENT N times, comma-separated
evs() { local i e=$2; for ((i = 1; i < $1; i++)); do e="$e,$2"; done; echo "$e"; }

# ---- what INFO and the load message say ------------------------------------------
info=$(pmcctl info --json)
expect_eq "info: the common subset: 6 GP counters" "$(jq -r .perfmon.gp_counters <<<"$info")" 6
expect_eq "info: the common subset: 3 fixed counters" "$(jq -r .perfmon.fixed_counters <<<"$info")" 3
check "info (text) says hybrid" bash -c "pmcctl info | grep -q '^Hybrid: *yes'"
# Each core type's own counters and CPUs, from each CPU's CPUID: leaf 0x23 where the
# model has it (adl23: the guest's /proc/cpuinfo level), else the Alder Lake table.
from="the Alder Lake/Raptor Lake model table, as Linux"
grep -q '^cpuid level[[:space:]]*: 35$' /proc/cpuinfo && from="CPUID leaf 0x23"
ct() { jq -r --arg p "$1" ".perfmon.core_types[] | select(.pmu == \$p) | $2" <<<"$info"; }
expect_eq "info: two core types" "$(jq -r '.perfmon.core_types | length' <<<"$info")" 2
expect_eq "info: the P-core (cpu_core) is CPU 0, with 8 GP and 4 fixed counters ($from)" \
	"$(ct cpu_core '"\(.cpus) \(.gp_counters) \(.fixed_counters) \(.from)"')" "0 8 4 $from"
expect_eq "info: the E-core (cpu_atom) is CPU 1, with 6 GP and 3 fixed counters ($from)" \
	"$(ct cpu_atom '"\(.cpus) \(.gp_counters) \(.fixed_counters) \(.from)"')" "1 6 3 $from"
check "info (text): a line per core type" \
	bash -c "pmcctl info | grep -A1 '^Core types: *a P-core (Intel Core) (cpu_core) on CPUs 0: 8 GP, 4 fixed' |
		 grep -q 'an E-core (Intel Atom) (cpu_atom) on CPUs 1: 6 GP, 3 fixed'"
check "the load message says hybrid" bash -c "dmesg | grep -q 'pmcdrv: architectural perfmon v5: 6 GP .* (hybrid CPU'"

# ---- exact on each core type, and across them ---------------------------------------
EV=instructions:u,cycles:u,ref-cycles:u,r00c0:u,r013c:u
for c in 0 1; do
	out=$(pmcctl run -x, -e "$EV" -- taskset -c $c $loop "$(n $N)" 2>&1 >/dev/null)
	i=$(val instructions:u <<<"$out") cy=$(val cycles:u <<<"$out")
	# taskset runs before the exec of loop, on either CPU: count the loop alone
	out1=$(taskset -c $c pmcctl run -x, -e "$EV" -- $loop "$(n $N)" 2>&1 >/dev/null)
	i1=$(val instructions:u <<<"$out1") cy1=$(val cycles:u <<<"$out1")
	expect_eq "CPU $c: instructions:u exactly 2N+103" "$i1" "$want"
	expect_eq "CPU $c: r00c0:u (a GP counter) equals instructions:u" \
		"$(val r00c0:u <<<"$out1")" "$want"
	expect_eq "CPU $c: ref-cycles:u equal to instructions (icount)" \
		"$(val ref-cycles:u <<<"$out1")" "$want"
	cpi=$((c == 0 ? 2 : 3))
	expect_eq "CPU $c ($([ $c = 0 ] && echo P-core || echo E-core)): cycles:u = $cpi x instructions" \
		"$cy1" $((cpi * want))
	check "CPU $c: through taskset, instructions:u at least the loop's ($i)" test "${i:-0}" -ge "$want"
done

# A task moved between the core types: one sum, exactly its instructions.
big=$(n 50000000)
pmcctl run -x, -e instructions:u,cycles:u,cpu-migrations -o /tmp/hyb -- $loop "$big" &
moves=$(shuttle $!)
i=$(val instructions:u </tmp/hyb) cy=$(val cycles:u </tmp/hyb) mig=$(val cpu-migrations </tmp/hyb)
expect_eq "moved between P-core and E-core ($moves moves): instructions:u exactly 2N+103" \
	"$i" $((2 * 10#$big + 103))
check "moved: it did migrate ($mig migrations)" test "${mig:-0}" -gt 0
# cycles between all-P (2x) and all-E (3x): both types counted into one sum
check "moved: cycles between 2x and 3x the instructions ($cy for $i)" \
	test "${cy:-0}" -gt $((2 * i)) -a "${cy:-0}" -lt $((3 * i))

# ---- rows by core type: raw, exact, adding up to the sum --------------------------------
tval() { awk -F, -v e="$1/$2/" '$3 == e { print $1 }'; }
for c in 0 1; do
	me=$([ $c = 0 ] && echo cpu_core || echo cpu_atom)
	other=$([ $c = 0 ] && echo cpu_atom || echo cpu_core)
	out=$(taskset -c $c pmcctl run -x, -e instructions:u,cycles:u,task-clock -- $loop "$(n $N)" 2>&1 >/dev/null)
	expect_eq "pinned to CPU $c: $me/instructions:u/ exactly 2N+103" "$(tval $me instructions:u <<<"$out")" "$want"
	expect_eq "pinned to CPU $c: $other/instructions:u/ 0" "$(tval $other instructions:u <<<"$out")" 0
	expect_eq "pinned to CPU $c: the sum row instructions:u exactly 2N+103" "$(val instructions:u <<<"$out")" "$want"
	expect_eq "pinned to CPU $c: $me/cycles:u/ = $((c == 0 ? 2 : 3)) x its instructions" \
		"$(tval $me cycles:u <<<"$out")" $(($((c == 0 ? 2 : 3)) * want))
	check "pinned to CPU $c: task-clock has one row (software events are not split)" \
		test "$(grep -c 'task-clock' <<<"$out")" = 1
	perf_row=$(taskset -c $c perf stat --all-user -x, -e $me/instructions/ -- $loop "$(n $N)" 2>&1 >/dev/null |
		   awk -F, -v e="$me/instructions/" '$3 == e { print $1 }')
	expect_eq "pinned to CPU $c: perf's $me/instructions/ row equals pmcctl's" "$perf_row" \
		"$(tval $me instructions:u <<<"$out")"
done
# Moved between the types many times: the rows add up to the sum, each type's
# cycles are exactly its CPI times its instructions, which no scaled row could be.
pmcctl run -x, -e instructions:u,cycles:u -o /tmp/hyb -- $loop "$big" &
moves=$(shuttle $!)
ic=$(tval cpu_core instructions:u </tmp/hyb) ia=$(tval cpu_atom instructions:u </tmp/hyb)
cc=$(tval cpu_core cycles:u </tmp/hyb) ca=$(tval cpu_atom cycles:u </tmp/hyb)
expect_eq "moved ($moves moves): cpu_core + cpu_atom instructions:u = the sum" $((ic + ia)) "$(val instructions:u </tmp/hyb)"
expect_eq "moved: ... = 2N+103 exactly" $((ic + ia)) $((2 * 10#$big + 103))
check "moved: both types counted a share (P $ic, E $ia)" test "${ic:-0}" -gt 0 -a "${ia:-0}" -gt 0
expect_eq "moved: cpu_core/cycles:u/ = 2 x its instructions (raw)" "$cc" $((2 * ic))
expect_eq "moved: cpu_atom/cycles:u/ = 3 x its instructions (raw, not scaled)" "$ca" $((3 * ia))
expect_eq "moved: cycles' sum = their rows' sum" "$(val cycles:u </tmp/hyb)" $((cc + ca))
# --cputype, --hybrid-merge, JSON
out=$(taskset -c 1 pmcctl run -x, --cputype atom -e instructions:u -- $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "--cputype atom: the E-core's row" "$(tval cpu_atom instructions:u <<<"$out")" "$want"
check "--cputype atom: no cpu_core row and no sum" bash -c "! grep -qE ',(cpu_core/)?instructions:u' <<<'$out'"
out=$(taskset -c 0 pmcctl run -x, --hybrid-merge -e instructions:u -- $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "--hybrid-merge: the sum" "$(val instructions:u <<<"$out")" "$want"
check "--hybrid-merge: no per-type row" bash -c "! grep -q 'cpu_' <<<'$out'"
out=$(taskset -c 0 pmcctl run -j -e instructions:u -- $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "JSON: the cpu_core/instructions:u/ object" \
	"$(jq -r 'select(.event == "cpu_core/instructions:u/") | ."counter-value"' <<<"$out" | cut -d. -f1)" "$want"
out=$(pmcctl run -e instructions:u -- $loop "$(n $N)" 2>&1 >/dev/null)
check "text: a cpu_atom/instructions:u/ row" grep -q 'cpu_atom/instructions:u/' <<<"$out"
out=$(pmcctl run --cputype big -- true 2>&1)
check "--cputype big: refused, naming core and atom" grep -q "give core (P-cores) or atom (E-cores)" <<<"$out"
out=$(pmcctl run --cputype core --hybrid-merge -- true 2>&1)
check "--cputype with --hybrid-merge: refused" grep -q "exclude each other" <<<"$out"
out=$(pmcctl run --msr --cputype core -- true 2>&1)
check "--cputype with --msr: refused" grep -q "MSR path counts one CPU" <<<"$out"

# perf's rows for the same unmoved run: cpu_core + cpu_atom = pmcdrv's one count
for c in 0 1; do
	p=$(taskset -c $c perf stat --all-user -x, -e cpu_core/instructions/,cpu_atom/instructions/ \
		-- $loop "$(n $N)" 2>&1 >/dev/null)
	pc=$(awk -F, '$3 == "cpu_core/instructions/" { print $1 }' <<<"$p")
	pa=$(awk -F, '$3 == "cpu_atom/instructions/" { print $1 }' <<<"$p")
	[[ "$pc" =~ ^[0-9]+$ ]] || pc=0
	[[ "$pa" =~ ^[0-9]+$ ]] || pa=0
	expect_eq "CPU $c: perf's cpu_core + cpu_atom instructions equal pmcdrv's" $((pc + pa)) "$want"
done

# ---- stat -a: each CPU with its own core type -----------------------------------------
# Everything a CPU runs takes its type's cycles per instruction on the
# emulator, so each CPU's row is exact in its ratio: 2 on the P-core, 3 on the E-core.
cpuval() { awk -F, -v c="CPU$1" -v e="$2" '$1 == c && $4 == e { print $2 }'; }
for c in 0 1; do
	out=$(pmcctl stat -a -A -x, -e instructions:u,cycles:u -- taskset -c $c $loop "$(n $N)" 2>&1 >/dev/null)
	for k in 0 1; do
		i=$(cpuval $k instructions:u <<<"$out") cy=$(cpuval $k cycles:u <<<"$out")
		expect_eq "stat -a -A, the loop on CPU $c: CPU $k's cycles:u = $((k == 0 ? 2 : 3)) x its instructions:u" \
			"${cy:-none}" $(($((k == 0 ? 2 : 3)) * ${i:-0}))
	done
	check "stat -a -A, the loop on CPU $c: CPU $c counted it ($(cpuval $c instructions:u <<<"$out") >= $want)" \
		test "$(cpuval $c instructions:u <<<"$out")" -ge "$want"
done
# stat -a summed: rows by core type (each CPU's counts on its type's row), then
# the sum; an event of one type counts on that type's CPUs alone.
out=$(pmcctl stat -a -x, -e instructions:u,cycles:u,cpu_atom/INST_RETIRED.ANY_P/:u,cpu_core/INST_RETIRED.ANY_P/:u \
      -- taskset -c 1 $loop "$(n $N)" 2>&1 >/dev/null)
ic=$(tval cpu_core instructions:u <<<"$out") ia=$(tval cpu_atom instructions:u <<<"$out")
check "stat -a: the E-core's row has the loop ($ia >= $want)" test "${ia:-0}" -ge "$want"
expect_eq "stat -a: cpu_core + cpu_atom instructions:u = the sum" $((ic + ia)) "$(val instructions:u <<<"$out")"
expect_eq "stat -a: cpu_atom/cycles:u/ = 3 x its instructions" "$(tval cpu_atom cycles:u <<<"$out")" $((3 * ia))
expect_eq "stat -a: cpu_core/cycles:u/ = 2 x its instructions" "$(tval cpu_core cycles:u <<<"$out")" $((2 * ic))
expect_eq "stat -a: cpu_atom/INST_RETIRED.ANY_P/ = the E-cores' row" \
	"$(val cpu_atom/INST_RETIRED.ANY_P/:u <<<"$out")" "$ia"
expect_eq "stat -a: cpu_core/INST_RETIRED.ANY_P/ = the P-cores' row" \
	"$(val cpu_core/INST_RETIRED.ANY_P/:u <<<"$out")" "$ic"

# ---- the MSR device: one CPU, its own core type -------------------------------------
had_msr=0
grep -q '^msr ' /proc/modules && had_msr=1
modprobe msr
for c in 0 1; do
	out=$(taskset -c $c pmcctl run --msr -x, -e instructions:u,cycles:u -- $loop "$(n $N)" 2>&1 >/dev/null)
	i=$(val instructions:u <<<"$out") cy=$(val cycles:u <<<"$out")
	check "--msr on CPU $c: the whole CPU counted, the loop included ($i >= $want)" test "${i:-0}" -ge "$want"
	expect_eq "--msr on CPU $c: cycles:u = $((c == 0 ? 2 : 3)) x instructions:u" "${cy:-none}" \
		$(($((c == 0 ? 2 : 3)) * ${i:-0}))
	check "--msr on CPU $c: names its core type" \
		grep -q "CPU $c is $([ $c = 0 ] && echo 'a P-core (Intel Core)' || echo 'an E-core (Intel Atom)') of a hybrid CPU" <<<"$out"
done
# An event of one core type on the MSR path: counted on a CPU of that type, refused on another.
out=$(taskset -c 0 pmcctl run --msr -x, -e cpu_core/INST_RETIRED.ANY_P/:u -- $loop "$(n $N)" 2>&1 >/dev/null)
i=$(val cpu_core/INST_RETIRED.ANY_P/:u <<<"$out")
check "--msr on CPU 0: cpu_core/INST_RETIRED.ANY_P/:u counted there ($i >= $want)" test "${i:-0}" -ge "$want"
out=$(taskset -c 1 pmcctl run --msr -e cpu_core/INST_RETIRED.ANY_P/:u -- true 2>&1)
check "--msr on CPU 1 (an E-core): cpu_core/ refused, naming the fix" grep -q "give -C a CPU of that type" <<<"$out"
# The P-core's GP counters 6 and 7 on the MSR path too: 8 GP events and fixed
# counter 0 there; 8 of the E-core (6 GP and fixed counter 0) do not fit.
out=$(taskset -c 0 pmcctl run --msr -x, -e "$(evs 9 cpu_core/INST_RETIRED.ANY_P/:u)" -- $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "--msr on CPU 0: 9 P-core events (GP 0-7 and fixed counter 0): exit 0" "$?" 0
check "--msr on CPU 0: each of the 9 counted the loop ($(vals cpu_core/INST_RETIRED.ANY_P/:u <<<"$out"))" \
	awk -F, -v w="$want" '$3 == "cpu_core/INST_RETIRED.ANY_P/:u" { n++; if ($1 < w) bad++ } END { exit !(n == 9 && !bad) }' <<<"$out"
out=$(taskset -c 1 pmcctl run --msr -e "$(evs 8 cpu_atom/INST_RETIRED.ANY_P/:u)" -- true 2>&1)
check "--msr on CPU 1: 8 E-core events refused (6 GP and fixed counter 0 there)" test $? != 0
[ "$had_msr" = 1 ] || rmmod msr
# Without the module, info reads CPUID in user space, as the module does.
if rmmod pmcdrv; then
	expect_eq "info without the module: hybrid (CPUID.07H:EDX[15])" \
		"$(pmcctl info --json | jq -r .perfmon.hybrid)" true
	check "info (text) without the module: hybrid, counted per CPU through the MSR device" \
		bash -c "pmcctl info | grep -q '^Hybrid: *yes: through the MSR device'"
	insmod "$PMCDRV_KO"
else
	fail "info without the module" "rmmod pmcdrv failed"
fi

# ---- events of one core type: cpu_core/EVENT/ and cpu_atom/EVENT/ -----------------------
# Each counts on CPUs of its type alone (the other type's program leaves it out,
# and its counter to that type's events); its row is raw, with the share of the time on its type.
# INST_RETIRED.ANY_P (0xc0 on a GP counter) by its name in the kernel's data
# for each type, beside perf's split of instructions:u.
tev="cpu_core/INST_RETIRED.ANY_P/:u,cpu_atom/INST_RETIRED.ANY_P/:u,cpu_core/instructions/:u"
for c in 0 1; do
	me=$([ $c = 0 ] && echo cpu_core || echo cpu_atom)
	other=$([ $c = 0 ] && echo cpu_atom || echo cpu_core)
	out=$(taskset -c $c pmcctl run -x, -e "$tev" -- $loop "$(n $N)" 2>&1 >/dev/null)
	expect_eq "pinned to CPU $c: $me/INST_RETIRED.ANY_P/:u exactly 2N+103" \
		"$(val "$me/INST_RETIRED.ANY_P/:u" <<<"$out")" "$want"
	expect_eq "pinned to CPU $c: $other/INST_RETIRED.ANY_P/:u 0 (it does not count there)" \
		"$(val "$other/INST_RETIRED.ANY_P/:u" <<<"$out")" 0
	expect_eq "pinned to CPU $c: cpu_core/instructions/:u (fixed counter 0) $([ $c = 0 ] && echo 2N+103 || echo 0)" \
		"$(val "cpu_core/instructions/:u" <<<"$out")" $((c == 0 ? want : 0))
	pct=$(awk -F, -v e="$other/INST_RETIRED.ANY_P/:u" '$3 == e { print $5 }' <<<"$out")
	expect_eq "pinned to CPU $c: $other's row ran 0% of the time (CSV's percentage)" "$pct" "0.00"
	check "pinned to CPU $c: one row per typed event (not split again)" \
		test "$(grep -c 'INST_RETIRED' <<<"$out")" = 2
done
pmcctl run -x, -e "$tev,instructions:u" -o /tmp/hyb -- $loop "$big" &
moves=$(shuttle $!)
tc=$(val "cpu_core/INST_RETIRED.ANY_P/:u" </tmp/hyb) ta=$(val "cpu_atom/INST_RETIRED.ANY_P/:u" </tmp/hyb)
expect_eq "moved ($moves moves): cpu_core/INST_RETIRED.ANY_P/ = the P-core's share of instructions:u" \
	"$tc" "$(tval cpu_core instructions:u </tmp/hyb)"
expect_eq "moved: cpu_atom/INST_RETIRED.ANY_P/ = the E-core's share" "$ta" "$(tval cpu_atom instructions:u </tmp/hyb)"
expect_eq "moved: the two add up to 2N+103 exactly (raw, not scaled)" $((tc + ta)) $((2 * 10#$big + 103))
expect_eq "moved: cpu_core/instructions/ (fixed) = cpu_core/INST_RETIRED.ANY_P/ (GP)" \
	"$(val "cpu_core/instructions/:u" </tmp/hyb)" "$tc"
pc=$(awk -F, '$3 == "cpu_core/INST_RETIRED.ANY_P/:u" { print $5 }' </tmp/hyb)
pa=$(awk -F, '$3 == "cpu_atom/INST_RETIRED.ANY_P/:u" { print $5 }' </tmp/hyb)
check "moved: each typed row reports its share of the time ($pc% + $pa% = 100%)" \
	awk -v a="$pc" -v b="$pa" 'BEGIN { d = a + b - 100; exit !(a > 0 && b > 0 && d < 0.02 && d > -0.02) }'
out=$(pmcctl run -e "$tev" -- $loop "$big" 2>&1 >/dev/null &
      shuttle $! >/dev/null; wait)
check "text: a typed row says its share of the time on its type" \
	grep -qE 'cpu_atom/INST_RETIRED.ANY_P/:u +\([0-9.]+% of the time on cpu_atom\)' <<<"$out"
# A model event whose encoding differs by type (the emulator counts it 0):
# each type's from the kernel's data, accepted and counted on its type.
out=$(pmcctl run -x, -e cpu_core/BR_INST_RETIRED.COND/:u,cpu_atom/BR_INST_RETIRED.COND/:u -- true 2>&1 >/dev/null)
check "cpu_core/ and cpu_atom/BR_INST_RETIRED.COND/ (0x11c4, 0x7ec4): counted" test $? = 0
out=$(pmcctl list --json | jq -r '.kernel.events[] | select(.name == "BR_INST_RETIRED.COND") | "\(.pmu)=\(.code)"' | sort | tr '\n' ' ')
expect_eq "list: BR_INST_RETIRED.COND is encoded per type" "$out" "cpu_atom=0x7ec4 cpu_core=0x11c4 "
out=$(pmcctl run -e cpu_core/TOPDOWN_BE_BOUND.REORDER_BUFFER/ -- true 2>&1)
check "an E-core event asked of the P-cores is refused, naming them" grep -q "P-cores (cpu_core)" <<<"$out"
out=$(pmcctl run -e cpu_core/task-clock/ -- true 2>&1)
check "cpu_core/task-clock/: refused (software events count on every type)" grep -q "software event" <<<"$out"
# The P-core's own GP counters 6 and 7 (8 GP and fixed counter 0 there, 6 and
# fixed 0 on the E-core): events of the P-cores alone may take them.
for c in 0 1; do
	out=$(taskset -c $c pmcctl run -x, -e "$(evs 9 cpu_core/INST_RETIRED.ANY_P/:u)" -- $loop "$(n $N)" 2>&1 >/dev/null)
	expect_eq "9 P-core events (fixed counter 0, GP 0-7 of the P-core), pinned to CPU $c: each $([ $c = 0 ] && echo 2N+103 || echo 0)" \
		"$(vals cpu_core/INST_RETIRED.ANY_P/:u <<<"$out")" "$((c == 0 ? want : 0)) "
done
# More events of a type than its counters: that type's take turns, on its own
# counters (10 of the P-cores' on 9, 8 of the E-cores' on 7), and each row is
# scaled by the time it was on a counter of its type against the time on that
# type, never the whole time.  The loop runs 100 ms (25 turns of 4 ms).
mtol=2
# within_pct A B TOL: A within TOL% of B
within_pct() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { exit !(a != "" && b > 0 && (a - b) / b * 100 <= t && (b - a) / b * 100 <= t) }'; }
# all_within EVENT WANT TOL: every row of EVENT within TOL% of WANT, on stdin (CSV)
all_within() { awk -F, -v e="$1" -v w="$2" -v t="$3" '$3 == e { n++; d = ($1 - w) / w * 100; if (d > t || d < -t) bad++ }
	END { exit !(n > 0 && !bad) }'; }
# pcts EVENT: the distinct running shares of EVENT's rows
pcts() { awk -F, -v e="$1" '$3 == e { print ($5 < 100 ? "some" : "all") }' | sort -u | tr '\n' ' '; }
bigwant=$((2 * 10#$big + 103))
for t in core atom; do
	c=$([ $t = core ] && echo 0 || echo 1) k=$([ $t = core ] && echo 10 || echo 8)
	out=$(taskset -c $c pmcctl run -x, -e "$(evs $k cpu_$t/INST_RETIRED.ANY_P/:u)" -- $loop "$big" 2>&1 >/dev/null)
	expect_eq "$k cpu_$t events, pinned to CPU $c (more than the type's counters): exit 0" "$?" 0
	check "$k cpu_$t events, pinned: each scaled within $mtol% of 2N+103 ($(vals cpu_$t/INST_RETIRED.ANY_P/:u <<<"$out"))" \
		all_within cpu_$t/INST_RETIRED.ANY_P/:u $bigwant $mtol <<<"$out"
	expect_eq "$k cpu_$t events, pinned: each took turns (on a counter part of its time there)" \
		"$(pcts cpu_$t/INST_RETIRED.ANY_P/:u <<<"$out")" "some "
	o=$([ $t = core ] && echo 1 || echo 0)
	out=$(taskset -c $o pmcctl run -x, -e "$(evs $k cpu_$t/INST_RETIRED.ANY_P/:u)" -- $loop "$(n $N)" 2>&1 >/dev/null)
	expect_eq "$k cpu_$t events, pinned to the other type's CPU $o: each 0" \
		"$(vals cpu_$t/INST_RETIRED.ANY_P/:u <<<"$out")" "0 "
done
out=$(taskset -c 0 pmcctl run -e "$(evs 10 cpu_core/INST_RETIRED.ANY_P/:u)" -- $loop "$big" 2>&1 >/dev/null)
check "text: a row of a type's turns says its share of the time there" \
	grep -qE 'cpu_core/INST_RETIRED.ANY_P/:u +\([0-9.]+% of its time on cpu_core\)' <<<"$out"
# Moved between the types: instructions:u of no type takes turns on each type
# too (fixed counter 0 with the typed events that may take it), and each
# type's row is that type's estimate; the typed events agree with it, and an
# E-core event is not scaled by the whole time (perf's cpu_atom overcount,
# about 2x here, where the task spends about half its time on each type).
# Looser bounds than pinned: under -icount the shuttle's own work on the
# other vCPU takes guest time from the loop in bursts, so its rate is not
# steady, and a scaled count is as good as the rate is steady (pinned, the
# rows are within 0.05%; moved, within 10% here).
mvtol=15
ev19=instructions:u,$(evs 10 cpu_core/INST_RETIRED.ANY_P/:u),$(evs 8 cpu_atom/INST_RETIRED.ANY_P/:u)
pmcctl run -x, -e "$ev19" -o /tmp/hyb19 -- $loop "$big" &
moves=$(shuttle $!)
ic=$(tval cpu_core instructions:u </tmp/hyb19) ia=$(tval cpu_atom instructions:u </tmp/hyb19)
check "19 events, moved ($moves moves): instructions:u (the sum of its types' estimates) within 5% of 2N+103 ($(val instructions:u </tmp/hyb19))" \
	within_pct "$(val instructions:u </tmp/hyb19)" $bigwant 5
# Each type between a quarter and three quarters of the loop: perf's way
# would read each type's rows at least 4/3 of these, beyond $mvtol%.
check "19 events, moved: each type ran a quarter to three quarters of it (P $ic, E $ia)" \
	test "${ic:-0}" -gt $((bigwant / 4)) -a "${ia:-0}" -gt $((bigwant / 4)) \
	-a "${ic:-0}" -lt $((bigwant * 3 / 4)) -a "${ia:-0}" -lt $((bigwant * 3 / 4))
check "19 events, moved: each P-core event within $mvtol% of instructions:u's P-core row ($ic: $(vals cpu_core/INST_RETIRED.ANY_P/:u </tmp/hyb19))" \
	all_within cpu_core/INST_RETIRED.ANY_P/:u "${ic:-1}" $mvtol </tmp/hyb19
check "19 events, moved: each E-core event within $mvtol% of instructions:u's E-core row ($ia: $(vals cpu_atom/INST_RETIRED.ANY_P/:u </tmp/hyb19)), not scaled by the whole time" \
	all_within cpu_atom/INST_RETIRED.ANY_P/:u "${ia:-1}" $mvtol </tmp/hyb19
# -I scales each interval from READ's own times: taking turns, an event of
# one core type has its time on that type as its enabled time.  10 P-core
# events over a loop on the E-core (taskset moves it there before the exec,
# a moment after the start on either CPU): each interval's P-core counts
# stay that moment's few instructions, where scaled by the whole interval
# they would read some hundred times that.
out=$(pmcctl run -I 50 -x, -e "$(evs 10 cpu_core/INST_RETIRED.ANY_P/:u)" -- taskset -c 1 $loop "$big" 2>&1 >/dev/null)
check "-I, 10 P-core events, the loop on the E-core: every interval's P-core count below 1,000,000 ($(awk -F, '{ if ($2 + 0 > m) m = $2 + 0 } END { print "max " m }' <<<"$out"))" \
	awk -F, '$4 == "cpu_core/INST_RETIRED.ANY_P/:u" { n++; if ($2 + 0 >= 1000000) bad++ } END { exit !(n >= 10 && !bad) }' <<<"$out"
out=$(pmcctl run -x, --no-scale -e "$ev19" -- $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "19 events, --no-scale: the rows by type raw, adding up to the raw sum" \
	$(($(tval cpu_core instructions:u <<<"$out") + $(tval cpu_atom instructions:u <<<"$out"))) \
	"$(val instructions:u <<<"$out")"
# Six GP events of each type and instructions (fixed counter 0) of none: 13
# events, more than the 9 counters, but 7 on each type's CPUs.  A CPU loads
# only its own type's (the other type's share its GP counters): counted, not
# multiplexed, each row exact on its type.
ev13=instructions:u,$(evs 6 cpu_core/INST_RETIRED.ANY_P/:u),$(evs 6 cpu_atom/INST_RETIRED.ANY_P/:u)
for c in 0 1; do
	me=$([ $c = 0 ] && echo cpu_core || echo cpu_atom)
	other=$([ $c = 0 ] && echo cpu_atom || echo cpu_core)
	out=$(taskset -c $c pmcctl run -x, -e "$ev13" -- $loop "$(n $N)" 2>&1 >/dev/null)
	expect_eq "13 events, pinned to CPU $c: exit 0" "$?" 0
	expect_eq "13 events, pinned to CPU $c: instructions:u exactly 2N+103" "$(val instructions:u <<<"$out")" "$want"
	expect_eq "13 events, pinned to CPU $c: each of the six $me/INST_RETIRED.ANY_P/:u exactly 2N+103" \
		"$(vals "$me/INST_RETIRED.ANY_P/:u" <<<"$out")" "$want "
	expect_eq "13 events, pinned to CPU $c: each of the six $other/INST_RETIRED.ANY_P/:u 0" \
		"$(vals "$other/INST_RETIRED.ANY_P/:u" <<<"$out")" "0 "
	expect_eq "13 events, pinned to CPU $c: instructions:u on its counter all the time (not multiplexed)" \
		"$(awk -F, '$3 == "instructions:u" { print $5 }' <<<"$out")" "100.00"
done
pmcctl run -x, -e "$ev13" -o /tmp/hyb13 -- $loop "$big" &
moves=$(shuttle $!)
tc=$(vals cpu_core/INST_RETIRED.ANY_P/:u </tmp/hyb13) ta=$(vals cpu_atom/INST_RETIRED.ANY_P/:u </tmp/hyb13)
tc=${tc% } ta=${ta% }
check "13 events, moved ($moves moves): the six of each type agree (P ${tc}, E ${ta})" \
	test "$(wc -w <<<"$tc")" = 1 -a "$(wc -w <<<"$ta")" = 1
expect_eq "13 events, moved: a P-core row and an E-core row add up to 2N+103 exactly" \
	$((${tc:-0} + ${ta:-0})) $((2 * 10#$big + 103))
check "13 events, moved: each type counted a share (P ${tc}, E ${ta})" test "${tc:-0}" -gt 0 -a "${ta:-0}" -gt 0
expect_eq "13 events, moved: instructions:u exactly 2N+103" "$(val instructions:u </tmp/hyb13)" \
	$((2 * 10#$big + 103))

# -M: the kernel's data has metrics of each core type (tma_info_thread_ipc over
# cpu_core events, tma_info_core_ipc over cpu_atom ones).  Each is computed
# from its type's raw counts, so each is its type's IPC exactly (1/2, 1/3);
# the rows keep their type's share of the time, and a metric of a type the
# task never ran on has no value, as an IPC beside its instructions has none.
mev=tma_info_thread_ipc,tma_info_core_ipc
mval() { awk -F, -v m="$1" '$NF == m { print $(NF - 1) }'; }
pctof() { awk -F, -v e="$1" '$3 == e { print $5 }'; }
for c in 0 1; do
	me=$([ $c = 0 ] && echo cpu_core || echo cpu_atom)
	other=$([ $c = 0 ] && echo cpu_atom || echo cpu_core)
	mine=$([ $c = 0 ] && echo "tma_info_thread_ipc 0.50" || echo "tma_info_core_ipc 0.33")
	theirs=$([ $c = 0 ] && echo tma_info_core_ipc || echo tma_info_thread_ipc)
	out=$(taskset -c $c pmcctl run -x, -M $mev -- $loop "$(n $N)" 2>&1 >/dev/null)
	expect_eq "-M pinned to CPU $c: ${mine% *} = $me's IPC" "$(mval "${mine% *}" <<<"$out")" "${mine#* }"
	expect_eq "-M pinned to CPU $c: $theirs has no value (n/a: $other counted nothing)" \
		"$(mval "$theirs" <<<"$out")" ""
	expect_eq "-M pinned to CPU $c: $other/INST_RETIRED.ANY/ ran 0% of the time" \
		"$(pctof "$other/INST_RETIRED.ANY/" <<<"$out")" "0.00"
	expect_eq "-M pinned to CPU $c: $me/INST_RETIRED.ANY/ ran 100% of the time" \
		"$(pctof "$me/INST_RETIRED.ANY/" <<<"$out")" "100.00"
	line=$(grep "^[0-9]*,,$other/INST_RETIRED.ANY/," <<<"$out")
	check "-M pinned to CPU $c: no IPC beside $other/INST_RETIRED.ANY/ (its cycles are 0): $line" \
		test -n "$line" -a "${line/insn per cycle/}" = "$line"
done
pmcctl run -x, -M $mev -o /tmp/hybm -- $loop "$big" &
moves=$(shuttle $!)
expect_eq "-M moved ($moves moves): tma_info_thread_ipc = the P-core's IPC, 1/2" \
	"$(mval tma_info_thread_ipc </tmp/hybm)" 0.50
expect_eq "-M moved: tma_info_core_ipc = the E-core's IPC, 1/3" "$(mval tma_info_core_ipc </tmp/hybm)" 0.33
pc=$(pctof cpu_core/INST_RETIRED.ANY/ </tmp/hybm) pa=$(pctof cpu_atom/INST_RETIRED.ANY/ </tmp/hybm)
check "-M moved: the typed rows' shares of the time add up to 100% ($pc% + $pa%)" \
	awk -v a="$pc" -v b="$pa" 'BEGIN { d = a + b - 100; exit !(a > 0 && b > 0 && d < 0.02 && d > -0.02) }'
out=$(pmcctl stat -a -x, -M tma_info_thread_ipc -- $loop "$(n $N)" 2>&1 >/dev/null)
pc=$(pctof cpu_core/INST_RETIRED.ANY/ <<<"$out")
check "stat -a -M: the cpu_core row has the P-cores' share of the CPUs' time ($pc%, one CPU of two)" \
	awk -v a="$pc" 'BEGIN { exit !(a > 40 && a < 60) }'

# run -p: the same rows for tasks counted from outside, moved between the types
# while counted: the rows add up to the sum, each typed event to its type's row.
taskset -c 1 $loop "$(n 500000000)" &
lp=$!
sleep 0.05
pmcctl run -x, -p $lp -e "instructions:u,cycles:u,cpu_core/INST_RETIRED.ANY_P/:u,cpu_atom/INST_RETIRED.ANY_P/:u" -o /tmp/hybp &
rp=$!
sleep 0.1
for k in 1 2 3 4 5 6 7 8; do
	taskset -p -c $((k % 2)) $lp >/dev/null 2>&1
	sleep 0.03
done
wait $lp
wait $rp
ic=$(tval cpu_core instructions:u </tmp/hybp) ia=$(tval cpu_atom instructions:u </tmp/hybp)
check "run -p, moved: both types counted a share (P $ic, E $ia)" test "${ic:-0}" -gt 0 -a "${ia:-0}" -gt 0
expect_eq "run -p: cpu_core + cpu_atom instructions:u = the sum" $((ic + ia)) "$(val instructions:u </tmp/hybp)"
expect_eq "run -p: cpu_atom/cycles:u/ = 3 x its instructions (raw)" "$(tval cpu_atom cycles:u </tmp/hybp)" $((3 * ia))
expect_eq "run -p: cpu_core/INST_RETIRED.ANY_P/ = the P-core's share" \
	"$(val cpu_core/INST_RETIRED.ANY_P/:u </tmp/hybp)" "$ic"
expect_eq "run -p: cpu_atom/INST_RETIRED.ANY_P/ = the E-core's share" \
	"$(val cpu_atom/INST_RETIRED.ANY_P/:u </tmp/hybp)" "$ia"
# run -p -M of a task on the E-core alone: its metric, the P-core's none.
taskset -c 1 $loop "$(n 100000000)" &
lp=$!
sleep 0.05
out=$(pmcctl run -x, -p $lp -M $mev 2>&1 >/dev/null)
expect_eq "run -p -M on the E-core: tma_info_core_ipc = its IPC, 1/3" "$(mval tma_info_core_ipc <<<"$out")" 0.33
expect_eq "run -p -M on the E-core: cpu_core/INST_RETIRED.ANY/ ran 0% of the time" \
	"$(pctof cpu_core/INST_RETIRED.ANY/ <<<"$out")" "0.00"

# ---- top-down on the P-cores: fixed counter 3 and PERF_METRICS are cpu_core's alone ----
expect_eq "info: topdown metrics: the P-core's 8 (PERF_METRICS, level 2), the E-core's none" \
	"$(ct cpu_core .topdown_metrics) $(ct cpu_atom .topdown_metrics)" "8 0"
L1="topdown-retiring topdown-bad-spec topdown-fe-bound topdown-be-bound"
L2="topdown-heavy-ops topdown-br-mispredict topdown-fetch-lat topdown-mem-bound"
TD="{cpu_core/slots/"
for e in $L1 $L2; do TD="$TD,cpu_core/$e/"; done
TD="$TD}:u,cpu_core/instructions/u"
# tdv CSV EVENT: the count of cpu_core/EVENT/ (whatever its modifiers' spelling)
tdv() { awk -F, -v e="cpu_core/$2/" 'index($3, e) == 1 { print $1; exit }' <<<"$1"; }
# within A B SLOTS: |A - B| <= SLOTS/255 (+1 for the rounding of each), as 66-topdown
within() { local d=$(($1 - $2)); [ ${d#-} -le $(($3 / 255 + 1)) ]; }
. bench/lib/msrtrace.sh
for c in 0 1; do
	traced=false
	[ $c = 1 ] && msr_trace_start && traced=true
	out=$(taskset -c $c pmcctl run -x, -e "$TD" -- $loop "$(n $N)" 2>&1 >/dev/null)
	rc=$?
	$traced && msr_trace_stop 1 /tmp/td-e.trace
	ins=$(tdv "$out" instructions) slots=$(tdv "$out" slots)
	if [ $c = 0 ]; then
		expect_eq "P-core: 9 topdown events of cpu_core counted (exit status)" "$rc" 0
		expect_eq "P-core: cpu_core/instructions/u exactly 2N+103" "$ins" "$want"
		expect_eq "P-core: cpu_core/slots/ exactly 8 x its instructions (the model's)" "$slots" $((8 * want))
		# the model (tests/qemu/README.md): retiring N, bad-spec 2J, fe-bound N+J, be-bound 6N-3J,
		# heavy-ops J, br-mispredict J, fetch-lat J, mem-bound 2N-J; J the loop's iterations
		J=$N
		declare -A tdw=(
			[topdown-retiring]=$ins [topdown-bad-spec]=$((2 * J)) [topdown-fe-bound]=$((ins + J))
			[topdown-be-bound]=$((6 * ins - 3 * J)) [topdown-heavy-ops]=$J [topdown-br-mispredict]=$J
			[topdown-fetch-lat]=$J [topdown-mem-bound]=$((2 * ins - J)))
		for e in $L1 $L2; do
			check "P-core: cpu_core/$e/ ($(tdv "$out" $e)) is the model's ${tdw[$e]} within slots/255" \
				within "$(tdv "$out" $e)" "${tdw[$e]}" "$slots"
		done
		pout=$(taskset -c 0 perf stat -x, -e "{cpu_core/slots/u,cpu_core/topdown-retiring/u,cpu_core/topdown-be-bound/u}" \
			-- $loop "$(n $N)" 2>&1 >/dev/null)
		expect_eq "P-core: perf's cpu_core/slots/u is pmcctl's" "$(tdv "$pout" slots)" "$slots"
		for e in topdown-retiring topdown-be-bound; do
			check "P-core: perf and pmcctl agree on cpu_core/$e/ within slots/255 ($(tdv "$pout" $e) vs $(tdv "$out" $e))" \
				within "$(tdv "$pout" $e)" "$(tdv "$out" $e)" "$slots"
		done
	else
		expect_eq "E-core: the same 10 events counted (exit status)" "$rc" 0
		expect_eq "E-core: cpu_core/slots/ 0 (the P-cores' alone)" "$slots" 0
		for e in $L1 $L2; do
			expect_eq "E-core: cpu_core/$e/ 0" "$(tdv "$out" $e)" 0
		done
		expect_eq "E-core: cpu_core/slots/ ran 0% of the time, and says so" \
			"$(awk -F, '$3 == "cpu_core/slots/" { print $5 }' <<<"$out")" "0.00"
		if $traced; then
			bad=$(grep -oE '(read|write)_msr: (30c|329|18c|18d|c7|c8|4c7|4c8)[, ]' /tmp/td-e.trace | sort -u | tr '\n' ' ')
			check "E-core: no access to a P-core-only MSR (FIXED_CTR3, PERF_METRICS, PMC6/7) in $(grep -c _msr: /tmp/td-e.trace) traced${bad:+: $bad}" \
				test -z "$bad" -a -s /tmp/td-e.trace
			check "E-core: no RDPMC of fixed counter 3 or the metrics" \
				bash -c "! grep -qE 'rdpmc: (40000003|20000000)[, ]' /tmp/td-e.trace"
		else
			fail "E-core: P-core-only MSRs" "cannot enable the msr tracepoints (tracefs)"
		fi
	fi
done
# Moved between the types: slots is exactly 8 x the P-core's instructions.
pmcctl run -x, -e "$TD" -o /tmp/hyb -- $loop "$big" &
moves=$(shuttle $!)
out=$(cat /tmp/hyb)
ins=$(tdv "$out" instructions) slots=$(tdv "$out" slots)
check "moved ($moves moves): the P-core ran part of the loop ($ins of $((2 * 10#$big + 103)))" \
	test "${ins:-0}" -gt 0 -a "${ins:-0}" -lt $((2 * 10#$big + 103))
expect_eq "moved: cpu_core/slots/ exactly 8 x cpu_core/instructions/u" "$slots" $((8 * ins))
check "moved: cpu_core/topdown-retiring/ is its instructions within slots/255" \
	within "$(tdv "$out" topdown-retiring)" "$ins" "$slots"
# slots without a PMU is cpu_core's, as perf takes it (only cpu_core has it)
out=$(taskset -c 0 pmcctl run -x, -e '{slots,topdown-retiring}:u' -- $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "{slots,topdown-retiring}:u without cpu_core/ are the P-cores': slots 8 x 2N+103 pinned there" \
	"$(awk -F, '$3 ~ /slots/ { print $1; exit }' <<<"$out")" $((8 * want))
out=$(pmcctl run -e cpu_atom/slots/ -- true 2>&1)
check "cpu_atom/slots/ is refused, naming the P-cores' (${out#*: })" grep -q "a P-core's: cpu_core/" <<<"$out"
# --topdown: the P-cores' breakdown, as perf stat --topdown on hybrid ("default to use
# cpu_core topdown events").
for lvl in 1 2; do
	p=$(taskset -c 0 perf stat --topdown --td-level $lvl --all-user -x, -- $loop "$(n $N)" 2>&1 >/dev/null |
	    grep -v '^$' | grep -v WARNING)
	q=$(taskset -c 0 pmcctl run --topdown --td-level $lvl --all-user -x, -- $loop "$(n $N)" 2>&1 >/dev/null |
	    grep -v '^$')
	pv=$(tail -n 1 <<<"$p") qv=$(tail -n 1 <<<"$q")
	check "--topdown --td-level $lvl on the P-core: as perf's ($qv vs $pv, within 0.5%)" td_close "$qv" "$pv"
done
out=$(taskset -c 1 pmcctl run --topdown -- $loop "$(n $N)" 2>&1 >/dev/null)
check "--topdown on the E-core: says the breakdown is the P-cores' ($out)" grep -q 'cpu_core' <<<"$out"
# list --metrics: each core type's metric, neither refused (the P-core's top-down is
# over its PERF_METRICS, the E-core's over its own events).
out=$(pmcctl list --json --metrics tma_retiring 2>&1)
expect_eq "list --metrics: cpu_atom's tma_retiring is not refused" \
	"$(jq -r '.metrics[] | select(.name == "tma_retiring" and .pmu == "cpu_atom") | .refused' <<<"$out" 2>&1)" null
expect_eq "list --metrics: cpu_core's tma_retiring (PERF_METRICS) is not refused" \
	"$(jq -r '.metrics[] | select(.name == "tma_retiring" and .pmu == "cpu_core") | .refused' <<<"$out" 2>&1)" null
# -M tma_retiring on the P-core: the cpu_core metric from PERF_METRICS, as --topdown's
# Retiring (perf 6.1 cannot count it per task: "Invalid event (topdown-retiring) in
# per-thread mode"); the cpu_atom one has no value there.
out=$(taskset -c 0 pmcctl run --all-user -x, -M tma_retiring -- $loop "$(n $N)" 2>&1 >/dev/null)
mr=$(awk -F, '$3 == "cpu_core/topdown-retiring/" { print $6 }' <<<"$out")
td=$(taskset -c 0 pmcctl run --topdown --td-level 1 --all-user -x, -- $loop "$(n $N)" 2>&1 >/dev/null |
     tail -n 1 | cut -d, -f1)
check "-M tma_retiring on the P-core: cpu_core's ($mr%) is --topdown's Retiring ($td%) within 0.5" \
	awk -v a="$mr" -v b="$td" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d > -0.5 && d < 0.5) }'

# A binary built against the header before the split (tests/abi/README.md):
# the one sum, exact, wherever the task ran.
build/tests/oldabi $loop "$big" >/tmp/old &
moves=$(shuttle $!)
expect_eq "oldabi (pre-hybrid header), moved ($moves moves): instructions:u exactly 2N+103" \
	"$(awk '$1 == "instructions:u" { print $2 }' /tmp/old)" $((2 * 10#$big + 103))
expect_eq "oldabi: READ answered the old struct's size" "$(awk '$1 == "read-size" { print $2 }' /tmp/old)" 832

# ---- model-specific events without a core type are refused, saying why -------------
out=$(pmcctl run -e r02c2:u -- true 2>&1)
rc=$?
check "a model-specific event (r02c2) is refused" test "$rc" -ne 0
check "... naming the fix: its core type" grep -q "a model event names its core type (cpu_core/EV/" <<<"$out"
out=$(pmcctl run -e cpu_core/event=0xc2,umask=0x2/:u -- true 2>&1 >/dev/null)
check "cpu_core/event=0xc2,umask=0x2/ (the same event of the P-core): counted" test $? = 0
out=$(taskset -c 0 pmcctl run -x, -e cpu_core/r00c0/u -- $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "cpu_core/r00c0/u (perf's raw config inside a PMU's slashes), pinned to the P-core: 2N+103" \
	"$(val cpu_core/r00c0/u <<<"$out")" "$want"
out=$(taskset -c 0 perf stat -x, --no-scale -e cpu_core/r00c0/u $loop "$(n $N)" 2>&1 >/dev/null)
expect_eq "perf stat -e cpu_core/r00c0/u, the same: 2N+103" "$(val cpu_core/r00c0/u <<<"$out")" "$want"
out=$(pmcctl run -e r01c0:u -- true 2>&1)
check "instructions with another umask (r01c0) is refused" grep -q "hybrid" <<<"$out"
out=$(pmcctl run -e r10000c0:u -- true 2>&1)	# cmask 1
check "an architectural event with a cmask is refused" grep -q "hybrid" <<<"$out"

# ---- regions and the self-read page on each core type ---------------------------------
# The page says which core type the thread counts on (each CPU's CPUID.1AH).
out=$(build/tests/selftype 2>&1)
echo "$out" | grep -E '^(PASS|FAIL):'
check "selftype: the self-read page's core type on each CPU ($(tail -1 <<<"$out"))" \
	grep -q '^selftype: [1-9][0-9]* passed, 0 failed$' <<<"$out"
types=$(sed -n 's/^PASS: CPU \([01]\): .* (\(0x[0-9a-f]*\))$/\1=\2/p' <<<"$out" | tr '\n' ' ')
expect_eq "selftype: CPU 0 a P-core (0x40), CPU 1 an E-core (0x20)" "$types" "0=0x40 1=0x20 " 
for c in 0 1; do
	out=$(taskset -c $c pmcctl run --regions -e instructions:u -- build/examples/matmul 32 2>&1)
	check "CPU $c: regions of matmul under run --regions -e instructions:u" \
		grep -qE '^ multiply +1 +1 ' <<<"$out"
	out=$(taskset -c $c build/examples/selfread 5 instructions:u 2>&1)
	check "CPU $c: the self-read page through RDPMC, never decreasing" \
		grep -q '^selfread: monotonic$' <<<"$out"
done
# A region whose thread moves between the types while it runs: its counts
# add up across them, the same instructions as pinned (its reads of the
# page may retry once more or less when a move meets one: 200 instructions
# of slack), its cycles between the P-core's 2x and the E-core's 3x.
rcol() { awk -F, -v r="$1" -v e="$2" '$1 == "region" && $2 == r && $7 == e { print $6 }'; }
out=$(taskset -c 0 pmcctl run --regions -x, -e instructions:u,cycles:u -- build/examples/matmul 256 2>&1 >/dev/null)
ri=$(rcol multiply instructions:u <<<"$out")
pmcctl run --regions -x, -e instructions:u,cycles:u -- build/examples/matmul 256 2>/tmp/hybreg >/dev/null &
moves=$(shuttle $!)
mi=$(rcol multiply instructions:u </tmp/hybreg) mc=$(rcol multiply cycles:u </tmp/hybreg)
check "a region moved between the types ($moves moves): its instructions:u as pinned ($mi, $ri), within 200" \
	awk -v a="$mi" -v b="$ri" 'BEGIN { d = a - b; exit !(a > 0 && b > 0 && d <= 200 && d >= -200) }'
check "a region moved: its cycles:u between 2x and 3x its instructions:u ($mc for $mi): both types counted" \
	test "${mc:-0}" -gt $((2 * ${mi:-0})) -a "${mc:-0}" -lt $((3 * ${mi:-0}))
check "a region moved: it did move" test "${moves:-0}" -gt 1

refcnt=$(cat /sys/module/pmcdrv/refcnt)
expect_eq "no open file holds the module" "$refcnt" 0
expect_eq "kernel log clean" "$(klog_splats "$klog0")" ""
