#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pmcctl under a real MPI launcher, on the host (no guest, no PMU needed):
# Debian's MPICH 4.0 (hydra mpiexec) and Open MPI 4.1 (mpirun --oversubscribe)
# each start two ranks of 'pmcctl run -j -e task-clock,context-switches -o
# DIR/r.%r.json -- true' (software events: counted from the rusage on the MSR
# path without the module); then each rank's file and identity, 'pmcctl report'
# over them (its JSON's sums and imbalance against the files, by jq), --pin's
# account, --plot's PNG and its error without gnuplot, and the documented
# refusals (%r outside a launcher, --strict on different events).
# Prints PASS:/FAIL: lines and "mpi-check: N passed, N failed".  Needs
# build/bin/pmcctl (make user), mpich, openmpi-bin, jq, gnuplot-nox, file
# (tests/deps.sh).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
pmcctl=$PWD/${PMCCTL:-build/bin/pmcctl}
check_label=mpi-check
. tests/lib/host.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
host=$(hostname)

[ -x "$pmcctl" ] || { fail "pmcctl built" "$pmcctl is missing: run 'make user' first"; finish; }
for t in mpiexec.hydra:mpich mpirun.openmpi:openmpi-bin jq:jq gnuplot:gnuplot-nox file:file; do
	command -v "${t%%:*}" >/dev/null || fail "${t%%:*} installed" "install ${t#*:} (tests/deps.sh)"
done
[ "$failed" = 0 ] || finish

# ranks NAME LAUNCHER...: two ranks under LAUNCHER, their files and the report over them.
ranks() {
	local name=$1 d=$tmp/$1 var=$2 lvar=$3 out
	shift 3
	mkdir -p "$d"
	if out=$("$@" "$pmcctl" run -v --pin -j -e task-clock,context-switches -o "$d/r.%r.json" -- true 2>&1); then
		pass "$name: two ranks of pmcctl run"
	else
		fail "$name: two ranks of pmcctl run" "$out"
		return
	fi
	grep -q "MPI rank 1 ($var) of 2, local rank 1 ($lvar) of 2, host $host" <<<"$out" &&
		pass "$name: -v names $var and $lvar" || fail "$name: -v" "$out"
	[ "$(grep -c -e '--pin: local rank [01] of 2 on .* pinned to CPUs' -e '--pin: rank [01] on .* already bound' <<<"$out")" = 2 ] &&
		pass "$name: --pin says what it did for each rank" || fail "$name: --pin" "$out"
	for r in 0 1; do
		jq -e -s --argjson r $r --arg v "$var" --arg h "$host" \
			'.[0].rank == $r and .[0]."rank-variable" == $v and .[0].host == $h and
			 .[0]."world-size" == 2 and .[0]."local-rank" == $r and
			 (map(select(.event)) | length) == 2' "$d/r.$r.json" >/dev/null &&
			pass "$name: r.$r.json: identity of rank $r, two events" ||
			fail "$name: r.$r.json" "$(cat "$d/r.$r.json" 2>&1)"
	done
	"$pmcctl" report -j "$d/r.1.json" "$d/r.0.json" >"$d/report.json" 2>"$d/err"
	# The report's statistics against the files' own counts.
	if jq -e -s --arg h "$host" '
		(.[1] | map(select(.event == "task-clock"))[0]."counter-value") as $a |
		(.[2] | map(select(.event == "task-clock"))[0]."counter-value") as $b |
		(.[0].rows | map(select(.event == "task-clock" and .region == null))[0]) as $t |
		(.[0].ranks | map(.label)) == [$h + ":0", $h + ":1"] and
		($t.values == [$a, $b]) and (($t.sum - ($a + $b)) | fabs) < 1e-6 and
		$t.min == ([$a, $b] | min) and $t.max == ([$a, $b] | max) and
		(($t.mean - ($a + $b) / 2) | fabs) < 1e-6 and (($t.imbalance - $t.max / $t.mean) | fabs) < 1e-6 and
		(.[0].notes | length) == 0' \
		"$d/report.json" <(jq -s . "$d/r.0.json") <(jq -s . "$d/r.1.json") >/dev/null; then
		pass "$name: report -j: columns $host:0 $host:1, sum, min, max, mean, imbalance of the files"
	else
		fail "$name: report -j" "$(cat "$d/report.json" "$d/err")"
	fi
}

ranks mpich PMI_RANK MPI_LOCALRANKID mpiexec.hydra -n 2
ranks openmpi OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_LOCAL_RANK \
	mpirun.openmpi -np 2 --oversubscribe --allow-run-as-root

d=$tmp/mpich
if [ -f "$d/r.0.json" ]; then
	out=$("$pmcctl" report "$d"/r.*.json 2>&1) && grep -q "^ task-clock .* $host:0\|^ event .*$host:0 *$host:1 *sum *min *max *mean *imbalance" <<<"$out" &&
		pass "report: text table" || fail "report: text table" "$out"
	out=$("$pmcctl" report -x';' "$d"/r.*.json 2>&1) && head -n1 <<<"$out" | grep -qx "region;name;kind;$host:0;$host:1;sum;min;max;mean;imbalance" &&
		pass "report -x';': CSV header" || fail "report -x" "$out"
	"$pmcctl" report --plot "$tmp/ranks.png" "$d"/r.*.json >/dev/null 2>"$tmp/err" &&
		file "$tmp/ranks.png" | grep -q 'PNG image' && pass "report --plot: a PNG" ||
		fail "report --plot" "$(cat "$tmp/err")"
	out=$(env PATH=/nonexistent "$pmcctl" report --plot "$tmp/no.png" "$d"/r.*.json 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 1 ] && grep -q 'needs gnuplot.*apt-get install gnuplot-nox' <<<"$out" &&
		pass "report --plot without gnuplot: exit 1 and the fix" || fail "report --plot without gnuplot" "exit $rc: $out"
	# Different events: merged with a note, refused with --strict.
	PMI_RANK=2 PMI_SIZE=2 "$pmcctl" run -j -e task-clock -o "$tmp/other.%r.json" -- true 2>/dev/null
	out=$("$pmcctl" report -j "$d/r.0.json" "$tmp/other.2.json" 2>&1) &&
		jq -e '(.notes | map(select(test("dropped context-switches"))) | length) == 1 and
		       (.rows | map(.event) | index("context-switches")) == null' <<<"$out" >/dev/null &&
		pass "report: different events merged on the common one, with a note" || fail "report: different events" "$out"
	out=$("$pmcctl" report --strict "$d/r.0.json" "$tmp/other.2.json" 2>&1)
	rc=$?
	[ "$rc" = 1 ] && grep -q 'different events: .*r.0.json has context-switches' <<<"$out" &&
		pass "report --strict: different events refused, exit 1" || fail "report --strict" "exit $rc: $out"
fi

out=$(env -u PMI_RANK -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u SLURM_PROCID \
	"$pmcctl" run -e task-clock -o "$tmp/r.%r.json" -- true 2>&1)
rc=$?
[ "$rc" = 2 ] && grep -q '%r needs the MPI rank' <<<"$out" && [ ! -e "$tmp/r.%r.json" ] &&
	pass "run -o r.%r.json outside MPI: usage error (2) naming the fix" || fail "run -o %r outside MPI" "exit $rc: $out"
out=$(PMI_RANK=x "$pmcctl" run -e task-clock -- true 2>&1)
rc=$?
[ "$rc" = 2 ] && grep -q "PMI_RANK='x'" <<<"$out" && pass "a rank variable that is not a number: exit 2" ||
	fail "PMI_RANK=x" "exit $rc: $out"
finish
