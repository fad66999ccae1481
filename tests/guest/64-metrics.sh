# SPDX-License-Identifier: GPL-2.0
# pmcctl run -M / stat -M: the model's metrics (the kernel's data, libpmc's
# metric engine) over pmcdrv's counts:
#   - run -M tma_info_thread_ipc: loop's user instructions exactly 2N+103,
#     the IPC its own instructions / cycles (JSON), the value in the CSV's
#     metric fields and in the text's # column
#   - run -M TopdownL1 against perf stat -M TopdownL1 on the same command,
#     within the 0.5 points of 67-topdown-gp.sh (the v4 and gp8 models count
#     Skylake's top-down events; elsewhere that part SKIPs, saying why); with
#     more events than counters, each metric's inputs in a group of their own
#     (uoppi exactly 1 on those models though scaled); on spr (PERF_METRICS)
#     the same against perf, the topdown-* events grouped with topdown-slots
#   - stat -a -M and stat -a -I -M: the metric in each interval's CSV;
#     stat -a -A -M: each CPU's IPC its own instructions / cycles
#   - errors: an unknown name (pmcctl list --metrics), a refused metric (its
#     event and why), -M with --topdown: exit status 2
# On a hybrid part (--pmu-model adl) tma_info_thread_ipc is the P-cores'
# metric, of cpu_core/INST_RETIRED.ANY/ and cpu_core/CPU_CLK_UNHALTED.THREAD/:
# the loop runs on CPU 0, the P-core, and stat -a -A gives CPU 0 its IPC and
# the E-core, CPU 1, none (n/a: the P-cores' events count 0 there).
. tests/lib/guest.sh

if ! have_pmu; then
	echo "SKIP: metrics: no PMU in this guest"
	exit 0
fi
if ! pmcctl list --json --metrics tma_info_thread_ipc 2>/dev/null | jq -e '.metrics | length > 0' >/dev/null; then
	echo "SKIP: metrics: no tma_info_thread_ipc for this model"
	exit 0
fi
module_loaded || insmod "$PMCDRV_KO"
model=${PMCDRV_PMU_MODEL:-default}
loop=build/progs/loop
n() { printf '%09d' "$1"; }
N=200000
NT=$(n 25000000)
I=$(pcore_ev INST_RETIRED.ANY) C=$(pcore_ev CPU_CLK_UNHALTED.THREAD)

# ---- IPC: the metric against its own counts -------------------------------------
out=$(on_pcore pmcctl run --all-user -M tma_info_thread_ipc --json -- $loop $(n $N) 2>&1 >/dev/null)
ev() { jq -r --arg e "$1" 'select(.event == $e) | ."counter-value"' <<<"$out" | head -n 1; }
ins=$(ev "$I") cyc=$(ev "$C")
ipc=$(jq -r 'select(."metric-unit" == "tma_info_thread_ipc") | ."metric-value"' <<<"$out")
expect_eq "run -M tma_info_thread_ipc --all-user: $I is loop's 2N+103" \
	"${ins%.*}" $((2 * N + 103))
check "run -M tma_info_thread_ipc: cycles counted ($cyc)" awk -v c="$cyc" 'BEGIN { exit !(c > 0) }'
check "run -M tma_info_thread_ipc: IPC $ipc is instructions / cycles ($ins / $cyc)" \
	awk -v i="$ins" -v c="$cyc" -v m="$ipc" 'BEGIN { d = m - i / c; exit !(c > 0 && d < 1e-5 && d > -1e-5) }'
out=$(on_pcore pmcctl run --all-user -M tma_info_thread_ipc -x, -- $loop $(n $N) 2>&1 >/dev/null)
# INST_RETIRED.ANY is instructions: its own column has perf's "insn per cycle", the metric
# a line of its own, as perf prints both
check "run -M -x,: the metric's value and name in the last two fields ($(grep tma_info <<<"$out"))" \
	awk -F, '$NF == "tma_info_thread_ipc" && $(NF - 1) > 0 { ok = 1 } END { exit !ok }' <<<"$out"
out=$(on_pcore pmcctl run -M tma_info_thread_ipc -- $loop $(n $N) 2>&1 >/dev/null)
check "run -M (text): '# VALUE tma_info_thread_ipc' in the # column" \
	grep -Eq '^ {40,}# +[0-9]+\.[0-9]{2} tma_info_thread_ipc$' <<<"$out"
# -e's events are shared, not counted twice
out=$(on_pcore pmcctl run -e "$I" -M tma_info_thread_ipc -x, -- $loop $(n $N) 2>&1 >/dev/null)
expect_eq "run -e $I -M tma_info_thread_ipc: the event once" \
	"$(grep -c ",$I," <<<"$out")" 1

# ---- Level 1 against perf stat -M ----------------------------------------------
# mv OUTPUT METRIC: the metric's value in -x, output (perf's and pmcctl's both put a
# metric's value and unit ("%  tma_retiring") in the last two fields of its line).
mv() { awk -F, -v m="$2" '$NF ~ (" " m "$") && $(NF - 1) ~ /^[0-9.]+$/ { print $(NF - 1); exit }' <<<"$1"; }
case $model in
v4|gp8)
	q=$(pmcctl run -M TopdownL1 --all-user -x, -- $loop $NT 2>&1 >/dev/null)
	p=$(perf stat -M TopdownL1 --all-user -x, -- $loop $NT 2>&1 >/dev/null)
	# both put a metric's value and unit ("%  tma_retiring") in the last two fields
	# (a metric's line only: pmcctl's note on multiplexed inputs names the metrics too)
	for m in tma_retiring tma_bad_speculation tma_frontend_bound tma_backend_bound; do
		check "run -M TopdownL1's $m as perf stat -M TopdownL1's ($(mv "$q" $m) vs $(mv "$p" $m))" \
			near "$(mv "$q" $m)" "$(mv "$p" $m)" 0.5
	done
	check "run -M TopdownL1 -x,: the units are perf's ('%  tma_retiring')" \
		grep -q ',%  tma_retiring$' <<<"$q"
	# MetricThreshold (JSON): the loop is 18.75% frontend, 31.25% bad speculation and
	# 37.5% backend bound, beyond 15%, 15% and 20%; 12.5% retiring is not beyond
	# 70%, and tma_heavy_operations, the other half of its "or", is not counted: undecided
	pmcctl run -M TopdownL1 --all-user -j -o /tmp/thr.json -- $loop $NT >/dev/null 2>&1
	thr() { jq -r --arg m "%  $1" 'select(."metric-unit" == $m) | ."metric-threshold" // "none"' /tmp/thr.json; }
	for m in tma_frontend_bound tma_bad_speculation tma_backend_bound; do
		expect_eq "run -M TopdownL1 -j: $m beyond its MetricThreshold" "$(thr $m)" beyond
	done
	expect_eq "run -M TopdownL1 -j: tma_retiring's threshold undecided without level 2" \
		"$(thr tma_retiring)" none
	pmcctl run -M TopdownL1,TopdownL2 --all-user -j -o /tmp/thr.json -- $loop $NT >/dev/null 2>&1
	expect_eq "run -M TopdownL1,TopdownL2 -j: tma_retiring's threshold decided (within)" \
		"$(thr tma_retiring)" within
	# More events than counters: each metric's events in a group of their own (perf's
	# placement), so UOPS_RETIRED.RETIRE_SLOTS and INST_RETIRED.ANY, which these models
	# count alike, are on the counters over the same intervals: uoppi is exactly 1 although
	# both are scaled; INST_RETIRED.ANY is counted in uoppi's group and again in ipc's.
	q=$(pmcctl run --all-user -j -e r01c4,r02c4,r04c4,r08c4,r10c4,r20c4,r40c4,r01c5 \
		-M tma_info_thread_uoppi,tma_info_thread_ipc -o /tmp/grouped.json -- $loop $NT 2>&1)
	check "run -M uoppi,ipc multiplexed: the note names the metrics of scaled counts" \
		grep -q "the events of tma_info_thread_uoppi, tma_info_thread_ipc did not fit" <<<"$q"
	q=$(cat /tmp/grouped.json)
	up=$(jq -r 'select(."metric-unit" == "tma_info_thread_uoppi") | ."metric-value"' <<<"$q")
	check "run -M uoppi,ipc with 8 more events (multiplexed): uoppi from one group, exactly 1 ($up)" \
		awk -v u="$up" 'BEGIN { exit !(u != "" && u - 1 < 1e-6 && 1 - u < 1e-6) }'
	expect_eq "run -M uoppi,ipc multiplexed: INST_RETIRED.ANY in each metric's group" \
		"$(jq -s 'map(select(.event == "INST_RETIRED.ANY")) | length' <<<"$q")" 2
	check "run -M uoppi,ipc multiplexed: the counts scaled (pcnt-running < 100)" \
		jq -e -s 'map(select(.event == "UOPS_RETIRED.RETIRE_SLOTS"))[0]."pcnt-running" < 100' <<<"$q"
	;;
spr)
	# PERF_METRICS: the topdown-* events count only in a group with topdown-slots, which
	# pmcctl makes for them (as perf) although the metrics' events fit and are shared.
	q=$(pmcctl run -M TopdownL1 --all-user -x, -- $loop $NT 2>&1 >/dev/null)
	rc=$?
	expect_eq "run -M TopdownL1 on PERF_METRICS (topdown-* grouped with slots): exit 0 ($(head -c 200 <<<"$q"))" "$rc" 0
	p=$(perf stat -M TopdownL1 --all-user -x, -- $loop $NT 2>&1 >/dev/null)
	for m in tma_retiring tma_bad_speculation tma_frontend_bound tma_backend_bound; do
		check "run -M TopdownL1's $m (PERF_METRICS) as perf stat -M TopdownL1's ($(mv "$q" $m) vs $(mv "$p" $m))" \
			near "$(mv "$q" $m)" "$(mv "$p" $m)" 0.5
	done
	;;
adl*)
	echo "SKIP: metrics: level 1 against perf: on a hybrid part pmcdrv does not use the P-cores' PERF_METRICS (cpu_core's TopdownL1 is refused), and the emulated E-core counts its TOPDOWN_*.ALL events as 0"
	;;
*)
	echo "SKIP: metrics: level 1 against perf: the $model model counts Skylake's top-down events as 0 (v4 and gp8 count them)"
	;;
esac

# ---- stat -a -M, -I ----------------------------------------------------------
out=$(on_pcore pmcctl stat -a -M tma_info_thread_ipc --json -- $loop $(n $N) 2>&1 >/dev/null)
check "stat -a -M --json: an IPC above 0 ($(jq -c 'select(."metric-unit" == "tma_info_thread_ipc")' <<<"$out"))" \
	jq -e -s 'map(select(."metric-unit" == "tma_info_thread_ipc" and ."metric-value" > 0)) | length == 1' <<<"$out"
out=$(on_pcore pmcctl stat -a -I 100 -M tma_info_thread_ipc -x, -- $loop $NT 2>&1 >/dev/null)
check "stat -a -I 100 -M -x,: the metric in every interval ($(grep -c tma_info_thread_ipc <<<"$out") of $(grep -c INST_RETIRED <<<"$out"))" \
	awk -F, -v i="$I" '$4 == i { n++ } $NF == "tma_info_thread_ipc" && $(NF - 1) > 0 { m++ } END { exit !(n > 0 && m == n) }' <<<"$out"

# ---- stat -a -A -M: each CPU's metric from its own counts -----------------------
# (Hybrid: the P-core, CPU 0, counts the metric's events, and the loop runs there; the
# E-core's row set has the metric's line without a value, its events having counted 0,
# and a note on the JSON's stream says so.)
out=$(on_pcore pmcctl stat -a -A -M tma_info_thread_ipc --json -- $loop $(n $N) 2>&1 >/dev/null)
percpu=$(jq -c -s --arg i "$I" --arg c "$C" '[map(select(.cpu != null)) | group_by(.cpu)[] | {cpu: .[0].cpu,
	i: (map(select(.event == $i))[0]."counter-value"),
	c: (map(select(.event == $c))[0]."counter-value"),
	m: [.[] | select(."metric-unit" == "tma_info_thread_ipc") | ."metric-value"]}]' <<<"$(grep '^{' <<<"$out")")
expect_eq "stat -a -A -M --json: one row set and one metric per CPU ($percpu)" \
	"$(jq '[.[] | select((.m | length) == 1)] | length' <<<"$percpu")" "$(nproc)"
withipc=$(nproc)
hybrid_cpu && withipc=1
if hybrid_cpu; then
	check "stat -a -A -M --json: the P-core's (CPU 0) IPC is its own instructions / cycles" \
		jq -e 'map(select(.cpu == "0"))[0] | .c > 0 and ((.m[0] - .i / .c) | fabs) < 1e-5' <<<"$percpu"
	check "stat -a -A -M --json: the E-core (CPU 1): the P-cores' events 0, no IPC (null)" \
		jq -e 'map(select(.cpu == "1"))[0] | .i == 0 and .c == 0 and .m[0] == null' <<<"$percpu"
else
	check "stat -a -A -M --json: each CPU's IPC is its own instructions / cycles" \
		jq -e 'all(.[]; .c > 0 and ((.m[0] - .i / .c) | fabs) < 1e-5)' <<<"$percpu"
fi
out=$(on_pcore pmcctl stat -a -A -M tma_info_thread_ipc -- $loop $(n $N) 2>&1 >/dev/null)
check "stat -a -A -M (text): a '# VALUE tma_info_thread_ipc' line per CPU$(hybrid_cpu && echo ' of the P-core type')" \
	test "$(grep -Ec '# +[0-9]+\.[0-9]{2} tma_info_thread_ipc$' <<<"$out")" = "$withipc"
if hybrid_cpu; then
	check "stat -a -A -M (text): the E-core's line says n/a" grep -Eq '^CPU1 .*# +n/a tma_info_thread_ipc$' <<<"$out"
fi

# ---- Errors ------------------------------------------------------------------
out=$(pmcctl run -M no_such_metric -- true 2>&1)
expect_eq "run -M no_such_metric: exit status 2" "$?" 2
check "run -M no_such_metric: names it, points to 'pmcctl list --metrics' ($out)" \
	grep -q "no_such_metric.*pmcctl list --metrics" <<<"$out"
# Skylake's DRAM bandwidth is an uncore event's
refused=tma_info_system_dram_bw_use
out=$(pmcctl run -M "$refused" -- true 2>&1)
expect_eq "run -M $refused (refused): exit status 2" "$?" 2
check "run -M $refused: names the metric, the event, why and the fix ($out)" \
	bash -c 'grep -q "metric '"'$refused'"' cannot be computed: .*uncore" <<<"$1" && grep -q "fix:" <<<"$1"' _ "$out"
out=$(pmcctl run -M tma_info_thread_ipc --topdown -- true 2>&1)
expect_eq "run -M with --topdown: exit status 2 ($out)" "$?" 2

# ---- Every metric of the model: a value, no value with its reason, or refused with its reason ----
# One 'pmcctl list --metrics' says which cannot be computed here and why (an
# uncore or other PMU's event, TSC, AnyThread, an architectural event CPUID.0AH
# marks unavailable, ...); the rest are counted in batches, one pmcctl run -M
# each (a run costs about a second of wall clock in this guest), on loop of
# 50,000,000 instructions (long enough that multiplexing gives every event turns):
# each metric must come out once, its value a finite number, or null with a
# note on stderr naming why (an input that counted 0: the emulated PMU counts
# many model events as 0).  No "nan" or "inf" may be printed as a number.
# On the default model only (the PMU lane): the other lanes' models share its metrics,
# and the walk costs about 40 s of a lane.
if [ "$model" != default ]; then
	echo "SKIP: metrics: every metric: walked on the default model only (this is $model)"
	exit 0
fi
# make check walks them in the PMU lane only: the metrics do not depend on the
# kernel, and on the debug kernel the walk took 107 s (tests/check.sh sets it).
if [ "${PMCDRV_METRIC_WALK:-1}" = 0 ]; then
	echo "SKIP: metrics: every metric: walked in make check's PMU lane (PMCDRV_METRIC_WALK=0 here)"
	exit 0
fi
pmcctl list --json --metrics >/tmp/all-metrics.json
total=$(jq '.metrics | length' /tmp/all-metrics.json)
expect_eq "list --json --metrics: a metric's MetricThreshold (tma_backend_bound)" \
	"$(jq -r '.metrics[] | select(.name == "tma_backend_bound") | .threshold' /tmp/all-metrics.json)" \
	"tma_backend_bound > 0.2"
jq -r '.metrics[] | select(.refused) | "\(.name)\t\(.refused)"' /tmp/all-metrics.json >/tmp/refused
nref=$(wc -l </tmp/refused)
check "all metrics: each refused one names its reason (an event, a PMU, TSC, CPUID)" \
	awk -F'\t' '$2 !~ /event|PMU|TSC|AnyThread|retire latency|extra register|CPUID/ { print "    no reason: " $0; bad++ } END { exit bad > 0 }' /tmp/refused
# A refused metric named in -M is an error that gives its reason: one of each kind.
for kind in uncore 'another PMU|PMU, not a core' CPUID; do
	m=$(awk -F'\t' -v k="$kind" '$2 ~ k { print $1; exit }' /tmp/refused)
	[ -n "$m" ] || continue
	why=$(awk -F'\t' -v m="$m" '$1 == m { print $2 }' /tmp/refused)
	out=$(pmcctl run -M "$m" -- true 2>&1)
	rc=$?
	check "all metrics: run -M $m (refused: $why): status 2 and the same reason" \
		bash -c '[ "$1" = 2 ] && grep -qF "cannot be computed: $2" <<<"$3"' _ "$rc" "$why" "$out"
done
jq -r '.metrics[] | select(.refused | not) | .name' /tmp/all-metrics.json >/tmp/computable
nval=0 nnone=0 nbad=0 nruns=0
batch=()
# run_batch METRIC...: one run of them; split in two when their events are more than a session counts.
run_batch() {
	local list out err rc m v half
	local batch=("$@")
	list=$(IFS=,; echo "${batch[*]}")
	nruns=$((nruns + 1))
	pmcctl run -M "$list" -j -- $loop $NT >/dev/null 2>/tmp/batch.out
	rc=$?
	out=$(grep '^{' /tmp/batch.out)
	err=$(grep -v '^{' /tmp/batch.out)
	if [ "$rc" = 2 ] && [ $# -gt 1 ] && grep -q 'need more than 32 events' <<<"$err"; then
		half=$(($# / 2))
		run_batch "${batch[@]:0:half}"
		run_batch "${batch[@]:half}"
		return
	fi
	if [ "$rc" != 0 ]; then
		echo "    batch $list: exit $rc: $err"
		nbad=$((nbad + ${#batch[@]}))
		return
	fi
	if grep -Eiq '"metric-value": *-?(nan|inf)' <<<"$out"; then
		echo "    batch $list: nan or inf printed as a number"
		nbad=$((nbad + 1))
	fi
	for m in "${batch[@]}"; do
		v=$(jq -r --arg m "$m" 'select(."metric-unit" == $m or (."metric-unit" // "" | endswith("  " + $m))) | ."metric-value"' <<<"$out")
		if [ "$(wc -l <<<"$v")" != 1 ] || [ -z "$v" ]; then
			echo "    $m: $(wc -w <<<"$v") values in the JSON"
			nbad=$((nbad + 1))
		elif [ "$v" = null ]; then
			if grep -qF "note: metric '$m' has no value (n/a): " <<<"$err"; then
				nnone=$((nnone + 1))
				[ $nnone -gt 2 ] || echo "    e.g. $(grep -F "note: metric '$m' has no value" <<<"$err")"
			else
				echo "    $m: no value, and no note saying why"
				nbad=$((nbad + 1))
			fi
		elif awk -v v="$v" 'BEGIN { exit !(v ~ /^-?[0-9]+(\.[0-9]+)?$/) }'; then
			nval=$((nval + 1))
		else
			echo "    $m: value '$v' is not a finite number"
			nbad=$((nbad + 1))
		fi
	done
}
while read -r m; do
	batch+=("$m")
	if [ ${#batch[@]} = 8 ]; then
		run_batch "${batch[@]}"
		batch=()
	fi
done </tmp/computable
[ ${#batch[@]} = 0 ] || run_batch "${batch[@]}"
echo "all-metrics: $total metrics of the model: $nval evaluated, $nnone without a value (reason given), $nref refused (reason given), $nbad otherwise ($nruns runs)"
check "all metrics: evaluated or refused, each with its reason: $((nval + nnone + nref)) of $total, none otherwise" \
	test "$nbad" = 0 -a $((nval + nnone + nref)) = "$total"
