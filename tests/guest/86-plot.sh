# SPDX-License-Identifier: GPL-2.0
# The run pmcctl plot draws (docs/img/plot-phases.png), from a real program:
# pmcctl stat -a -I 100 -j -M TopdownL1 over tests/guest/phases.c, a compute
# phase (30 adds and a branch an iteration) then a branchy one (a branch
# every second instruction).  On the models that count Skylake's top-down
# events (v4, gp8: tests/qemu/README.md) the model gives, for N instructions
# of which J are branches, bad speculation 5J/8N: about 2% in the compute
# phase, 31% in the branchy one, and retiring 12.5% in both.  Checks: every
# interval has the four level-1 metrics; the intervals split into a compute
# run (bad speculation < 5%) and then a branchy run (> 25%), at most one
# interval between them (the switch), each phase at least two intervals.
# PMCDRV_PLOT_JSON=1 prints the JSON lines (for docs/img/plot-phases.json).
. tests/lib/guest.sh

skl_topdown_lane plot || exit 0
module_loaded || insmod "$PMCDRV_KO"
phases=build/tests/phases
pmcctl stat -a -I 100 -j -M TopdownL1 -o /tmp/phases.json -- $phases 12000000 200000000 2>/tmp/phases.err
expect_eq "stat -a -I 100 -j -M TopdownL1 -- phases: exit 0 ($(head -c 300 /tmp/phases.err))" "$?" 0
if [ "${PMCDRV_PLOT_JSON:-}" = 1 ]; then
	sed 's/^/plot-json: /' /tmp/phases.json
fi
# interval TIME, bad speculation and retiring, one line each
jq -r -s 'group_by(.interval)[] | [.[0].interval,
	(map(select(."metric-unit" == "%  tma_bad_speculation"))[0]."metric-value"),
	(map(select(."metric-unit" == "%  tma_retiring"))[0]."metric-value")] | @tsv' /tmp/phases.json >/tmp/phases.tsv
sed 's/^/    /' /tmp/phases.tsv
check "every interval has tma_bad_speculation and tma_retiring" \
	awk -F'\t' 'NF != 3 || $2 == "" || $2 == "null" || $3 == "" || $3 == "null" { bad++ } END { exit !(NR >= 4 && !bad) }' /tmp/phases.tsv
check "two phases: compute (bad speculation < 5%) then branchy (> 25%), each >= 2 intervals, <= 1 between" \
	awk -F'\t' '{ k = $2 < 5 ? "c" : $2 > 25 ? "b" : "x"; s = s k }
		END { exit !(s ~ /^cc+x?bb+x?$/) }' /tmp/phases.tsv
check "retiring 12.5% in the full intervals of both phases (within 1 point)" \
	awk -F'\t' '($2 < 5 || $2 > 25) && ($3 < 11.5 || $3 > 13.5) { bad++ } END { exit bad > 0 }' /tmp/phases.tsv
