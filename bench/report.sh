#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report.sh [--doc | --b2-data] RESULTS.json
#   (default)   the tables of every figure, as Markdown (bench/run prints them)
#   --doc       docs/performance.md: run details, the tables, the B2 plot and
#               an estimate for real hardware from published MSR latencies
#   --b2-data   the plot's data: events, cost above untracked per round trip
#               (pmcdrv/perf, inherit/no-inherit), MSR accesses per switch (same)
# Needs jq.
set -euo pipefail
mode=tables
case "${1:-}" in
--doc) mode=doc; shift ;;
--b2-data) mode=b2; shift ;;
esac
[ $# = 1 ] && [ -f "$1" ] || { echo "usage: bench/report.sh [--doc|--b2-data] RESULTS.json" >&2; exit 2; }
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
def b7above(t; n): (b7(t; n; "ns_per_round") | .value? // null) as $v | b7base as $b |
	if $v == null or $b == null then null else $v - $b end;
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
	(ns("B4"; "start-up"; "none"; null; null; "ns_per_start") as $t |
	 ns("B4"; "start-up"; "none"; null; null; "busy_ns_per_start") as $bt |
	 ["none", "pmcdrv", "perf"][] as $tool |
	 ns("B4"; "start-up"; $tool; null; null; "ns_per_start") as $w |
	 ns("B4"; "start-up"; $tool; null; null; "busy_ns_per_start") as $b |
	 "| \({"none": "`true`", "pmcdrv": "`pmcctl run -e instructions:u true`",
		"perf": "`perf stat -e instructions:u true`"}[$tool]) | \($w | n0) | \(if $tool == "none" or $w == null then "" else ($w - $t | sign0) end) | \($b | n0) | \(if $tool == "none" or $b == null or $bt == null then "" else ($b - $bt | sign0) end) |"),
	"",
	"B5: accuracy, instructions:u of build/progs/loop 001000000 (exactly 2N + 103)",
	"",
	"| tool | instructions:u | expected | exact |",
	"|---|---:|---:|---|",
	(r(.bench == "B5")[] | "| \(.tool) | \(.value | n0) | \(.expected | n0) | \(if .exact then "yes" else "NO" end) |"),
	"",
	"B6: one empty region begin/end pair (libpmc) against one perf PERF_EVENT_IOC_ENABLE + DISABLE pair, guest ns",
	"(user and kernel instructions), the least of 20 batches",
	"",
	"| tool | what | ns per pair |",
	"|---|---|---:|",
	(r(.bench == "B6")[] | "| \(.tool) | \(if .tool == "perf" then "ioctl enable + disable of an instructions:u event"
		else "pmc_region_begin + pmc_region_end (path: \(.path))" end) | \(.value | n1) |"),
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
	  "| B8: the top-down pair, \($m): cost above untracked <= perf'"'"'s | \(ratio($ax; $bx)) x | \(met(if $ax == null or $bx == null then null else $ax <= $bx end)) |"))
	' "$json"
}

b2data() {
	jq -r "$defs"'
	base as $base | [1, 2, 4, 7][] as $n |
	def above(t; m): (b2(t; $n; m; "ns_per_round") | .value? // null) | if . == null then "NaN" else . - $base end;
	def msrv(t; m): (b2(t; $n; m; "msr_per_switch") | .value? // null) | if . == null then "NaN" else . end;
	[$n, above("pmcdrv"; "inherit"), above("perf"; "inherit"), above("pmcdrv"; "no-inherit"), above("perf"; "no-inherit"),
	 msrv("pmcdrv"; "inherit"), msrv("perf"; "inherit"), msrv("pmcdrv"; "no-inherit"), msrv("perf"; "no-inherit")] | @tsv' "$json"
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

doc() {
	local date guest qemu perfv
	date=$(jq -r .date "$json")
	guest=$(jq -r .guest_kernel "$json")
	qemu=$(jq -r .qemu "$json")
	perfv=$(jq -r .perf_version "$json")
	cat <<EOF
# Performance: pmcdrv against perf

Generated by \`bench/run\` (\`make bench\`) from one run on $date (two guests: the default PMU
model, and the Sapphire Rapids model for B8); do not edit by hand,
run \`bench/run\` again. The raw figures are in \`build/bench/results.json\` after a run.

- Guest: Debian kernel $guest, 2 vCPUs, 1 GiB, Debian's perf $perfv.
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

## Results

EOF
	tables
	cat <<EOF

## B2 plotted

![B2: cost above the untracked run per round trip, and MSR accesses per switch, against the number of events](performance-b2.png)

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
doc) doc ;;
esac
