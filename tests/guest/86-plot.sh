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
# With gnuplot, stat's --plot of that run is pmcctl plot's of its JSON.
# PMCDRV_PLOT_JSON=1 prints the JSON lines (for docs/img/plot-phases.json).
. tests/lib/guest.sh

skl_topdown_lane plot || exit 0
module_loaded || insmod "$PMCDRV_KO"
phases=build/tests/phases
# With gnuplot, stat draws the same run too (--plot), checked below against pmcctl plot's.
plotarg=()
command -v gnuplot >/dev/null && rm -f /tmp/stat-plot.png && plotarg=(--plot /tmp/stat-plot.png)
pmcctl stat -a -I 100 -j -M TopdownL1 -o /tmp/phases.json "${plotarg[@]}" -- $phases 12000000 200000000 2>/tmp/phases.err
rc=$?	# before the message's $(head ...), which sets $? again
expect_eq "stat -a -I 100 -j -M TopdownL1 -- phases: exit 0 ($(head -c 300 /tmp/phases.err))" "$rc" 0
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

# run -I 100 --plot: the two phases of one command drawn after it ends, from
# the intervals it printed (-j -o, the same run): the picture is the one
# 'pmcctl plot' draws of that JSON, byte for byte, and the data drawn are
# the JSON's; branches per instruction 1/32 in the compute phase, 1/2 in
# the branchy one.  The models count no branches event, but these two count
# INT_MISC.RECOVERY_CYCLES (r010d) as the conditional branches (J above).
if command -v gnuplot >/dev/null; then
	# stat -a -I --plot: the picture is pmcctl plot's of the intervals stat printed.
	check "stat -a -I 100 --plot: says it wrote the picture" grep -q "wrote /tmp/stat-plot.png" /tmp/phases.err
	pmcctl plot -o /tmp/stat-plot2.png /tmp/phases.json 2>/dev/null
	check "stat --plot: a PNG, the one pmcctl plot draws of the JSON stat printed" \
		sh -c 'head -c 8 /tmp/stat-plot.png | od -An -tx1 | tr -d " \n" | grep -qx 89504e470d0a1a0a &&
			cmp -s /tmp/stat-plot.png /tmp/stat-plot2.png'
	rm -f /tmp/run-plot.png
	pmcctl run -I 100 -j -o /tmp/run-plot.json --plot /tmp/run-plot.png \
		-e instructions:u,r010d:u -- $phases 12000000 200000000 2>/tmp/run-plot.err
	rc=$?
	expect_eq "run -I 100 --plot FILE.png -- phases: exit 0 ($(head -c 300 /tmp/run-plot.err))" "$rc" 0
	check "run --plot: says it wrote the picture" grep -q "wrote /tmp/run-plot.png" /tmp/run-plot.err
	check "run --plot: a PNG" \
		sh -c 'head -c 8 /tmp/run-plot.png | od -An -tx1 | tr -d " \n" | grep -qx 89504e470d0a1a0a'
	pmcctl plot -D /tmp/run-plot.data -o /tmp/run-plot2.png /tmp/run-plot.json 2>/dev/null
	check "run --plot: the picture is pmcctl plot's of the intervals run printed" \
		cmp -s /tmp/run-plot.png /tmp/run-plot2.png
	jq -r -s 'group_by(.interval)[] | [(map(select(.event == "instructions:u"))[0]."counter-value"),
		(map(select(.event == "r010d:u"))[0]."counter-value")] | @tsv' /tmp/run-plot.json >/tmp/run-plot.want
	check "run --plot: the data drawn are the JSON's ($(wc -l </tmp/run-plot.want) intervals)" \
		awk -F'\t' 'NR == FNR { i[NR] = $1; b[NR] = $2; n = NR; next }
			FNR > 1 { k++; if ($3 + 0 != i[k] + 0 || $4 + 0 != b[k] + 0) bad++ }
			END { exit !(k == n && n >= 4 && !bad) }' /tmp/run-plot.want /tmp/run-plot.data
	check "run --plot: the two phases (branches/instruction 1/32, then 1/2)" \
		awk -F'\t' '$1 > 0 { r = $2 / $1; s = s (r < 0.05 ? "c" : r > 0.45 ? "b" : "x") }
			END { exit !(s ~ /^cc+x?bb+x?$/) }' /tmp/run-plot.want
else
	pmcctl run -I 100 --plot /tmp/run-plot.png -e instructions:u -- true 2>/tmp/err
	expect_eq "run --plot without gnuplot -> 1" "$?" 1
	check "run --plot without gnuplot: names the package" grep -q "apt-get install gnuplot-nox" /tmp/err
fi

# run -I -M: a metric per interval, from that interval's counts (the two phases).
pmcctl run -I 100 -j -M TopdownL1 -o /tmp/run-td.json -- $phases 12000000 200000000 2>/tmp/run-td.err
rc=$?
expect_eq "run -I 100 -j -M TopdownL1 -- phases: exit 0 ($(head -c 300 /tmp/run-td.err))" "$rc" 0
check "run -I -M TopdownL1: bad speculation per interval < 5%, then > 25% (the two phases)" \
	jq -e -s '[.[] | select(."metric-unit" == "%  tma_bad_speculation") | ."metric-value" |
		if . < 5 then "c" elif . > 25 then "b" else "x" end] | join("") | test("^cc+x?bb+x?$")' /tmp/run-td.json
