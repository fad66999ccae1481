#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The in-guest half of bench/run: pmcdrv against Debian's perf on
# the same work, in one guest with the emulated PMU.  Run by bench/run as
#   tests/vm/run -- bench/guest.sh [ROUNDS REPS TRACE_ROUNDS READS STARTS CPU WARMUP_MS [ONLY]]
# with pmcdrv loaded; ONLY=B8 runs B8 alone (the top-down pair: a second
# guest on the emulated Sapphire Rapids, tests/vm/run --pmu-model spr);
# ONLY=B15 runs B15 alone (many CPUs: a third guest, tests/vm/run --smp 8);
# any other ONLY, a comma-separated list of cases (B1,B2 go together; B3 ... B14 but B8; B16),
# runs only those (bench/run --only).  Prints one line per figure:
#   BENCH bench=B2 tool=pmcdrv events=2 mode=inherit metric=ns_per_round value=... [more k=v]
# and ends with "BENCH-DONE".  Exits non-zero when a measured command failed.
#
# Under -icount shift=0 a guest ns is one retired guest instruction: the
# times here are instruction-count proxies, and MSR accesses cost one
# instruction each (their real latency is not modelled).  Timing and MSR
# tracing are separate passes: tracing inflates paths heavy in MSR accesses.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 125
. bench/lib/msrtrace.sh

ROUNDS=${1:-6000}	# round trips per timed ping-pong
REPS=${2:-3}		# timed runs per case (the median is reported)
TROUNDS=${3:-200}	# round trips per traced ping-pong
READS=${4:-2000}	# self-reads per tool (B3)
STARTS=${5:-10}		# start-ups per tool (B4)
CPU=${6:-0}		# the CPU the ping-pong is pinned to
WARMUP=${7:-50}		# ms of ping-pong before the timed round trips (bench/pingpong.c)
ONLY=${8:-}		# B8: the top-down pair alone; else the cases to run (empty: all but B8)
PMCDRV_KO=${PMCDRV_KO:-kmod/pmcdrv.ko}
pp=build/bench/pingpong
ppr=build/bench/pingpong-rdpmc
failed=0

# The event lists of B2, by number of events: fixed counters first, then the
# GP counters (3 fixed + 4 GP = every counter of the emulated PMU; r10000c0
# is instructions with cmask 1, which only a GP counter takes).
declare -A EV=(
	[1]=instructions:u
	[2]=instructions:u,cycles:u
	[4]=instructions:u,cycles:u,ref-cycles:u,r00c0:u
	[7]=instructions:u,cycles:u,ref-cycles:u,r00c0:u,r003c:u,r013c:u,r10000c0:u
)
NEVENTS="1 2 4 7"
# B7's: the scrub's cost grows with the counters the other session used.
NEVENTS7="1 2 7"
# B8's: fixed counter 3 and PERF_METRICS, as perf stat --topdown's level 1 group.
EV8='{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}:u'

bench() { echo "BENCH $*"; }
# want CASE: CASE is to run (ONLY empty, or CASE in its list)
want() { [ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]; }
err() { echo "bench: $*" >&2; failed=1; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# least_of BATCHES PROG ARGS...: run PROG (build/bench/selfread or readcost) BATCHES times on
# CPU; of its lines "NAME tool=T events=E reads=N ns=T ns_per_read=X ...", per tool the one
# with the least X (an interrupt inside a batch only adds instructions to it); also a
# "refused=" line of its, once.  Into LEAST (not printed: err must run in this shell).
least_of() {
	local batches=$1 prog=$2 name all="" out b
	shift 2
	name=$(basename "$prog")
	for b in $(seq "$batches"); do
		if out=$(taskset -c "$CPU" "$prog" "$@" 2>&1); then
			all+=$(grep "^$name " <<<"$out")$'\n'
		else
			err "$name $*: $out"
		fi
	done
	LEAST=$(grep 'refused=' <<<"$all" | head -n1
		grep 'ns_per_read=' <<<"$all" | sort -t= -k6,6g | awk '!seen[$2]++' | sort -k2,2)
}

# cmd BENCH TOOL EVENTS MODE: the ping-pong command, without its ROUNDS CPU
# WARMUP_MS: build/bench/pingpong under pmcctl run or perf stat (B1, B2), or
# build/bench/pingpong-rdpmc, whose processes count themselves (B7: TOOL is
# its mode, none, pmcdrv, pmcdrv-shared or perf).  B14: MODE is the number
# of sessions in all, under build/bench/sessions; TOOL pmcdrv-ioctl (the
# pair's own two sessions among them), none (pingpong-rdpmc counting
# nothing) or untracked (build/bench/pingpong, B1's).
cmd() {
	local b=$1 tool=$2 n=$3 mode=$4 inh=() ev
	if [ "$b" = B7 ]; then
		echo "$ppr $tool ${EV[$n]:-instructions:u}"	# none: counts nothing
		return
	fi
	if [ "$b" = B14 ]; then
		case $tool in
		pmcdrv-ioctl) echo "build/bench/sessions $((mode - 2)) $ppr $tool ${EV[$n]}" ;;
		none) echo "build/bench/sessions $mode $ppr none instructions:u" ;;
		*) echo "build/bench/sessions $mode $pp" ;;
		esac
		return
	fi
	[ "$mode" = no-inherit ] && inh=(--no-inherit)
	ev=${EV[$n]:-}
	if [ "$b" = B12 ]; then
		# The parent in bgA and the child in bgB ("two"), or both in bgC, not counted ("out").
		local where="PINGPONG_CGROUP_PARENT=$CG/bgA PINGPONG_CGROUP_CHILD=$CG/bgB"
		[ "$mode" = out ] && where="PINGPONG_CGROUP_PARENT=$CG/bgC PINGPONG_CGROUP_CHILD=$CG/bgC"
		case $tool in
		pmcdrv) echo "env $where pmcctl stat -C $CPU -x, -o /tmp/bench.counts -G bgA,bgB -e $ev -- $pp" ;;
		perf) echo "env $where perf stat -C $CPU -x, -o /tmp/bench.counts --for-each-cgroup bgA,bgB -e $ev -- $pp" ;;
		*) echo "env $where $pp" ;;
		esac
		return
	fi
	[ "$b" = B8 ] && ev=$EV8
	case $tool in
	pmcdrv) echo "pmcctl run -x, -o /tmp/bench.counts -e $ev ${inh[*]} -- $pp" ;;
	perf) echo "perf stat -x, -o /tmp/bench.counts -e $ev ${inh[*]} -- $pp" ;;
	*) echo "$pp" ;;
	esac
}

# comm BENCH: the ping-pong tasks' name (bench/lib/msrtrace.sh).
comm() { [ "$1" = B7 ] || [ "$1" = B14 ] && echo pingpong-rdpmc || echo pingpong; }

# counts_ok BENCH TOOL: the counter output of the last run is complete (no
# multiplexing, nothing "not counted"/"not supported").  B7's program checks
# its own counts (it fails when they do not move), as in B14.
counts_ok() {
	[ "$1" = B7 ] || [ "$1" = B14 ] && return 0
	# B12: a cgroup that never ran is "not counted" for perf (its events never ran): the file only
	[ "$1" = B12 ] && { [ "$2" = none ] || [ -s /tmp/bench.counts ]; return; }
	shift
	[ "$1" = none ] && return 0
	[ -s /tmp/bench.counts ] || return 1
	! grep -qE 'not counted|not supported|<not' /tmp/bench.counts || return 1
	# perf's CSV: value,unit,event,run-time,percentage; the percentage must be 100.00
	[ "$1" = perf ] && awk -F, 'NF >= 5 && $3 != "" && $5 + 0 != 100 { bad = 1 } END { exit bad }' /tmp/bench.counts
	return 0
}

# time_case BENCH TOOL EVENTS MODE CASE: REPS timed ping-pongs, median ns per round trip.
time_case() {
	local b=$1 tool=$2 n=$3 mode=$4 case=$5 runs="" i out v self
	for i in $(seq "$REPS"); do
		rm -f /tmp/bench.counts
		# shellcheck disable=SC2046
		if ! out=$($(cmd "$b" "$tool" "$n" "$mode") "$ROUNDS" "$CPU" "$WARMUP" 2>&1) ||
			! counts_ok "$b" "$tool"; then
			err "$b $tool $n $mode: $out $(cat /tmp/bench.counts 2>/dev/null)"
			return
		fi
		v=$(sed -n 's/.*ns_per_round=\([0-9.]*\).*/\1/p' <<<"$out")
		runs="$runs $v"
		# B7: the parent's first event per round trip, read by itself with RDPMC
		self=$(sed -n 's/.*self_per_round=\([0-9.]*\).*/ self_per_round=\1/p' <<<"$out")
	done
	bench "bench=$b case=$case tool=$tool events=$n mode=$mode metric=ns_per_round" \
		"value=$(median <<<"$runs") runs=$(echo $runs | tr ' ' ',') rounds=$ROUNDS warmup_ms=$WARMUP$self"
}

# field KEY LINE: the value of KEY=... in LINE
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $2"; }

# trace_case BENCH TOOL EVENTS MODE CASE: one traced ping-pong, MSR accesses per switch.
trace_case() {
	local b=$1 tool=$2 n=$3 mode=$4 case=$5 out rc stats p2c c2p lost
	msr_trace_start || { err "tracefs: cannot enable the msr and sched tracepoints"; return; }
	# shellcheck disable=SC2046
	out=$($(cmd "$b" "$tool" "$n" "$mode") "$TROUNDS" "$CPU" 0 2>&1)	# no warm-up: counts, not time
	rc=$?
	msr_trace_stop "$CPU" /tmp/bench.trace
	lost=$(msr_trace_overrun "$CPU")
	if [ "$rc" != 0 ] || [ "${lost:-0}" != 0 ]; then
		err "$b $tool $n $mode traced: rc $rc, $lost events lost: $out"
		return
	fi
	stats=$(msr_switch_stats /tmp/bench.trace "$(comm "$b")")
	p2c=$(grep '^dir=p2c' <<<"$stats")
	c2p=$(grep '^dir=c2p' <<<"$stats")
	if [ -z "$(field mode "$p2c")" ] || [ -z "$(field mode "$c2p")" ]; then
		err "$b $tool $n $mode traced: no ping-pong switches in the trace"
		return
	fi
	# Per switch: the mean of the two directions' most frequent counts.
	mean() { awk -v a="$(field "$1" "$p2c")" -v b="$(field "$1" "$c2p")" 'BEGIN { print (a + b) / 2 }'; }
	bench "bench=$b case=$case tool=$tool events=$n mode=$mode metric=msr_per_switch" \
		"value=$(mean mode) reads=$(mean mode_reads) writes=$(mean mode_writes)" \
		"rdpmc=$(mean mode_rdpmc) p2c=$(field mode "$p2c") c2p=$(field mode "$c2p") rounds=$TROUNDS"
	bench "bench=$b case=$case tool=$tool events=$n mode=$mode metric=msr_detail_p2c ${p2c#dir=p2c }"
	bench "bench=$b case=$case tool=$tool events=$n mode=$mode metric=msr_detail_c2p ${c2p#dir=c2p }"
}

# A pmcdrv session on an unrelated task, for B1's third case.
unrelated_start() {
	pmcctl run -x, -o /tmp/bench.unrelated -e instructions:u -- sleep 100000 &
	unrelated=$!
	local i
	for i in $(seq 200); do	# counting starts at its exec of sleep
		[ "$(cat /proc/$unrelated/task/$unrelated/children 2>/dev/null | wc -w)" = 1 ] &&
			grep -q sleep /proc/"$(cat /proc/$unrelated/task/$unrelated/children | tr -d ' ')"/comm 2>/dev/null &&
			return 0
		sleep 0.05
	done
	err "the unrelated session did not start"
}
unrelated_stop() {
	kill $(cat /proc/$unrelated/task/$unrelated/children 2>/dev/null) 2>/dev/null
	wait "$unrelated" 2>/dev/null
}

# ---- the two passes of B1 and B2 ------------------------------------------------------
pass() {	# pass time|trace
	local f=${1}_case n mode tool
	# B1: untracked ping-pong.
	rmmod pmcdrv || { err "rmmod pmcdrv"; return; }
	$f B1 none 0 none no-module
	insmod "$PMCDRV_KO" || { err "insmod $PMCDRV_KO"; return; }
	$f B1 none 0 none module-idle
	unrelated_start
	$f B1 none 0 none unrelated-session
	unrelated_stop
	# B2: counted, by both tools.
	for n in $NEVENTS; do
		for mode in inherit no-inherit; do
			for tool in pmcdrv perf; do
				$f B2 "$tool" "$n" "$mode" "$tool-$n-$mode"
			done
		done
	done
}

echo "bench: guest $(uname -r), $(nproc) CPUs, $(perf --version 2>&1), ping-pong on CPU $CPU"
echo "bench: figures are guest ns under QEMU -icount shift=0: instruction-count proxies; MSR latency is not modelled"
bench "bench=info metric=guest_kernel value=$(uname -r)"
bench "bench=info metric=perf_version value=$(perf --version | awk '{ print $3 }')"
bench "bench=info metric=cpu value=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //; s/ /_/g')"
bench "bench=info metric=params rounds=$ROUNDS reps=$REPS trace_rounds=$TROUNDS reads=$READS starts=$STARTS cpu=$CPU warmup_ms=$WARMUP"
[ -x $pp ] && [ -x $ppr ] && [ -x build/bench/selfread ] || { echo "bench: build/bench/ not built (bench/run builds it)" >&2; exit 2; }

# ---- LIKWID (B4, B5, B6, B13): Debian's likwid, staged by bench/run in build/likwid -----------
# (bench/likwid-stage.sh: the tree is in the initramfs, LIKWID is not).  likwid-perfctr is a
# Lua script; its staged copy names the staged interpreter, Lua module, liblikwid and
# performance groups, so it needs only LD_LIBRARY_PATH for the libraries.  Direct MSR access
# (-M 0, as root: the msr driver, no access daemon), counting on CPU (-C, which also pins the
# command there).  Two things of the emulated machine that LIKWID 5.2.2 needs and does not
# find, each worked around here and nowhere else:
#  - on a Skylake client LIKWID maps the memory controller's registers (MCHBAR: the host
#    bridge's PCI config offset 0x48, 00:00.0) through /dev/mem, and refuses to count at
#    all when that BAR is 0, as on QEMU's i440FX host bridge ("imcbar is zero", perfmon_init
#    fails).  The guest writes an unused, unclaimed address (0xfed10000, where Intel clients
#    put it) into that register: LIKWID maps it and reads 0 from it (the DRAM counters of
#    groups such as MEM read 0); no event used here comes from it.
#  - LIKWID's Skylake set-up writes 0 to IA32_PEBS_ENABLE, which the emulated PMU does not
#    have (#GP, EIO from the msr driver; IA32_MISC_ENABLE says "PEBS unavailable"), and gives
#    up on the event set: build/bench/likwid-pebs0.so (bench/likwid-pebs0.c, LD_PRELOAD)
#    reports that one write of 0 as done when it fails with EIO.
LW=$PWD/build/likwid
LW_EV=INSTR_RETIRED_ANY:FIXC0	# user-mode instructions, as instructions:u (LIKWID's default: no :KERNEL)
LW_OK=0
# lw ARGS...: likwid-perfctr -M 0 with the staged libraries and the shim (no extra exec); its
# configuration looks for likwid-accessD on PATH even in direct mode, and fails without it
lw() {
	PATH=$LW/bin:$PATH LD_LIBRARY_PATH=$LW/lib LD_PRELOAD=$PWD/build/bench/likwid-pebs0.so \
		"$LW/bin/likwid-perfctr" -M 0 "$@"
}
likwid_setup() {
	[ "$LW_OK" = 0 ] || return "$((LW_OK - 1))"
	LW_OK=2
	if [ ! -s "$LW/version" ] || [ ! -x build/bench/likwid-pebs0.so ]; then
		echo "bench: LIKWID is not staged (bench/run stages Debian's likwid when it is installed): no LIKWID rows"
		return 1
	fi
	modprobe msr || { err "LIKWID: modprobe msr"; return 1; }
	printf '\001\000\321\376' | dd of=/proc/bus/pci/00/00.0 bs=1 seek=72 conv=notrunc 2>/dev/null ||
		{ err "LIKWID: cannot set the host bridge's MCHBAR"; return 1; }
	local v out
	v=$(lw -v 2>&1 | sed -n 's/.*Version \([0-9.]*\).*/\1/p')
	if ! out=$(lw -C "$CPU" -g "$LW_EV" true 2>&1) || ! grep -q "INSTR_RETIRED_ANY *| *FIXC0 *| *[1-9]" <<<"$out"; then
		err "LIKWID: likwid-perfctr -M 0 -C $CPU -g $LW_EV true does not count: $out"
		return 1
	fi
	bench "bench=info metric=likwid_version value=${v:-unknown} package=$(cat "$LW/version") access=direct"
	echo "bench: LIKWID $v (Debian $(cat "$LW/version")), likwid-perfctr -M 0 (direct MSR access), -C $CPU"
	LW_OK=1
}
# lw_count OUT: the FIXC0 count of likwid-perfctr's table in OUT (its first HWThread column)
lw_count() { awk -F'|' '$2 ~ /INSTR_RETIRED_ANY/ && $3 ~ /FIXC0/ { gsub(/ /, "", $4); print $4; exit }' <<<"$1"; }

# ---- B8 alone: the top-down pair (slots and PERF_METRICS), on its own guest -----------------
# pmcdrv saves and restores the pair as one unit at a switch (docs/design.md,
# "Topdown metrics"); perf does the same (saved_slots, saved_metric).  Timed
# and traced as B2, against this guest's own untracked run.
if [ "$ONLY" = B8 ]; then
	echo "bench: B8 the top-down pair ($EV8)"
	bench "bench=info8 metric=cpu value=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //; s/ /_/g')"
	[ -e /sys/bus/event_source/devices/cpu/events/topdown-retiring ] ||
		err "B8: this guest's PMU has no topdown events (not the spr model?)"
	for f in time trace; do
		${f}_case B8 none 0 none untracked
		for mode in inherit no-inherit; do
			for tool in pmcdrv perf; do
				${f}_case B8 "$tool" 5 "$mode" "$tool-td-$mode"
			done
		done
	done
	echo "BENCH-DONE failed=$failed"
	exit "$failed"
fi

if want B1 || want B2; then
echo "bench: timing pass (B1, B2)"
pass time
echo "bench: tracing pass (B1, B2: msr:read_msr, msr:write_msr, msr:rdpmc, sched:sched_switch)"
pass trace
fi

# ---- B3: one self-read -------------------------------------------------------------------
if want B3; then
echo "bench: B3 self-read"
# The least of B3_BATCHES batches of READS reads per tool, as B6 takes the least of its
# runs: an interrupt inside a batch only adds instructions to it (one batch of 2,000
# reads hit by one moved a 2-event figure by 1%, more than a target's margin).
B3_BATCHES=${B3_BATCHES:-5}
for n in 2 7; do
	least_of "$B3_BATCHES" build/bench/selfread "$READS" "${EV[$n]}"
	while read -r _ tool events reads _ nsper; do
		bench "bench=B3 case=self-read $tool $events metric=ns_per_read value=${nsper#ns_per_read=} $reads batches=$B3_BATCHES"
	done < <(grep . <<<"$LEAST")
done
fi

# ---- B4: start-up ---------------------------------------------------------------------------
# Busy guest ns of every CPU: the run time of all tasks but the idle ones
# (rq_cpu_time, the 7th number of each cpu line of /proc/schedstat).
busy_ns() { awk '/^cpu[0-9]/ { s += $8 } END { printf "%.0f", s }' /proc/schedstat; }
startup() { runs_mean B4 start-up "$@"; }
runs_mean() {	# BENCH CASE TOOL CMD...: mean guest ns of STARTS runs of CMD, wall and busy
	local b=$1 c=$2 tool=$3 i t0 t1 b0 b1
	shift 3
	"$@" >/dev/null 2>&1 || { err "$b $tool: $* failed"; return; }
	b0=$(busy_ns)
	t0=$EPOCHREALTIME
	for i in $(seq "$STARTS"); do "$@" >/dev/null 2>&1; done
	t1=$EPOCHREALTIME
	b1=$(busy_ns)
	bench "bench=$b case=$c tool=$tool metric=ns_per_start" \
		"value=$(awk -v a="$t0" -v b="$t1" -v n="$STARTS" 'BEGIN { printf "%.0f", (b - a) * 1e9 / n }') runs=$STARTS"
	bench "bench=$b case=$c tool=$tool metric=busy_ns_per_start" \
		"value=$(awk -v a="$b0" -v b="$b1" -v n="$STARTS" 'BEGIN { printf "%.0f", (b - a) / n }') runs=$STARTS"
}
if want B4; then
echo "bench: B4 start-up"
startup none true
startup pmcdrv pmcctl run -e instructions:u true
startup perf perf stat -e instructions:u true
likwid_setup && startup likwid lw -C "$CPU" -g "$LW_EV" true
fi

# ---- B5: accuracy ---------------------------------------------------------------------------
if want B5; then
echo "bench: B5 accuracy"
N=001000000
want=$((2 * 10#$N + 103))
a=$(pmcctl run -x, -e instructions:u -- build/progs/loop $N 2>&1 >/dev/null | awk -F, '$3 == "instructions:u" { print $1 }')
b=$(perf stat -x, -e instructions:u -- build/progs/loop $N 2>&1 >/dev/null | awk -F, '$3 == "instructions:u" { print $1 }')
bench "bench=B5 case=loop tool=pmcdrv metric=instructions_u value=${a:-null} expected=$want exact=$([ "$a" = "$want" ] && echo true || echo false)"
bench "bench=B5 case=loop tool=perf metric=instructions_u value=${b:-null} expected=$want exact=$([ "$b" = "$want" ] && echo true || echo false)"
[ "$a" = "$want" ] && [ "$b" = "$want" ] || err "B5: pmcdrv $a, perf $b, want $want"
# LIKWID counts CPU $CPU from its start of the counters to their stop, whatever runs there (the
# loop pinned by -C, likwid-perfctr's own user-mode work between start and stop, any other
# task): not exact.  The same command around N = 0 gives that rest, to tell it apart.
if likwid_setup; then
	c=$(lw_count "$(lw -C "$CPU" -g "$LW_EV" build/progs/loop $N 2>&1)")
	z=$(lw_count "$(lw -C "$CPU" -g "$LW_EV" build/progs/loop 000000000 2>&1)")
	bench "bench=B5 case=loop tool=likwid metric=instructions_u value=${c:-null} expected=$want" \
		"exact=$([ "$c" = "$want" ] && echo true || echo false) loop0=${z:-null} expected0=103"
	[ -n "$c" ] && [ -n "$z" ] || err "B5: no count from likwid-perfctr"
fi
fi

# ---- B6: one region begin/end pair ------------------------------------------------------------
# libpmc's pmc_region_begin/end around nothing, against perf's
# PERF_EVENT_IOC_ENABLE + PERF_EVENT_IOC_DISABLE pair on an instructions:u
# event: guest ns (user and kernel instructions), the least of 20 batches of
# REGIONS pairs each (tests/guest/region_cost.c --perf, built by make tests).
if want B6; then
echo "bench: B6 region pair"
REGIONS=1000
if out=$(taskset -c "$CPU" build/tests/region_cost --perf "$REGIONS" 2>&1); then
	p=$(sed -n 's/^perf-ioctl-pair ns=\([0-9.]*\)$/\1/p' <<<"$out")
	path=$(sed -n 's/^region-pair path=\([a-z]*\) ns=[0-9.]*$/\1/p' <<<"$out")
	r=$(sed -n 's/^region-pair path=[a-z]* ns=\([0-9.]*\)$/\1/p' <<<"$out")
	bench "bench=B6 case=region-pair tool=perf metric=ns_per_pair value=${p:-null} pairs=$REGIONS"
	bench "bench=B6 case=region-pair tool=pmcdrv metric=ns_per_pair value=${r:-null} path=${path:-none} pairs=$REGIONS"
	[ -n "$p" ] && [ -n "$r" ] || err "B6: unexpected output of region_cost --perf: $out"
else
	err "region_cost --perf: $out"
fi
# LIKWID's marker API: LIKWID_MARKER_START/STOP around nothing, under likwid-perfctr -m
# (build/bench/likwid-region, built by bench/run when Debian's likwid is installed).
if [ ! -x build/bench/likwid-region ]; then
	echo "bench: B6: no build/bench/likwid-region (bench/run builds it when likwid-marker.h and liblikwid are installed): no LIKWID row"
elif likwid_setup; then
	if out=$(lw -m -C "$CPU" -g "$LW_EV" build/bench/likwid-region "$REGIONS" 2>&1) &&
		l=$(sed -n 's/^likwid-marker-pair ns=\([0-9.]*\)$/\1/p' <<<"$out") && [ -n "$l" ]; then
		bench "bench=B6 case=region-pair tool=likwid metric=ns_per_pair value=$l pairs=$REGIONS"
	else
		err "B6: likwid-perfctr -m ... likwid-region: $out"
	fi
	# Its MSR accesses per pair (msr:read_msr, msr:write_msr on CPU; RDPMC in user mode is
	# not traced): the whole command at 20 and at 10 pairs a batch, the difference over the
	# 20 x 10 pairs more.
	lw_msr() {	# PAIRS: "READS WRITES" of the traced command
		msr_trace_start || return 1
		lw -m -C "$CPU" -g "$LW_EV" build/bench/likwid-region "$1" >/dev/null 2>&1
		msr_trace_stop "$CPU" /tmp/bench.lwtrace
		echo "$(grep -c ' read_msr: ' /tmp/bench.lwtrace) $(grep -c ' write_msr: ' /tmp/bench.lwtrace)"
	}
	if m20=$(lw_msr 20) && m10=$(lw_msr 10); then
		read -r r20 w20 <<<"$m20"
		read -r r10 w10 <<<"$m10"
		bench "bench=B6 case=region-pair tool=likwid metric=msr_per_pair value=$(awk -v a=$((r20 + w20 - r10 - w10)) 'BEGIN { print a / 200 }')" \
			"reads=$(awk -v a=$((r20 - r10)) 'BEGIN { print a / 200 }') writes=$(awk -v a=$((w20 - w10)) 'BEGIN { print a / 200 }')"
	else
		err "B6: cannot trace likwid-region's MSR accesses"
	fi
fi
fi

# ---- B13: the whole command around the known loop, against LIKWID -----------------------------
# B4's start-up with work in it: build/progs/loop N (2N + 103 user instructions) under
# pmcctl run, perf stat and likwid-perfctr -C CPU (pinned there by LIKWID; the others are
# not pinned), wall and busy guest ns per run (the mean of STARTS), as B4.
if want B13; then
	echo "bench: B13 the loop under each tool"
	loop13="build/progs/loop 001000000"
	runs_mean B13 loop none $loop13
	runs_mean B13 loop pmcdrv pmcctl run -e instructions:u -- $loop13
	runs_mean B13 loop perf perf stat -e instructions:u -- $loop13
	likwid_setup && runs_mean B13 loop likwid lw -C "$CPU" -g "$LW_EV" $loop13
fi

# ---- B7: switches into address spaces that may execute RDPMC -------------------------------
# build/bench/pingpong-rdpmc: both ping-pong processes count EVENTS on
# themselves and have RDPMC allowed (a self-read page of pmcdrv's or perf
# mmap pages: perf_rdpmc_allowed), so pmcdrv scrubs the counters another
# session left before either runs, as perf clears its dirty counters
# (perf_clear_dirty_counters() from cr4_update_pce_mm()).  pmcdrv: one
# session per process (every switch is one session to another, scrubbed);
# pmcdrv-shared: one inherited session (every switch is within it; clean
# once scrubbed); perf: one perf group per process; pmcdrv-ioctl: a session
# per process without a page (no address space may execute RDPMC, so the
# same user-mode events hand the counters over from one session to the
# other: N rdpmc a switch); none: the same program counting nothing (the
# baseline).  Timed, then traced (not none).
if want B7; then
echo "bench: B7 switch into an RDPMC-capable address space"
time_case B7 none 0 none no-counting
for n in $NEVENTS7; do
	for tool in pmcdrv pmcdrv-shared pmcdrv-ioctl perf; do
		time_case B7 "$tool" "$n" rdpmc "$tool-$n-rdpmc"
	done
done
for n in $NEVENTS7; do
	for tool in pmcdrv pmcdrv-shared pmcdrv-ioctl perf; do
		trace_case B7 "$tool" "$n" rdpmc "$tool-$n-rdpmc"
	done
done
fi

# ---- B12: cgroup sessions against perf's cgroup events --------------------------------------
# B2's ping-pong with the parent in cgroup bgA and the child in bgB ("two":
# every switch changes cgroup), or both in bgC, which neither tool counts
# ("out"), under pmcctl stat -C CPU -G bgA,bgB (a cgroup session: one fold
# when the cgroup changes, docs/design.md "Cgroup sessions") and under perf
# stat -C CPU --for-each-cgroup bgA,bgB (perf's cgroup events, one per event
# and cgroup), 2 events.  Timed and traced as B2, against the untracked pair
# in the same cgroups.  perf's cgroup events need the perf_event state of a
# cgroup, which Linux 6.1 makes only once a controller is enabled below the
# root: pids is.
if want B12; then
echo "bench: B12 cgroup sessions"
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG || err "B12: mount cgroup2"
grep -qw pids $CG/cgroup.subtree_control || echo +pids >$CG/cgroup.subtree_control || err "B12: +pids"
mkdir -p $CG/bgA $CG/bgB $CG/bgC
for f in time trace; do
	for mode in two out; do
		[ "$f" = time ] && time_case B12 none 0 "$mode" "untracked-$mode"
		for tool in pmcdrv perf; do
			${f}_case B12 "$tool" 2 "$mode" "$tool-2-$mode"
		done
	done
done
rmdir $CG/bgA $CG/bgB $CG/bgC
fi

# ---- B9: a scheduler-heavy workload, perf bench sched messaging --------------------------------
# hackbench: GROUPS groups of 20 senders and 20 receivers (processes, 40 tasks
# a group) passing 100-byte messages over socketpairs, untracked, under
# pmcctl run and under perf stat (2 and 7 events, inherited by every task).
# The same number of messages at every size (LOOPS x GROUPS = B9_MESSAGES):
# only the number of tasks changes.  Figures per run: perf bench's own
# "Total time" (the message phase: the tasks exist already; the reaping is
# in it; milliseconds), and the busy time of the whole command (every
# non-idle task on every CPU, /proc/schedstat, as B4: the tool's start-up,
# the forks and the exits too).  The median of the runs of each case.  The
# tools' own start-up and tear-down, the same command on `true` (busy time,
# the median of 5), is reported too, to be taken out of the overhead.
#
# The order of the runs: at each size one untracked run first, not counted
# (the first hackbench of a guest paid for what later runs find ready: 1
# group's untracked runs, measured first, were up to 40 ms above the tools'),
# then B9_REPS rounds (4 x B9_REPS at 1 group, whose runs are cheap and move
# most: 12, 3, 3 at 1, 4, 16 groups), each round one run of every
# case in turn (untracked, pmcdrv and perf with 2 events, then with 7), so
# what drifts over the guest's life moves every case alike.
B9_MESSAGES=${B9_MESSAGES:-32}	# loops x groups
B9_GROUPS=${B9_GROUPS:-1 4 16}
B9_REPS=${B9_REPS:-3}		# rounds (4 x at 1 group): hackbench's busy time moves by several % from run to run
declare -A HB_TOTALS HB_BUSYS
hb_run() {	# TOOL EVENTS GROUPS LOOPS: one run, its figures added to the case's lists
	local tool=$1 n=$2 g=$3 loops=$4 out t b0 b1 ev=${EV[$2]:-} c
	c="perf bench sched messaging -g $g -l $loops"
	rm -f /tmp/bench.counts
	b0=$(busy_ns)
	case $tool in
	none) out=$($c 2>&1) ;;
	pmcdrv) out=$(pmcctl run -x, -o /tmp/bench.counts -e "$ev" -- $c 2>&1) ;;
	perf) out=$(perf stat -x, -o /tmp/bench.counts -e "$ev" -- $c 2>&1) ;;
	esac
	# shellcheck disable=SC2181
	if [ $? != 0 ] || ! counts_ok B9 "$tool"; then
		err "B9 $tool $n -g $g: $out $(cat /tmp/bench.counts 2>/dev/null)"
		return 1
	fi
	b1=$(busy_ns)
	t=$(sed -n 's/.*Total time: *\([0-9.]*\) \[sec\].*/\1/p' <<<"$out")
	[ -n "$t" ] || { err "B9 $tool $n -g $g: no Total time in: $out"; return 1; }
	HB_TOTALS[$tool.$n]+=" $(awk -v t="$t" 'BEGIN { printf "%.0f", t * 1e9 }')"
	HB_BUSYS[$tool.$n]+=" $((b1 - b0))"
}
hb_size() {	# GROUPS: every case at this size, in rounds
	local g=$1 loops rounds r k tool n totals busys
	local cases="none.0 pmcdrv.2 perf.2 pmcdrv.7 perf.7"
	loops=$((B9_MESSAGES / g))
	[ "$loops" -gt 0 ] || loops=1
	rounds=$((B9_REPS * 4 / g))
	[ "$rounds" -ge "$B9_REPS" ] || rounds=$B9_REPS
	HB_TOTALS=() HB_BUSYS=()
	hb_run none 0 "$g" "$loops" || return
	HB_TOTALS=() HB_BUSYS=()
	for r in $(seq "$rounds"); do
		for k in $cases; do
			hb_run "${k%.*}" "${k#*.}" "$g" "$loops" || return
		done
	done
	for k in $cases; do
		tool=${k%.*} n=${k#*.}
		totals=${HB_TOTALS[$k]} busys=${HB_BUSYS[$k]}
		bench "bench=B9 case=messaging-g$g tool=$tool events=$n groups=$g tasks=$((40 * g)) loops=$loops" \
			"metric=ns_total value=$(median <<<"$totals") runs=$(echo $totals | tr ' ' ',')" \
			"busy_ns=$(median <<<"$busys") busy_runs=$(echo $busys | tr ' ' ',')"
	done
}
hb_startup() {	# TOOL EVENTS [BENCH]: busy ns of the tool's command around `true` (as BENCH's, default B9)
	local tool=$1 n=$2 i b0 busys="" ev=${EV[$2]:-}
	for i in 1 2 3 4 5; do
		b0=$(busy_ns)
		case $tool in
		none) true ;;
		pmcdrv) pmcctl run -x, -o /tmp/bench.counts -e "$ev" -- true ;;
		perf) perf stat -x, -o /tmp/bench.counts -e "$ev" -- true ;;
		esac || { err "B9 start-up $tool $n failed"; return; }
		busys+=" $(($(busy_ns) - b0))"
	done
	bench "bench=${3:-B9} case=start-up tool=$tool events=$n metric=busy_ns value=$(median <<<"$busys")" \
		"runs=$(echo $busys | tr ' ' ',')"
}
if want B9; then
	echo "bench: B9 perf bench sched messaging (groups $B9_GROUPS, $B9_MESSAGES loops x groups)"
	hb_startup none 0
	for n in 2 7; do
		hb_startup pmcdrv "$n"
		hb_startup perf "$n"
	done
	for g in $B9_GROUPS; do
		hb_size "$g"
	done
fi

# ---- B10: many tracked tasks in one session -------------------------------------------------------
# build/bench/manytasks TASKS: B2's ping-pong pair plus TASKS - 2 threads
# that sleep, untracked and under one pmcctl run (2 events, inherited: every
# task tracked), TASKS = 10, 1,000, 10,000; the median of REPS runs.  Then
# the close of a session tracking all of them (manytasks' own libpmc session,
# closed while every task lives): wall and on-CPU time of the close().
B10_TASKS=${B10_TASKS:-10 1000 10000}
mt_case() {	# TOOL TASKS
	local tool=$1 t=$2 i out v runs=""
	for i in $(seq "$REPS"); do
		rm -f /tmp/bench.counts
		if [ "$tool" = pmcdrv ]; then
			out=$(pmcctl run -x, -o /tmp/bench.counts -e "${EV[2]}" -- \
				build/bench/manytasks "$t" "$ROUNDS" "$CPU" "$WARMUP" 2>&1)
		else
			out=$(build/bench/manytasks "$t" "$ROUNDS" "$CPU" "$WARMUP" 2>&1)
		fi
		# shellcheck disable=SC2181
		if [ $? != 0 ] || ! counts_ok B10 "$tool"; then
			err "B10 $tool $t tasks: $out $(cat /tmp/bench.counts 2>/dev/null)"
			return
		fi
		v=$(sed -n 's/.*ns_per_round=\([0-9.]*\).*/\1/p' <<<"$out")
		runs+=" $v"
	done
	bench "bench=B10 case=tasks-$t tool=$tool events=2 tasks=$t metric=ns_per_round" \
		"value=$(median <<<"$runs") runs=$(echo $runs | tr ' ' ',') rounds=$ROUNDS"
}
if want B10; then
	echo "bench: B10 many tracked tasks ($B10_TASKS)"
	tracers=$(cat /sys/kernel/tracing/available_tracers 2>/dev/null)
	bench "bench=info metric=tracers value=$(tr ' ' ',' <<<"${tracers:-none}")" \
		"irqsoff=$(grep -qw irqsoff <<<"$tracers" && echo true || echo false)"
	max=$(cat /proc/sys/kernel/threads-max)
	[ "$max" -ge 20000 ] || echo 20000 >/proc/sys/kernel/threads-max
	for t in $B10_TASKS; do
		mt_case none "$t"
		mt_case pmcdrv "$t"
	done
	for t in $B10_TASKS; do
		walls="" cpus=""
		for i in $(seq "$REPS"); do
			if ! out=$(build/bench/manytasks "$t" 1000 "$CPU" 0 "${EV[2]}" 2>&1); then
				err "B10 close, $t tasks: $out"
				continue 2
			fi
			walls+=" $(sed -n 's/^manytasks-close .* ns=\([0-9]*\).*/\1/p' <<<"$out")"
			cpus+=" $(sed -n 's/^manytasks-close .* cpu_ns=\([0-9]*\).*/\1/p' <<<"$out")"
		done
		bench "bench=B10 case=close-$t tool=pmcdrv events=2 tasks=$t metric=close_cpu_ns" \
			"value=$(median <<<"$cpus") runs=$(echo $cpus | tr ' ' ',')" \
			"wall_ns=$(median <<<"$walls") wall_runs=$(echo $walls | tr ' ' ',')"
	done
fi

# ---- B11: one READ as the events grow, against perf's reads ------------------------------------
# build/bench/readcost: a thread counting N events on itself reads them all:
# pmcdrv's READ ioctl, perf's read() of each event's own fd (N reads), and
# perf's one read() of a PERF_FORMAT_GROUP group (refused by perf beyond the
# 7 counters).  N = 1, 2, 4, 8, 16 (8 and 16 multiplex: more events than
# counters).  The least of B11_BATCHES batches of READS reads per tool, as B3.
B11_BATCHES=${B11_BATCHES:-5}
# graph_one FN CMD...: run CMD with the function_graph tracer hooked on FN alone
# (set_ftrace_filter: no other function pays the tracer's entry and exit), and print
# "calls=C ns=MEDIAN": the median duration of FN's calls, guest ns.  The tracer's own
# entry and exit around FN are in it (see mutex_unlock, a call of a few instructions).
graph_one() {
	local fn=$1 T=/sys/kernel/tracing
	shift
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	: >$T/trace
	echo "$fn" >$T/set_ftrace_filter && echo function_graph >$T/current_tracer ||
		{ err "function_graph: cannot trace $fn"; return; }
	echo 1 >$T/tracing_on
	"$@" >/dev/null || err "traced: $* failed"
	echo 0 >$T/tracing_on
	# " 0)   0.931 us    |  name [module]();": one call with its duration
	awk -F'|' -v fn="$fn" 'match($1, /[0-9]+\.[0-9]+ us/) {
		d = substr($1, RSTART, RLENGTH - 3) * 1000; n = $2
		sub(/^ +/, "", n); sub(/( \[[A-Za-z0-9_]+\])?\(\);.*$/, "", n)
		if (n == fn) print d
	}' $T/trace | sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "calls=%d ns=%.1f\n", NR, v[int((NR + 1) / 2)] }'
	echo nop >$T/current_tracer
	: >$T/set_ftrace_filter
}
EV11_8=${EV[7]},r01c2:u
EV11_16=$EV11_8,r02c2:u,r010e:u,r019c:u,r010d:u,r023c:u,r0151:u,r01d1:u,r02d1:u
if want B11; then
	echo "bench: B11 READ against perf's reads, 1 to 16 events"
	for n in 1 2 4 8 16; do
		case $n in 8) ev=$EV11_8 ;; 16) ev=$EV11_16 ;; *) ev=${EV[$n]} ;; esac
		# readcost tool=T events=E reads=N ns=T ns_per_read=X counting=C, or tool=T events=E refused=EINVAL
		least_of "$B11_BATCHES" build/bench/readcost "$READS" "$ev"
		while read -r _ tool events reads _ nsper counting; do
			if [ -z "$nsper" ]; then
				bench "bench=B11 case=read tool=perf-group events=$n metric=ns_per_read value=null refused=EINVAL"
			else
				bench "bench=B11 case=read $tool $events metric=ns_per_read value=${nsper#ns_per_read=} $reads $counting batches=$B11_BATCHES"
			fi
		done < <(grep . <<<"$LEAST")
	done
	# Where a read's instructions go: function_graph hooked on one function at a time over
	# B11_TRACE_READS reads of one tool, the median duration of its calls: the syscall
	# (ioctl, read), the handler, pmcdrv's READ under the session lock (pmcd_session_read),
	# its fold of the counters (pmcd_session_fold: on_each_cpu_mask() of the CPUs where the
	# session is loaded), the hardened usercopy check of the reply (__check_object_size),
	# perf's perf_event_read(); mutex_unlock shows what the tracer adds to a trivial call.
	B11_TRACE_READS=${B11_TRACE_READS:-200}
	for n in 1 2 4 8 16; do
		case $n in 8) ev=$EV11_8 ;; 16) ev=$EV11_16 ;; *) ev=${EV[$n]} ;; esac
		for spec in pmcdrv:__x64_sys_ioctl pmcdrv:pmcd_ioctl pmcdrv:pmcd_session_read \
			pmcdrv:pmcd_session_fold pmcdrv:__check_object_size pmcdrv:mutex_lock pmcdrv:mutex_unlock \
			perf-single:__x64_sys_read perf-single:perf_read perf-single:perf_event_read \
			perf-group:__x64_sys_read perf-group:perf_read perf-group:perf_event_read; do
			IFS=: read -r tool fn <<<"$spec"
			[ "$tool" = perf-group ] && [ "$n" -gt 7 ] && continue	# refused (above)
			out=$(graph_one "$fn" taskset -c "$CPU" build/bench/readcost "$B11_TRACE_READS" "$ev" "$tool")
			[ -n "$out" ] && bench "bench=B11 case=graph tool=$tool events=$n fn=$fn metric=graph_ns" \
				"value=$(sed -n 's/.*ns=//p' <<<"$out") ${out% ns=*} reads=$B11_TRACE_READS"
		done
	done
fi

# ---- B14: many sessions ---------------------------------------------------------------------
# build/bench/sessions K CMD: CMD while K sessions exist, each counting
# instructions:u on its own idle task (a child blocked in read()).  The
# cross-session switch: B7's pmcdrv-ioctl ping-pong (a session per task, the
# same user-mode events: the counters handed over) among 2, 10, 100 and
# 1,000 sessions in all, against the same program counting nothing with no
# session; the untracked switch: B1's ping-pong with no session, with one
# and with 1,000 (their probes run at every switch).  Each timing the median
# of REPS runs of B14_ROUNDS (default ROUNDS) round trips; the cross-session
# switch traced (MSR accesses) at 2 and 1,000 sessions.  Before each case
# without a session and before each trace, pmcdrv's probes are let go (they
# linger a second after the last session closes; bench/msr-guard.sh says why
# the trace needs it).
B14_SESSIONS=${B14_SESSIONS:-2 10 100 1000}
B14_ROUNDS=${B14_ROUNDS:-$ROUNDS}
if want B14; then
	echo "bench: B14 many sessions ($B14_SESSIONS; $B14_ROUNDS round trips)"
	[ -x build/bench/sessions ] || err "B14: build/bench/sessions not built (bench/run builds it)"
fi
if want B14 && [ -x build/bench/sessions ]; then
	rounds_all=$ROUNDS ROUNDS=$B14_ROUNDS
	sleep 1.2
	time_case B14 none 0 0 baseline-0
	time_case B14 untracked 0 0 untracked-0
	for k in 1 1000; do
		time_case B14 untracked 0 "$k" "untracked-$k"
	done
	for k in $B14_SESSIONS; do
		time_case B14 pmcdrv-ioctl 1 "$k" "cross-$k"
	done
	for k in 2 1000; do
		sleep 1.2
		trace_case B14 pmcdrv-ioctl 1 "$k" "cross-$k"
	done
	ROUNDS=$rounds_all
fi

# ---- B15: many CPUs (its own guest: bench/run boots tests/vm/run --smp 8 for ONLY=B15) --------
# Not in the default list (empty ONLY): only a guest with more vCPUs than the first one's 2
# shows what grows with CPUs.  Two figures against the number of online CPUs, set by CPU
# hotplug in this one guest (B15_ONLINE, 8 4 2: CPUs 1 .. K-1 online, the rest offline):
#  - start-up: pmcctl stat -a and perf stat -a, -e instructions,cycles, around `true`, wall
#    and busy guest ns per start (the mean of STARTS, as B4); the command alone (none)
#  - INFO: build/bench/readspread's PMCDRV_IOC_INFO (pmcdrv asks every online CPU)
# and one READ of a session spread over K CPUs (all 8 online, B15_SPREAD, 1 2 4 8): the reader
# on CPU 0 and K - 1 threads of its inherited session spinning on CPUs 1 .. K-1, pmcdrv's READ
# against perf's read() of each inherited event (bench/readspread.c).  The least of
# B15_BATCHES batches as B11 (B15_READS reads, B15_INFOS INFOs a batch: few, since a vCPU
# waiting for a spinning one's reply waits out the other vCPUs' round-robin slices, up to
# 100,000 instructions each).
if [ "$ONLY" = B15 ]; then
	B15_ONLINE=${B15_ONLINE:-8 4 2}
	B15_SPREAD=${B15_SPREAD:-1 2 4 8}
	B15_READS=${B15_READS:-20}
	B15_INFOS=${B15_INFOS:-200}
	B15_BATCHES=${B15_BATCHES:-3}
	EV15=instructions,cycles
	ncpu=$(nproc)
	[ -x build/bench/readspread ] || err "B15: build/bench/readspread not built (bench/run builds it)"
	echo "bench: B15 many CPUs ($ncpu online; start-up and INFO at $B15_ONLINE CPUs, READ spread over $B15_SPREAD)"
	bench "bench=info15 metric=cpus value=$ncpu"
	online15() {	# K: CPUs 0 .. K-1 online, the others offline
		local c f
		for f in /sys/devices/system/cpu/cpu[1-9]*/online; do
			c=${f#/sys/devices/system/cpu/cpu}
			c=${c%/online}
			echo $((c < $1)) >"$f" || err "B15: cpu$c online=$((c < $1))"
		done
		[ "$(nproc)" = "$1" ] || err "B15: $(nproc) CPUs online, not $1"
	}
	# least15 CASE K ARGS...: readspread ARGS' least lines (least_of, as B11) as bench=B15
	# lines, K CPUs online
	least15() {
		local case=$1 k=$2 _ tool events reads nsper cpus counting
		shift 2
		least_of "$B15_BATCHES" build/bench/readspread "$@"
		while read -r _ tool events reads _ nsper cpus counting; do
			bench "bench=B15 case=$case $tool $events online=$k $cpus metric=ns_per_read" \
				"value=${nsper#ns_per_read=} $reads $counting batches=$B15_BATCHES"
		done < <(grep . <<<"$LEAST")
	}
	for k in $B15_ONLINE; do
		[ "$k" -le "$ncpu" ] || { err "B15: $k CPUs asked, $ncpu in the guest"; continue; }
		online15 "$k"
		runs_mean B15 "start-up cpus=$k" none true
		runs_mean B15 "start-up cpus=$k" pmcdrv pmcctl stat -a -x, -o /tmp/bench.counts -e $EV15 -- true
		runs_mean B15 "start-up cpus=$k" perf perf stat -a -x, -o /tmp/bench.counts -e $EV15 -- true
		least15 info "$k" "$B15_INFOS" "$EV15" 1 info
	done
	online15 "$ncpu"
	for k in $B15_SPREAD; do
		[ "$k" -le "$ncpu" ] || { err "B15: a spread over $k CPUs, $ncpu in the guest"; continue; }
		least15 read "$ncpu" "$B15_READS" "$EV15" "$k" pmcdrv
		least15 read "$ncpu" "$B15_READS" "$EV15" "$k" perf
	done
fi
# ---- end of B15 ---------------------------------------------------------------------------------

# ==== B16: a build (begin) =========================================================================
# make -j2 of a small generated C project (build/bench/proj: 40 files of 12 functions and main.c,
# compiled by tcc, linked -nostdlib; bench/build-stage.sh), with GNU make and Debian's tcc
# staged by bench/run in build/bench/toolchain.  Each run: make clean (not timed), then make
# -j2 untracked, under pmcctl run -e and under perf stat -e (2 and 7 events, inherited by
# every make, tcc and rm); the wall and the busy guest ns (/proc/schedstat, as B4 and B9) of
# the whole command, the median of B16_REPS runs; the program built must print the sum its
# host build printed (proj/expected).  The tools' start-up around `true` as B9's, as B16's.
B16_REPS=${B16_REPS:-$REPS}
TC=$PWD/build/bench/toolchain
PJ=$PWD/build/bench/proj
# b16_env CMD...: CMD with the staged make and tcc first on PATH, their libraries found
b16_env() { env PATH="$TC/bin:$PATH" LD_LIBRARY_PATH="$TC/lib" "$@"; }
b16_case() {	# TOOL EVENTS
	local tool=$1 n=$2 i out t0 t1 b0 b1 walls="" busys="" ev=${EV[$2]:-}
	local c=(make -s -C "$PJ" -j2 CC="tcc -B$TC/tcc")
	for i in $(seq "$B16_REPS"); do
		b16_env make -s -C "$PJ" clean >/dev/null 2>&1 || { err "B16: make clean"; return; }
		rm -f /tmp/bench.counts
		b0=$(busy_ns)
		t0=$EPOCHREALTIME
		case $tool in
		none) out=$(b16_env "${c[@]}" 2>&1) ;;
		pmcdrv) out=$(b16_env pmcctl run -x, -o /tmp/bench.counts -e "$ev" -- "${c[@]}" 2>&1) ;;
		perf) out=$(b16_env perf stat -x, -o /tmp/bench.counts -e "$ev" -- "${c[@]}" 2>&1) ;;
		esac
		# shellcheck disable=SC2181
		if [ $? != 0 ] || ! counts_ok B16 "$tool"; then
			err "B16 $tool $n: $out $(cat /tmp/bench.counts 2>/dev/null)"
			return
		fi
		t1=$EPOCHREALTIME
		b1=$(busy_ns)
		[ "$("$PJ/prog")" = "$(cat "$PJ/expected")" ] || { err "B16 $tool $n: the program built is wrong"; return; }
		walls+=" $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", (b - a) * 1e9 }')"
		busys+=" $((b1 - b0))"
	done
	bench "bench=B16 case=build tool=$tool events=$n metric=busy_ns value=$(median <<<"$busys")" \
		"runs=$(tr ' ' , <<<"${busys# }") wall_ns=$(median <<<"$walls") wall_runs=$(tr ' ' , <<<"${walls# }")"
}
if want B16; then
	echo "bench: B16 a build (make -j2 of build/bench/proj)"
	if [ ! -x "$TC/bin/make" ] || [ ! -x "$TC/bin/tcc" ] || [ ! -s "$PJ/expected" ]; then
		echo "bench: B16: no staged toolchain or project (bench/run stages them when Debian's tcc is installed): no B16 rows"
	else
		read -r _ mv _ tv <"$TC/version"
		bench "bench=info metric=build_toolchain value=$(b16_env tcc -v | awk '{ print $3 }') tcc=$tv make=$mv" \
			"files=$(find "$PJ" -name '*.c' | wc -l)"
		hb_startup none 0 B16
		for n in 2 7; do
			hb_startup pmcdrv "$n" B16
			hb_startup perf "$n" B16
		done
		b16_case none 0
		for n in 2 7; do
			b16_case pmcdrv "$n"
			b16_case perf "$n"
		done
	fi
fi
# ==== B16: a build (end) ===========================================================================

echo "BENCH-DONE failed=$failed"
exit "$failed"
