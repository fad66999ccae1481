# SPDX-License-Identifier: GPL-2.0
# MPI in the guest: two ranks of 'pmcctl run' under MPICH's hydra mpiexec
# (the base image carries it: tests/vm/run), each counting
# build/tests/rankloop, whose rank r runs the known loop (2 instructions an
# iteration) N*(r+1) times in region "loop"; then 'pmcctl report' over the
# two files in text, CSV and JSON.  With the PMU, each rank's region count is
# exact: 2*N*(r+1) + C, C from tests/guest/rankloop.conf, and so are the
# report's sum, min, max, mean and imbalance (max/mean).  Without it, the same
# run with task-clock: the files, the region per rank and the report's sums.
. tests/lib/guest.sh
. tests/guest/rankloop.conf
rankloop=$PWD/build/tests/rankloop
if [ ! -x "$rankloop" ]; then
	fail "$rankloop" "not built (make tests; MPICH's mpicc: tests/deps.sh)"
	exit 0
fi
if ! command -v mpiexec.hydra >/dev/null; then
	echo "SKIP: MPI tests: no MPICH in this guest's image (tests/vm/run takes it from the host's mpich package)"
	exit 0
fi
# hydra's proxy connects back to mpiexec over TCP on the loopback interface.
if [ ! -e /proc/net/tcp ]; then
	echo "SKIP: MPI tests: this kernel has no TCP/IP (the debug lane's kernel is built from tinyconfig without CONFIG_INET), and MPICH's hydra needs it"
	exit 0
fi
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
host=$(hostname)
d=$(mktemp -d)
cd "$d" || exit 1
N=100000
if have_pmu; then
	ev=instructions:u
else
	ev=task-clock
fi

out=$(mpiexec -n 2 pmcctl run --regions -j -e $ev -o r.%r.json -- "$rankloop" $N 2>&1)
expect_eq "mpiexec -n 2 pmcctl run --regions -e $ev -o r.%r.json -- rankloop: exit 0" "$?" 0
echo "$out" | sed 's/^/    /'
# Everything below reads the ranks' files: without them it would check nothing.
if [ ! -s r.0.json ] || [ ! -s r.1.json ]; then
	fail "mpiexec: the ranks' files r.0.json and r.1.json" "missing: the rest of the test needs them"
	exit 0
fi
for r in 0 1; do
	check "rankloop: rank $r ran its N*(r+1) iterations" grep -qx "rankloop: rank $r of 2 n=$((N * (r + 1)))" <<<"$out"
	check "r.$r.json: valid JSON, rank $r of 2 (PMI_RANK) on $host" \
		jq -e -s --argjson r $r --arg h "$host" \
		'.[0].rank == $r and .[0]."rank-variable" == "PMI_RANK" and .[0]."world-size" == 2 and .[0].host == $h' r.$r.json
	check "r.$r.json: region loop, 1 call in 1 thread, its $ev" \
		jq -e -s --arg e $ev 'map(select(.region == "loop"))[0] | .calls == 1 and .threads == 1 and .events[0].event == $e' r.$r.json
done
# count FILE: region loop's count of the event in FILE
count() { jq -s 'map(select(.region == "loop"))[0].events[0]["counter-value"]' "$1"; }
c0=$(count r.0.json)
c1=$(count r.1.json)
echo "    region loop: rank 0 $c0, rank 1 $c1 ($ev)"

pmcctl report -j r.*.json >report.json 2>report.err
expect_eq "report -j r.*.json: exit 0" "$?" 0
if [ ! -s report.json ]; then
	fail "report -j r.*.json: a report" "empty: $(cat report.err)"
	exit 0
fi
check "report -j: valid JSON, columns $host:0 $host:1 (files r.0.json, r.1.json), no notes" \
	jq -e --arg h "$host" '(.ranks | map(.label)) == [$h + ":0", $h + ":1"] and
		(.ranks | map(.file)) == ["r.0.json", "r.1.json"] and (.notes | length) == 0' report.json
check "report -j: region loop's row: the files' counts, sum, min, max, mean, imbalance" \
	jq -e --argjson a "$c0" --argjson b "$c1" --arg e $ev \
	'(.rows | map(select(.region == "loop" and .event == $e))[0]) as $t |
	 $t.values == [$a, $b] and (($t.sum - ($a + $b)) | fabs) < 1e-6 and $t.min == ([$a, $b] | min) and
	 $t.max == ([$a, $b] | max) and (($t.mean - ($a + $b) / 2) | fabs) < 1e-6 and
	 (($t.imbalance - $t.max / $t.mean) | fabs) < 1e-6' report.json
check "report -j: region loop's calls: 1 in each rank, sum 2" \
	jq -e '(.rows | map(select(.region == "loop" and .event == "calls"))[0]) as $t |
	 $t.values == [1, 1] and $t.sum == 2 and $t.imbalance == 1' report.json
check "report -j: the whole run's $ev in both ranks" \
	jq -e --arg e $ev '.rows | map(select(.region == null and .event == $e))[0].values | length == 2 and all(. > 0)' report.json
txt=$(pmcctl report r.*.json 2>&1)
echo "$txt" | sed 's/^/    /'
check "report: text: region loop's table, columns $host:0 $host:1 sum min max mean imbalance" \
	grep -qE "^ event +$host:0 +$host:1 +sum +min +max +mean +imbalance$" <<<"$(sed -n '/^ region loop:/,$p' <<<"$txt")"
csv=$(pmcctl report -x';' r.*.json 2>&1)
check "report -x';': header" grep -qx "region;name;kind;$host:0;$host:1;sum;min;max;mean;imbalance" <<<"$csv"

# Files that do not match: a rank's file with another event set.
PMI_RANK=2 PMI_SIZE=3 pmcctl run -j -e task-clock,context-switches -o other.%r.json -- true 2>/dev/null
out=$(pmcctl report --strict r.0.json other.2.json 2>&1)
rc=$?
expect_eq "report --strict on different events: exit 1" "$rc" 1
check "report --strict: the message names the difference" grep -q 'different events: ' <<<"$out"

if [ $ev != instructions:u ]; then
	echo "SKIP: MPI: exact instructions:u per rank and in the report: no PMU in this guest (task-clock checked)"
	exit 0
fi
# Exact: rank r's region is 2*N*(r+1) + C.
expect_eq "rank 1's region - rank 0's = 2N exactly (N = $N)" $((c1 - c0)) $((2 * N))
expect_eq "rank 0's region = 2N + C (rankloop.conf's C = $RANKLOOP_REGION_C)" "$c0" $((2 * N + RANKLOOP_REGION_C))
expect_eq "rank 1's region = 4N + C" "$c1" $((4 * N + RANKLOOP_REGION_C))
C=$RANKLOOP_REGION_C
sum=$((6 * N + 2 * C)) min=$((2 * N + C)) max=$((4 * N + C)) mean=$((3 * N + C))
imb=$(awk -v a=$max -v b=$mean 'BEGIN { printf "%.6f", a / b }')
check "report -j: loop: sum $sum, min $min, max $max, mean $mean, imbalance $imb" \
	jq -e --argjson s $sum --argjson lo $min --argjson hi $max --argjson m $mean --argjson i "$imb" \
	'(.rows | map(select(.region == "loop" and .event == "instructions:u"))[0]) as $t |
	 $t.sum == $s and $t.min == $lo and $t.max == $hi and $t.mean == $m and (($t.imbalance - $i) | fabs) < 1e-6' report.json
check "report -x';': loop;instructions:u;event;$min;$max;$sum;$min;$max;$mean;$imb" \
	grep -qx "loop;instructions:u;event;$min;$max;$sum;$min;$max;$mean;$imb" <<<"$csv"
commas() { sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta' <<<"$1"; }
check "report: text: loop's instructions:u row" \
	grep -qE "^ instructions:u +$(commas $min) +$(commas $max) +$(commas $sum) +$(commas $min) +$(commas $max) +$(commas $mean) +$(printf %.3f "$imb")$" \
	<<<"$(sed -n '/^ region loop:/,$p' <<<"$txt")"
