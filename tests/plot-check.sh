#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pmcctl plot on the host: the two-phase fixture that tests/unit writes with
# pmcctl's own JSON writers (tests/unit/golden/plot-phases-json.txt) drawn
# as PNG and SVG; the guest's real two-phase run (docs/img/plot-phases.json,
# tests/guest/86-plot.sh) drawn, its data (--data) checked against the JSON; the default output name, --events/--metrics, and the
# documented exit codes: 1 for a file it cannot draw and for gnuplot
# missing (with the apt-get line), 2 for usage and unknown names; stat
# --plot's checks before it counts, and run's.  Needs build/bin/pmcctl (make user),
# gnuplot-nox and file (tests/deps.sh); PMCCTL=path for another binary.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
pmcctl=${PMCCTL:-build/bin/pmcctl}
fixture=tests/unit/golden/plot-phases-json.txt
check_label=plot-check
. tests/lib/host.sh

for t in gnuplot:gnuplot-nox file:file; do
	command -v "${t%%:*}" >/dev/null || fail "${t%%:*} installed" "install ${t#*:} (tests/deps.sh)"
done
[ -x "$pmcctl" ] || fail "$pmcctl built" "make user"
[ "$failed" = 0 ] || finish
tmp=$(mktemp -d /tmp/plot-check.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# expect NAME RC PATTERN CMD...: CMD exits RC and its stderr matches PATTERN.
expect() {
	local name=$1 want=$2 pat=$3 out rc
	shift 3
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = "$want" ] && grep -qE -- "$pat" <<<"$out"; then
		pass "$name"
	else
		fail "$name" "exit $rc (want $want): $out"
	fi
}

# The picture is a PNG: its 8-byte signature, and file(1) agrees on the size.
if "$pmcctl" plot -o "$tmp/phases.png" "$fixture" 2>"$tmp/err" &&
   [ "$(head -c 8 "$tmp/phases.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
   file "$tmp/phases.png" | grep -q 'PNG image data, 1100 x 1410'; then
	pass "plot: the two-phase fixture as a 1100x1410 PNG (6 panels)"
else
	fail "plot -o PNG" "$(cat "$tmp/err"; file "$tmp/phases.png" 2>&1)"
fi
if "$pmcctl" plot -o "$tmp/phases.svg" "$fixture" 2>"$tmp/err" &&
   grep -q '<svg' "$tmp/phases.svg" && grep -q 'Bad speculation' "$tmp/phases.svg"; then
	pass "plot: SVG, with the top-down legend"
else
	fail "plot -o SVG" "$(cat "$tmp/err")"
fi
cp "$fixture" "$tmp/run.json"
if "$pmcctl" plot "$tmp/run.json" 2>/dev/null && file "$tmp/run.png" | grep -q 'PNG image'; then
	pass "plot without -o: JSONFILE's name with .png"
else
	fail "plot default output" "no $tmp/run.png"
fi
if "$pmcctl" plot -e cycles,branch-misses -M topdown -o "$tmp/sel.png" "$fixture" 2>"$tmp/err" &&
   file "$tmp/sel.png" | grep -q 'PNG image data, 1100 x 750'; then
	pass "plot --events --metrics: 3 panels"
else
	fail "plot --events --metrics" "$(cat "$tmp/err"; file "$tmp/sel.png" 2>&1)"
fi

expect "unknown event: exit 2, naming what the file has" 2 "no event 'uops' in it \(it has: cycles, " \
	"$pmcctl" plot -e uops -o "$tmp/x.png" "$fixture"
expect "unknown metric: exit 2" 2 "no metric 'IPC' in it" "$pmcctl" plot -M IPC -o "$tmp/x.png" "$fixture"
expect "neither .png nor .svg: exit 2" 2 "give a file name ending in .png or .svg" \
	"$pmcctl" plot -o "$tmp/x.jpg" "$fixture"
expect "no file: exit 2" 2 "give one JSON file" "$pmcctl" plot
expect "a missing file: exit 1" 1 "No such file" "$pmcctl" plot -o "$tmp/x.png" "$tmp/none.json"
head -n 7 "$fixture" | sed 's/"interval": [0-9.]*, //' >"$tmp/whole.json"
expect "a whole run's output: exit 1, naming -I" 1 "without an interval.*pmcctl stat -a -I 100 -j" \
	"$pmcctl" plot -o "$tmp/x.png" "$tmp/whole.json"
: >"$tmp/empty.json"
expect "no interval lines: exit 1" 1 "no interval lines in it" "$pmcctl" plot -o "$tmp/x.png" "$tmp/empty.json"
expect "without gnuplot: exit 1 and the fix" 1 "needs gnuplot.*apt-get install gnuplot-nox" \
	env PATH=/nonexistent "$PWD/$pmcctl" plot -o "$tmp/x.png" "$fixture"
[ ! -e "$tmp/x.png" ] && pass "no picture left after the failures" || fail "failures" "$tmp/x.png exists"

# The real run of docs/img/plot-phases.png (tests/guest/86-plot.sh, the guest's
# emulated Skylake v4 model: stat -a -I 100 -j -M TopdownL1 over a compute phase
# and then a branchy one): drawn again, and the data drawn (--data) is the
# JSON's, column by column: each event's count (summed over its lines) and
# each metric's value in every interval, the interval's end time first.
guest=docs/img/plot-phases.json
if "$pmcctl" plot -D "$tmp/guest.data" -o "$tmp/guest.png" "$guest" 2>"$tmp/err" &&
   file "$tmp/guest.png" | grep -q 'PNG image data, 1100 x 1410'; then
	pass "plot: the guest's two-phase run as a 1100x1410 PNG, as docs/img/plot-phases.png"
else
	fail "plot $guest" "$(cat "$tmp/err"; file "$tmp/guest.png" 2>&1)"
fi
file docs/img/plot-phases.png | grep -q 'PNG image data, 1100 x 1410' &&
	pass "docs/img/plot-phases.png: a 1100x1410 PNG" || fail "docs/img/plot-phases.png" "$(file docs/img/plot-phases.png)"
cols=$(head -n 1 "$tmp/guest.data" | tr '\t' '\n' | tail -n +3 | jq -R . | jq -s -c .)
jq -r -s --argjson cols "$cols" '
	group_by(.interval)[] | . as $g | [$g[0].interval] + [$cols[] as $c |
		([$g[] | select(.event == $c) | ."counter-value"] | if length > 0 then add
		 else [$g[] | select(."metric-unit" != null and (."metric-unit" == $c or
			(."metric-unit" | endswith("  " + $c)))) | ."metric-value"][0] end)] | @tsv' \
	"$guest" >"$tmp/guest.want"
if [ "$(wc -l <"$tmp/guest.want")" -ge 4 ] &&
   paste <(tail -n +2 "$tmp/guest.data") "$tmp/guest.want" | awk -F'\t' -v n="$(jq length <<<"$cols")" '
	{ w = n + 2; if ($1 - $(w + 1) > 1e-6 || $(w + 1) - $1 > 1e-6) bad++
	  for (i = 1; i <= n; i++) { a = $(i + 2); b = $(w + 1 + i); d = a - b
		if (d > 1e-6 * (b < 0 ? -b : b) + 1e-6 || -d > 1e-6 * (b < 0 ? -b : b) + 1e-6) bad++ } }
	END { exit !(NR > 0 && !bad) }' &&
   [ "$(($(wc -l <"$tmp/guest.data") - 1))" = "$(wc -l <"$tmp/guest.want")" ]; then
	pass "plot --data: the $(wc -l <"$tmp/guest.want") intervals' $(jq length <<<"$cols") series are the JSON's"
else
	fail "plot --data against $guest" "$(diff <(tail -n +2 "$tmp/guest.data") "$tmp/guest.want" | head -n 6)"
fi
# The picture's story: bad speculation about 2% in the compute phase, 31% in the branchy one.
if awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tma_bad_speculation") c = i; next }
	{ s = s ($c < 5 ? "c" : $c > 25 ? "b" : "x") } END { exit !(c && s ~ /^cc+x?bb+x?$/) }' "$tmp/guest.data"; then
	pass "plot --data: the two phases show (bad speculation < 5%, then > 25%)"
else
	fail "plot --data: the two phases" "$(cut -f1,2 "$tmp/guest.data")"
fi

# stat --plot refuses before it counts (no module needed for these).
expect "stat --plot without -I: exit 2" 2 "give -I MS too" "$pmcctl" stat -a --plot "$tmp/s.png" -t 1
expect "stat --plot FILE.jpg: exit 2" 2 "ending in .png or .svg" "$pmcctl" stat -a -I 100 --plot "$tmp/s.jpg" -t 1
expect "stat --plot without gnuplot: exit 1 before counting" 1 "needs gnuplot.*apt-get install gnuplot-nox" \
	env PATH=/nonexistent "$PWD/$pmcctl" stat -a -I 100 --plot "$tmp/s.png" -t 1
# So does run --plot, before CMD starts (CMD would create the file).
expect "run --plot without -I: exit 2" 2 "give -I MS too" "$pmcctl" run --plot "$tmp/r.png" -- touch "$tmp/ran"
expect "run --plot FILE.jpg: exit 2" 2 "ending in .png or .svg" "$pmcctl" run -I 100 --plot "$tmp/r.jpg" -- touch "$tmp/ran"
expect "run --plot without gnuplot: exit 1, naming the package" 1 "needs gnuplot.*apt-get install gnuplot-nox" \
	env PATH=/nonexistent "$PWD/$pmcctl" run -I 100 --plot "$tmp/r.png" -- /bin/touch "$tmp/ran"
expect "run -I 5: exit 2, the rule" 2 "give milliseconds from 10" "$pmcctl" run -I 5 -- touch "$tmp/ran"
expect "run -I with -r: exit 2" 2 "-I and -r exclude each other" "$pmcctl" run -I 100 -r 2 -- touch "$tmp/ran"
[ ! -e "$tmp/ran" ] && pass "run: refused before CMD started" || fail "run: refused before CMD started" "CMD ran"
finish
