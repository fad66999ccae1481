#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The in-guest half of bench/run: pmcdrv against Debian's perf on
# the same work, in one guest with the emulated PMU.  Run by bench/run as
#   tests/vm/run -- bench/guest.sh [ROUNDS REPS TRACE_ROUNDS READS STARTS CPU WARMUP_MS [ONLY]]
# with pmcdrv loaded; ONLY=B8 runs B8 alone (the top-down pair: a second
# guest on the emulated Sapphire Rapids, tests/vm/run --pmu-model spr).  Prints one line per figure:
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
ONLY=${8:-}		# B8: the top-down pair alone
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
err() { echo "bench: $*" >&2; failed=1; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# cmd BENCH TOOL EVENTS MODE: the ping-pong command, without its ROUNDS CPU
# WARMUP_MS: build/bench/pingpong under pmcctl run or perf stat (B1, B2), or
# build/bench/pingpong-rdpmc, whose processes count themselves (B7: TOOL is
# its mode, none, pmcdrv, pmcdrv-shared or perf).
cmd() {
	local b=$1 tool=$2 n=$3 mode=$4 inh=() ev
	if [ "$b" = B7 ]; then
		echo "$ppr $tool ${EV[$n]:-instructions:u}"	# none: counts nothing
		return
	fi
	[ "$mode" = no-inherit ] && inh=(--no-inherit)
	ev=${EV[$n]:-}
	[ "$b" = B8 ] && ev=$EV8
	case $tool in
	pmcdrv) echo "pmcctl run -x, -o /tmp/bench.counts -e $ev ${inh[*]} -- $pp" ;;
	perf) echo "perf stat -x, -o /tmp/bench.counts -e $ev ${inh[*]} -- $pp" ;;
	*) echo "$pp" ;;
	esac
}

# comm BENCH: the ping-pong tasks' name (bench/lib/msrtrace.sh).
comm() { [ "$1" = B7 ] && echo pingpong-rdpmc || echo pingpong; }

# counts_ok BENCH TOOL: the counter output of the last run is complete (no
# multiplexing, nothing "not counted"/"not supported").  B7's program checks
# its own counts (it fails when they do not move).
counts_ok() {
	[ "$1" = B7 ] && return 0
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

echo "bench: timing pass (B1, B2)"
pass time
echo "bench: tracing pass (B1, B2: msr:read_msr, msr:write_msr, msr:rdpmc, sched:sched_switch)"
pass trace

# ---- B3: one self-read -------------------------------------------------------------------
echo "bench: B3 self-read"
# The least of B3_BATCHES batches of READS reads per tool, as B6 takes the least of its
# runs: an interrupt inside a batch only adds instructions to it (one batch of 2,000
# reads hit by one moved a 2-event figure by 1%, more than a target's margin).
B3_BATCHES=${B3_BATCHES:-5}
for n in 2 7; do
	all=
	for b in $(seq "$B3_BATCHES"); do
		if out=$(taskset -c "$CPU" build/bench/selfread "$READS" "${EV[$n]}" 2>&1); then
			all+=$(grep '^selfread ' <<<"$out")$'\n'
		else
			err "selfread: $out"
		fi
	done
	# selfread tool=T events=E reads=N ns=T ns_per_read=X: per tool, the line with the least X.
	while read -r _ tool events reads _ nsper; do
		bench "bench=B3 case=self-read $tool $events metric=ns_per_read value=${nsper#ns_per_read=} $reads batches=$B3_BATCHES"
	done < <(grep . <<<"$all" | sort -t= -k6,6g | awk '!seen[$2]++' | sort -k2,2)
done

# ---- B4: start-up ---------------------------------------------------------------------------
echo "bench: B4 start-up"
# Busy guest ns of every CPU: the run time of all tasks but the idle ones
# (rq_cpu_time, the 7th number of each cpu line of /proc/schedstat).
busy_ns() { awk '/^cpu[0-9]/ { s += $8 } END { printf "%.0f", s }' /proc/schedstat; }
startup() {	# TOOL CMD...: mean guest ns of STARTS runs of CMD, wall and busy
	local tool=$1 i t0 t1 b0 b1
	shift
	"$@" >/dev/null 2>&1 || { err "B4 $tool: $* failed"; return; }
	b0=$(busy_ns)
	t0=$EPOCHREALTIME
	for i in $(seq "$STARTS"); do "$@" >/dev/null 2>&1; done
	t1=$EPOCHREALTIME
	b1=$(busy_ns)
	bench "bench=B4 case=start-up tool=$tool metric=ns_per_start" \
		"value=$(awk -v a="$t0" -v b="$t1" -v n="$STARTS" 'BEGIN { printf "%.0f", (b - a) * 1e9 / n }') runs=$STARTS"
	bench "bench=B4 case=start-up tool=$tool metric=busy_ns_per_start" \
		"value=$(awk -v a="$b0" -v b="$b1" -v n="$STARTS" 'BEGIN { printf "%.0f", (b - a) / n }') runs=$STARTS"
}
startup none true
startup pmcdrv pmcctl run -e instructions:u true
startup perf perf stat -e instructions:u true

# ---- B5: accuracy ---------------------------------------------------------------------------
echo "bench: B5 accuracy"
N=001000000
want=$((2 * 10#$N + 103))
a=$(pmcctl run -x, -e instructions:u -- build/progs/loop $N 2>&1 >/dev/null | awk -F, '$3 == "instructions:u" { print $1 }')
b=$(perf stat -x, -e instructions:u -- build/progs/loop $N 2>&1 >/dev/null | awk -F, '$3 == "instructions:u" { print $1 }')
bench "bench=B5 case=loop tool=pmcdrv metric=instructions_u value=${a:-null} expected=$want exact=$([ "$a" = "$want" ] && echo true || echo false)"
bench "bench=B5 case=loop tool=perf metric=instructions_u value=${b:-null} expected=$want exact=$([ "$b" = "$want" ] && echo true || echo false)"
[ "$a" = "$want" ] && [ "$b" = "$want" ] || err "B5: pmcdrv $a, perf $b, want $want"

# ---- B6: one region begin/end pair ------------------------------------------------------------
# libpmc's pmc_region_begin/end around nothing, against perf's
# PERF_EVENT_IOC_ENABLE + PERF_EVENT_IOC_DISABLE pair on an instructions:u
# event: guest ns (user and kernel instructions), the least of 20 batches of
# REGIONS pairs each (tests/guest/region_cost.c --perf, built by make tests).
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

echo "BENCH-DONE failed=$failed"
exit "$failed"
