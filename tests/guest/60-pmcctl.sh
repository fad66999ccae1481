# SPDX-License-Identifier: GPL-2.0
# pmcctl as a user runs it: exit codes, output formats, compare, no module.
. tests/lib/guest.sh
loop=build/progs/loop

pmcctl run -e task-clock -- sh -c 'exit 7' 2>/dev/null
expect_eq "run: the command's exit status is pmcctl's" "$?" 7
pmcctl run -e task-clock -- sh -c 'kill -TERM $$' 2>/dev/null
expect_eq "run: killed by SIGTERM -> 143" "$?" 143
pmcctl run -e task-clock -- /nonexistent/cmd 2>/tmp/err
expect_eq "run: command not found -> 127" "$?" 127
check "run: not-found message names the command" grep -q "cannot run '/nonexistent/cmd'" /tmp/err
printf 'x' >/tmp/notexec
chmod 644 /tmp/notexec
pmcctl run -e task-clock -- /tmp/notexec 2>/dev/null
expect_eq "run: not executable -> 126" "$?" 126
pmcctl run -e 'cycles:p' -- true 2>/tmp/err
expect_eq "run: bad event -> 2" "$?" 2
check "run: bad event message names the term and the modifier" grep -q "'cycles:p': unknown modifier 'p'" /tmp/err
pmcctl run 2>/dev/null
expect_eq "run: no command -> 2" "$?" 2
pmcctl frobnicate 2>/dev/null
expect_eq "unknown subcommand -> 2" "$?" 2
check "run --help" pmcctl run --help
check "compare --help" pmcctl compare --help
check "list names the architectural events" grep -q 'instructions.*0x00c0' <<<"$(pmcctl list)"

# Output formats.
out=$(pmcctl run -j -e task-clock,cs -- true 2>&1)
check "run --json: one valid JSON object per event" jq -e -s 'length == 2 and .[0].event == "task-clock"' <<<"$out"
out=$(pmcctl run -x';' -e cs -- true 2>&1)
check "run -x';': CSV with the separator" grep -qE '^[0-9]+;;cs;[0-9]+;100.00$' <<<"$out"
pmcctl run -o /tmp/counts -e cs -- true 2>/dev/null
check "run -o FILE writes the counts" grep -q 'Performance counter stats' /tmp/counts
out=$(pmcctl run -r 3 -e task-clock -- true 2>&1)
check "run -r 3: means with spread" grep -qE '\(3 runs\)' <<<"$out"
check "run -r 3: +- column" grep -q '( +-' <<<"$out"

if have_pmu; then
	out=$(pmcctl compare -j -e instructions:u -- $loop 001000000)
	rc=$?
	check "compare: instructions:u difference is 0" jq -e '.difference == 0 and .within_spread' <<<"$out"
	expect_eq "compare: exit 0 when within spread" "$rc" 0
	out=$(pmcctl compare -r 2 -e instructions:u,r00c0:u -- build/progs/spawn t 3 001000000)
	check "compare: threads, fixed and GP counters all equal" \
		test "$(grep -c ' equal$' <<<"$out")" = 2
	# perf's side of ref-cycles is its raw 0x0300 (fixed counter 2, TSC ticks),
	# of r013c a GP REF_XCLK (TSC/4 on the emulated PMU): both as pmcdrv's.
	out=$(pmcctl compare -j -e ref-cycles:u -- $loop 001000000)
	check "compare: ref-cycles:u (0x0300, fixed 2) difference is 0" jq -e '.difference == 0' <<<"$out"
	out=$(pmcctl compare -j -e r013c:u -- $loop 001000000)
	check "compare: r013c:u (GP on both sides) within 0.1%" \
		jq -e '.perf_event > 0 and .difference * 1000 <= .perf_event and .difference * -1000 <= .perf_event' <<<"$out"
	pmcctl run -e instructions:u -- true 2>/dev/null
	expect_eq "run: exit 0 with hardware events" "$?" 0
	# A PMU register access that faulted is reported (READ's HW_FAULTS): the
	# module treats its next MSR write as faulted.  So that the next one is the
	# counted session's own (at its start: GLOBAL_CTRL at least), a session
	# that sleeps holds the PMU and the probes meanwhile, and every CPU has had
	# the scrubs of its first switches under that claim (hw.c, perf's dirty
	# counters) before the fault is armed; nothing else of pmcdrv's writes then.
	pmcctl run -e instructions:u -- sleep 60 2>/dev/null &
	holder=$!
	held=
	for i in $(seq 400); do held=$(child_of "$holder" sleep) && break; sleep 0.05; done
	check "the PMU-holding session's sleep runs" test -n "$held"
	for c in $(seq 0 $(($(nproc) - 1))); do taskset -c "$c" true; taskset -c "$c" true; done
	echo 1 >/sys/module/pmcdrv/parameters/inject_msr_faults
	pmcctl run -e instructions:u -- true 2>/tmp/err
	expect_eq "run with a faulted MSR write: still exit 0" "$?" 0
	check "run with a faulted MSR write: warns that the counts may be wrong" \
		grep -q 'warning: 1 PMU register accesses faulted while these counters were programmed or read; the counts may be wrong' /tmp/err
	echo 0 >/sys/module/pmcdrv/parameters/inject_msr_faults
	[ -n "$held" ] && kill "$held"
	wait "$holder" 2>/dev/null
	pmcctl run -e instructions:u -- true 2>/tmp/err
	check "run without a fault: no such warning" bash -c '! grep -q faulted /tmp/err'
fi

# ---- pmcctl info: who counts, and root's --revoke ---------------------------------------
rev_ev=task-clock
have_pmu && rev_ev=instructions:u
# The run's command lasts until the test lets it go (/tmp/rev.go), not for a
# fixed time: on a loaded machine any fixed time can run out before the revoke.
rm -f /tmp/rev.go
pmcctl run -e $rev_ev -- sh -c 'i=0; while [ ! -e /tmp/rev.go ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done' \
	>/tmp/rev.out 2>/tmp/rev.err &
runner=$!
# session_ids: the ids of the run's sessions, once pmcctl info lists one (20 s at most).
session_ids() {
	local i id
	for i in $(seq 400); do
		id=$(pmcctl info --json | jq -r --argjson p "$runner" '.sessions[]? | select(.pid == $p) | .id')
		[ -n "$id" ] && { echo "$id"; return; }
		sleep 0.05
	done
}
rid=$(session_ids)
pmcctl info >/tmp/info.txt
check "info --json lists the run's session, once" \
	bash -c '[ -n "$1" ] && [ "$(wc -l <<<"$1")" = 1 ] || { echo "ids: $1"; cat /tmp/info.txt; false; }' _ "$rid"
check "info names the session: id, user root, pid, comm pmcctl, its event" \
	bash -c 'grep -qE "$1" /tmp/info.txt || { cat /tmp/info.txt; false; }' _ "^ +$rid +root +$runner +pmcctl .*${rev_ev%%:*}"
if have_pmu; then
	check "info: the run counts and holds the PMU claim" grep -qE "PMU claim: +held by session.*\b$rid\b" /tmp/info.txt
fi
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
chmod 666 /dev/pmcdrv
chmod 755 /
out=$(su nobody -s /bin/sh -c "$PWD/build/bin/pmcctl info --revoke $rid" </dev/null 2>&1)
expect_eq "info --revoke as nobody -> 1" "$?" 1
check "info --revoke as nobody: names CAP_PERFMON" grep -q "CAP_PERFMON" <<<"$out"
out=$(su nobody -s /bin/sh -c "$PWD/build/bin/pmcctl info" </dev/null 2>&1)
check "info as nobody: root's session listed, its events hidden" grep -qE "^ +$rid +root .*hidden" <<<"$out"
chmod 600 /dev/pmcdrv
check "the run still counts after nobody's attempt" kill -0 $runner
out=$(pmcctl info --revoke "$rid" 2>&1)
expect_eq "info --revoke ID as root -> 0" "$?" 0
check "info --revoke: names what it revoked" grep -q "revoked session $rid" <<<"$out"
touch /tmp/rev.go
wait $runner
expect_eq "the revoked run exits 1" "$?" 1
check "the revoked run says so, and prints no counts" \
	bash -c 'grep -q "revoked by an administrator" /tmp/rev.err && ! grep -q "'"$rev_ev"'" /tmp/rev.out'
pmcctl info --revoke 999999 2>/tmp/err
expect_eq "info --revoke of no such session -> 1" "$?" 1
check "no such session: says so" grep -q "no session 999999" /tmp/err
check "dmesg names the revoke" bash -c "dmesg | grep -q 'session $rid of uid 0 (pmcctl) revoked by uid 0'"

# run -I MS: each interval's counts while CMD runs, as perf stat -I; no summary after.
pmcctl run -I 5 -e task-clock -- true 2>/tmp/err
expect_eq "run -I 5 (below 10 ms) -> 2" "$?" 2
check "run -I 5: says the rule" grep -q "give milliseconds from 10" /tmp/err
pmcctl run --plot /tmp/ri.png -e task-clock -- true 2>/tmp/err
expect_eq "run --plot without -I -> 2" "$?" 2
check "run --plot without -I: names -I" grep -q "give -I MS too" /tmp/err
pmcctl run -I 100 -r 2 -e task-clock -- true 2>/tmp/err
expect_eq "run -I with -r -> 2" "$?" 2
check "run -I with -r: says so" grep -q "\-I and -r exclude each other" /tmp/err
pmcctl run -I 100 --msr -e task-clock -- true 2>/tmp/err
expect_eq "run -I --msr -> 2" "$?" 2
pmcctl run -I 20 -e task-clock -- sh -c 'exit 5' 2>/dev/null
expect_eq "run -I: the command's exit status" "$?" 5
if have_pmu; then
	# loop N, 9 digits, retires exactly 2N + 103 user instructions (40-emulated-pmu.sh).
	N=200000000
	pmcctl run -I 50 -e instructions:u -- $loop $N 2>/tmp/ri.txt
	expect_eq "run -I 50 -- loop N: exit 0" "$?" 0
	n=$(grep -cE '^ +[0-9]+\.[0-9]{9} +[0-9,]+ +instructions:u$' /tmp/ri.txt)
	check "run -I 50: interval lines while loop runs (got $n, want >= 3)" test "$n" -ge 3
	check "run -I: perf's column line first" test "$(head -n 1 /tmp/ri.txt)" = '#           time             counts unit events'
	check "run -I: no summary after the intervals (as perf stat -I)" \
		sh -c '! grep -qE "Performance counter stats|seconds time elapsed" /tmp/ri.txt'
	sum=$(awk '$3 == "instructions:u" { gsub(",", "", $2); s += $2 } END { printf "%d", s }' /tmp/ri.txt)
	expect_eq "run -I: the intervals' instructions:u sum to loop's exact 2N+103" "$sum" $((2 * N + 103))
	# cycles:u: the instructions' cycles (2 each on the emulated PMU), every model has it
	pmcctl run -I 50 -x, -e instructions:u,cycles:u -- $loop $N 2>/tmp/ri.csv
	rc=$?
	expect_eq "run -I 50 -x, -- loop N: exit 0 ($(head -c 300 /tmp/ri.csv))" "$rc" 0
	check "run -I -x,: every line TIME,VALUE,,EVENT,RUNTIME,PCT[,IPC,insn per cycle]" \
		awk -F, '!/^ *[0-9]+\.[0-9]{9},[0-9]+,,(instructions|cycles):u,[0-9]+,[0-9.]+(,[0-9.]+,insn per cycle)?$/ { bad++ }
			END { exit !(NR >= 6 && !bad) }' /tmp/ri.csv
	sum=$(awk -F, '$4 == "instructions:u" { s += $2 } END { printf "%d", s }' /tmp/ri.csv)
	expect_eq "run -I -x,: instructions:u sum to 2N+103" "$sum" $((2 * N + 103))
	sum=$(awk -F, '$4 == "cycles:u" { s += $2 } END { printf "%d", s }' /tmp/ri.csv)
	check "run -I -x,: cycles:u sum to at least 2N+103 (got $sum)" test "$sum" -ge $((2 * N + 103))
	pmcctl run -I 50 -j -e instructions:u -- $loop $N 2>/tmp/ri.json
	expect_eq "run -I 50 -j -- loop N: exit 0" "$?" 0
	sum=$(jq -s '[.[] | select(.event == "instructions:u") | ."counter-value"] | add' /tmp/ri.json)
	expect_eq "run -I -j: every line parses, instructions:u sum to 2N+103" "$sum" $((2 * N + 103))
	check "run -I -j: the intervals' times rise" \
		jq -e -s '[.[].interval] as $t | ($t | length) >= 3 and $t == ($t | sort)' /tmp/ri.json
	# -p: the intervals of a task that already runs, until it exits.
	$loop 900000000 &
	pid=$!
	pmcctl run -I 50 -x, -e instructions:u -p $pid 2>/tmp/rip.csv
	expect_eq "run -I 50 -p PID: exit 0 when it exits" "$?" 0
	wait $pid
	n=$(grep -cE '^ *[0-9]+\.[0-9]{9},[0-9]+,,instructions:u,' /tmp/rip.csv)
	check "run -I -p: interval lines (got $n, want >= 3)" test "$n" -ge 3
fi

# Without the module: run falls back to the MSR device (tests/guest/70-msr-fallback.sh),
# software events come from rusage; compare needs the module.
rmmod pmcdrv
had_msr=0
grep -q '^msr ' /proc/modules && had_msr=1 && rmmod msr
pmcctl run -e task-clock -- true 2>/tmp/err
expect_eq "run without the module: software events -> 0" "$?" 0
check "run without the module says so and names insmod" grep -q 'pmcdrv is not loaded.*insmod' /tmp/err
pmcctl run -e instructions:u -- true 2>/tmp/err
expect_eq "run without the module or the msr driver: hardware events -> 3" "$?" 3
if have_pmu; then
	check "run without the module, hardware events: names modprobe msr" grep -q 'modprobe msr' /tmp/err
else
	check "run without the module, hardware events: no counters on this CPU" grep -q 'no architectural performance counters' /tmp/err
fi
pmcctl run -d /dev/nonexistent -e task-clock -- true 2>/tmp/err
expect_eq "run -d PATH that does not open: no fallback -> 3" "$?" 3
pmcctl compare -e task-clock -- true 2>/tmp/err
expect_eq "compare without the module -> 3" "$?" 3
check "compare without the module names the fix" grep -q 'insmod' /tmp/err
[ $had_msr = 1 ] && modprobe msr
insmod "$PMCDRV_KO"
check "module reloaded" module_loaded
