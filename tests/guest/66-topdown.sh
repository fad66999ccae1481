# SPDX-License-Identifier: GPL-2.0
# Perfmon v5 top-down: fixed counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS,
# on the emulated Sapphire Rapids (tests/vm/run --pmu-model spr; the model is
# in tests/qemu/README.md, "Perfmon v5 and top-down").
#   - the registers' rules, raw: PERF_METRICS restored after fixed counter 3
#     keeps its fractions, before it loses them; fixed counter 3 wrapping with
#     PERF_METRICS enabled sets GLOBAL_STATUS bit 48 (and 35), not without;
#     RDPMC's ECX bit 29 reads PERF_METRICS
#   - pmcdrv: slots exactly 8 x instructions; each topdown metric the model's
#     share of the slots, and perf's own count of it, within 1/255 of the
#     slots; the pair reset fixed counter 3 first, then PERF_METRICS (the
#     msr:write_msr tracepoint); two tasks counted together add up to apart;
#     a task moved between CPUs keeps slots = 8 x instructions
#   - pmcctl run --topdown (level 1 and 2) against perf stat --topdown
# Elsewhere (no PERF_METRICS) everything here SKIPs, saying why; level 1
# from general-purpose events is 67-topdown-gp.sh's.
. tests/lib/guest.sh

if ! have_pmu; then
	echo "SKIP: topdown: no PMU in this guest"
	exit 0
fi
module_loaded || insmod "$PMCDRV_KO"
# (without PERF_METRICS, --topdown works from general-purpose events on some
# models: 67-topdown-gp.sh; a metric event does not)
if ! why=$(pmcctl run -e '{slots,topdown-retiring}' -- true 2>&1 >/dev/null); then
	echo "SKIP: topdown: no PERF_METRICS: $(tail -n 1 <<<"$why")"
	exit 0
fi

loop=build/progs/loop
straight=build/progs/straight
n() { printf '%09d' "$1"; }
N=$(n 200000)
L1="topdown-retiring topdown-bad-spec topdown-fe-bound topdown-be-bound"
L2="topdown-heavy-ops topdown-br-mispredict topdown-fetch-lat topdown-mem-bound"
EV="{slots,${L1// /,},${L2// /,}}:u"

# ---- The registers (msr-tools; nothing else uses the PMU now) ---------------
modprobe msr
FIXED_CTR3=0x30c PERF_METRICS=0x329 FIXED_CTR_CTRL=0x38d STATUS=0x38e GLOBAL_CTRL=0x38f
OVF_CTRL=0x390
rd() { rdmsr -p 0 -0 -x "$1" | sed 's/^0*//;s/^$/0/;s/^/0x/'; }
wr() { wrmsr -p 0 "$1" "$2"; }
# Linux's driver may rewrite GLOBAL_CTRL (with bits 35 and 48) whenever it
# enables its PMU: fixed counter 3's field in FIXED_CTR_CTRL starts and stops it.
saved_ctrl=$(rd $GLOBAL_CTRL) saved_fixed=$(rd $FIXED_CTR_CTRL)
on() { wr $FIXED_CTR_CTRL $((saved_fixed | (0x3 << 12))); }
off() { wr $FIXED_CTR_CTRL "$saved_fixed"; }
l1sum() { echo $((($1 & 0xff) + (($1 >> 8) & 0xff) + (($1 >> 16) & 0xff) + (($1 >> 24) & 0xff))); }
expect_eq "msr: PERF_CAPABILITIES has PERF_METRICS (bit 15) and FW_WRITE (13)" \
	$(($(rd 0x345) & 0xa000)) $((0xa000))
# Linux's perf zeroes the counters its events used on CPU 0 ("dirty" ones, fixed
# counter 3 and with it PERF_METRICS) at the next switch into a task that may RDPMC
# (perf_clear_dirty_counters(), arch/x86/events/core.c): after an earlier test's perf
# stat of top-down events, that would be td_rdpmc's own switch below.  One run of it
# first lets that happen now.
[ -x build/tests/td_rdpmc ] && build/tests/td_rdpmc >/dev/null
# Count something on CPU 0 with the pair enabled (fixed counter 3 at OS+USR).
wr $FIXED_CTR3 0
wr $PERF_METRICS 0
wr $GLOBAL_CTRL $((saved_ctrl | (1 << 35) | (1 << 48)))
on
taskset -c 0 $straight $(n 20000)
off
s=$(rd $FIXED_CTR3) m=$(rd $PERF_METRICS)
check "msr: fixed counter 3 counted ($((s)) slots) and PERF_METRICS has fractions ($m)" \
	test $((s)) -gt 0 -a $((m)) != 0
expect_eq "msr: PERF_METRICS's level-1 bytes sum to 0xff" "$(l1sum $m)" 255
if [ -x build/tests/td_rdpmc ]; then
	expect_eq "rdpmc: ECX 1<<29 reads PERF_METRICS, (1<<30)|3 fixed counter 3" \
		"$(build/tests/td_rdpmc)" "$m $s"
else
	fail "rdpmc" "build/tests/td_rdpmc not built (make tests)"
fi
wr $FIXED_CTR3 0
wr $PERF_METRICS 0
wr $FIXED_CTR3 "$s"
wr $PERF_METRICS "$m"
expect_eq "msr: restore fixed counter 3, then PERF_METRICS: the fractions come back" "$(rd $PERF_METRICS)" "$m"
wr $PERF_METRICS "$m"
wr $FIXED_CTR3 "$s"
expect_eq "msr: restore in the wrong order (PERF_METRICS first): the fractions are lost" "$(rd $PERF_METRICS)" 0x0
# Overflow: fixed counter 3 wraps past 2^48, with and without PERF_METRICS enabled.
wr $OVF_CTRL $(((1 << 48) | (1 << 35)))
wr $FIXED_CTR3 $(((1 << 48) - 64))
wr $GLOBAL_CTRL $(((saved_ctrl | (1 << 35)) & ~(1 << 48)))
on
taskset -c 0 true
off
expect_eq "msr: fixed counter 3 wraps without PERF_METRICS enabled: bit 35, not 48" \
	$((($(rd $STATUS) >> 35) & 1))/$((($(rd $STATUS) >> 48) & 1)) 1/0
wr $OVF_CTRL $((1 << 35))
wr $FIXED_CTR3 $(((1 << 48) - 64))
wr $GLOBAL_CTRL $((saved_ctrl | (1 << 35) | (1 << 48)))
on
taskset -c 0 true
off
expect_eq "msr: with PERF_METRICS enabled: GLOBAL_STATUS bits 48 and 35" \
	$((($(rd $STATUS) >> 35) & 1))/$((($(rd $STATUS) >> 48) & 1)) 1/1
wr $OVF_CTRL $(((1 << 48) | (1 << 35)))
expect_eq "msr: GLOBAL_STATUS_RESET bit 48 clears it" $((($(rd $STATUS) >> 48) & 1)) 0
m2=$(rd $PERF_METRICS) s2=$(rd $FIXED_CTR3)
check "msr: the metrics restarted at the wrap: fractions of the $((s2)) slots after it ($m2)" \
	test $((s2)) -lt $((1 << 40)) -a "$(l1sum $m2)" = 255
wr $FIXED_CTR3 0
wr $PERF_METRICS 0
wr $GLOBAL_CTRL "$saved_ctrl"

# ---- pmcdrv: the metrics as the model has them, and as perf counts them -------
# val CSV EVENT: the count of EVENT in pmcctl's or perf's -x, output.
val() { awk -F, -v e="$2" '$3 == e || $3 == e":u" { print $1; exit }' <<<"$1"; }
# within A B SLOTS: |A - B| <= SLOTS/255 (+1 for the rounding of each).
within() { local d=$(($1 - $2)); [ ${d#-} -le $(($3 / 255 + 1)) ]; }
# The model (tests/qemu/README.md): N instructions, J conditional branches:
# retiring N, bad-spec 2J, fe-bound N+J, be-bound 6N-3J; heavy-ops J,
# br-mispredict J, fetch-lat J, mem-bound 2N-J; slots 8N.
for prog in loop straight; do
	p=build/progs/$prog
	per=2
	[ $prog = straight ] && per=32
	out=$(pmcctl run -x, -e "$EV,instructions:u" -- $p $N 2>&1)
	ins=$(val "$out" instructions) slots=$(val "$out" slots)
	expect_eq "$prog: slots:u is exactly 8 x instructions:u ($ins)" "$slots" $((8 * ins))
	# Every instruction of the program before and after its loop is
	# straight-line but for the parse loop's jumps: J is the loop's
	# iterations plus a few; the model's shares hold within 1/255 anyway.
	N0=$((10#$N))
	J=$((N0))
	declare -A want=(
		[topdown-retiring]=$ins [topdown-bad-spec]=$((2 * J)) [topdown-fe-bound]=$((ins + J))
		[topdown-be-bound]=$((6 * ins - 3 * J)) [topdown-heavy-ops]=$J [topdown-br-mispredict]=$J
		[topdown-fetch-lat]=$J [topdown-mem-bound]=$((2 * ins - J)))
	for e in $L1 $L2; do
		v=$(val "$out" $e)
		check "$prog: pmcctl $e:u ($v) is the model's ${want[$e]} within slots/255" \
			within "${v:-0}" "${want[$e]}" "$slots"
	done
	pout=$(perf stat -x, -e "$EV" -- $p $N 2>&1)
	expect_eq "$prog: perf's slots:u is pmcctl's" "$(val "$pout" slots)" "$slots"
	for e in $L1 $L2; do
		check "$prog: pmcctl and perf agree on $e:u within slots/255 ($(val "$out" $e) vs $(val "$pout" $e))" \
			within "$(val "$out" $e)" "$(val "$pout" $e)" "$slots"
	done
done
check "loop and straight differ: bad-spec is 1/8 of loop's slots, not straight's" true

# The pair's reset: fixed counter 3 written before PERF_METRICS, every time.
. bench/lib/msrtrace.sh
if msr_trace_start; then
	taskset -c 0 pmcctl run -e "$EV" -- $loop $N >/dev/null 2>&1
	msr_trace_stop 0 /tmp/td.trace
	writes=$(grep -oE 'write_msr: (30c|329)' /tmp/td.trace | awk '{ print $2 }' | tr '\n' ' ')
	check "pmcdrv: the pair was reset ($(grep -c 'write_msr: 329' /tmp/td.trace) PERF_METRICS writes)" \
		grep -q 'write_msr: 329' /tmp/td.trace
	check "pmcdrv: every PERF_METRICS write follows a fixed counter 3 write (order: $writes)" \
		bash -c "! grep -qE '(^| )329 329|^329' <<<'$writes'"
else
	fail "pmcdrv: reset order" "cannot enable the msr tracepoints (tracefs)"
fi

# Two tasks counted together add up to the same two apart (per metric).
a=$(pmcctl run -x, -e "$EV" -- $loop $N 2>&1)
b=$(pmcctl run -x, -e "$EV" -- $straight $N 2>&1)
t=$(pmcctl run -x, -e "$EV" -- sh -c "$loop $N & $straight $N; wait" 2>&1)
ts=$(val "$t" slots)
for e in slots $L1 $L2; do
	check "together: $e:u of both ($(val "$t" $e)) = apart ($(val "$a" $e) + $(val "$b" $e)) within 2 slots/255 + sh's" \
		within "$(val "$t" $e)" $(($(val "$a" $e) + $(val "$b" $e))) $((3 * ts))
done

# A task that moves between CPUs keeps slots = 8 x instructions.
if [ "$(nproc)" -ge 2 ]; then
	out=$(pmcctl run -x, -e "{slots,topdown-retiring}:u,instructions:u" -- \
		sh -c "taskset -cp 0 \$\$ >/dev/null; $loop $N; taskset -cp 1 \$\$ >/dev/null; $loop $N; taskset -cp 0 \$\$ >/dev/null; $straight $N" 2>&1)
	ins=$(val "$out" instructions)
	expect_eq "migration: slots:u is exactly 8 x instructions:u across CPUs ($ins)" "$(val "$out" slots)" $((8 * ins))
	check "migration: retiring:u is 1/8 of the slots within slots/255" \
		within "$(val "$out" topdown-retiring)" "$ins" $((8 * ins))
fi

# ---- pmcctl run --topdown as perf stat --topdown prints it -------------------
for lvl in 1 2; do
	p=$(perf stat --topdown --td-level $lvl --all-user -x, -- $loop $N 2>&1 >/dev/null | grep -v '^$')
	q=$(pmcctl run --topdown --td-level $lvl --all-user -x, -- $loop $N 2>&1 >/dev/null | grep -v '^$')
	# metric-only CSV: one line of values (perf prints them with one decimal)
	pv=$(tail -n 1 <<<"$p") qv=$(tail -n 1 <<<"$q")
	check "--topdown --td-level $lvl -x,: as perf's ($qv vs $pv, within 0.5%)" td_close "$qv" "$pv"
done
out=$(pmcctl run --topdown --json -- $loop $N 2>&1 >/dev/null)
check "--topdown --json: retiring, bad speculation, frontend and backend bound" \
	jq -e -s 'map(."metric-unit") | index("Retiring") != null and index("Backend Bound") != null' <<<"$out"
out=$(pmcctl run --topdown -- $loop $N 2>&1 >/dev/null)
check "--topdown (text): percentages under perf's headers" grep -q 'Retiring' <<<"$out"

# ---- pmcctl run --regions --topdown: a breakdown per region ------------------
# (the regions read the thread's counts with READ_SELF: no self-read page
# for a session with a metric)
out=$(pmcctl run --regions --topdown --all-user -x, -- build/tests/td_regions 200000 2>&1 >/dev/null)
td() { region_td "$out" "$@"; }
check "--regions --topdown: branchy's Bad Speculation is loop's 12.5% ($(td branchy 'Bad Speculation'))" \
	near "$(td branchy 'Bad Speculation')" 12.5
check "--regions --topdown: straight's Bad Speculation is straight's 0.8% ($(td straight 'Bad Speculation'))" \
	near "$(td straight 'Bad Speculation')" 0.8
check "--regions --topdown: straight's Backend Bound is 73.8% ($(td straight 'Backend Bound'))" \
	near "$(td straight 'Backend Bound')" 73.8
check "--regions --topdown: both retire 12.5% ($(td branchy Retiring), $(td straight Retiring))" \
	bash -c "$(declare -f near); near '$(td branchy Retiring)' 12.5 && near '$(td straight Retiring)' 12.5"

# ---- Multiplexing: the pair is one unit -------------------------------------
# The group takes 4 GP counters (r013c is GP-only) and 5 more r013c stand
# beside it, on 8 GP counters: the session takes turns, and the metrics run
# exactly when slots do, so their shares of slots are the model's.
out=$(pmcctl run -x, -e "{slots,${L1// /,},r013c,r013c,r013c,r013c}:u,r013c:u,r013c:u,r013c:u,r013c:u,r013c:u" \
	-- $loop $(n 25000000) 2>&1)
pct() { awk -F, -v e="$1" '$3 == e || $3 == e":u" { print $5; exit }' <<<"$out"; }
check "mux: the session multiplexed (slots ran $(pct slots)% of the time)" \
	awk -v p="$(pct slots)" 'BEGIN { exit !(p != "" && p < 100) }'
for e in $L1; do
	expect_eq "mux: $e ran exactly when slots did" "$(pct $e)" "$(pct slots)"
done
slots=$(val "$out" slots)
check "mux: retiring is 1/8 of the (scaled) slots within slots/255" \
	within "$(val "$out" topdown-retiring)" $((slots / 8)) "$slots"
check "mux: bad-spec is 1/8 of the (scaled) slots within slots/255 (loop: J = N/2)" \
	within "$(val "$out" topdown-bad-spec)" $((slots / 8)) "$slots"

# ---- pmcctl stat -a --topdown: the CPUs' sum -----------------------------------
out=$(pmcctl stat -a --topdown --td-level 1 -x, -- $loop $N 2>&1 >/dev/null | grep -v '^$' | tail -n 1)
check "stat -a --topdown -x,: four level-1 shares that sum to 100% ($out)" \
	awk -F, '{ s = $1 + $2 + $3 + $4; exit !(NF >= 4 && s > 99.5 && s < 100.5) }' <<<"$out"
# -A: one line per CPU after a header, each CPU's own shares (a CPU that counted
# no slots has none, as perf prints it); -I: the interval's time first.
out=$(pmcctl stat -a -A --topdown --td-level 1 -x, -- $loop $N 2>&1 >/dev/null | grep -v '^$')
check "stat -a -A --topdown -x,: a header, a line per CPU, each with shares sums to 100% ($(tr '\n' ' ' <<<"$out"))" \
	awk -F, 'NR == 1 { ok = $1 == "cpu" && $2 == "Retiring"; next }
		 $1 ~ /^CPU[0-9]+$/ { n++; if (NF < 5) next; m++; s = $2 + $3 + $4 + $5; if (!(s > 99.5 && s < 100.5)) bad++ }
		 END { exit !(ok && n == '"$(nproc)"' && m >= 1 && !bad) }' <<<"$out"
# 150M iterations: 0.3 s of guest time (one instruction a ns), three intervals or more.
out=$(pmcctl stat -a -I 100 --topdown --td-level 1 -x, -- $loop $(n 150000000) 2>&1 >/dev/null | grep -v '^$')
check "stat -a -I 100 --topdown -x,: a header, then 3+ intervals of four shares summing to 100% ($(head -c 300 <<<"$out" | tr '\n' ' '))" \
	awk -F, 'NR == 1 { ok = $1 ~ /^ *time$/ && $2 == "Retiring"; next }
		 { n++; s = $2 + $3 + $4 + $5; if (!($1 > 0 && s > 99.5 && s < 100.5)) bad++ }
		 END { exit !(ok && n >= 3 && !bad) }' <<<"$out"
pmcctl stat -a -I 100 --topdown -- $loop $N 2>&1 >/dev/null | head -n 1 >/tmp/td.hdr
check "stat -I --topdown: the text header names the metrics after the time column" \
	grep -q '^#           time  *Retiring  *Bad Speculation' /tmp/td.hdr

# ---- Four sessions at once on the CPUs: each keeps its own pair ----------------
# Their tasks switch on the same CPUs, so each start resets the pair after
# another session's stop: every session's slots stay exactly 8 x its
# instructions, and its metrics the model's shares of them.
for i in 1 2 3 4; do
	p=$loop
	[ $((i % 2)) = 0 ] && p=$straight
	pmcctl run -x, -o /tmp/td.$i -e "{slots,topdown-retiring,topdown-bad-spec}:u,instructions:u" \
		-- $p $(n 300000) &
done
wait
for i in 1 2 3 4; do
	out=$(cat /tmp/td.$i)
	ins=$(val "$out" instructions) slots=$(val "$out" slots)
	J=300000
	expect_eq "concurrent session $i: slots:u is exactly 8 x instructions:u ($ins)" "$slots" $((8 * ins))
	check "concurrent session $i: retiring and bad-spec are the model's within slots/255" \
		bash -c "$(declare -f within); within '$(val "$out" topdown-retiring)' '$ins' '$slots' &&
			 within '$(val "$out" topdown-bad-spec)' $((2 * J)) '$slots'"
done
