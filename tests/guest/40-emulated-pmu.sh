# SPDX-License-Identifier: GPL-2.0
# The emulated PMU of tests/qemu/patches (TCG + icount), seen through
# Linux's perf, user-space RDPMC and the raw MSRs: exact user instruction
# counts, fixed and general-purpose counters agreeing, the cycle model
# (cycles = 2 x instructions, ref-cycles = TSC ticks, 0x013C = TSC/4),
# CMASK/INV/EDGE, RDPMC permission, 48-bit wrap into GLOBAL_STATUS, overflow
# interrupts masking LVTPC, #GP for PMU MSRs the model lacks, GLOBAL_CTRL's
# reset value, DEBUGCTL's Freeze_PerfMon_On_PMI.  Everything here is
# deterministic: no timing.
#
# The PMU model (tests/vm/run --pmu-model, PMCDRV_PMU_MODEL) sets what is
# expected: perfmon version, GP counters, counter width, full-width writes.
# The model's own registers (GLOBAL_INUSE, STATUS_SET/RESET, 8 counters,
# 40-bit wrap, legacy PMCx writes) are checked in their lanes.
#
# On the hybrid Alder Lake (adl, adl23) everything here is the P-core's,
# CPU 0, which has spr's PMU exactly: perf runs pinned there with its events
# spelled for cpu_core (the cpu_atom rows are <not counted>), the MSRs are
# CPU 0's; CPU 1, the E-core, gives GLOBAL_CTRL's reset value (its 6 GP
# counters).  The E-core's counting, 3 cycles an instruction, and the rest
# of the hybrid are 41-hybrid.sh's.
. tests/lib/guest.sh

# The lazy flags never leak out of OSZAPC, and 32-bit ADCX/ADOX carry right
# (QEMU 7.2 set EFLAGS.VM and bits 22-31 here; tests/qemu/README.md).  Not a
# PMU property: it runs in every guest.
if [ -x build/tests/emupmu_eflags ]; then
	build/tests/emupmu_eflags
else
	fail "emupmu_eflags" "build/tests/emupmu_eflags not built (make tests)"
fi

if ! have_pmu; then
	echo "SKIP: emulated PMU tests: no PMU in this guest"
	exit 0
fi

loop=build/progs/loop
n() { printf '%09d' "$1"; }		# fixed width: constant per-run overhead

# What the lane's model must look like (tests/qemu/README.md, "Models").
model=${PMCDRV_PMU_MODEL:-default}
VER=2 NGP=4 BITS=48 FW=1 NFIX=3 NGP1=
case $model in
default) ;;
v4) VER=4 ;;
gp8) NGP=8 ;;
nofw) FW=0 ;;
w40) BITS=40 ;;
spr) VER=5 NGP=8 NFIX=4 ;;	# fixed counter 3 and PERF_METRICS: 66-topdown.sh
adl|adl23) VER=5 NGP=8 NFIX=4 NGP1=6 ;;	# the P-core (CPU 0) as spr; the E-core's 6 GP (CPU 1)
*) fail "PMU model" "unknown PMCDRV_PMU_MODEL '$model'"; exit 1 ;;
esac
echo "info: PMU model $model: perfmon v$VER, $NGP GP counters, $BITS bits, full-width writes $FW"
NGP1=${NGP1:-$NGP}	# CPU 1's GP counters
# On a hybrid part perf stat runs on the P-core (CPU 0) with its events on
# cpu_core alone (--cputype core: a group whose members perf would otherwise
# split between the types counts as one), and pc_ev spells an event of perf's
# cpu PMU for cpu_core (cpu/.../ as cpu_core/.../).
pc_perf() { if hybrid_cpu; then taskset -c 0 perf "$1" --cputype core "${@:2}"; else perf "$@"; fi; }
pc_ev() {
	hybrid_cpu || { echo "$1"; return; }
	case $1 in
	cpu/*) echo "cpu_core/${1#cpu/}" ;;
	*) echo "$1" ;;
	esac
}

# GLOBAL_CTRL after reset: GP counters enabled, fixed counters not (SDM).
# Checked on CPU 1, which nothing has used since power-up, after an INIT
# (onlining a CPU), which keeps the PMU registers (tests/qemu/init-check
# shows that from QEMU's trace).  Checked first: once perf has used a CPU,
# Linux rewrites GLOBAL_CTRL there whenever it enables its PMU.
if [ -e /sys/devices/system/cpu/cpu1/online ]; then
	grep -q '^msr ' /proc/modules && msr_was=1 || msr_was=0
	modprobe msr
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online
	expect_eq "msr: GLOBAL_CTRL from reset, kept by INIT, is the GP counter bits only" "$(rdmsr -p 1 0x38f)" \
		"$(printf '%x' $(((1 << NGP1) - 1)))"
	[ $msr_was = 1 ] || rmmod msr
fi

# perf_counts EVENTS CMD...: "name=value" per event from perf stat -x,.
# (Hybrid: on CPU 0, the cpu_core rows named as the events were, the cpu_atom ones left out.)
perf_counts() {
	local ev=$1
	shift
	pc_perf stat -x, -e "$ev" "$@" 2>&1 >/dev/null | awk -F, 'NF >= 3 && $3 != "" {
		n = $3; if (n ~ /^cpu_atom\//) next
		if (n ~ /^cpu_core\//) { sub(/^cpu_core\//, "", n); sub(/\/$/, "", n) }
		print n "=" $1 }'
}
# perf_value EVENT CMD...: the count of one event.
perf_value() {
	local ev=$1
	shift
	perf_counts "$ev" "$@" | awk -F= -v e="$ev" '$1 == e { print $2 }'
}
is_count() { [[ "$1" =~ ^[0-9]+$ ]]; }

# ---- boot log ---------------------------------------------------------------------
pe=$(dmesg | grep 'Performance Events:' | head -n1)
echo "info: ${pe#*] }"
check "boot log: perf uses the Intel PMU driver" grep -q 'Intel PMU driver' <<<"$pe"
if [ "$model" = spr ]; then
	check "boot log: perf recognises the CPU model (Sapphire Rapids events)" grep -q 'Sapphire Rapids events' <<<"$pe"
elif hybrid_cpu; then
	check "boot log: perf recognises the CPU model (Alderlake Hybrid events)" grep -q 'Alderlake Hybrid events' <<<"$pe"
else
	check "boot log: perf recognises the CPU model (Skylake events)" grep -q 'Skylake events' <<<"$pe"
fi
check "boot log: no 'software events only'" bash -c '! dmesg | grep -q "software events only"'
check "boot log: no 'Broken PMU hardware'" bash -c '! dmesg | grep -q "Broken PMU hardware"'
check "boot log: perfmon version $VER, $NGP generic and $NFIX fixed counters, $BITS bits" bash -c \
	"dmesg | grep -Eq 'version: +$VER\$' && dmesg | grep -Eq 'generic registers: +$NGP\$' &&
	 dmesg | grep -Eq 'fixed-purpose events: +$NFIX\$' && dmesg | grep -Eq 'bit width: +$BITS\$'"
if [ $FW = 1 ]; then
	check "boot log: full-width counters" grep -q 'full-width counters' <<<"$pe"
else
	check "boot log: no full-width counters (FW_WRITE clear)" bash -c "! grep -q 'full-width counters' <<<'$pe'"
fi

# ---- exact instruction counts through perf -----------------------------------------
N=1000000
c1=$(perf_value instructions:u $loop "$(n $N)")
echo "info: instructions:u of loop $(n $N) = $c1"
if is_count "$c1"; then
	same=1 vals=""
	for i in 1 2 3 4 5 6 7 8 9; do
		v=$(perf_value instructions:u $loop "$(n $N)")
		vals="$vals $v"
		[ "$v" = "$c1" ] || same=0
	done
	if [ "$same" = 1 ]; then
		pass "instructions:u identical over 10 runs ($c1)"
	else
		fail "instructions:u identical over 10 runs" "first $c1, then$vals"
	fi
	c2=$(perf_value instructions:u $loop "$(n $((2 * N)))")
	if is_count "$c2"; then
		expect_eq "instructions:u: loop 2N minus loop N is exactly 2N" $((c2 - c1)) $((2 * N))
		# loop.S with a 9-digit N retires 5 + 9*10 + 3 + 2 + 2N + 3 = 2N + 103
		# user instructions, the syscall included: counted by hand.
		expect_eq "instructions:u: loop N is exactly 2N + 103 (counted by hand)" "$c1" $((2 * N + 103))
	else
		fail "instructions:u: loop 2N minus loop N is exactly 2N" "perf stat gave '$c2'"
	fi
	c0=$(perf_value instructions:u $loop "$(n 0)")
	is_count "$c0" && expect_eq "instructions:u: loop 0 is the constant alone" "$c0" $((c1 - 2 * N))
else
	fail "instructions:u identical over 10 runs" "perf stat gave '$c1'"
fi

ck=$(perf_value instructions:k $loop "$(n $N)")
check "instructions:k is non-zero ($ck)" test "${ck:-0}" -gt 0 2>/dev/null

# One lands on fixed counter 0, the other on a general-purpose counter.
g=$(perf_counts '{instructions:u,r00c0:u}' $loop "$(n $N)")
echo "info: group:" $g
fx=$(awk -F= '$1 == "instructions:u" { print $2 }' <<<"$g")
gp=$(awk -F= '$1 == "r00c0:u" { print $2 }' <<<"$g")
if is_count "$fx" && is_count "$gp"; then
	expect_eq "{instructions:u,r00c0:u}: fixed and GP counter agree" "$gp" "$fx"
	expect_eq "{instructions:u,r00c0:u}: equal to instructions:u alone" "$fx" "$c1"
else
	fail "{instructions:u,r00c0:u}: fixed and GP counter agree" "perf stat gave: $g"
fi

# The cycle model (tests/qemu/README.md): core cycles = 2 x instructions
# (fixed 1 and GP 0x3c), ref-cycles (0x0300) = TSC ticks = instructions
# under -icount shift=0 (fixed 2 only), GP 0x013C (REF_XCLK) = TSC ticks / 4.
# A driver that swaps fixed counters 0 and 1 or 1 and 2, or that puts
# ref-cycles on a GP counter as 0x013C, gets different numbers.
g=$(perf_counts '{instructions:u,cycles:u,ref-cycles:u,r003c:u,r013c:u}' $loop "$(n $N)")
echo "info: group:" $g
val() { awk -F= -v e="$1" '$1 == e { print $2 }' <<<"$g"; }
ins=$(val instructions:u)
if is_count "$ins"; then
	expect_eq "cycles:u (fixed 1) is 2 x instructions:u" "$(val cycles:u)" $((2 * ins))
	expect_eq "r003c:u (GP core cycles) is 2 x instructions:u" "$(val r003c:u)" $((2 * ins))
	expect_eq "ref-cycles:u (fixed 2) is the TSC ticks, = instructions:u at shift=0" "$(val ref-cycles:u)" "$ins"
	x=$(val r013c:u)
	# floor(TSC/4) per user-mode stretch: within one per kernel entry of ins/4
	check "r013c:u (GP REF_XCLK) is TSC/4 ($x vs $((ins / 4))), not fixed 2's count" \
		test "${x:-0}" -ge $((ins / 4 - ins / 1000)) -a "${x:-0}" -le $((ins / 4 + ins / 1000))
else
	fail "cycles:u is 2 x instructions:u" "perf stat gave: $g"
fi

# The same through pmcdrv, as perf: ref-cycles is fixed counter 2 only
# (0x0300), a raw 0x013C in any spelling is REF_XCLK on a GP counter, even
# when fixed counter 2 is free.  A driver that maps r013c onto fixed 2
# counts TSC ticks (= instructions) for it; one that lets ref-cycles fall
# back to a GP counter accepts the second ref-cycles below.
if module_loaded && is_count "$ins"; then
	pc_json() { pmcctl run -j -e "$1" -- $loop "$(n $N)" 2>&1 >/dev/null; }	# counts on stderr
	pc_val() { jq -r --arg e "$1" 'select(.event == $e) | ."counter-value" | floor' <<<"$2"; }
	j=$(pc_json instructions:u,ref-cycles:u)
	pins=$(pc_val instructions:u "$j")
	echo "info: pmcctl: instructions:u=$pins ref-cycles:u=$(pc_val ref-cycles:u "$j")"
	check "pmcctl: instructions:u is a count ($pins)" is_count "$pins"
	expect_eq "pmcctl: ref-cycles:u (fixed 2) is the TSC ticks, = instructions:u" \
		"$(pc_val ref-cycles:u "$j")" "${pins:-0}"
	for ev in r013c:u 0x013c:u 'cpu/event=0x3c,umask=1/:u'; do
		x=$(pc_val "$ev" "$(pc_json "$ev")")
		check "pmcctl: $ev alone is GP REF_XCLK = TSC/4 ($x vs $((pins / 4))), not fixed 2" \
			test "${x:-0}" -gt 0 -a "${x:-0}" -ge $((pins / 4 - pins / 1000)) -a "${x:-0}" -le $((pins / 4 + pins / 1000))
	done
	x=$(pc_val r300:u "$(pc_json r300:u)")
	expect_eq "pmcctl: r300:u is ref-cycles (fixed 2)" "$x" "${pins:-0}"
	# Fixed counter 2 busy: a second ref-cycles takes turns with the first on
	# it (multiplexing, 10 intervals of 4 ms here), never moved to a GP
	# counter, where both would run all the time.
	j=$(pmcctl run -j -e ref-cycles:u,ref-cycles:k -- $loop "$(n 20000000)" 2>&1 >/dev/null)
	check "pmcctl: ref-cycles twice takes turns on fixed counter 2: each on a counter 30-70% of the time" \
		jq -e -s 'length == 2 and all(."pcnt-running" > 30 and ."pcnt-running" < 70)' <<<"$j"
	pmcctl run -e 'cpu/event=0,umask=3,cmask=1/:u' -- true 2>/tmp/err
	rc=$?
	check "pmcctl: ref-cycles with cmask is refused (exit $rc)" test "$rc" != 0
	check "pmcctl: ... and the error names the fix" grep -q "cmask.*r013c" /tmp/err
	pmcctl run -e 'cpu/event=0,umask=5/:u' -- true 2>/tmp/err
	check "pmcctl: event 0x00 umask 5 (no such fixed counter) is refused" test "$?" != 0
elif ! module_loaded; then
	echo "SKIP: pmcdrv's ref-cycles and r013c: the module is not loaded"
fi

# CMASK, INV and EDGE on the model's per-cycle increments (SDM): an
# instruction retires every 2nd cycle, a cycle event increments every cycle.
if is_count "$ins"; then
	while read -r ev want; do
		got=$(pc_perf stat -x, -e "$(pc_ev "$ev")" $loop "$(n $N)" 2>&1 >/dev/null |
			awk -F, '$1 ~ /^[0-9]+$/ { print $1; exit }')
		expect_eq "$ev counts $want" "$got" $((want))
	done <<EOF2
cpu/event=0xc0,cmask=1/u		ins
cpu/event=0xc0,cmask=1,inv=1/u		ins
cpu/event=0xc0,cmask=2/u		0
cpu/event=0xc0,cmask=2,inv=1/u		2*ins
cpu/event=0xc0,edge=1,cmask=1/u		ins
cpu/event=0x3c,cmask=1/u		2*ins
cpu/event=0x3c,cmask=1,inv=1/u		0
cpu/event=0x3c,cmask=2,inv=1/u		2*ins
cpu/event=0x3c,edge=1,cmask=1/u		0
EOF2
fi
# An event the model does not implement counts 0 (branch-misses: CPUID says unavailable).
z=$(perf_value r01c4:u $loop "$(n $N)")
expect_eq "unmodelled event r01c4:u (branches) counts 0" "$z" 0

# ---- sampling: overflow interrupts through perf ------------------------------------
pmis() { awk '$1 == "PMI:" { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
# Pinned to one vCPU.  Unpinned, perf record opens one event per CPU for a
# workload, each with its own period, so a loop that migrates leaves a part
# period on each CPU's event and may give a sample less: perf's doing, not
# the emulator's (tests/qemu/README.md, "Sampling across vCPUs").
p0=$(pmis)
taskset -c 0 perf record -q -e instructions:u -c 100000 -o /tmp/emupmu.data $loop "$(n 10000000)" >/dev/null 2>&1
p1=$(pmis)
samples=$(perf script -i /tmp/emupmu.data -F ip 2>/dev/null | wc -l)
expect_eq "perf record -c 100000 on 20M instructions: exactly 200 samples" "$samples" 200
check "perf record: at least 200 PMIs in /proc/interrupts ($((p1 - p0)))" test $((p1 - p0)) -ge 200
syms=$(perf script -i /tmp/emupmu.data -F ip,sym 2>/dev/null)
echo "info: samples by address:" $(awk '{ print $1 "/" $2 }' <<<"$syms" | sort | uniq -c)
expect_eq "perf record: every sample is in the loop" "$(awk '$2 == "loop"' <<<"$syms" | wc -l)" 200
rm -f /tmp/emupmu.data

# Sampling across vCPUs: with --per-thread (one event that follows the task)
# a loop moved from CPU 0 to CPU 1 while sampled gives every period, from both.
# The move is made as soon as the workload has exec'd: 400M instructions
# (0.4 s of guest time) leave it a long way to run.
if [ -e /sys/devices/system/cpu/cpu1/online ] && [ "$(cat /sys/devices/system/cpu/cpu1/online)" = 1 ]; then
	cpus=""
	for try in 1 2 3; do
		taskset -c 0 perf record -q --per-thread --sample-cpu -e instructions:u -c 2000000 \
			-o /tmp/emupmu.data $loop "$(n 200000000)" >/dev/null 2>&1 &
		pr=$!
		child=""
		for _ in $(seq 1 20000); do
			child=$(cat /proc/$pr/task/$pr/children 2>/dev/null) && child=${child%% *}
			[ -n "$child" ] && [ "$(cat /proc/$child/comm 2>/dev/null)" = loop ] && break
			child=""
		done
		[ -n "$child" ] && taskset -p -c 1 "$child" >/dev/null
		wait $pr
		perf script -i /tmp/emupmu.data -F cpu 2>/dev/null >/tmp/emupmu.cpus
		samples=$(wc -l </tmp/emupmu.cpus)
		cpus=$(tr -d ' []' </tmp/emupmu.cpus | sort -u | tr '\n' ' ')
		rm -f /tmp/emupmu.data /tmp/emupmu.cpus
		[ "$cpus" = "000 001 " ] && break
	done
	expect_eq "perf record --per-thread: the loop moved from CPU 0 to 1 while sampled (CPUs of its samples)" "$cpus" "000 001 "
	if hybrid_cpu; then
		# One event per core type (cpu_core on CPU 0, cpu_atom on CPU 1), each with its own
		# period: each leaves its last part period unsampled, so one sample may be lost.
		check "perf record --per-thread -c 2000000 on 400M instructions across the move (one event per core type): 199 or 200 samples ($samples)" \
			test "${samples:-0}" -ge 199 -a "${samples:-0}" -le 200
	else
		expect_eq "perf record --per-thread -c 2000000 on 400M instructions across the move: exactly 200 samples" "$samples" 200
	fi
fi

# ---- user-space RDPMC --------------------------------------------------------------
if [ -x build/tests/emupmu_rdpmc ]; then
	rdpmc=/sys/bus/event_source/devices/cpu/rdpmc
	hybrid_cpu && rdpmc=/sys/bus/event_source/devices/cpu_core/rdpmc	# emupmu_rdpmc's on CPU 0
	mode=$(cat $rdpmc)
	# Its bad-index checks need CPU 0's own counters: on a hybrid part more than leaf 0xA's.
	own=
	hybrid_cpu && own=$(pmcctl info --json |
		jq -r '.perfmon.core_types[] | select(.cpus == "0") | "\(.gp_counters),\(.fixed_counters)"')
	EMUPMU_COUNTERS=$own build/tests/emupmu_rdpmc
	echo "$mode" >$rdpmc
	expect_eq "rdpmc: sysfs value restored" "$(cat $rdpmc)" "$mode"
else
	fail "emupmu_rdpmc" "build/tests/emupmu_rdpmc not built (make tests)"
fi

# ---- raw MSRs: counter wrap, GLOBAL_STATUS, PMI -------------------------------------
# pmcdrv and perf must leave the counters alone: unload pmcdrv; nmi_watchdog=0.
had_module=0 had_msr=0
module_loaded && had_module=1 && rmmod pmcdrv
grep -q '^msr ' /proc/modules && had_msr=1
modprobe msr

EVTSEL0=0x186 PMC0=0xc1 A_PMC0=0x4c1 FIXED_CTR0=0x309 FIXED_CTR_CTRL=0x38d
STATUS=0x38e GLOBAL_CTRL=0x38f OVF_CTRL=0x390 STATUS_SET=0x391 INUSE=0x392
PERF_CAP=0x345 DEBUGCTL=0x1d9
rd() { rdmsr -p 0 -c "$1"; }
wr() { wrmsr -p 0 "$1" "$(printf '0x%x' "$2")"; }
# msr_gp OP MSR [VALUE]: "GP" when the access raises #GP, else "ok".
msr_gp() {
	if [ "$1" = rd ]; then rdmsr -p 0 "$2" >/dev/null 2>&1; else wrmsr -p 0 "$2" "$3" >/dev/null 2>&1; fi &&
		echo ok || echo GP
}
TOP=$((1 << BITS))
MASK=$((TOP - 1))
# wr_pmc0 VALUE: preload PMC0 with a value that has bits 31..BITS-1 all
# equal, through A_PMC0 when the model has full-width writes, else through
# the legacy PMC0, which sign-extends bit 31.
wr_pmc0() { if [ $FW = 1 ]; then wr $A_PMC0 "$1"; else wr $PMC0 $(($1 & 0xffffffff)); fi; }
declare -A saved
for m in $EVTSEL0 $PMC0 $FIXED_CTR0 $FIXED_CTR_CTRL $GLOBAL_CTRL; do
	saved[$m]=$(rd $m)
done
restore_msrs() {
	wr $EVTSEL0 0
	wr $FIXED_CTR_CTRL 0
	wr $DEBUGCTL 0
	if [ $FW = 1 ]; then wr $A_PMC0 "${saved[$PMC0]}"; else wr $PMC0 $((saved[$PMC0] & 0xffffffff)); fi
	wr $FIXED_CTR0 "${saved[$FIXED_CTR0]}"
	wr $OVF_CTRL $(((1 << 32) | 1))
	wr $GLOBAL_CTRL "${saved[$GLOBAL_CTRL]}"
	wr $FIXED_CTR_CTRL "${saved[$FIXED_CTR_CTRL]}"
	wr $EVTSEL0 "${saved[$EVTSEL0]}"
}
echo "info: CPU 0 before: EVTSEL0=${saved[$EVTSEL0]} FIXED_CTR_CTRL=${saved[$FIXED_CTR_CTRL]} GLOBAL_CTRL=${saved[$GLOBAL_CTRL]} STATUS=$(rd $STATUS)"

PRE=$((TOP - 100000))		# wraps after 100000 events
EN=$((1 << 22)) INT=$((1 << 20)) USR=$((1 << 16))
busy() { taskset -c 0 $loop "$(n 100000)"; }	# 200000 user instructions on CPU 0

# IA32_PERF_CAPABILITIES: FW_WRITE (bit 13) as the model says.
expect_eq "msr: PERF_CAPABILITIES.FW_WRITE is $FW" $((($(rd $PERF_CAP) >> 13) & 1)) $FW

# GP counter 0, instructions:u, no interrupt.
wr $EVTSEL0 0
wr $OVF_CTRL 1
wr $GLOBAL_CTRL $((saved[$GLOBAL_CTRL] | 1))
expect_eq "msr: GLOBAL_STATUS bit 0 clear after OVF_CTRL write" $(($(rd $STATUS) & 1)) 0
wr_pmc0 $PRE
expect_eq "msr: PMC0 reads back a $BITS-bit preload" "$(rd $PMC0)" "$(printf '0x%x' $PRE)"
p0=$(pmis)
wr $EVTSEL0 $((EN | USR | 0xc0))
busy
wr $EVTSEL0 0
p1=$(pmis)
st=$(rd $STATUS) v=$(rd $PMC0)
echo "info: after the wrap: STATUS=$st PMC0=$v"
expect_eq "msr: PMC0 wrap past 2^$BITS sets GLOBAL_STATUS bit 0" $((st & 1)) 1
check "msr: PMC0 wrapped to a small value ($((v)))" test $((v)) -ge 100000 -a $((v)) -lt $((1 << 32))
expect_eq "msr: no PMI without EVTSEL.INT" $((p1 - p0)) 0
wr $OVF_CTRL 1
expect_eq "msr: OVF_CTRL bit 0 clears GLOBAL_STATUS bit 0" $(($(rd $STATUS) & 1)) 0
expect_eq "msr: GLOBAL_STATUS is read-only (write raises #GP)" "$(msr_gp wr $STATUS 0)" GP

# Fixed counter 0 (user mode), no interrupt: GLOBAL_STATUS bit 32.
wr $GLOBAL_CTRL $((saved[$GLOBAL_CTRL] | (1 << 32)))
wr $FIXED_CTR0 $PRE
wr $FIXED_CTR_CTRL 0x2
busy
wr $FIXED_CTR_CTRL 0
st=$(rd $STATUS)
expect_eq "msr: FIXED_CTR0 wrap past 2^$BITS sets GLOBAL_STATUS bit 32" $(((st >> 32) & 1)) 1
wr $OVF_CTRL $((1 << 32))
expect_eq "msr: OVF_CTRL bit 32 clears GLOBAL_STATUS bit 32" $((($(rd $STATUS) >> 32) & 1)) 0

# Counter writes: bits above the width raise #GP; the legacy PMC0 alias
# takes bits 31:0 and sign-extends bit 31 to the width (SDM 18.2.5).
expect_eq "msr: FIXED_CTR0 write of bit $BITS raises #GP" "$(msr_gp wr $FIXED_CTR0 $(printf '0x%x' $TOP))" GP
wr $PMC0 0x80000000
expect_eq "msr: PMC0 write 0x80000000 sign-extends to $BITS bits" "$(rd $PMC0)" "$(printf '0x%x' $((MASK - 0x7fffffff)))"
wr $PMC0 0x123456789
expect_eq "msr: PMC0 write keeps bits 31:0 only (0x123456789 -> 0x23456789)" "$(rd $PMC0)" 0x23456789
if [ $FW = 1 ]; then
	expect_eq "msr: A_PMC0 write of bit $BITS raises #GP" "$(msr_gp wr $A_PMC0 $(printf '0x%x' $TOP))" GP
	wr $A_PMC0 $((1 << (BITS - 1)))
	expect_eq "msr: A_PMC0 writes all $BITS bits" "$(rd $PMC0)" "$(printf '0x%x' $((1 << (BITS - 1))))"
else
	expect_eq "msr: without FW_WRITE, A_PMC0 read raises #GP" "$(msr_gp rd $A_PMC0)" GP
	expect_eq "msr: without FW_WRITE, A_PMC0 write raises #GP" "$(msr_gp wr $A_PMC0 0)" GP
fi

# The GP counters the model has are usable (the last one counts), the
# next ones raise #GP.  GLOBAL_CTRL takes exactly their bits.
last=$((NGP - 1))
wr $((EVTSEL0 + last)) 0
wr $((PMC0 + last)) 0
wr $GLOBAL_CTRL $((saved[$GLOBAL_CTRL] | (1 << last)))
wr $((EVTSEL0 + last)) $((EN | USR | 0xc0))
busy
wr $((EVTSEL0 + last)) 0
v=$(rd $((PMC0 + last)))
check "msr: PMC$last (the last GP counter) counts instructions:u ($((v)) >= 200000)" test $((v)) -ge 200000
wr $((PMC0 + last)) 0
wr $GLOBAL_CTRL "${saved[$GLOBAL_CTRL]}"
expect_eq "msr: GLOBAL_CTRL bit $NGP (no PMC$NGP) raises #GP" "$(msr_gp wr $GLOBAL_CTRL $(printf '0x%x' $((1 << NGP))))" GP

# PMU MSRs this model lacks raise #GP on RDMSR and WRMSR, as on a CPU
# without them: EVTSEL/PMC/A_PMC from NGP to 8 (all A_PMC without
# FW_WRITE), FIXED_CTR3, PERF_METRICS, v4's STATUS_SET/INUSE on v2, PEBS
# (PEBS_ENABLE, LD_LAT, FRONTEND) and DS_AREA (no DS in CPUID).
absent="0x3f1 0x3f6 0x3f7 0x600"
[ $NFIX -lt 4 ] && absent="$absent 0x30c 0x329"
for ((i = NGP; i <= 8; i++)); do
	absent="$absent $(printf '0x%x 0x%x' $((EVTSEL0 + i)) $((PMC0 + i)))"
	[ $FW = 1 ] && absent="$absent $(printf '0x%x' $((A_PMC0 + i)))"
done
[ $VER -lt 4 ] && absent="$absent $STATUS_SET $INUSE"
for m in $absent; do
	expect_eq "msr: absent PMU MSR $m raises #GP on rdmsr and wrmsr" "$(msr_gp rd $m)/$(msr_gp wr $m 0)" "GP/GP"
done

# IA32_DEBUGCTL: the model has Freeze_PerfMon_On_PMI (bit 12) only; LBR,
# BTF, BTS, Freeze_LBRs_On_PMI, Freeze_While_SMM... raise #GP.
expect_eq "msr: DEBUGCTL reads 0" "$(rd $DEBUGCTL)" 0x0
for b in 0 1 6 7 11 13 14 15; do
	expect_eq "msr: DEBUGCTL bit $b (not modelled) raises #GP" "$(msr_gp wr $DEBUGCTL $((1 << b)))" GP
done
expect_eq "msr: DEBUGCTL.Freeze_PerfMon_On_PMI is writable" "$(msr_gp wr $DEBUGCTL 0x1000)/$(rd $DEBUGCTL)" ok/0x1000
wr $DEBUGCTL 0

# MSR_OFFCORE_RSP_0/1 (0x1a6, 0x1a7): Skylake's valid mask 0x3fffff8fff
# (Sapphire Rapids': 0x3fffffffff); a written value reads back, a bit outside
# the mask (12..14 on Skylake, 38..63) raises #GP and leaves the register as it was.
ORSP=0x3fffff8fff ORSP_BAD="12 13 14 38 63"
[ "$VER" = 5 ] && ORSP=0x3fffffffff ORSP_BAD="38 63"
for m in 0x1a6 0x1a7; do
	expect_eq "msr: OFFCORE_RSP $m reads 0 after reset" "$(rd $m)" 0x0
	expect_eq "msr: OFFCORE_RSP $m takes every valid bit" \
		"$(msr_gp wr $m $ORSP)/$(rd $m)" ok/$ORSP
	for b in $ORSP_BAD; do
		expect_eq "msr: OFFCORE_RSP $m bit $b (reserved) raises #GP, value kept" \
			"$(msr_gp wr $m $(printf '0x%x' $((1 << b))))/$(rd $m)" GP/$ORSP
	done
	wr $m 0x10001
	expect_eq "msr: OFFCORE_RSP $m reads back 0x10001" "$(rd $m)" 0x10001
	wr $m 0
done

# perfmon v4: GLOBAL_INUSE (SDM: bit i = EVTSELi[7:0] != 0, bit 32+i =
# FIXED_CTR_CTRL field i's enable bits != 0, bit 63 = a PMI enabled),
# GLOBAL_STATUS_SET sets status bits, GLOBAL_STATUS_RESET (0x390) clears them.
if [ $VER -ge 4 ]; then
	# perf leaves a disabled event's EVTSEL in place: clear them all (EVTSEL0
	# and FIXED_CTR_CTRL are restored at the end; nothing else uses them now).
	for ((i = 0; i < NGP; i++)); do wr $((EVTSEL0 + i)) 0; done
	wr $FIXED_CTR_CTRL 0
	expect_eq "v4: GLOBAL_INUSE is 0 with nothing programmed" "$(rd $INUSE)" 0x0
	wr $((EVTSEL0 + 1)) 0xc0
	expect_eq "v4: GLOBAL_INUSE bit 1 for EVTSEL1 = 0xc0 (not enabled)" "$(rd $INUSE)" 0x2
	wr $((EVTSEL0 + 1)) $((USR | INT))
	expect_eq "v4: EVTSEL1 with event 0 and INT: bit 63 only" "$(rd $INUSE)" 0x8000000000000000
	wr $((EVTSEL0 + 1)) 0
	wr $FIXED_CTR_CTRL 0x20
	expect_eq "v4: GLOBAL_INUSE bit 33 for fixed counter 1 (USR)" "$(rd $INUSE)" 0x200000000
	wr $FIXED_CTR_CTRL 0x8
	expect_eq "v4: fixed counter 0 with PMI but not enabled: bit 63 only" "$(rd $INUSE)" 0x8000000000000000
	wr $FIXED_CTR_CTRL 0
	expect_eq "v4: GLOBAL_INUSE is read-only" "$(msr_gp wr $INUSE 0)" GP
	wr $STATUS_SET $(((1 << 32) | (1 << last)))
	expect_eq "v4: GLOBAL_STATUS_SET sets status bits $last and 32" "$(rd $STATUS)" "$(printf '0x%x' $(((1 << 32) | (1 << last))))"
	expect_eq "v4: GLOBAL_STATUS_SET bit 63 (CondChgd) raises #GP" "$(msr_gp wr $STATUS_SET 0x8000000000000000)" GP
	wr $OVF_CTRL $(((1 << 32) | (1 << last)))
	expect_eq "v4: GLOBAL_STATUS_RESET clears them" "$(rd $STATUS)" 0x0
	if [ $VER -ge 5 ]; then
		expect_eq "v5: AnyThread (EVTSEL bit 21) is deprecated, raises #GP" "$(msr_gp wr $EVTSEL0 $((1 << 21)))" GP
	else
		expect_eq "v4: AnyThread (EVTSEL bit 21) is accepted" "$(msr_gp wr $EVTSEL0 $((1 << 21)))" ok
	fi
	wr $EVTSEL0 0
else
	expect_eq "v2: AnyThread (EVTSEL bit 21) raises #GP" "$(msr_gp wr $EVTSEL0 $((1 << 21)))" GP
fi

# Generating a PMI sets LVTPC's mask bit (SDM); Linux's handler clears it,
# but only for a PMI it claims, i.e. while some perf event exists.  With
# none, two overflows with INT raise one NMI: the second finds LVTPC masked.
# That NMI is unknown to Linux (perf's NMI handler returns NMI_DONE while no
# perf event exists), so it prints "Uhhuh. NMI received for unknown reason
# 21" and "Dazed and confused, but trying to continue" at KERN_EMERG, which
# reaches the console even with "quiet" (21 is port 0x61: PIT channel 2 gate
# and output, no SERR/IOCHK).  Expected here, and only here: the kernel log
# says so first, and the message is counted.
nmis() { awk '$1 == "NMI:" { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
unknown_nmis() { dmesg | grep -c 'Uhhuh. NMI received for unknown reason'; }
echo "40-emulated-pmu: an unclaimed PMI follows; one 'Uhhuh ... Dazed and confused' is expected" >/dev/kmsg
n0=$(nmis) u0=$(unknown_nmis)
for k in 1 2; do
	wr_pmc0 $PRE
	wr $EVTSEL0 $((EN | INT | USR | 0xc0))
	busy
	wr $EVTSEL0 0
done
n1=$(nmis) u1=$(unknown_nmis)
expect_eq "msr+INT: a PMI masks LVTPC (2 unclaimed overflows, 1 NMI)" $((n1 - n0)) 1
expect_eq "msr+INT: Linux reports the unclaimed PMI as one unknown NMI" $((u1 - u0)) 1
wr $OVF_CTRL 1

# Freeze_PerfMon_On_PMI (DEBUGCTL bit 12): the PMI of PMC0's overflow stops
# every counter (fixed counter 0 too).  Version 2 clears GLOBAL_CTRL;
# version 4 sets GLOBAL_STATUS.CTR_Frz (bit 59) and keeps GLOBAL_CTRL.
# LVTPC is still masked here, so no NMI is delivered; the freeze happens.
gc=$((saved[$GLOBAL_CTRL] | 1 | (1 << 32)))
wr $GLOBAL_CTRL $gc
wr $FIXED_CTR0 0
wr $FIXED_CTR_CTRL 0x2
wr $DEBUGCTL 0x1000
wr_pmc0 $PRE
wr $EVTSEL0 $((EN | INT | USR | 0xc0))
busy
f1=$(rd $FIXED_CTR0) v1=$(rd $PMC0) st=$(rd $STATUS) g1=$(rd $GLOBAL_CTRL)
busy
f2=$(rd $FIXED_CTR0) v2=$(rd $PMC0)
echo "info: freeze: FIXED_CTR0 $f1 -> $f2, PMC0 $v1 -> $v2, STATUS=$st GLOBAL_CTRL=$g1"
check "freeze: PMC0 stopped at its overflow ($((v1)) < 1000)" test $((v1)) -lt 1000
check "freeze: fixed counter 0 counted until then ($((f1)))" test $((f1)) -gt 0
expect_eq "freeze: nothing counts while frozen (FIXED_CTR0, PMC0)" "$f2 $v2" "$f1 $v1"
if [ $VER -ge 4 ]; then
	expect_eq "freeze v4: GLOBAL_STATUS has CTR_Frz (59) and PMC0's bit" $((st >> 59 & 1))$((st & 1)) 11
	expect_eq "freeze v4: GLOBAL_CTRL unchanged" $((g1)) $gc
	wr $OVF_CTRL $(((1 << 59) | 1))
else
	expect_eq "freeze v2: GLOBAL_CTRL cleared" $((g1)) 0
	wr $OVF_CTRL 1
	wr $GLOBAL_CTRL $gc
fi
wr $EVTSEL0 0
busy
f3=$(rd $FIXED_CTR0)
check "freeze: counting again once unfrozen ($((f3)) >= $((f2)) + 200000)" test $((f3)) -ge $((f2 + 200000))
wr $DEBUGCTL 0
wr $FIXED_CTR_CTRL 0
wr $OVF_CTRL $(((1 << 32) | 1))

# perf re-programs LVTPC (unmasked) whenever it schedules an event on a CPU.
taskset -c 0 perf stat -e instructions:u true >/dev/null 2>&1

# GP counter 0 with EVTSEL.INT: the PMI arrives through LVTPC as Linux left it
# (NMI).  A held, disabled perf event makes Linux's handler claim it.
ready=/tmp/emupmu.hold
rm -f $ready
build/tests/emupmu_hold $ready &
hold=$!
for i in $(seq 100); do [ -e $ready ] && break; sleep 0.1; done
if [ -e $ready ]; then
	uh0=$(dmesg | grep -c -e Uhhuh -e 'Dazed and confused')
	wr_pmc0 $PRE
	p0=$(pmis)
	wr $EVTSEL0 $((EN | INT | USR | 0xc0))
	busy
	wr $EVTSEL0 0
	p1=$(pmis)
	v=$(rd $PMC0) st=$(rd $STATUS)
	echo "info: after the wrap with INT: STATUS=$st PMC0=$v PMIs +$((p1 - p0))"
	check "msr+INT: PMC0 wrapped ($((v)))" test $((v)) -ge 100000 -a $((v)) -lt $((1 << 32))
	expect_eq "msr+INT: exactly one PMI" $((p1 - p0)) 1
	expect_eq "msr+INT: the PMI handler acknowledged GLOBAL_STATUS bit 0" $((st & 1)) 0
	expect_eq "msr+INT: no unknown-NMI message" "$(dmesg | grep -c -e Uhhuh -e 'Dazed and confused')" "$uh0"
else
	fail "msr+INT: PMI" "emupmu_hold did not start"
fi
kill $hold 2>/dev/null
wait $hold 2>/dev/null
rm -f $ready

restore_msrs

ok=1
for m in $EVTSEL0 $PMC0 $FIXED_CTR0 $FIXED_CTR_CTRL $GLOBAL_CTRL; do
	# Without FW_WRITE only values whose bits 31..BITS-1 agree can be written back.
	if [ $m = $PMC0 ] && [ $FW = 0 ] &&
		[ $((saved[$PMC0] >> 31)) != 0 ] && [ $((saved[$PMC0] >> 31)) != $((MASK >> 31)) ]; then
		echo "info: PMC0 was ${saved[$PMC0]}: not restorable without full-width writes"
		continue
	fi
	[ "$(rd $m)" = "${saved[$m]}" ] || { ok=0; echo "info: MSR $m is $(rd $m), was ${saved[$m]}"; }
done
check "msr: every MSR restored" test $ok = 1
[ $had_msr = 1 ] || rmmod msr
if [ $had_module = 1 ]; then
	insmod "$PMCDRV_KO"
	check "module reloaded" module_loaded
fi
