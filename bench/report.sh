#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report.sh [--doc | --b2-data | --b9-data | --scale-data] RESULTS.json
#   (default)   the tables of every figure, as Markdown (bench/run prints them)
#   --doc       docs/performance.md: run details, the tables, the B2 plot and
#               an estimate for real hardware from published MSR latencies
#   --b2-data   the plot's data: events, cost above untracked per round trip
#               (pmcdrv/perf, inherit/no-inherit), MSR accesses per switch (same)
#   --b9-data   B9's plot data: tasks, busy ms above untracked (pmcdrv 2 events,
#               perf 2, pmcdrv 7, perf 7), the same in % of the untracked busy time
#   --scale-data  the plot of B10 and B14: two blocks, ns per switch against
#               the tracked tasks (untracked, pmcdrv) and against the sessions
#               (session to session; untracked; each case's run without a session)
# Needs jq.
set -euo pipefail
mode=tables
case "${1:-}" in
--doc) mode=doc; shift ;;
--b2-data) mode=b2; shift ;;
--b9-data) mode=b9; shift ;;
--scale-data) mode=scale; shift ;;
esac
[ $# = 1 ] && [ -f "$1" ] || { echo "usage: bench/report.sh [--doc|--b2-data|--b9-data|--scale-data] RESULTS.json" >&2; exit 2; }
json=$1

# Shared jq definitions: lookups and number formatting.
defs='
def r(f): [.results[] | select(f)];
def one(f): (r(f) | .[0]) // null;
def ns(b; c; t; n; m; x): one(.bench == b and .case == c and .metric == x
	and (t == null or .tool == t) and (n == null or .events == n) and (m == null or .mode == m)) | .value? // null;
def commas: tostring | if test("^[0-9]+$") then
	(explode | reverse | [recurse(.[3:]; length > 0) | .[:3]] | map(reverse | implode) | reverse | join(","))
	else . end;
def n0: if . == null then "n/a" elif type == "number" then (if . < 0 then "-" + ((- .) | round | commas) else (round | commas) end) else tostring end;
def sign0: if . == null then "n/a" elif . >= 0 then "+" + n0 else n0 end;
def n1: if . == null then "n/a" elif type == "number" then ((. * 10 | round) / 10 | tostring) else tostring end;
def f2: (. * 100 | round) as $x | ($x % 100 | tostring) as $c |
	"\($x / 100 | floor).\(if ($c | length) == 1 then "0" + $c else $c end)";
def ratio(a; b): if a == null or b == null or b == 0 or a < 0 or b < 0 then "n/a" else (a / b | f2) end;
def base: ns("B1"; "module-idle"; "none"; null; null; "ns_per_round");
def b2(t; n; m; x): one(.bench == "B2" and .tool == t and .events == n and .mode == m and .metric == x);
def msr(t; n; m): b2(t; n; m; "msr_per_switch") as $o |
	if $o == null then "n/a" else "\($o.value | n1) (\($o.p2c) / \($o.c2p))" end;
def b7base: ns("B7"; "no-counting"; "none"; null; null; "ns_per_round");
def b7(t; n; x): one(.bench == "B7" and .tool == t and .events == n and .metric == x);
def b8(t; m; x): one(.bench == "B8" and .tool == t and .mode == m and .metric == x);
def b8base: ns("B8"; "untracked"; "none"; null; null; "ns_per_round");
def msr8(t; m): b8(t; m; "msr_per_switch") as $o |
	if $o == null then "n/a" else "\($o.value | n1) (\($o.p2c) / \($o.c2p))" end;
def b9(t; n; g): one(.bench == "B9" and .case == "messaging-g\(g)" and .tool == t and .events == n);
def b9st(t; n): one(.bench == "B9" and .case == "start-up" and .tool == t and .events == n) | .value? // null;
def b9msg(t; n; g): b9(t; n; g) | .value? // null;
def b9busy(t; n; g): b9(t; n; g) | .busy_ns? // null;
# above the untracked run: the message phase; the busy time less the tool'"'"'s own start-up on true
def b9amsg(t; n; g): b9msg(t; n; g) as $v | b9msg("none"; 0; g) as $b | if $v == null or $b == null then null else $v - $b end;
def b9abusy(t; n; g): b9busy(t; n; g) as $v | b9busy("none"; 0; g) as $b | b9st(t; n) as $s | b9st("none"; 0) as $s0 |
	if $v == null or $b == null or $s == null or $s0 == null then null else $v - $b - ($s - $s0) end;
# B9: the busy times of a case, and the noise band of a size (the goal rows say how it is made).
def b9runs(t; n; g): b9(t; n; g) | .busy_runs? // null | if . == null then null else (tostring | split(",") | map(tonumber)) end;
def b9band(g): [b9runs("none"; 0; g), b9runs("pmcdrv"; 2; g), b9runs("perf"; 2; g), b9runs("pmcdrv"; 7; g), b9runs("perf"; 7; g)] |
  if any(.[]; . == null or length < 2) then null else
    (map(length) | add) as $N | length as $k | (.[0] | length) as $n |
    (map((add / length) as $m | map((. - $m) * (. - $m)) | add) | add / ($N - $k) | sqrt) as $sd |
    2 * 1.4142 * 1.2533 * $sd / ($n | sqrt) end;
def b10(t; k): one(.bench == "B10" and .case == k and .tool == t);
def b10sw(t; n): b10(t; "tasks-\(n)") | if . == null then null else .value / 2 end;
def b10close(n): b10("pmcdrv"; "close-\(n)");
# the close'"'"'s on-CPU ns per task from 10 to 10,000 tasks, and 64 of them: one lock hold
def b10slope: (b10close(10) | .value? // null) as $a | (b10close(10000) | .value? // null) as $b |
	if $a == null or $b == null then null else ($b - $a) / 9990 end;
def b11(t; n): one(.bench == "B11" and .case == "read" and .tool == t and .events == n);
def b11v(t; n): b11(t; n) | .value? // null;
def b11cheap(n): [b11v("perf-single"; n), b11v("perf-group"; n)] | map(select(. != null)) | min;
def b11g(t; n; fn): one(.bench == "B11" and .case == "graph" and .tool == t and .events == n
	and .fn == fn) | .value? // null;
def b12(t; m; x): one(.bench == "B12" and .tool == t and .mode == m and .metric == x);
def b12above(t; m): (b12(t; m; "ns_per_round") | .value? // null) as $v |
	(b12("none"; m; "ns_per_round") | .value? // null) as $b |
	if $v == null or $b == null then null else $v - $b end;
# B14: tool t (pmcdrv-ioctl, none, untracked) while k sessions exist in all
def b14(t; k; x): one(.bench == "B14" and .tool == t and .mode == k and .metric == x);
def b14sw(t; k): b14(t; k; "ns_per_round") | if . == null then null else .value / 2 end;
# a against b in %, signed, two decimals
def pct(a; b): if a == null or b == null or b <= 0 then "n/a" else
	((a / b - 1) * 100) as $x | (if $x < 0 then "-" else "+" end) + ((if $x < 0 then - $x else $x end) | f2) + "%" end;
# the command of tool t around c (B4, B13)
def cmd(t; c): {"none": "`\(c)`", "pmcdrv": "`pmcctl run -e instructions:u \(c)`",
	"perf": "`perf stat -e instructions:u \(c)`",
	"likwid": "`likwid-perfctr -M 0 -C \(.params.cpu) -g INSTR_RETIRED_ANY:FIXC0 \(c)`"}[t];
# B4, B13: one row per tool of the command around c, wall and busy ns per run and above c alone
def runs(b; k; c): ns(b; k; "none"; null; null; "ns_per_start") as $t |
	ns(b; k; "none"; null; null; "busy_ns_per_start") as $bt |
	["none", "pmcdrv", "perf", "likwid"][] as $tool |
	ns(b; k; $tool; null; null; "ns_per_start") as $w | ns(b; k; $tool; null; null; "busy_ns_per_start") as $u |
	select($tool != "likwid" or $w != null) |
	def above(v; z): if $tool == "none" or v == null or z == null then "" else (v - z | sign0) end;
	"| \(cmd($tool; c)) | \($w | n0) | \(above($w; $t)) | \($u | n0) | \(above($u; $bt)) |";
def b7above(t; n): (b7(t; n; "ns_per_round") | .value? // null) as $v | b7base as $b |
	if $v == null or $b == null then null else $v - $b end;
# ---- B16: a build (begin) ----
def b16(t; n): one(.bench == "B16" and .case == "build" and .tool == t and .events == n);
def b16st(t; n): one(.bench == "B16" and .case == "start-up" and .tool == t and .events == n) | .value? // null;
# above the untracked build: field k (value: busy ns, wall_ns), less the start-up around true when st
def b16above(t; n; k; st): (b16(t; n) | .[k]? // null) as $v | (b16("none"; 0) | .[k]? // null) as $b |
	(if st then (if b16st(t; n) == null or b16st("none"; 0) == null then null else b16st(t; n) - b16st("none"; 0) end) else 0 end) as $s |
	if $v == null or $b == null or $s == null then null else $v - $b - $s end;
# (max - min) of the untracked runs of field k'"'"'s runs list (runs, wall_runs)
def b16spread(k): b16("none"; 0) | .[k]? // null | if . == null then null else (tostring | split(",") | map(tonumber) | max - min) end;
def ms1: if . == null then "n/a" else (. / 1e6 | n1) end;
def sms1: if . == null then "n/a" elif . >= 0 then "+" + (. / 1e6 | n1) else (. / 1e6 | n1) end;
def b16ratio(a; b): if a == null or b == null or b <= 0 then "n/a" elif a <= 0 then "pmcdrv <= 0" else (a / b | f2) + " x" end;
# ---- B16 (end) ----
'

tables() {
	jq -r "$defs"'
	. as $d | base as $base |
	"Guest ns under QEMU -icount shift=0: one guest ns is one retired guest instruction, so every",
	"time below is an instruction-count proxy, not a hardware time. MSR latencies are not modelled",
	"(an MSR access costs one instruction here, hundreds of cycles on hardware): MSR accesses are",
	"counted exactly with the msr:read_msr, msr:write_msr and msr:rdpmc tracepoints, in a pass",
	"separate from the timings. Ping-pong: parent and child pinned to CPU \(.params.cpu), \(.params.rounds)",
	"round trips per timed run (median of \(.params.reps)), \(.params.trace_rounds) per traced run; 2 switches per round trip.",
	"",
	"B1: untracked ping-pong",
	"",
	"| case | ns per round trip | vs no module | PMU MSR accesses per switch |",
	"|---|---:|---:|---:|",
	(["no-module", "module-idle", "unrelated-session"][] as $c |
		ns("B1"; $c; "none"; null; null; "ns_per_round") as $v |
		ns("B1"; "no-module"; "none"; null; null; "ns_per_round") as $nm |
		"| \({"no-module": "no module loaded", "module-idle": "pmcdrv loaded, idle",
		      "unrelated-session": "pmcdrv session on an unrelated task (sleep)"}[$c]) | \($v | n0) | \(ratio($v; $nm)) | \(ns("B1"; $c; "none"; null; null; "msr_per_switch") | n1) |"),
	"",
	"B2: tracked ping-pong; \"above\" is above the untracked run with the module loaded (\($base | n0) ns);",
	"MSR accesses per switch: the mean of both directions (parent->child / child->parent)",
	"",
	"| events | mode | pmcdrv ns/round trip | above | perf ns/round trip | above | pmcdrv/perf above | pmcdrv MSR/switch | perf MSR/switch |",
	"|---:|---|---:|---:|---:|---:|---:|---:|---:|",
	([1, 2, 4, 7][] as $n | ["inherit", "no-inherit"][] as $m |
		(b2("pmcdrv"; $n; $m; "ns_per_round") | .value? // null) as $a |
		(b2("perf"; $n; $m; "ns_per_round") | .value? // null) as $b |
		(if $a == null then null else $a - $base end) as $ax |
		(if $b == null then null else $b - $base end) as $bx |
		"| \($n) | \($m) | \($a | n0) | \($ax | sign0) | \($b | n0) | \($bx | sign0) | \(ratio($ax; $bx)) | \(msr("pmcdrv"; $n; $m)) | \(msr("perf"; $n; $m)) |"),
	"",
	"MSR accesses per switch by kind (rdmsr / wrmsr / rdpmc), the most frequent window of each direction averaged",
	"",
	"| events | mode | pmcdrv rdmsr | wrmsr | rdpmc | perf rdmsr | wrmsr | rdpmc |",
	"|---:|---|---:|---:|---:|---:|---:|---:|",
	([1, 2, 4, 7][] as $n | ["inherit", "no-inherit"][] as $m |
		b2("pmcdrv"; $n; $m; "msr_per_switch") as $a | b2("perf"; $n; $m; "msr_per_switch") as $b |
		"| \($n) | \($m) | \($a.reads | n1) | \($a.writes | n1) | \($a.rdpmc | n1) | \($b.reads | n1) | \($b.writes | n1) | \($b.rdpmc | n1) |"),
	"",
	"B3: one self-read of the counting thread (events: instructions:u,cycles:u and all 7 counters)",
	"",
	"| tool | events | ns per read |",
	"|---|---:|---:|",
	(r(.bench == "B3")[] | "| \({"pmcdrv": "pmcdrv ioctl READ (libpmc)", "perf": "perf read() of a group fd",
		"pmcdrv-rdpmc": "pmcdrv rdpmc fast path", "perf-rdpmc": "perf mmap page + rdpmc"}[.tool] // .tool) | \(.events) | \(if .value == null then "not yet (" + (.note | gsub("_"; " ")) + ")" else (.value | n0) end) |"),
	"",
	"B4: start-up, guest ns per run of the whole command from bash (mean of \(.params.starts)): wall time (includes idle",
	"time, which runs at the host'"'"'s real-time pace under -icount sleep=on) and busy time (the run time of all non-idle",
	"tasks on all CPUs, /proc/schedstat: an instruction-count proxy)",
	"",
	"| command | wall ns per run | above `true` alone | busy ns per run | above `true` alone |",
	"|---|---:|---:|---:|---:|",
	runs("B4"; "start-up"; "true"),
	(ns("B4"; "start-up"; "likwid"; null; null; "ns_per_start") | select(. != null) |
	 "", "likwid-perfctr'"'"'s wall time is nearly all idle: at every start LIKWID'"'"'s timer calibrates the TSC against two",
	 "500 ms nanosleeps (getCpuSpeed() in its timer.c), 1 s of real time that the busy column does not count."),
	"",
	"B5: accuracy, instructions:u of build/progs/loop 001000000 (exactly 2N + 103)",
	"",
	"| tool | instructions:u | expected | exact |",
	"|---|---:|---:|---|",
	(r(.bench == "B5")[] | "| \(.tool) | \(.value | n0) | \(.expected | n0) | \(if .exact then "yes" else "NO" end) |"),
	(one(.bench == "B5" and .tool == "likwid") | select(. != null) |
	 "", "likwid-perfctr -C \($d.params.cpu) counts the CPU from its start of the counters to their stop: the loop, pinned there,",
	 "and every other user-mode instruction on that CPU in that window (its own Lua code around the command, any",
	 "other task). Around loop 000000000 (103 instructions) it counts \(.loop0 | n0): \(if .loop0 == null or .value == null then "n/a"
		else "\(.loop0 - 103 | n0) of them not the loop'"'"'s, and \(.value - .expected | n0) above the exact count with N = 1,000,000" end)."),
	"",
	"B6: one empty region begin/end pair (libpmc) against one perf PERF_EVENT_IOC_ENABLE + DISABLE pair and one",
	"LIKWID_MARKER_START + STOP pair of LIKWID'"'"'s marker API, guest ns (user and kernel instructions), the least of 20 batches",
	"",
	"| tool | what | ns per pair |",
	"|---|---|---:|",
	(r(.bench == "B6" and .metric == "ns_per_pair")[] | "| \(.tool) | \(if .tool == "perf" then "ioctl enable + disable of an instructions:u event"
		elif .tool == "likwid" then "LIKWID_MARKER_START + STOP under likwid-perfctr -M 0 -m -C \($d.params.cpu) -g INSTR_RETIRED_ANY:FIXC0\(
			($d | one(.bench == "B6" and .tool == "likwid" and .metric == "msr_per_pair")) |
			if . == null then "" else " (\(.reads) rdmsr + \(.writes) wrmsr per pair through the msr driver)" end)"
		else "pmc_region_begin + pmc_region_end (path: \(.path))" end) | \(.value | n1) |"),
	"",
	"B13: the whole command around build/progs/loop 001000000 (2,000,103 user instructions), guest ns per run from",
	"bash (mean of \(.params.starts)), wall and busy time as B4; LIKWID\(if $d.likwid_version == null then ": not run" else " \($d.likwid_version)" end)",
	"",
	"| command | wall ns per run | above the loop alone | busy ns per run | above the loop alone |",
	"|---|---:|---:|---:|---:|",
	runs("B13"; "loop"; "build/progs/loop 001000000"),
	"",
	"B7: switches into an address space that may execute RDPMC (build/bench/pingpong-rdpmc): both ping-pong",
	"processes count the events on themselves and map their self-read page (pmcdrv) or one perf mmap page per",
	"event (perf), so both have perf_rdpmc_allowed set. pmcdrv: one session per process, every switch from one",
	"session to the other (pmcdrv zeroes the counters the other session used); pmcdrv-shared: one inherited",
	"session, every switch within it; perf: one perf group per process (perf zeroes its dirty counters as it",
	"switches address space). \"above\" is above the same program counting nothing (\(b7base | n0) ns); reads",
	"are outside the timed round trips. MSR accesses per switch: the mean of both directions (parent->child / child->parent)",
	"",
	"| events | case | ns/round trip | above | above vs perf | MSR/switch | rdmsr | wrmsr | rdpmc | parent instructions:u per round trip (its RDPMC reads) |",
	"|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
	([1, 2, 7][] as $n | b7above("perf"; $n) as $px | ["pmcdrv", "pmcdrv-shared", "perf"][] as $t |
		b7($t; $n; "ns_per_round") as $o | b7($t; $n; "msr_per_switch") as $m | b7above($t; $n) as $ax |
		"| \($n) | \({"pmcdrv": "pmcdrv, a session per process", "pmcdrv-shared": "pmcdrv, one inherited session",
			"perf": "perf, a group per process"}[$t]) | \($o.value? // null | n0) | \($ax | sign0) | \(ratio($ax; $px)) | \(if $m == null then "n/a" else "\($m.value | n1) (\($m.p2c) / \($m.c2p))" end) | \($m.reads? // null | n1) | \($m.writes? // null | n1) | \($m.rdpmc? // null | n1) | \($o.self_per_round? // null | n1) |"),
	"",
	"B8: the top-down pair, fixed counter 3 (slots) and PERF_METRICS, as perf stat --topdown'"'"'s level-1 group",
	"({slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}:u), the B2 ping-pong on a second",
	"guest with the emulated Sapphire Rapids (--pmu-model spr); \"above\" is above that guest'"'"'s untracked run",
	"(\(b8base | n0) ns). Untracked, its switches cost \(ns("B8"; "untracked"; "none"; null; null; "msr_per_switch") | n1) PMU MSR accesses.",
	"",
	"| mode | pmcdrv ns/round trip | above | perf ns/round trip | above | pmcdrv/perf above | pmcdrv MSR/switch | perf MSR/switch | pmcdrv rdmsr / wrmsr / rdpmc | perf rdmsr / wrmsr / rdpmc |",
	"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
	(["inherit", "no-inherit"][] as $m |
		(b8("pmcdrv"; $m; "ns_per_round") | .value? // null) as $a |
		(b8("perf"; $m; "ns_per_round") | .value? // null) as $b |
		(if $a == null or b8base == null then null else $a - b8base end) as $ax |
		(if $b == null or b8base == null then null else $b - b8base end) as $bx |
		b8("pmcdrv"; $m; "msr_per_switch") as $pa | b8("perf"; $m; "msr_per_switch") as $pb |
		def kinds(o): if o == null then "n/a" else "\(o.reads | n1) / \(o.writes | n1) / \(o.rdpmc | n1)" end;
		"| \($m) | \($a | n0) | \($ax | sign0) | \($b | n0) | \($bx | sign0) | \(ratio($ax; $bx)) | \(msr8("pmcdrv"; $m)) | \(msr8("perf"; $m)) | \(kinds($pa)) | \(kinds($pb)) |"),
	"",
	"B9: perf bench sched messaging (hackbench: groups of 20 senders and 20 receivers, processes, over socketpairs),",
	"\(one(.bench == "B9" and .tool == "none" and .groups == 1).loops? // "n/a") loops at 1 group, the same number of messages at every size; untracked, under",
	"`pmcctl run -e` and under `perf stat -e` (inherited by every task), median of \([b9("none"; 0; 1), b9("none"; 0; 4), b9("none"; 0; 16)] | map(.busy_runs? // "" | tostring | split(",") | length | tostring) | join(", ")) runs at 1, 4, 16 groups, the cases taking turns run by run after an uncounted untracked run. \"message phase\": perf bench'"'"'s",
	"own Total time (the tasks exist already, their reaping is in it; ms resolution); \"busy\": the run time of every",
	"non-idle task on every CPU over the whole command, less the tool'"'"'s own start-up and tear-down around `true`",
	"(\"start-up\" below). Overheads are above the untracked run of the same size. \"spread\": (max - min) / median of the",
	"untracked run'"'"'s busy times: the run-to-run noise, against which to read the overheads.",
	"",
	"| groups | tasks | events | untracked message phase ms | pmcdrv above | perf above | untracked busy ms | spread | pmcdrv busy above | perf busy above | pmcdrv/perf busy above |",
	"|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
	([1, 4, 16][] as $g | [2, 7][] as $n |
		def ms: if . == null then null else . / 1e6 end;
		def ms1: if . == null then "n/a" else (. / 1e6 | n1) end;
		def sms1: if . == null then "n/a" elif . >= 0 then "+" + (. / 1e6 | n1) else (. / 1e6 | n1) end;
		b9abusy("pmcdrv"; $n; $g) as $a | b9abusy("perf"; $n; $g) as $b |
		b9busy("none"; 0; $g) as $ub | (b9("none"; 0; $g) | .busy_runs? // null) as $br |
		"| \($g) | \(40 * $g) | \($n) | \(b9msg("none"; 0; $g) | ms1) | \(b9amsg("pmcdrv"; $n; $g) | sms1) | \(b9amsg("perf"; $n; $g) | sms1) | \(b9busy("none"; 0; $g) | ms1) | \(if $br == null or $ub == null then "n/a" else ($br | tostring | split(",") | map(tonumber)) as $x | "\(100 * (($x | max) - ($x | min)) / $ub | n1)%" end) | \($a | sms1) | \($b | sms1) | \(if $a == null or $b == null or $b <= 0 then "n/a" elif $a <= 0 then "pmcdrv <= 0" else ($a / $b | f2) end) |"),
	"",
	"B9 start-up: busy ms of the tool around `true` (median of 5), taken out of the busy overheads above",
	"",
	"| command | busy ms |",
	"|---|---:|",
	([["none", 0], ["pmcdrv", 2], ["perf", 2], ["pmcdrv", 7], ["perf", 7]][] as [$t, $n] |
		"| \(if $t == "none" then "`true`" elif $t == "pmcdrv" then "`pmcctl run -e` \($n) events `-- true`" else "`perf stat -e` \($n) events `-- true`" end) | \(b9st($t; $n) | if . == null then "n/a" else (. / 1e6 | n1) end) |"),
	"",
	"B10: many tasks in one session: the ping-pong pair of B2 plus sleeping threads of the same process, untracked and",
	"under one `pmcctl run -e instructions:u,cycles:u` (every task tracked), median of \(.params.reps) runs of \(.params.rounds) round trips; then",
	"the close() of a session tracking all of them (the program'"'"'s own libpmc session, closed while every task lives):",
	"the closing thread'"'"'s on-CPU time (CLOCK_THREAD_CPUTIME_ID) and wall time, median of \(.params.reps)",
	"",
	"| tracked tasks | untracked ns per switch | pmcdrv ns per switch | above untracked | vs 10 tasks | close on-CPU ns | close wall ns |",
	"|---:|---:|---:|---:|---:|---:|---:|",
	([10, 1000, 10000][] as $t | b10sw("pmcdrv"; $t) as $p | b10sw("none"; $t) as $u | b10sw("pmcdrv"; 10) as $p10 |
		"| \($t | n0) | \($u | n0) | \($p | n0) | \(if $p == null or $u == null then "n/a" else ($p - $u | sign0) end) | \(ratio($p; $p10)) | \(b10close($t).value? // null | n0) | \(b10close($t).wall_ns? // null | n0) |"),
	"",
	"The longest IRQs-off interval of the close: this guest kernel has \(if .guest_irqsoff then "the irqsoff tracer" else "no irqsoff tracer (available: \(.guest_tracers // "n/a" | gsub(","; ", ")))" end),",
	"so it is bounded from the measured close instead: the close untracks at most 64 tasks per hold of pmcd_hash_lock",
	"(a raw spinlock, IRQs off; PMCD_CLOSE_BATCH in kmod/session.c), and everything else of the close per task",
	"(freeing the contexts, outside the lock) is in the same on-CPU time. From 10 to 10,000 tasks the close took",
	"\(b10slope | if . == null then "n/a" else n1 end) guest ns more per task, so one hold is at most 64 x that: \(b10slope | if . == null then "n/a" else (64 * . | n0) end) guest ns, plus the lock itself.",
	"",
	"B12: cgroup sessions, the B2 ping-pong with its parent in cgroup bgA and its child in bgB (two: every switch changes",
	"cgroup) or both in bgC, a cgroup not counted (out), under pmcctl stat -C 0 -G bgA,bgB (one cgroup session) and perf",
	"stat -C 0 --for-each-cgroup bgA,bgB (perf'"'"'s cgroup events), instructions:u and cycles:u; \"above\" is above the",
	"untracked pair in the same cgroups. MSR accesses per switch: the mean of both directions (parent->child / child->parent)",
	"",
	"| cgroups | tool | ns/round trip | above | above vs perf | MSR/switch | rdmsr | wrmsr | rdpmc |",
	"|---|---|---:|---:|---:|---:|---:|---:|---:|",
	(["two", "out"][] as $m | b12above("perf"; $m) as $px | ["none", "pmcdrv", "perf"][] as $t |
		b12($t; $m; "ns_per_round") as $o | b12($t; $m; "msr_per_switch") as $q | b12above($t; $m) as $ax |
		"| \({"two": "bgA <-> bgB, both counted", "out": "bgC <-> bgC, not counted"}[$m]) | \({"none": "untracked", "pmcdrv": "pmcctl stat -G", "perf": "perf stat --for-each-cgroup"}[$t]) | \($o.value? // null | n0) | \(if $t == "none" then "" else ($ax | sign0) end) | \(if $t == "none" then "" else ratio($ax; $px) end) | \(if $q == null then "n/a" else "\($q.value | n1) (\($q.p2c) / \($q.c2p))" end) | \($q.reads? // null | n1) | \($q.writes? // null | n1) | \($q.rdpmc? // null | n1) |"),
	# ---- B16: a build (begin) ----
	"",
	"B16: a build, `make -j2` of build/bench/proj (\(.build_toolchain.files? // "n/a") C files compiled by tcc \(.build_toolchain.value? // "n/a") (Debian \(.build_toolchain.tcc? // "n/a")), linked",
	"-nostdlib, GNU make \(.build_toolchain.make? // "n/a")), `make clean` before each run (not timed); untracked, under `pmcctl run -e` and `perf stat -e`",
	"(inherited by every make, tcc and rm), median of \(b16("none"; 0).runs? // "" | tostring | split(",") | length) runs. \"busy\": the run time of every non-idle task on every",
	"CPU over the whole command (as B4 and B9); \"less start-up\": less the tool'"'"'s own command around `true` (median of 5);",
	"\"wall\": guest wall time, idle included (under -icount sleep=on idle time follows the host'"'"'s clock). \"spread\":",
	"(max - min) of the untracked runs, the run-to-run noise to read the overheads against.",
	"",
	"| events | untracked busy ms | spread | pmcdrv busy above | perf busy above | pmcdrv/perf | pmcdrv less start-up | perf less start-up | pmcdrv/perf | untracked wall ms | spread | pmcdrv wall above | perf wall above |",
	"|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
	([2, 7][] as $n | b16above("pmcdrv"; $n; "value"; false) as $a | b16above("perf"; $n; "value"; false) as $b |
		b16above("pmcdrv"; $n; "value"; true) as $ps | b16above("perf"; $n; "value"; true) as $qs |
		"| \($n) | \(b16("none"; 0).value? // null | ms1) | \(b16spread("runs") | ms1) | \($a | sms1) | \($b | sms1) | \(b16ratio($a; $b)) | \($ps | sms1) | \($qs | sms1) | \(b16ratio($ps; $qs)) | \(b16("none"; 0).wall_ns? // null | ms1) | \(b16spread("wall_runs") | ms1) | \(b16above("pmcdrv"; $n; "wall_ns"; false) | sms1) | \(b16above("perf"; $n; "wall_ns"; false) | sms1) |"),
	# ---- B16 (end) ----
	"",
	"B11: one read of every event of a thread counting N events on itself: pmcdrv'"'"'s READ ioctl (libpmc), perf'"'"'s read()",
	"of each event'"'"'s own fd (N reads, read_format 0), perf'"'"'s one read() of a PERF_FORMAT_GROUP group; guest ns, the least",
	"of 5 batches. 8 and 16 events multiplex (more than the 7 counters); perf refuses a group larger than the counters.",
	"",
	"| events | pmcdrv READ | perf read() per fd, summed | perf group read() | perf'"'"'s cheapest | pmcdrv / cheapest |",
	"|---:|---:|---:|---:|---:|---:|",
	([1, 2, 4, 8, 16][] as $n | b11v("pmcdrv"; $n) as $a | b11cheap($n) as $c |
		"| \($n) | \($a | n0) | \(b11v("perf-single"; $n) | n0) | \(if (b11("perf-group"; $n).refused? // null) != null then "refused (EINVAL)" else (b11v("perf-group"; $n) | n0) end) | \($c | n0) | \(ratio($a; $c)) |"),
	"",
	"B11, where a read goes: the function_graph tracer hooked on one function at a time (no other function pays for",
	"the tracer), the median duration of that function'"'"'s calls over \(one(.bench == "B11" and .case == "graph").reads? // "n/a") reads of one tool, guest ns. The",
	"tracer'"'"'s own entry and exit are in each figure: mutex_unlock, a few instructions, shows how much.",
	"",
	"| events | pmcdrv: ioctl syscall | pmcd_ioctl | pmcd_session_read | pmcd_session_fold | __check_object_size | mutex_lock | mutex_unlock |",
	"|---:|---:|---:|---:|---:|---:|---:|---:|",
	([1, 2, 4, 8, 16][] as $n |
		"| \($n) | \(["__x64_sys_ioctl", "pmcd_ioctl", "pmcd_session_read", "pmcd_session_fold", "__check_object_size", "mutex_lock", "mutex_unlock"]
			| map(. as $f | $d | b11g("pmcdrv"; $n; $f) | n0) | join(" | ")) |"),
	"",
	"| events | perf, one fd: read syscall | perf_read | perf_event_read | perf, group: read syscall | perf_read | perf_event_read |",
	"|---:|---:|---:|---:|---:|---:|---:|",
	([1, 2, 4, 8, 16][] as $n |
		"| \($n) | \([["perf-single", "__x64_sys_read"], ["perf-single", "perf_read"], ["perf-single", "perf_event_read"],
			["perf-group", "__x64_sys_read"], ["perf-group", "perf_read"], ["perf-group", "perf_event_read"]]
			| map(. as [$t, $f] | $d | b11g($t; $n; $f) | n0) | join(" | ")) |"),
	"",
	"Where READ costs more than perf'"'"'s cheapest read, from the two tables above (each traced figure less mutex_unlock'"'"'s,",
	"the tracer'"'"'s share; \"outside\": the syscall less its handler; \"user\": the untraced read less the traced syscall):",
	"",
	"| events | READ - cheapest | pmcdrv handler, net | of it pmcd_session_read | of that pmcd_session_fold | outside handler | user | perf handler, net | of it perf_event_read | outside handler | user |",
	"|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
	([1, 2, 4, 8, 16][] as $n | b11v("pmcdrv"; $n) as $a | b11cheap($n) as $c |
		select($a != null and $c != null and $a > $c) |
		(if b11v("perf-single"; $n) == $c then "perf-single" else "perf-group" end) as $pt |
		(if $pt == "perf-single" then $n else 1 end) as $k |
		b11g("pmcdrv"; $n; "mutex_unlock") as $z |
		def net(v): if v == null or $z == null then null else v - $z end;
		def sub(a; b): if a == null or b == null then null else a - b end;
		b11g("pmcdrv"; $n; "__x64_sys_ioctl") as $sy | b11g("pmcdrv"; $n; "pmcd_ioctl") as $h |
		b11g($pt; $n; "__x64_sys_read") as $psy | b11g($pt; $n; "perf_read") as $ph |
		"| \($n) | \($a - $c | sign0) | \(net($h) | n0) | \(net(b11g("pmcdrv"; $n; "pmcd_session_read")) | n0) | \(net(b11g("pmcdrv"; $n; "pmcd_session_fold")) | n0) | \(sub($sy; $h) | n0) | \(sub($a; net($sy)) | n0) | \(net($ph) | if . == null then "n/a" else (. * $k | n0) end) | \(net(b11g($pt; $n; "perf_event_read")) | if . == null then "n/a" else (. * $k | n0) end) | \(sub($psy; $ph) | if . == null then "n/a" else (. * $k | n0) end) | \(if net($psy) == null then "n/a" else ($c - $k * net($psy) | n0) end) |"),
	"",
	"B14: many sessions. build/bench/sessions K CMD runs CMD while K sessions exist, each counting instructions:u on its own",
	"idle task (a child blocked in read()). Session to session: B7'"'"'s pmcdrv-ioctl ping-pong, each task of the pair in its",
	"own session counting instructions:u (the counters handed over), K counting the pair'"'"'s two; above the same program",
	"counting nothing with no session. Untracked: B1'"'"'s ping-pong, above itself with no session. Median of \(.params.reps) runs",
	"of \(one(.bench == "B14").rounds? // "n/a") round trips, guest ns per switch (half a round trip); MSR accesses per switch (rdmsr, wrmsr,",
	"rdpmc: the mean of both directions) traced at 2 and 1,000 sessions",
	"",
	"| ping-pong | sessions | ns per switch | above untracked | vs 2 sessions / no session | PMU MSR accesses per switch |",
	"|---|---:|---:|---:|---:|---|",
	(def kinds14(o): if o == null then "" else "\(o.reads) rdmsr, \(o.writes) wrmsr, \(o.rdpmc) rdpmc" end;
	 ([["none", 0], ["pmcdrv-ioctl", 2], ["pmcdrv-ioctl", 10], ["pmcdrv-ioctl", 100], ["pmcdrv-ioctl", 1000],
	   ["untracked", 0], ["untracked", 1], ["untracked", 1000]][] as [$t, $k] |
	  b14sw($t; $k) as $v |
	  (if $t == "untracked" then b14sw("untracked"; 0) else b14sw("none"; 0) end) as $u |
	  (if $t == "untracked" then b14sw("untracked"; 0) elif $t == "none" then null else b14sw($t; 2) end) as $ref |
	  select($v != null) |
	  "| \({"none": "pingpong-rdpmc, counting nothing", "pmcdrv-ioctl": "pingpong-rdpmc pmcdrv-ioctl, session to session",
	       "untracked": "pingpong, untracked"}[$t]) | \($k | n0) | \($v | n0) | \(if $t == "none" or ($t == "untracked" and $k == 0) then "" else ($v - $u | sign0) end) | \(if $ref == null or $k == 0 or ($t == "pmcdrv-ioctl" and $k == 2) then "" else pct($v; $ref) end) | \(kinds14(b14($t; $k; "msr_per_switch"))) |")),
	"",
	"Against the targets of the switch path (docs/design.md), from the figures above",
	"",
	"| target | measured | met |",
	"|---|---|---|",
	(def met(c): if c == null then "n/a" elif c then "yes" else "no" end;
	 ns("B1"; "no-module"; "none"; null; null; "ns_per_round") as $nm |
	 ns("B1"; "module-idle"; "none"; null; null; "ns_per_round") as $idle |
	 "| B1: idle module <= 1.01 x no module | \(ratio($idle; $nm)) x | \(met(if $idle == null or $nm == null then null else $idle <= 1.01 * $nm end)) |",
	 ([1, 2, 4, 7][] as $n | b2("pmcdrv"; $n; "inherit"; "msr_per_switch") as $o |
	  "| B2: \($n) events, switch between two tasks of one session: 0 MSR accesses (perf: \(b2("perf"; $n; "inherit"; "msr_per_switch").value? // "n/a")) | \($o.value? // "n/a") | \(met(if $o == null then null else $o.value == 0 end)) |"),
	 ([1, 2, 4, 7][] as $n | b2("pmcdrv"; $n; "no-inherit"; "msr_per_switch") as $o |
	  "| B2: \($n) events, tracked <-> untracked: <= \($n + 2) per switch (active counters + 2) | \(if $o == null then "n/a" else "\($o.p2c) out, \($o.c2p) in" end) | \(met(if $o == null then null else ($o.p2c <= $n + 2 and $o.c2p <= $n + 2) end)) |"),
	 ([1, 2, 4, 7][] as $n | ["inherit", "no-inherit"][] as $m |
	  (b2("pmcdrv"; $n; $m; "ns_per_round") | .value? // null) as $a | (b2("perf"; $n; $m; "ns_per_round") | .value? // null) as $b |
	  (if $a == null then null else $a - base end) as $ax | (if $b == null then null else $b - base end) as $bx |
	  "| B2: \($n) events, \($m): cost above untracked <= 0.8 x perf'"'"'s | \(ratio($ax; $bx)) x | \(met(if $ax == null or $bx == null then null else $ax <= 0.8 * $bx end)) |"),
	 ([2, 7][] as $n | ns("B3"; "self-read"; "pmcdrv"; $n; null; "ns_per_read") as $a | ns("B3"; "self-read"; "perf"; $n; null; "ns_per_read") as $b |
	  "| B3: \($n) events, READ <= perf read() | \($a | n0) vs \($b | n0) | \(met(if $a == null or $b == null then null else $a <= $b end)) |"),
	 (ns("B3"; "self-read"; "pmcdrv-rdpmc"; 2; null; "ns_per_read") as $a | ns("B3"; "self-read"; "perf"; 2; null; "ns_per_read") as $b |
	  "| B3: 2 events, one rdpmc self-read <= 1/25 of one perf read() | \($a | n0) vs \($b | n0) (1/\(if $a == null or $b == null or $a == 0 then "n/a" else ($b / $a | n1) end)) | \(met(if $a == null or $b == null then null else 25 * $a <= $b end)) |"),
	 ([2, 7][] as $n | ns("B3"; "self-read"; "pmcdrv-rdpmc"; $n; null; "ns_per_read") as $a | ns("B3"; "self-read"; "perf-rdpmc"; $n; null; "ns_per_read") as $b |
	  "| B3: \($n) events, rdpmc self-read <= perf'"'"'s mmap page + rdpmc | \($a | n0) vs \($b | n0) | \(met(if $a == null or $b == null then null else $a <= $b end)) |"),
	 (ns("B4"; "start-up"; "pmcdrv"; null; null; "busy_ns_per_start") as $a | ns("B4"; "start-up"; "perf"; null; null; "busy_ns_per_start") as $b |
	  "| B4: pmcctl run <= perf stat (busy time) | \($a | n0) vs \($b | n0) | \(met(if $a == null or $b == null then null else $a <= $b end)) |"),
	 (ns("B6"; "region-pair"; "pmcdrv"; null; null; "ns_per_pair") as $a | ns("B6"; "region-pair"; "perf"; null; null; "ns_per_pair") as $b |
	  "| B6: one region begin/end pair <= perf'"'"'s ioctl enable/disable pair | \($a | n0) vs \($b | n0) | \(met(if $a == null or $b == null then null else $a <= $b end)) |"),
	 (ns("B6"; "region-pair"; "pmcdrv"; null; null; "ns_per_pair") as $a | ns("B6"; "region-pair"; "likwid"; null; null; "ns_per_pair") as $b |
	  "| B6: one region begin/end pair <= LIKWID'"'"'s marker pair (LIKWID_MARKER_START + STOP) | \($a | n0) vs \($b | n0) | \(met(if $a == null or $b == null then null else $a <= $b end)) |"),
	 def kinds(o): if o == null then "n/a" else "\(o.reads) rdmsr, \(o.writes) wrmsr, \(o.rdpmc) rdpmc" end;
	 # both directions r + w + p, and by kind (means of both) r, w, p
	 def dirs_are(o; r; w; p): if o == null then null else
		(o.reads == r and o.writes == w and o.rdpmc == p and o.p2c == r + w + p and o.c2p == r + w + p) end;
	 ([1, 2, 7][] as $n | b7("pmcdrv-shared"; $n; "msr_per_switch") as $o |
	  "| B7: \($n) events, between two tasks of one session, both with a self-read page: no rdmsr or wrmsr, \(2 * $n) rdpmc (each side'"'"'s share) | \(kinds($o)) | \(met(dirs_are($o; 0; 0; 2 * $n))) |"),
	 ([1, 2, 7][] as $n | b7("pmcdrv"; $n; "msr_per_switch") as $o |
	  "| B7: \($n) events, session to session into an RDPMC-capable address space: \($n) rdpmc + 1 wrmsr (stop), \($n) wrmsr (scrub: the counters the other session used), 1 wrmsr (start) | \(kinds($o)) | \(met(dirs_are($o; 0; $n + 2; $n))) |"),
	 ([1, 2, 7][] as $n | b7("pmcdrv-ioctl"; $n; "msr_per_switch") as $o |
	  "| B7: \($n) events, session to session, the same user-mode events, no RDPMC: \($n) rdpmc, the counters handed over | \(kinds($o)) | \(met(dirs_are($o; 0; 0; $n))) |"),
	 (b8("pmcdrv"; "inherit"; "msr_per_switch") as $o |
	  "| B8: the top-down pair, switch between two tasks of one session: 0 MSR accesses | \($o.value? // "n/a") | \(met(if $o == null then null else $o.value == 0 end)) |"),
	 (["inherit", "no-inherit"][] as $m |
	  (b8("pmcdrv"; $m; "ns_per_round") | .value? // null) as $a | (b8("perf"; $m; "ns_per_round") | .value? // null) as $b |
	  (if $a == null or b8base == null then null else $a - b8base end) as $ax | (if $b == null or b8base == null then null else $b - b8base end) as $bx |
	  "| B8: the top-down pair, \($m): cost above untracked <= perf'"'"'s | \(ratio($ax; $bx)) x | \(met(if $ax == null or $bx == null then null else $ax <= $bx end)) |"),
	 # The noise band of B9: two standard errors of the difference of two medians
	 # of n runs (1.2533 sigma / sqrt(n) each), sigma pooled over the five cases of
	 # the size (each case about its own mean).  A goal needs the overhead of perf
	 # to stand out of the band: where it does not, no ratio to it can be judged,
	 # and the row says "inside the noise" (or no, when pmcdrv stands out above it).
	 ([1, 4, 16][] as $g | [2, 7][] as $n | b9abusy("pmcdrv"; $n; $g) as $a | b9abusy("perf"; $n; $g) as $b |
	  b9band($g) as $nb | (b9runs("none"; 0; $g) // [] | length) as $k |
	  "| B9: perf bench sched messaging, \($g) group(s) (\(40 * $g) tasks), \($n) events: busy time above untracked <= 0.5 x perf'"'"'s | \(if $a == null or $b == null then "n/a" else "\($a / 1e6 | n1) vs \($b / 1e6 | n1) ms (\(if $b > 0 and $a > 0 then ($a / $b | f2) + " x" elif $b > 0 then "pmcdrv <= 0" else "n/a" end); noise band +-\($nb // null | if . == null then "n/a" else (. / 1e6 | n1) end) ms, \($k) runs a case)" end) | \(if $a == null or $b == null or $nb == null then "n/a" elif $b < $nb then (if $a < $nb then "inside the noise" else "no" end) elif $a <= 0.5 * $b then "yes" else "no" end) |"),
	 (b10sw("pmcdrv"; 10) as $a | b10sw("pmcdrv"; 10000) as $b |
	  "| B10: ns per switch with 10,000 tracked tasks within 5% of 10 | \($b | n0) vs \($a | n0) (\(ratio($b; $a)) x) | \(met(if $a == null or $b == null then null else ($b <= 1.05 * $a and $b >= 0.95 * $a) end)) |"),
	 (b10slope as $k |
	  "| B10: the close at 10,000 tasks, longest IRQs-off interval <= 100 us (bound: 64 x the close'"'"'s on-CPU ns per task) | \(if $k == null then "n/a" else "<= \(64 * $k | n0) ns" end) | \(met(if $k == null then null else 64 * $k <= 100000 end)) |"),
	 ([1, 2, 4, 8, 16][] as $n | b11v("pmcdrv"; $n) as $a | b11cheap($n) as $c |
	  "| B11: \($n) event(s), READ <= perf'"'"'s cheapest read | \($a | n0) vs \($c | n0) | \(met(if $a == null or $c == null then null else $a <= $c end)) |"),
	 (b12("pmcdrv"; "two"; "msr_per_switch") as $o |
	  "| B12: a switch between two counted cgroups: 2 rdpmc (one fold of the 2 events), no rdmsr or wrmsr | \(kinds($o)) | \(met(dirs_are($o; 0; 0; 2))) |"),
	 (b12("pmcdrv"; "out"; "msr_per_switch") as $o |
	  "| B12: a switch within a cgroup not counted: no MSR access | \(kinds($o)) | \(met(dirs_are($o; 0; 0; 0))) |"),
	 (["two", "out"][] as $m | b12above("pmcdrv"; $m) as $a | b12above("perf"; $m) as $b |
	  "| B12: \($m), cost above untracked <= perf'"'"'s | \(ratio($a; $b)) x | \(met(if $a == null or $b == null then null else $a <= $b end)) |"),
	 (b14sw("pmcdrv-ioctl"; 2) as $a | b14sw("pmcdrv-ioctl"; 1000) as $b |
	  "| B14: ns per switch session to session with 1,000 sessions within 5% of 2 sessions | \($b | n0) vs \($a | n0) (\(pct($b; $a))) | \(met(if $a == null or $b == null then null else ($b <= 1.05 * $a and $b >= 0.95 * $a) end)) |"),
	 (b14sw("untracked"; 1) as $a | b14sw("untracked"; 1000) as $b |
	  "| B14: untracked switch with 1,000 sessions <= 1.01 x with one (the probes run at every switch while any session exists: one session against none is \(pct($a; b14sw("untracked"; 0)))) | \($b | n0) vs \($a | n0) (\(pct($b; $a))) | \(met(if $a == null or $b == null then null else $b <= 1.01 * $a end)) |"),
	 (b14("pmcdrv-ioctl"; 1000; "msr_per_switch") as $o |
	  "| B14: 1,000 sessions, session to session, the same user-mode event: 1 rdpmc, no rdmsr or wrmsr (bench/msr-guard.sh'"'"'s sessions-1) | \(kinds($o)) | \(met(dirs_are($o; 0; 0; 1))) |"),
	 # ---- B16: a build (begin) ----
	 ([2, 7][] as $n | b16above("pmcdrv"; $n; "value"; false) as $a | b16above("perf"; $n; "value"; false) as $b |
	  "| B16: a build (make -j2), \($n) events: busy time above untracked <= perf'"'"'s | \(if $a == null or $b == null then "n/a" else "\($a | sms1) vs \($b | sms1) ms (\(b16ratio($a; $b)); the untracked runs spread over \(b16spread("runs") | ms1) ms)" end) | \(met(if $a == null or $b == null then null else $a <= $b end)) |"))
	 # ---- B16 (end) ----
	' "$json"
	b15	# B15: its own guest, its own tables (below)
}

# ---- B15: many CPUs (the 8-vCPU guest) ----------------------------------------------------------
# Start-up and INFO against the online CPUs, READ against the CPUs a session is spread over;
# each figure's least-squares line over 2, 4 and 8 CPUs, and that line at 256 CPUs.
b15() {
	jq -r "$defs"'
	. as $d |
	def b15r(c; t; $k; x): $d | one(.bench == "B15" and .case == c and .tool == t and .cpus == $k and .metric == x) | .value? // null;
	def b15info($k): $d | one(.bench == "B15" and .case == "info" and .online == $k) | .value? // null;
	def fit(pts): [pts | select(.[1] != null)] as $p | ($p | length) as $n |
		if $n < 2 then null else
		($p | map(.[0]) | add / $n) as $mx | ($p | map(.[1]) | add / $n) as $my |
		(($p | map((.[0] - $mx) * (.[1] - $my)) | add) / ($p | map((.[0] - $mx) * (.[0] - $mx)) | add)) as $s |
		{slope: $s, at256: ($my + $s * (256 - $mx))} end;
	# f: the figure at . CPUs
	def line(name; f): fit([2, 4, 8][] as $k | [$k, ($k | f)]) as $l |
		"| \(name) | \($l.slope? // null | n0) | \($l.at256? // null | n0) |";
	select(any(.results[]; .bench == "B15")) |
	"",
	"B15: many CPUs, in an 8-vCPU guest. Start-up: busy guest ns per run of `pmcctl stat -a -e instructions,cycles -- true`",
	"and of `perf stat -a -e instructions,cycles -- true` (wall ns in brackets; the mean of \(.params.starts) runs), with 2, 4 or 8",
	"CPUs online (CPU hotplug); INFO: one PMCDRV_IOC_INFO as root (no cache), the least of 3 batches of 200",
	"",
	"| CPUs online | none: busy (wall) | pmcctl stat -a: busy (wall) | perf stat -a: busy (wall) | INFO |",
	"|---:|---:|---:|---:|---:|",
	([8, 4, 2][] as $k |
		def st(t): "\(b15r("start-up"; t; $k; "busy_ns_per_start") | n0) (\(b15r("start-up"; t; $k; "ns_per_start") | n0))";
		"| \($k) | \(st("none")) | \(st("pmcdrv")) | \(st("perf")) | \(b15info($k) | n0) |"),
	"",
	"B15: one read of a session spread over K CPUs (all 8 online): the reader on CPU 0 counts instructions and cycles with",
	"inheritance, K - 1 threads of it spin on CPUs 1 .. K-1; pmcdrv'"'"'s READ against perf'"'"'s read() of each inherited event",
	"(2 reads, each summing the event'"'"'s children); guest ns, the least of 3 batches of 20",
	"",
	"| CPUs of the session | pmcdrv READ | perf read() x 2 | pmcdrv / perf |",
	"|---:|---:|---:|---:|",
	([1, 2, 4, 8][] as $k | b15r("read"; "pmcdrv"; $k; "ns_per_read") as $a | b15r("read"; "perf"; $k; "ns_per_read") as $b |
		"| \($k) | \($a | n0) | \($b | n0) | \(ratio($a; $b)) |"),
	"",
	"B15, per CPU: the least-squares slope over 2, 4 and 8 CPUs, and an **extrapolation** of that line to 256 CPUs",
	"(not a measurement: it assumes the cost stays linear in the CPUs, and the emulator'"'"'s round-robin wait with it)",
	"",
	"| figure | guest ns per CPU | at 256 CPUs, extrapolated |",
	"|---|---:|---:|",
	line("pmcctl stat -a start-up, busy"; b15r("start-up"; "pmcdrv"; .; "busy_ns_per_start")),
	line("perf stat -a start-up, busy"; b15r("start-up"; "perf"; .; "busy_ns_per_start")),
	line("INFO"; b15info(.)),
	line("pmcdrv READ"; b15r("read"; "pmcdrv"; .; "ns_per_read")),
	line("perf read() x 2"; b15r("read"; "perf"; .; "ns_per_read")),
	"",
	"What grows with the CPUs. READ: pmcd_read_session() folds through pmcd_session_fold() (kmod/sched.c): on the",
	"reader'"'"'s CPU alone with IRQs off when the session is loaded there only, else one on_each_cpu_mask() over s->loaded,",
	"the CPUs where a task of the session runs now (pmcd_ipi_fold() on each, in parallel; the sender walks the mask",
	"and waits for all): one round of IPIs whatever the CPUs, O(CPUs) for the mask walk and the handlers. perf'"'"'s",
	"read() of an inherited event (perf_read(), perf_event_read_value()) reads the event and each child, one",
	"perf_event_read() after the other: one smp_call_function_single() to each CPU where a child runs, per event, so",
	"events x (K - 1) rounds one after the other. INFO: pmcd_ioctl_info() -> pmcd_sessions_hw_usage() -> pmcd_hw_usage()",
	"(kmod/hw.c): one on_each_cpu() over every online CPU (pmcd_read_usage_cpu(), a scan of the PMU MSRs on each) under",
	"pmcd_global_lock; without CAP_PERFMON the result is cached for PMCD_INFO_SCAN_MS (100 ms). pmcctl stat -a opens a",
	"CPU session per CPU: pmcd_cpu_attach() (kmod/cpu_session.c) starts each with one smp_call_function_single().",
	"Under the emulator a vCPU waiting for a spinning one to take an IPI waits out the other vCPUs'"'"' round-robin slices",
	"(up to 100,000 instructions each): the READ figures above 1 CPU are that wait, not the path'"'"'s instructions: about",
	"(K - 1) x 100,000 for pmcdrv'"'"'s one round, 2 x (K - 1)^2 x 100,000 for perf'"'"'s 2 x (K - 1) rounds, which its",
	"straight line does not fit. What extrapolates to 256 CPUs is the number of rounds: 1 for READ, 2 x 255 for perf'"'"'s",
	"two reads. INFO and start-up wake idle (halted) vCPUs, which take the IPI at once: their slopes are instructions."
	' "$json"
}
# ---- end of B15 ---------------------------------------------------------------------------------

b2data() {
	jq -r "$defs"'
	base as $base | [1, 2, 4, 7][] as $n |
	def above(t; m): (b2(t; $n; m; "ns_per_round") | .value? // null) | if . == null then "NaN" else . - $base end;
	def msrv(t; m): (b2(t; $n; m; "msr_per_switch") | .value? // null) | if . == null then "NaN" else . end;
	[$n, above("pmcdrv"; "inherit"), above("perf"; "inherit"), above("pmcdrv"; "no-inherit"), above("perf"; "no-inherit"),
	 msrv("pmcdrv"; "inherit"), msrv("perf"; "inherit"), msrv("pmcdrv"; "no-inherit"), msrv("perf"; "no-inherit")] | @tsv' "$json"
}

b9data() {
	jq -r "$defs"'
	[1, 4, 16][] as $g | b9busy("none"; 0; $g) as $u |
	def above(t; n): b9abusy(t; n; $g) | if . == null then "NaN" else . / 1e6 end;
	def pct(t; n): b9abusy(t; n; $g) | if . == null or $u == null then "NaN" else 100 * . / $u end;
	b9band($g) as $nb |
	[40 * $g, above("pmcdrv"; 2), above("perf"; 2), above("pmcdrv"; 7), above("perf"; 7),
	 pct("pmcdrv"; 2), pct("perf"; 2), pct("pmcdrv"; 7), pct("perf"; 7),
	 (if $nb == null then "NaN" else $nb / 1e6 end), (if $nb == null or $u == null then "NaN" else 100 * $nb / $u end)] | @tsv' "$json"
}

# B10 and B14 (gnuplot's index 0 and 1): ns per switch against the tracked
# tasks of one session, and against the sessions that exist (NaN: not run).
scaledata() {
	jq -r "$defs"'
	def nan: if . == null then "NaN" else . end;
	([10, 1000, 10000][] as $t | [$t, (b10sw("none"; $t) | nan), (b10sw("pmcdrv"; $t) | nan)] | @tsv),
	"", "",
	([1, 2, 10, 100, 1000][] as $k |
	 [$k, (b14sw("pmcdrv-ioctl"; $k) | nan), (b14sw("untracked"; $k) | nan),
	  (b14sw("none"; 0) | nan), (b14sw("untracked"; 0) | nan)] | @tsv)' "$json"
}

# The estimate for real hardware: MSR accesses per switch times assumed
# latencies, low and high.  These are not measurements (see the doc text).
RD_LO=50 RD_HI=100 WR_LO=100 WR_HI=300 PC_LO=20 PC_HI=40
estimate() {
	jq -r --argjson rl $RD_LO --argjson rh $RD_HI --argjson wl $WR_LO --argjson wh $WR_HI \
		--argjson pl $PC_LO --argjson ph $PC_HI "$defs"'
	base as $base |
	"| events | mode | tool | instructions above untracked per switch | MSR accesses per switch | estimated MSR cycles per switch | estimated cycles per switch |",
	"|---:|---|---|---:|---:|---:|---:|",
	def row(n; m; t; o; v; b):
		select(o != null and v != null and b != null) |
		((v - b) / 2) as $ins |
		(o.reads * $rl + o.writes * $wl + o.rdpmc * $pl) as $lo |
		(o.reads * $rh + o.writes * $wh + o.rdpmc * $ph) as $hi |
		($ins - o.value) as $rest |
		"| \(n) | \(m) | \(t) | \($ins | n0) | \(o.value | n1) | \($lo | n0)–\($hi | n0) | \($rest + $lo | n0)–\($rest + $hi | n0) |";
	([2, 7][] as $n | ["inherit", "no-inherit"][] as $m | ["pmcdrv", "perf"][] as $t |
		row($n; $m; $t; b2($t; $n; $m; "msr_per_switch"); (b2($t; $n; $m; "ns_per_round") | .value? // null); $base)),
	# B7: above the same program counting nothing
	([2, 7][] as $n | ["pmcdrv", "pmcdrv-shared", "pmcdrv-ioctl", "perf"][] as $t |
		row($n; "B7 rdpmc"; $t; b7($t; $n; "msr_per_switch"); (b7($t; $n; "ns_per_round") | .value? // null); b7base))
	' "$json"
}

runtime() {
	jq -r "$defs"'
	"| part | host s |",
	"|---|---:|",
	(r(.bench == "runtime")[] | "| \({"boot": "boot of the first guest", "setup": "set-up in the guest",
		"B1-B2-timing": "B1, B2: timing pass", "B1-B2-tracing": "B1, B2: tracing pass",
		"guest": "**the first guest in all**", "B8-guest": "the Sapphire Rapids guest (B8), with its boot",
		"B15-guest": "the 8-vCPU guest (B15), with its boot"}[.case] // .case) | \(.value | n1) |"),
	(([r(.bench == "runtime" and (.case == "B9" or .case == "B10" or .case == "B11"))[] | .value] | add) as $new |
	 (one(.bench == "runtime" and .case == "guest") | .value? // null) as $all |
	 (one(.bench == "runtime" and .case == "B8-guest") | .value? // 0) as $spr |
	 "", "B9, B10 and B11 together: \($new | n1) s of \(if $all == null then "n/a" else ($all + $spr | n1) end) s of both guests.")' "$json"
}

doc() {
	local date guest qemu perfv likwidv buildv
	date=$(jq -r .date "$json")
	buildv=$(jq -r 'if .build_toolchain == null then "not run (Debian'"'"'s tcc was not installed)"
		else "tcc \(.build_toolchain.value) (Debian package \(.build_toolchain.tcc)), GNU make \(.build_toolchain.make)" end' "$json")
	likwidv=$(jq -r 'if .likwid_version == null then "not run (Debian'"'"'s likwid was not installed)"
		else "\(.likwid_version) (Debian package \(.likwid_package)), direct MSR access" end' "$json")
	guest=$(jq -r .guest_kernel "$json")
	qemu=$(jq -r .qemu "$json")
	perfv=$(jq -r .perf_version "$json")
	cat <<EOF
# Performance: pmcdrv against perf

Generated by \`bench/run\` (\`make bench\`) from one run on $date (three guests: the default PMU
model, the Sapphire Rapids model for B8, and 8 vCPUs of the default model for B15); do not edit by hand,
run \`bench/run\` again. The raw figures are in \`build/bench/results.json\` after a run.

- Guest: Debian kernel $guest, 2 vCPUs, 1 GiB, Debian's perf $perfv.
- LIKWID (B4, B5, B6, B13): $likwidv.
- The build of B16: $buildv.
- QEMU: $qemu.
- The machine: no PMU of its own; every figure is from the emulated PMU in the guest.

**What these numbers are.** Under \`-icount shift=0\` one guest ns is one retired guest
instruction, so every time below is an instruction-count proxy of the cost, deterministic and
comparable between pmcdrv and perf on the same work, but not a hardware time. MSR latencies are
not modelled: a RDMSR or WRMSR costs one instruction here and tens to hundreds of cycles on
hardware, so the MSR accesses are counted separately and exactly, with the kernel's
\`msr:read_msr\`, \`msr:write_msr\` and \`msr:rdpmc\` tracepoints (through tracefs, with
\`sched:sched_switch\`), in a pass separate from the timings (tracing inflates paths heavy in
MSR accesses). Only accesses to PMU MSRs and RDPMC are counted; the ping-pong's switches touch
no other MSR in this guest (the \`other\` field of the JSON).

**How.** \`build/bench/pingpong N\` pins itself to one CPU, forks a child and bounces one byte
through two pipes N times: two context switches per round trip. B1 runs it untracked; B2 runs
it under \`pmcctl run -e EVENTS [--no-inherit]\` and \`perf stat -e EVENTS [--no-inherit]\` (with
\`--no-inherit\` only the parent is counted, so every switch is between a tracked and an
untracked task). MSR accesses per switch are read from the trace window after each switch
between the two ping-pong tasks (the most frequent count of each direction; nearly every window
has it). B3 is \`build/bench/selfread\`: one thread counts itself and reads N times through
libpmc's READ, libpmc's self-read (\`pmc_self_read()\`: the thread's page and RDPMC), \`read()\`
of a perf group fd, and each perf event's mmap page with RDPMC (the loop of
\`include/uapi/linux/perf_event.h\`). B4 times \`pmcctl run\` and
\`perf stat\` of \`true\` from bash. B5 counts \`build/progs/loop\`, whose user-mode count is
exactly 2N + 103. B6 is \`build/tests/region_cost --perf 1000\`: 20 batches of 1,000 empty
\`pmc_region_begin()\`/\`pmc_region_end()\` pairs in a process that opened its own session, and
20 batches of 1,000 \`PERF_EVENT_IOC_ENABLE\` + \`PERF_EVENT_IOC_DISABLE\` pairs on a perf
\`instructions:u\` event (the way a perf user brackets a region), the least batch of each.
B7 is \`build/bench/pingpong-rdpmc MODE EVENTS N\`, the same ping-pong between two processes
that both count EVENTS on themselves and may execute RDPMC (their \`perf_rdpmc_allowed\` is
non-zero): with \`pmcdrv\` each opens its own libpmc session after the fork and maps its
self-read page (\`pmc_self_open()\`), so every switch goes from one session to another into an
address space whose task could read the counters, and pmcdrv zeroes the counters the other
session used before the incoming one starts (docs/design.md, "Scrubbed counters");
\`pmcdrv-shared\` is one inherited session whose two tasks each map their own page, so every
switch stays within it; \`perf\` opens the same events as one group per process and maps each
event's page, and perf zeroes its dirty counters (used, then let go) as the CPU switches to
either address space (\`perf_clear_dirty_counters()\`, Linux 6.1); \`pmcdrv-ioctl\` is a session per
process as with \`pmcdrv\` but without a self-read page (each reads its counts with the READ ioctl),
so no address space may execute RDPMC and, the two sessions counting the same user-mode events,
the counters run on from one session to the other (docs/design.md, "Handed over counters");
\`none\` counts nothing (the baseline). Each
process reads its counts through RDPMC before and after the timed round trips only, so the
times are the switch path's, not the reads'.
B4, B5 and B6 have a third tool, LIKWID, which HPC sites use in place of perf: Debian's
\`likwid\` package, staged into the guest by \`bench/likwid-stage.sh\`, run as
\`likwid-perfctr -M 0 -C CPU -g INSTR_RETIRED_ANY:FIXC0\` (direct MSR access through the msr
driver, user-mode instructions on a fixed counter, the command pinned to CPU); B6's LIKWID row is
\`build/bench/likwid-region\` (\`bench/likwid-region.c\`, built with \`-DLIKWID_PERFMON\` against
\`liblikwid\`) under \`likwid-perfctr -m\`: 20 batches of 1,000 empty
\`LIKWID_MARKER_START\`/\`LIKWID_MARKER_STOP\` pairs, the least batch. B13 times the whole
command of each tool around \`build/progs/loop 001000000\`, as B4 times it around \`true\`.
LIKWID 5.2.2 does not count on the emulated Skylake client as it comes, for two reasons of the
emulator that \`bench/guest.sh\` works around for it and says how: it refuses to start when the
host bridge has no memory-controller BAR (MCHBAR, PCI config 0x48 of 00:00.0, which QEMU's
i440FX lacks; the guest writes an unclaimed address there, whose registers LIKWID then reads as
0 and no event here uses), and its Skylake set-up gives up when the write of 0 to
IA32_PEBS_ENABLE fails, which the emulated PMU, without PEBS, refuses (an \`LD_PRELOAD\` shim,
\`bench/likwid-pebs0.c\`, reports that one write as done).
B8 is B2's ping-pong counting the top-down pair, fixed counter 3 (slots) and PERF_METRICS, as
the level-1 group of \`perf stat --topdown\`, on a second guest whose emulated PMU is the
Sapphire Rapids model (\`tests/vm/run --pmu-model spr\`): pmcdrv saves and restores the pair
as one unit at a switch, as perf does (\`saved_slots\`, \`saved_metric\`).

**Warm-up.** Each timed ping-pong first runs for 50 ms of guest time. In this guest the first
~30 ms after the fork are cheaper per round trip than the steady state that follows (untracked,
while building the harness: 10.8k guest ns per round trip over the first 2,000 round trips,
13.2k per round trip from about 3,000 on), so unwarmed short runs would mix the two. The
timings are stable to about 0.1% between repetitions (\`runs\` in the JSON).

**B4 wall time includes idle time.** QEMU runs with \`-icount sleep=on\`: while every vCPU is
idle the guest clock follows the host's real time. The ping-pong and the self-reads never idle,
but a start-up does (exit, wait, RCU grace periods when a session closes), so B4's wall time is
partly the real time of a loaded host, not an instruction count. B4 therefore also reports busy
time: the run time of every non-idle task on every CPU over the runs (\`rq_cpu_time\` in
\`/proc/schedstat\`), which under icount counts instructions; compare that column.

**Cost as the work grows (B9, B10, B11).** B9 runs \`perf bench sched messaging\` (hackbench,
Debian's perf in the guest: groups of 20 sender and 20 receiver processes passing 100-byte
messages over socketpairs) with 1, 4 and 16 groups (40, 160 and 640 tasks), with \`-l\` chosen
so that every size passes the same number of messages (loops x groups = 32): only the number
of tasks changes. Each size runs untracked, under \`pmcctl run -e\` and under \`perf stat -e\`
with 2 and with 7 events (both inherit into every task), the five cases taking turns run by run
(after one untracked run at each size that is not counted: the guest's first hackbench cost more
than the later ones), 12 runs each at 1 group, whose runs are short and move most, and 3 at 4
and 16. Its overhead is the busy time (as
B4's) of the whole command above the untracked run's, less the tool's own start-up and
tear-down (the same command around \`true\`): what counting the workload's tasks costs.
perf bench's own "Total time" of the message phase is shown too; it has millisecond
resolution and moves with the two vCPUs' scheduling. The goal row of each size is judged
against a noise band: two standard errors of the difference of two medians of that size's
runs, the standard deviation pooled over its five cases (each case's runs about their own
mean). The goal is a ratio to perf's overhead, so it is judged only where perf's overhead
stands out of the band; where it does not, the row says "inside the noise" (or no, if
pmcdrv's overhead stands out above the band). At 1 group, 40 tasks on 2 vCPUs, neither tool's
overhead stands out: measured 2026-12-01, runs 4 times as long (128 loops) did not help, their
spread growing with them (a standard deviation of 45 ms against 16).
B10 is \`build/bench/manytasks TASKS\`: B2's ping-pong pair plus TASKS - 2 threads of the same
process that sleep in \`read()\` all along (16 KiB stacks; the guest's \`kernel.threads-max\` is
raised to 20,000), untracked and under one \`pmcctl run\` that tracks every task, for 10, 1,000
and 10,000 tasks; then the same program with its own libpmc session, closed while all its
tasks live, the close() timed. B11 is \`build/bench/readcost\`: a thread counting 1, 2, 4, 8 or
16 events on itself reads them all through pmcdrv's READ ioctl, through perf's \`read()\` of each
event's own fd (one read per event) and through one \`read()\` of a perf group
(\`PERF_FORMAT_GROUP\`); with 8 and 16 events pmcdrv and perf's separate events multiplex, and
perf refuses a group larger than the counters. A second pass traces a few hundred reads with
the function_graph tracer to show where they go.

**Many sessions (B14).** \`build/bench/sessions K CMD\` (\`bench/sessions.c\`) forks K children
that block in \`read()\` of a pipe, opens K libpmc sessions, each counting \`instructions:u\` on
its own child (not inherited), runs CMD and waits for it, then closes the sessions and lets the
children go: CMD runs while K sessions exist whose tasks never run. The switch from one session
to another is B7's \`pmcdrv-ioctl\` ping-pong (each task of the pair its own session, the same
user-mode event, so the counters are handed over: 1 rdpmc a switch) among 2 (the pair alone),
10, 100 and 1,000 sessions in all, against the same program counting nothing with no session;
its MSR accesses are traced at 2 and at 1,000 sessions. The untracked switch is B1's ping-pong
with no session, with one and with 1,000 (pmcdrv's probes run at every switch while any session
exists). The set-up and the tear-down of the sessions are outside the timed round trips. Before
each case without a session, and before each trace, the guest waits for pmcdrv's probes to go
(they linger a second after the last session closes).

**Many CPUs (B15).** B15 runs in a guest of its own with 8 vCPUs (\`tests/vm/run --smp 8\`,
\`bench/guest.sh ... B15\`). With 8, 4 and 2 CPUs online (CPU hotplug in that guest) it times
the start-up of \`pmcctl stat -a -e instructions,cycles -- true\` and of \`perf stat -a\` with the
same events (as B4: busy and wall guest ns, the mean of the runs), and one PMCDRV_IOC_INFO
(\`build/bench/readspread ... info\`, the least of 3 batches of 200). With all 8 online,
\`build/bench/readspread\` spreads one inherited session over 1, 2, 4 or 8 CPUs: the reading
thread on CPU 0 and one spinning thread of it on each other CPU, then times pmcdrv's READ
against perf's \`read()\` of each inherited event (the least of 3 batches of 20: few reads, since
each waits for the other vCPUs' round-robin slices). The per-CPU slopes over 2, 4 and 8 CPUs
and their straight lines at 256 CPUs are an extrapolation, not a measurement; the text under
B15's tables says what in the design grows with the CPUs, and which figures are the emulator's
round-robin wait rather than instructions.

**A build (B16).** The workload most users try first: \`make -j2\` of a small C project,
generated by \`bench/build-stage.sh\` into \`build/bench/proj\` (40 files of 12 functions of
integer arithmetic each, a \`main.c\`, a Makefile; fixed and deterministic), after a \`make
clean\` that is not timed; untracked, under \`pmcctl run -e\` and under \`perf stat -e\` with 2
and 7 events (both inherit into every make, tcc and rm). Its overhead is the busy time (as B4's
and B9's) of the whole command above the untracked build's: what a user pays, the tools' own
start-up included (shown taken out too, as B9 does). The guest has no toolchain of its own:
\`bench/run\` stages GNU make and Debian's tcc (with the libraries they load) into the tree the
guest carries. tcc rather than gcc because it is one small binary that compiles, assembles and
links, where gcc brings cc1, as and ld (tens of MB into the initramfs) and many more guest
instructions per file, which under \`-icount\` would make the case take many host minutes. The
project needs no libc (\`-nostdlib\`, its own \`_start\`, raw system calls), so no headers or crt
files are staged; each program built must print what its host build printed. A real compiler
spends more instructions per file than tcc does here, so the tools' share of a real build is
smaller than this one's; the process shape (make forking a compiler per file, two at a time,
then a link) is a real build's.

## Results

EOF
	tables
	cat <<EOF

## B2 plotted

![B2: cost above the untracked run per round trip, and MSR accesses per switch, against the number of events](performance-b2.png)

## B9 plotted

![B9: perf bench sched messaging, busy time above the untracked run less the tool's start-up, against the number of tasks, with each size's noise band](performance-b9.png)

The grey band is each size's noise band (above): a goal row is judged only where perf's line
leaves it.

## B10 and B14 plotted

![B10 and B14: ns per context switch against the tracked tasks of one session, and against the sessions that exist](performance-scale.png)

## What each case adds to the run time

Host seconds of this run (\`bench/run\` stamps each case's first line of the guest's output; the
machine's other work moves them): B9, B10, B11 and B14 to B16 are the cases about cost as the work
grows. None of this is in \`make check\`, which runs no case of the bench and so takes no time for
it: what it shares with the bench is the exact guard of MSR accesses per switch
(\`bench/msr-guard.sh\`, as tests/guest/55-msr-switch.sh, a few seconds of each lane that runs it).

EOF
	runtime
	cat <<EOF

## An estimate for real hardware (not a measurement)

No machine of this project has a PMU, so nothing here was measured on hardware. The table below
turns the exact MSR counts per switch into cycles with **assumed** latencies: RDMSR $RD_LO–$RD_HI
cycles, WRMSR $WR_LO–$WR_HI cycles (serializing), RDPMC $PC_LO–$PC_HI cycles. These are rules of
thumb, not vendor figures: no published latency table could be checked from this project's
machines, and the real figures vary with the model and the MSR. WRMSR is the expensive one
because most MSR writes serialize the pipeline; RDPMC is the cheap way to read a counter. Treat
the table as an order of magnitude, and the MSR counts beside it as the exact part.

"Estimated cycles per switch" is the instructions above the untracked run per switch (B7: above
the same program counting nothing), minus the MSR accesses (already counted there as one
instruction each), plus the MSR cycles, at an assumed IPC of 1 for the rest. It is an estimate:
replace it with a measurement on an Intel machine.
(\`bench/guest.sh\` expects a guest, but uses nothing of it beyond root, pmcdrv loaded, tracefs,
perf, and the programs \`bench/run\` builds; it has not been run on hardware.)

EOF
	estimate
}

case $mode in
tables) tables ;;
b2) b2data ;;
b9) b9data ;;
scale) scaledata ;;
doc) doc ;;
esac
