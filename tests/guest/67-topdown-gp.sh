# SPDX-License-Identifier: GPL-2.0
# Top-down level 1 without PERF_METRICS: pmcctl --topdown from the
# general-purpose events of perf's formulas (user/pmcctl/topdown.c), on the
# emulated Skylake models that count them (tests/vm/run --pmu-model v4 or
# gp8; tests/qemu/README.md, "Skylake top-down events"):
#   - the events count the model exactly: RETIRE_SLOTS = instructions,
#     ISSUED = IDQ_UOPS_NOT_DELIVERED = instructions + Jcc, RECOVERY = Jcc,
#     ONE_THREAD_ACTIVE = REF_XCLK
#   - pmcctl run --topdown: the model's level 1 for loop and straight, and
#     perf stat -M TopdownL1's own values for the same program
#   - --td-level 2 refused (status 2); -x, and --json
#   - --regions --topdown: each region's own breakdown (read with RDPMC)
#   - stat -a --topdown: the core-wide formula; retiring 12.5%, sum 100%
# The other models count these events as 0, and spr has PERF_METRICS
# (66-topdown.sh): there everything here SKIPs, saying why.
. tests/lib/guest.sh

skl_topdown_lane topdown-gp || exit 0
module_loaded || insmod "$PMCDRV_KO"

loop=build/progs/loop
straight=build/progs/straight
n() { printf '%09d' "$1"; }
N=$(n 200000)
# 50 ms of guest time (one instruction a ns): on 4 counters the two groups
# take many turns (multiplexing), on 8 one group counts it all
NT=$(n 25000000)
val() { awk -F, -v e="$2" '$3 == e || $3 == e":u" { print $1; exit }' <<<"$1"; }

# ---- The events, raw: the model's counts (each run one group that fits 4 counters)
out=$(pmcctl run -x, -e "{instructions,r02c2,r010e,r019c,r010d}:u" -- $loop $N 2>&1)
clk=$(pmcctl run -x, -e "{r023c,r013c}:u" -- $loop $N 2>&1)
ins=$(val "$out" instructions) J=$(val "$out" r010d)
expect_eq "events: UOPS_RETIRED.RETIRE_SLOTS:u is instructions:u ($ins)" "$(val "$out" r02c2)" "$ins"
expect_eq "events: UOPS_ISSUED.ANY:u is instructions:u + INT_MISC.RECOVERY_CYCLES:u ($J Jcc)" \
	"$(val "$out" r010e)" $((ins + J))
expect_eq "events: IDQ_UOPS_NOT_DELIVERED.CORE:u is UOPS_ISSUED.ANY:u" "$(val "$out" r019c)" "$(val "$out" r010e)"
check "events: loop's Jcc:u ($J) are its 200,000 iterations and a few of its start" \
	test "$J" -ge 200000 -a "$J" -le 200200
check "events: ONE_THREAD_ACTIVE:u is REF_XCLK:u, not 0 (no SMT: $(val "$clk" r023c))" \
	test "$(val "$clk" r023c)" = "$(val "$clk" r013c)" -a "$(val "$clk" r013c)" -gt 0

# ---- pmcctl run --topdown: the model's shares --------------------------------
# loop (dec/jnz: J = N/2 of N instructions): 12.5, 31.25, 18.75, 37.5;
# straight (30 adds, dec/jnz: J = N/32): 12.5, 1.95, 12.89, 72.66
last() { grep -v '^$' | tail -n 1; }
expect_td() {
	local what=$1 got=$2 i=1 w
	shift 2
	for w in "$@"; do
		check "run --topdown -x, $what: field $i is $w% ($got)" \
			near "$(cut -d, -f$i <<<"$got")" "$w" 0.2
		i=$((i + 1))
	done
}
q=$(pmcctl run --topdown --all-user -x, -- $loop $NT 2>&1 >/dev/null | last)
expect_td loop "$q" 12.5 31.25 18.75 37.5
q2=$(pmcctl run --topdown --all-user -x, -- $straight $(n 3000000) 2>&1 >/dev/null | last)
expect_td straight "$q2" 12.5 1.95 12.89 72.66
check "run --topdown: four shares summing to 100% ($q)" \
	awk -F, '{ s = $1 + $2 + $3 + $4; exit !(s > 99.8 && s < 100.2) }' <<<"$q"

# perf's metric group for this model: the same formulas, its own counts
p=$(perf stat -M TopdownL1 --all-user -x, -- $loop $NT 2>&1 >/dev/null)
# its CSV puts a metric's value and unit ("%  tma_retiring") after the event's columns
pm() { awk -F, -v m="$1" 'index($NF, m) { print $(NF - 1); exit }' <<<"$p"; }
i=1
for m in tma_retiring tma_bad_speculation tma_frontend_bound tma_backend_bound; do
	check "run --topdown field $i as perf stat -M TopdownL1's $m ($(cut -d, -f$i <<<"$q") vs $(pm $m))" \
		near "$(cut -d, -f$i <<<"$q")" "$(pm $m)" 0.5
	i=$((i + 1))
done

out=$(pmcctl run --topdown --td-level 2 -- true 2>&1)
expect_eq "run --topdown --td-level 2: exit status 2" "$?" 2
check "run --topdown --td-level 2: says level 1 only ($out)" grep -q 'level 1 only' <<<"$out"
out=$(pmcctl run --topdown --json -- $loop $NT 2>&1 >/dev/null)
check "run --topdown --json: Retiring to Backend Bound" \
	jq -e -s 'map(."metric-unit") == ["Retiring", "Bad Speculation", "Frontend Bound", "Backend Bound"]' <<<"$out"
out=$(pmcctl run --topdown -- $loop $NT 2>&1 >/dev/null)
check "run --topdown (text): perf's headers" grep -q 'Retiring *Bad Speculation *Frontend Bound *Backend Bound' <<<"$out"

# ---- run --regions --topdown: each region's own breakdown -----------------------
out=$(pmcctl run --regions --topdown --all-user -x, -- build/tests/td_regions 10000000 2>&1 >/dev/null)
td() { region_td "$out" "$@"; }
for m in "Retiring 12.5 12.5" "Bad Speculation 31.25 1.95" "Frontend Bound 18.75 12.89" "Backend Bound 37.5 72.66"; do
	set -- $m
	name="$1" b=$2 s=$3
	[ $# = 4 ] && name="$1 $2" b=$3 s=$4
	check "--regions --topdown: branchy's $name is $b%, straight's $s% ($(td branchy "$name"), $(td straight "$name"))" \
		bash -c "$(declare -f near); near '$(td branchy "$name")' $b 0.1 && near '$(td straight "$name")' $s 0.1"
done

# ---- stat -a --topdown: core-wide (CORE_CLKS = THREAD) ---------------------------
out=$(pmcctl stat -a --topdown -x, -- $loop $NT 2>&1 >/dev/null | last)
check "stat -a --topdown -x,: retiring is the model's 12.5% on every CPU and mode ($out)" \
	near "$(cut -d, -f1 <<<"$out")" 12.5 0.1
check "stat -a --topdown -x,: four shares summing to 100% ($out)" \
	awk -F, '{ s = $1 + $2 + $3 + $4; exit !(NF >= 4 && s > 99.8 && s < 100.2) }' <<<"$out"
out=$(pmcctl stat -a -A --topdown -x, -- $loop $N 2>&1 >/dev/null | grep -v '^$')
check "stat -a -A --topdown -x,: a header and a line per CPU ($(tr '\n' ' ' <<<"$out"))" \
	awk -F, 'NR == 1 { ok = $1 == "cpu" && $2 == "Retiring"; next } $1 ~ /^CPU[0-9]+$/ { n++ }
		 END { exit !(ok && n == '"$(nproc)"') }' <<<"$out"
