# SPDX-License-Identifier: GPL-2.0
# The emulated PMU of tests/qemu/pmu.patch (TCG + icount), seen through
# Linux's perf, user-space RDPMC and the raw MSRs: exact user instruction
# counts, fixed and general-purpose counters agreeing, the cycle model
# (cycles = 2 x instructions, ref-cycles = TSC ticks, 0x013C = TSC/4),
# CMASK/INV/EDGE, RDPMC permission, 48-bit wrap into GLOBAL_STATUS, overflow
# interrupts masking LVTPC, #GP for PMU MSRs the model lacks, GLOBAL_CTRL's
# reset value.  Everything here is deterministic: no timing.
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

# GLOBAL_CTRL after reset: GP counters enabled, fixed counters not (SDM).
# Onlining a CPU puts it through INIT.  Checked first: once perf has used a
# CPU, Linux rewrites GLOBAL_CTRL there whenever it enables its PMU.
if [ -e /sys/devices/system/cpu/cpu1/online ]; then
	grep -q '^msr ' /proc/modules && msr_was=1 || msr_was=0
	modprobe msr
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online
	expect_eq "msr: GLOBAL_CTRL after INIT is the GP counter bits only" "$(rdmsr -p 1 0x38f)" f
	[ $msr_was = 1 ] || rmmod msr
fi

# perf_counts EVENTS CMD...: "name=value" per event from perf stat -x,.
perf_counts() {
	local ev=$1
	shift
	perf stat -x, -e "$ev" "$@" 2>&1 >/dev/null | awk -F, 'NF >= 3 && $3 != "" { print $3 "=" $1 }'
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
check "boot log: perf recognises the CPU model (Skylake events)" grep -q 'Skylake events' <<<"$pe"
check "boot log: no 'software events only'" bash -c '! dmesg | grep -q "software events only"'
check "boot log: no 'Broken PMU hardware'" bash -c '! dmesg | grep -q "Broken PMU hardware"'
check "boot log: 4 generic and 3 fixed counters, 48 bits" bash -c \
	'dmesg | grep -Eq "generic registers: +4\$" && dmesg | grep -Eq "fixed-purpose events: +3\$" && dmesg | grep -Eq "bit width: +48\$"'

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
	# Fixed counter 2 busy: a second ref-cycles is refused, never moved to a GP counter.
	pmcctl run -e ref-cycles:u,ref-cycles:k -- true 2>/tmp/err
	rc=$?
	check "pmcctl: ref-cycles twice (fixed 2 busy) is refused (exit $rc)" test "$rc" != 0
	check "pmcctl: ... and the error names ref-cycles, fixed counter 2 and r013c" \
		grep -q "ref-cycles:k.*fixed counter 2.*r013c" /tmp/err
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
		got=$(perf stat -x, -e "$ev" $loop "$(n $N)" 2>&1 >/dev/null |
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
p0=$(pmis)
perf record -q -e instructions:u -c 100000 -o /tmp/emupmu.data $loop "$(n 10000000)" >/dev/null 2>&1
p1=$(pmis)
samples=$(perf script -i /tmp/emupmu.data -F ip 2>/dev/null | wc -l)
expect_eq "perf record -c 100000 on 20M instructions: exactly 200 samples" "$samples" 200
check "perf record: at least 200 PMIs in /proc/interrupts ($((p1 - p0)))" test $((p1 - p0)) -ge 200
syms=$(perf script -i /tmp/emupmu.data -F ip,sym 2>/dev/null)
echo "info: samples by address:" $(awk '{ print $1 "/" $2 }' <<<"$syms" | sort | uniq -c)
expect_eq "perf record: every sample is in the loop" "$(awk '$2 == "loop"' <<<"$syms" | wc -l)" 200
rm -f /tmp/emupmu.data

# ---- user-space RDPMC --------------------------------------------------------------
if [ -x build/tests/emupmu_rdpmc ]; then
	mode=$(cat /sys/bus/event_source/devices/cpu/rdpmc)
	build/tests/emupmu_rdpmc
	echo "$mode" >/sys/bus/event_source/devices/cpu/rdpmc
	expect_eq "rdpmc: sysfs value restored" "$(cat /sys/bus/event_source/devices/cpu/rdpmc)" "$mode"
else
	fail "emupmu_rdpmc" "build/tests/emupmu_rdpmc not built (make tests)"
fi

# ---- raw MSRs: 48-bit wrap, GLOBAL_STATUS, PMI --------------------------------------
# pmcdrv and perf must leave the counters alone: unload pmcdrv; nmi_watchdog=0.
had_module=0 had_msr=0
module_loaded && had_module=1 && rmmod pmcdrv
grep -q '^msr ' /proc/modules && had_msr=1
modprobe msr

EVTSEL0=0x186 A_PMC0=0x4c1 FIXED_CTR0=0x309 FIXED_CTR_CTRL=0x38d
STATUS=0x38e GLOBAL_CTRL=0x38f OVF_CTRL=0x390
rd() { rdmsr -p 0 -c "$1"; }
wr() { wrmsr -p 0 "$1" "$(printf '0x%x' "$2")"; }
declare -A saved
for m in $EVTSEL0 $A_PMC0 $FIXED_CTR0 $FIXED_CTR_CTRL $GLOBAL_CTRL; do
	saved[$m]=$(rd $m)
done
restore_msrs() {
	wr $EVTSEL0 0
	wr $FIXED_CTR_CTRL 0
	wr $A_PMC0 "${saved[$A_PMC0]}"
	wr $FIXED_CTR0 "${saved[$FIXED_CTR0]}"
	wr $OVF_CTRL $(((1 << 32) | 1))
	wr $GLOBAL_CTRL "${saved[$GLOBAL_CTRL]}"
	wr $FIXED_CTR_CTRL "${saved[$FIXED_CTR_CTRL]}"
	wr $EVTSEL0 "${saved[$EVTSEL0]}"
}
echo "info: CPU 0 before: EVTSEL0=${saved[$EVTSEL0]} FIXED_CTR_CTRL=${saved[$FIXED_CTR_CTRL]} GLOBAL_CTRL=${saved[$GLOBAL_CTRL]} STATUS=$(rd $STATUS)"

TOP=$((1 << 48))
PRE=$((TOP - 100000))		# wraps after 100000 events
EN=$((1 << 22)) INT=$((1 << 20)) USR=$((1 << 16))
busy() { taskset -c 0 $loop "$(n 100000)"; }	# 200000 user instructions on CPU 0

# GP counter 0, instructions:u, no interrupt.
wr $EVTSEL0 0
wr $OVF_CTRL 1
wr $GLOBAL_CTRL $((saved[$GLOBAL_CTRL] | 1))
expect_eq "msr: GLOBAL_STATUS bit 0 clear after OVF_CTRL write" $(($(rd $STATUS) & 1)) 0
wr $A_PMC0 $PRE
expect_eq "msr: A_PMC0 reads back a 48-bit preload" "$(rd $A_PMC0)" "$(printf '0x%x' $PRE)"
p0=$(pmis)
wr $EVTSEL0 $((EN | USR | 0xc0))
busy
wr $EVTSEL0 0
p1=$(pmis)
st=$(rd $STATUS) v=$(rd $A_PMC0)
echo "info: after the wrap: STATUS=$st A_PMC0=$v"
expect_eq "msr: PMC0 wrap past 2^48 sets GLOBAL_STATUS bit 0" $((st & 1)) 1
check "msr: PMC0 wrapped to a small value ($((v)))" test $((v)) -ge 100000 -a $((v)) -lt $((1 << 32))
expect_eq "msr: no PMI without EVTSEL.INT" $((p1 - p0)) 0
wr $OVF_CTRL 1
expect_eq "msr: OVF_CTRL bit 0 clears GLOBAL_STATUS bit 0" $(($(rd $STATUS) & 1)) 0
if wrmsr -p 0 $STATUS 0 2>/dev/null; then
	fail "msr: GLOBAL_STATUS is read-only" "wrmsr succeeded"
else
	pass "msr: GLOBAL_STATUS is read-only (write raises #GP)"
fi

# Fixed counter 0 (user mode), no interrupt: GLOBAL_STATUS bit 32.
wr $GLOBAL_CTRL $((saved[$GLOBAL_CTRL] | (1 << 32)))
wr $FIXED_CTR0 $PRE
wr $FIXED_CTR_CTRL 0x2
busy
wr $FIXED_CTR_CTRL 0
st=$(rd $STATUS)
expect_eq "msr: FIXED_CTR0 wrap past 2^48 sets GLOBAL_STATUS bit 32" $(((st >> 32) & 1)) 1
wr $OVF_CTRL $((1 << 32))
expect_eq "msr: OVF_CTRL bit 32 clears GLOBAL_STATUS bit 32" $((($(rd $STATUS) >> 32) & 1)) 0

# PMU MSRs of bigger or newer PMUs raise #GP here, as on a CPU without them
# (PMC/EVTSEL/A_PMC 4-7, FIXED_CTR3, PERF_METRICS, v4's STATUS_SET/INUSE).
for m in 0x18a 0x18d 0xc5 0xc8 0x4c5 0x4c8 0x30c 0x329 0x391 0x392; do
	if rdmsr -p 0 $m >/dev/null 2>&1; then r=read; else r=GP; fi
	if wrmsr -p 0 $m 0 >/dev/null 2>&1; then w=written; else w=GP; fi
	expect_eq "msr: absent PMU MSR $m raises #GP on rdmsr and wrmsr" "$r/$w" "GP/GP"
done

# Generating a PMI sets LVTPC's mask bit (SDM); Linux's handler clears it,
# but only for a PMI it claims, i.e. while some perf event exists.  With
# none, two overflows with INT raise one NMI: the second finds LVTPC masked.
nmis() { awk '$1 == "NMI:" { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
n0=$(nmis)
for k in 1 2; do
	wr $A_PMC0 $PRE
	wr $EVTSEL0 $((EN | INT | USR | 0xc0))
	busy
	wr $EVTSEL0 0
done
n1=$(nmis)
expect_eq "msr+INT: a PMI masks LVTPC (2 unclaimed overflows, 1 NMI)" $((n1 - n0)) 1
wr $OVF_CTRL 1
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
	wr $A_PMC0 $PRE
	p0=$(pmis)
	wr $EVTSEL0 $((EN | INT | USR | 0xc0))
	busy
	wr $EVTSEL0 0
	p1=$(pmis)
	v=$(rd $A_PMC0) st=$(rd $STATUS)
	echo "info: after the wrap with INT: STATUS=$st A_PMC0=$v PMIs +$((p1 - p0))"
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
for m in $EVTSEL0 $A_PMC0 $FIXED_CTR0 $FIXED_CTR_CTRL $GLOBAL_CTRL; do
	[ "$(rd $m)" = "${saved[$m]}" ] || { ok=0; echo "info: MSR $m is $(rd $m), was ${saved[$m]}"; }
done
check "msr: every MSR restored" test $ok = 1
[ $had_msr = 1 ] || rmmod msr
if [ $had_module = 1 ]; then
	insmod "$PMCDRV_KO"
	check "module reloaded" module_loaded
fi
