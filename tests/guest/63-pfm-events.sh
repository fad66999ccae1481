# SPDX-License-Identifier: GPL-2.0
# libpfm4 names in -e, pmcctl list with the model's events, {a,b} groups: on the
# emulated Skylake client PMU, which libpfm4 detects as skl (its tables, not ours),
# and the kernel's own data for it (perf's 'skylake', generated into libpmc).
# On the hybrid Alder Lake (adl) libpfm4 4.13, which has no Alder Lake
# tables, detects ix86arch only: its Skylake checks SKIP, saying so, and the
# kernel's data (perf's 'alderlake', events per core type) is checked
# instead, with typed events counted on their own core type (CPU 0 the
# P-core, cpu_core; CPU 1 the E-core, cpu_atom; 3 cycles an instruction).
. tests/lib/guest.sh
loop=build/progs/loop
n=001000000

# count EVENT [CPU]: the value pmcctl run -j gives for one event over the loop (run on CPU);
# on a hybrid part the last row, the exact sum after the rows by core type.
count() {
	${2:+taskset -c "$2"} pmcctl run -j -e "$1" -- $loop $n 2>&1 |
		jq -r 'select(.event != null) | ."counter-value" | floor' | tail -n 1
}
# no_skl WHAT: on the hybrid model, SKIP WHAT (a check of libpfm4's Skylake tables) and succeed.
no_skl() {
	hybrid_cpu || return 1
	echo "SKIP: $1: libpfm4 4.13 has no Alder Lake tables (it detects ix86arch here), so Skylake's names do not resolve"
}

# pmcctl list: the model's events, by libpfm4 (no module needed).
out=$(pmcctl list)
if ! no_skl "list: libpfm4's skl, its MEM_LOAD_RETIRED:L3_MISS, the default unit mask marked"; then
	check "list: libpfm4 detects the emulated CPU as skl" grep -q 'from libpfm4 (PMU skl' <<<"$out"
	check "list: skl's MEM_LOAD_RETIRED with its L3_MISS unit mask" \
		grep -A20 '^  MEM_LOAD_RETIRED ' <<<"$out" | grep -q ':L3_MISS .*0x20'
	check "list: the default unit mask is marked" grep -q ':ALL_BRANCHES .*(default)' <<<"$out"
fi
check "list: still lists the architectural events" grep -q 'instructions.*0x00c0' <<<"$out"
out=$(pmcctl list l3_miss)
check "list WORD: keeps matching events" grep -q 'MEM_LOAD_RETIRED' <<<"$out"
check "list WORD: drops the others" bash -c "! grep -q 'BR_INST_RETIRED' <<<\"\$1\"" _ "$out"
check "list WORD: no header of a section without a match" \
	bash -c "! grep -qE '^(Hardware|Software) events' <<<\"\$1\"" _ "$out"
out=$(pmcctl list task)
check "list WORD: a section with a match keeps its header" grep -q '^Software events' <<<"$out"
check "list WORD: ... and only that one" bash -c "! grep -q '^Hardware events' <<<\"\$1\"" _ "$out"
pmcctl list --json >/tmp/list.json
expect_eq "list --json: exit 0" "$?" 0
if ! no_skl "list --json: pmu skl and its events; WORD filtering skl's"; then
	check "list --json: valid JSON with pmu skl and its events" \
		jq -e '.pmu == "skl" and (.events | length) > 50 and
		       (.events[] | select(.name == "INST_RETIRED") | .umasks | map(.name) | index("ANY_P")) != null' /tmp/list.json
	check "list --json WORD: filtered, still valid" \
		jq -e '(.events | length) > 0 and all(.events[]; (.name + .desc + (.umasks | map(.name + .desc) | join(" "))) | test("l3_miss"; "i"))' \
		<<<"$(pmcctl list --json l3_miss)"
else
	check "list --json WORD (hybrid): the kernel's data filtered, each core type's, still valid" \
		jq -e '(.kernel.events | length) > 0 and all(.kernel.events[]; .name | test("l3_miss"; "i")) and
		       (.kernel.events | map(.pmu) | unique) == ["cpu_atom", "cpu_core"]' <<<"$(pmcctl list --json l3_miss)"
fi
pmcctl list a b 2>/dev/null
expect_eq "list: two words -> usage exit 2" "$?" 2

# Unknown names: nearest names, usage exit code.
pmcctl run -e INST_RETIRD:ANY_P -- true 2>/tmp/err
expect_eq "run: unknown libpfm4 name -> 2" "$?" 2
no_skl "unknown name: its nearest names (skl's INST_RETIRED)" ||
	check "unknown name: its nearest names" grep -q "nearest: INST_RETIRED" /tmp/err
pmcctl run -e instructons -- true 2>/tmp/err
check "unknown name: built-in names among the nearest" grep -q "nearest: instructions" /tmp/err
pmcctl run -e INST_RETIRED:ANY_P:t=1 -- true 2>/tmp/err
expect_eq "run: AnyThread refused -> 2" "$?" 2
no_skl "AnyThread refusal names libpfm4's t=1 field (of skl's INST_RETIRED)" ||
	check "AnyThread refusal names the field" grep -q 't=1 (AnyThread' /tmp/err
pmcctl run -e '{cycles,instructions' -- true 2>/tmp/err
expect_eq "run: unbalanced group -> 2" "$?" 2
check "unbalanced group: says so" grep -q "missing its closing '}'" /tmp/err

# The kernel's own event data for this model (Linux perf's files, generated into
# libpmc at build time): its section of pmcctl list, perf's spelling resolved there.
out=$(pmcctl list)
if hybrid_cpu; then
	check "list: the kernel's data for this model (perf's alderlake)" \
		grep -q "from the kernel's data (perf's 'alderlake', linux-source-6.12" <<<"$out"
	check "list --json: kernel model alderlake, 300+ events, cpu_core's MEM_LOAD_RETIRED.L3_MISS 0x20d1, cpu_atom's OCR.DEMAND_DATA_RD.L3_MISS 0x01b7" \
		jq -e '.kernel.model == "alderlake" and (.kernel.events | length) > 300 and
		       (.kernel.events[] | select(.name == "MEM_LOAD_RETIRED.L3_MISS" and .pmu == "cpu_core") | .code) == "0x20d1" and
		       (.kernel.events[] | select(.name == "OCR.DEMAND_DATA_RD.L3_MISS" and .pmu == "cpu_atom") | .code) == "0x01b7"' /tmp/list.json
	echo "SKIP: kernel data: an AnyThread event refused: alderlake's data has no Skylake int_misc.recovery_cycles_any (AnyThread is deprecated on this part)"
else
	check "list: the kernel's data for this model (perf's skylake)" \
		grep -q "from the kernel's data (perf's 'skylake', linux-source-6.12" <<<"$out"
	check "list --json: kernel model skylake, 300+ events, UOPS_RETIRED.RETIRE_SLOTS 0x02c2" \
		jq -e '.kernel.model == "skylake" and (.kernel.events | length) > 300 and
		       (.kernel.events[] | select(.name == "UOPS_RETIRED.RETIRE_SLOTS") | .code) == "0x02c2"' /tmp/list.json
	out=$(pmcctl run -e int_misc.recovery_cycles_any -- true 2>&1)
	expect_eq "kernel data: an AnyThread event is refused (exit 2)" "$?" 2
	check "kernel data: ... saying AnyThread ($out)" grep -q AnyThread <<<"$out"
fi

if ! have_pmu; then
	echo "SKIP: counts by libpfm4 name: no PMU in this guest"
	exit 0
fi

# Counts: libpfm4's INST_RETIRED:ANY_P is instructions on a GP counter (exact here).
want=$(count instructions:u)
check "instructions:u counted ($want)" test "${want:-0}" -gt 1000000
if hybrid_cpu; then
	# The kernel's names, typed: each core type's INST_RETIRED.ANY_P is instructions on a GP
	# counter of its own type, exact there; its unhalted core cycles 2x (P) and 3x (E).
	for t in "0 cpu_core CPU_CLK_UNHALTED.THREAD_P 2" "1 cpu_atom CPU_CLK_UNHALTED.CORE_P 3"; do
		set -- $t
		expect_eq "CPU $1: $2/INST_RETIRED.ANY_P/u equals instructions:u" "$(count "$2/INST_RETIRED.ANY_P/u" $1)" "$want"
		expect_eq "CPU $1: perf's spelling $2/inst_retired.any_p/u too" "$(count "$2/inst_retired.any_p/u" $1)" "$want"
		expect_eq "CPU $1: $2/$3/u is $4 x instructions:u" "$(count "$2/$3/u" $1)" "$(($4 * want))"
	done
	expect_eq "CPU 1: cpu_core/INST_RETIRED.ANY_P/u counts 0 on the E-core" "$(count cpu_core/INST_RETIRED.ANY_P/u 1)" 0
	pc=$(taskset -c 0 perf stat -x, -e cpu_core/inst_retired.any_p/u -- $loop $n 2>&1 >/dev/null |
		awk -F, '$3 == "cpu_core/inst_retired.any_p/u" { print $1 }')
	expect_eq "perf stat -e cpu_core/inst_retired.any_p/u on CPU 0 equals pmcctl's" "$pc" "$want"
	out=$(taskset -c 0 pmcctl compare -j -e cpu_core/INST_RETIRED.ANY_P/u -- $loop $n)
	check "compare -e cpu_core/INST_RETIRED.ANY_P/u: difference 0 against perf" jq -e '.difference == 0' <<<"$out"
	out=$(taskset -c 0 pmcctl run -j -e cpu_core/MEM_LOAD_RETIRED.L3_MISS/u,instructions:u -- $loop $n 2>&1)
	check "cpu_core/MEM_LOAD_RETIRED.L3_MISS/u beside instructions:u: programmed, 0 on the emulated PMU" \
		jq -e -s --argjson w "$want" '.[0]."counter-value" == 0 and (.[1]."counter-value" | floor) == $w' <<<"$out"
	out=$(taskset -c 0 pmcctl run -j -e '{cpu_core/INST_RETIRED.ANY_P/u,instructions:u}' -- $loop $n 2>&1)
	# (instructions:u's rows: cpu_core's, cpu_atom's 0 and their sum)
	check "group {cpu_core/INST_RETIRED.ANY_P/u,instructions:u} on CPU 0: both counted" \
		jq -e -s --argjson w "$want" 'map(select(.event == "cpu_core/INST_RETIRED.ANY_P/u" or .event == "instructions:u")) |
			length == 2 and all(.[]; (."counter-value" | floor) == $w)' <<<"$out"
	out=$(pmcctl run -e cpu_core/OCR.DEMAND_DATA_RD.L3_MISS/u -- true 2>&1)
	expect_eq "cpu_core/OCR.DEMAND_DATA_RD.L3_MISS/u (an extra register, no Alder Lake table): exit 3" "$?" 3
	check "... the message names the event and the missing table ($out)" \
		grep -q "OCR.DEMAND_DATA_RD.L3_MISS.*knows no extra registers (offcore response) of this CPU model" <<<"$out"
	echo "SKIP: libpfm4's group of 5 GP-only events and OFFCORE_RESPONSE_0/1: libpfm4 4.13 has no Alder Lake tables (ix86arch here); the kernel data's OCR.* events need an extra register, for which pmcdrv has no Alder Lake table"
	exit 0
fi
expect_eq "INST_RETIRED:ANY_P:u equals instructions:u" "$(count INST_RETIRED:ANY_P:u)" "$want"
expect_eq "skl::INST_RETIRED:ANY_P:u equals instructions:u" "$(count skl::INST_RETIRED:ANY_P:u)" "$want"
expect_eq "perf spelling inst_retired.any_p:u equals instructions:u" "$(count inst_retired.any_p:u)" "$want"
# Debian's perf knows skl's JSON names when it was built with them; else its raw code.
pev=inst_retired.any_p:u
perf stat -e $pev -- true >/dev/null 2>&1 || pev=r00c0:u
pc=$(perf stat -x, -e $pev -- $loop $n 2>&1 >/dev/null | awk -F, 'NF >= 3 && $3 != "" { print $1; exit }')
expect_eq "perf stat -e $pev on the same loop equals INST_RETIRED:ANY_P:u" "$pc" "$want"
# cycles = 2 x instructions on the emulated PMU; libpfm4's name for them.
expect_eq "CPU_CLK_UNHALTED:THREAD_P:u is 2 x instructions:u" \
	"$(count CPU_CLK_UNHALTED:THREAD_P:u)" "$((2 * want))"
# perf's name that only the kernel's data has for this model
expect_eq "kernel data: cpu_clk_unhalted.thread_p:u is 2 x instructions:u" \
	"$(count cpu_clk_unhalted.thread_p:u)" "$((2 * want))"

# pmcctl compare programs perf with the same raw fields libpfm4 gave.
out=$(pmcctl compare -j -e INST_RETIRED:ANY_P:u -- $loop $n)
check "compare -e INST_RETIRED:ANY_P:u: difference 0 against perf" jq -e '.difference == 0' <<<"$out"
# An event the emulated PMU does not count (0 there) is still programmed and read.
out=$(pmcctl run -j -e MEM_LOAD_RETIRED:L3_MISS:u,instructions:u -- $loop $n 2>&1)
check "MEM_LOAD_RETIRED:L3_MISS:u beside instructions:u: programmed, 0 on the emulated PMU" \
	jq -e -s --argjson w "$want" '.[0].event == "MEM_LOAD_RETIRED:L3_MISS:u" and .[0]."counter-value" == 0 and
	       (.[1]."counter-value" | floor) == $w' <<<"$out"

# A group parses and counts like its members.
out=$(pmcctl run -j -e '{INST_RETIRED:ANY_P,instructions}:u' -- $loop $n 2>&1)
check "group {INST_RETIRED:ANY_P,instructions}:u: both counted" \
	jq -e -s --argjson w "$want" 'length == 2 and all(.[]; (."counter-value" | floor) == $w)' <<<"$out"
# The group number reaches the check: 5 GP-only events in one group on 4 GP counters.
pmcctl run -e '{r01d1,r02d1,r04d1,r010e,r01a3}:u' -- $loop $n 2>/tmp/err
expect_eq "run: a group larger than the counters -> 2" "$?" 2
check "group too big: names the group and the fix" grep -q "the group of event 'r01d1' ({...} number 1).*split the group" /tmp/err
out=$(pmcctl run -j -e '{r01d1,r02d1}:u,r04d1:u,r010e:u' -- $loop $n 2>&1)
check "4 GP events, 2 of them grouped: all counted" jq -e -s 'length == 4' <<<"$out"

# OFFCORE_RESPONSE_0: libpfm4's MSR_OFFCORE_RSP_0 value travels in the event's extra field and
# the module programs it on the counting CPU (tests/guest/57-offcore.sh tests the module side):
# rdmsr, itself the counted task, reads it there.
modprobe msr
v=$(taskset -c 1 pmcctl run -o /dev/null -e OFFCORE_RESPONSE_0:ANY_REQUEST:L3_MISS:u -- rdmsr -p 1 0x1a6)
expect_eq "OFFCORE_RESPONSE_0:ANY_REQUEST:L3_MISS: MSR_OFFCORE_RSP_0 holds libpfm4's value while counting" \
	"$v" 3f84008007
v=$(taskset -c 1 pmcctl run -o /dev/null -e OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_MISS_LOCAL:SNP_ANY:u -- rdmsr -p 1 0x1a7)
expect_eq "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_MISS_LOCAL:SNP_ANY: MSR_OFFCORE_RSP_1 holds its value" \
	"$v" 3f84000001
out=$(pmcctl run -j -e OFFCORE_RESPONSE_0:ANY_REQUEST:L3_MISS:u,instructions:u -- $loop $n 2>&1)
check "OFFCORE_RESPONSE_0 beside instructions:u: counted (0 on the emulated PMU), instructions exact" \
	jq -e -s --argjson w "$want" '.[0]."counter-value" == 0 and (.[1]."counter-value" | floor) == $w' <<<"$out"
# Two OFFCORE_RESPONSE_0 with different request/response bits need one
# register twice: apart they take turns (multiplexing), in one group they
# cannot be counted.
o1=OFFCORE_RESPONSE_0:ANY_REQUEST:L3_MISS:u o2=OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS_LOCAL:SNP_ANY:u
out=$(pmcctl run -j -e "$o1,$o2" -- $loop 020000000 2>&1 >/dev/null)
check "two different OFFCORE_RESPONSE_0 values in one session: they take turns (each 30-70% on a counter)" \
	jq -e -s 'length == 2 and all(."pcnt-running" > 30 and ."pcnt-running" < 70)' <<<"$out"
pmcctl run -e "{$o1,$o2}" -- $loop $n 2>/tmp/err
expect_eq "... in one {group}: refused, exit 2" "$?" 2
check "... the message names the extra register" \
	grep -q "different values in one extra register (OFFCORE_RESPONSE_0/1)" /tmp/err
