# SPDX-License-Identifier: GPL-2.0
# MSR accesses per context switch, exactly, from the kernel's own tracepoints
# (msr:read_msr, msr:write_msr, msr:rdpmc) and sched:sched_switch, through
# tracefs.  Sourced by bench/guest.sh and bench/msr-guard.sh (bash, in the
# guest, as root).
#
#   msr_trace_start          clear the trace buffers, enable the four events
#   msr_trace_stop CPU FILE  stop tracing; CPU's buffer (text) into FILE
#   msr_trace_window         clear the buffers and trace again, the events
#                            left enabled (their probes keep their place)
#   msr_trace_pause CPU FILE stop tracing, the events left enabled; CPU's
#                            buffer (text) into FILE
#   msr_switch_stats FILE [COMM]  one line of key=value per switch direction:
#       dir=p2c|c2p windows=W mode=M at_mode=K mode_reads=R mode_writes=W
#                   mode_rdpmc=P min=A max=B sum=S other=O irq=I
#     for the switches between two tasks named COMM (default "pingpong",
#     bench/pingpong; "pingpong-rdpmc" for bench/pingpong-rdpmc):
#     p2c from the lower pid (the parent) to the higher one, c2p back.  A
#     window is the run of trace lines between two consecutive COMM ->
#     COMM switches on that CPU; it holds the MSR accesses of the first
#     of them, because the trace's own sched_switch probe was registered
#     before pmcdrv's (tracing starts before the session attaches) and perf's
#     switch hooks run after the tracepoint.  Only accesses to PMU MSRs
#     (PMCx, A_PMCx, PERFEVTSELx, FIXED_CTRx, FIXED_CTR_CTRL, GLOBAL_*,
#     PERF_CAPABILITIES) and RDPMC count in M/A/B/S; accesses to any other
#     MSR are O, and accesses made in interrupt context (an interrupt that
#     hit the window, e.g. a timer) are I and count nowhere else.
#     W windows; M the most frequent count (by kind: R rdmsr, W wrmsr, P
#     rdpmc), found in K windows; A and B the least and the most; S in all.
#   msr_trace_overrun CPU    events lost to a full buffer on CPU (must be 0)
TRACEFS=/sys/kernel/tracing

msr_trace_mount() {
	[ -e "$TRACEFS/trace" ] || mount -t tracefs nodev "$TRACEFS" || return 1
}

msr_trace_start() {
	msr_trace_mount || return 1
	echo 0 >"$TRACEFS/tracing_on"
	echo 16384 >"$TRACEFS/buffer_size_kb"
	echo 0 >"$TRACEFS/events/enable"
	local e
	for e in msr/read_msr msr/write_msr msr/rdpmc sched/sched_switch; do
		echo 0 >"$TRACEFS/events/$e/filter"
		echo 1 >"$TRACEFS/events/$e/enable" || return 1
	done
	echo >"$TRACEFS/trace"
	echo 1 >"$TRACEFS/tracing_on"
}

msr_trace_stop() {	# CPU FILE
	echo 0 >"$TRACEFS/tracing_on"
	echo 0 >"$TRACEFS/events/enable"
	cat "$TRACEFS/per_cpu/cpu$1/trace" >"$2"
}

msr_trace_window() {
	echo 0 >"$TRACEFS/tracing_on"
	echo >"$TRACEFS/trace"
	echo 1 >"$TRACEFS/tracing_on"
}

msr_trace_pause() {	# CPU FILE
	echo 0 >"$TRACEFS/tracing_on"
	cat "$TRACEFS/per_cpu/cpu$1/trace" >"$2"
}

msr_trace_overrun() {	# CPU
	awk '/^overrun:/ { print $2 }' "$TRACEFS/per_cpu/cpu$1/stats"
}

msr_switch_stats() {	# FILE [COMM]
	awk -v comm="${2:-pingpong}" '
	function pmu(m) {	# m: the MSR number as the trace prints it (hex, no 0x)
		return m ~ /^(c[1-8]|18[6-9a-d]|30[9a-c]|345|38[d-f]|39[0-2]|4c[1-8])$/
	}
	function kv(s, k,   i, n, a) {	# value of k=... among the tokens of s
		n = split(s, a, " ")
		for (i = 1; i <= n; i++)
			if (index(a[i], k "=") == 1)
				return substr(a[i], length(k) + 2)
		return ""
	}
	function close_window() {
		hist[dir, nrd "," nwr "," npc]++
		windows[dir]++
		sum[dir] += cnt; rd[dir] += nrd; wr[dir] += nwr; pc[dir] += npc
		oth[dir] += nother; irq[dir] += nirq
		if (!(dir in lo) || cnt < lo[dir]) lo[dir] = cnt
		if (!(dir in hi) || cnt > hi[dir]) hi[dir] = cnt
	}
	{
		c = 0
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/) { c = i; break }
		if (!c) next
		flags = $(c + 1); ev = $(c + 3)
		if (ev == "sched_switch:") {
			pp = kv($0, "prev_comm") == comm && kv($0, "next_comm") == comm
			if (open && pp)
				close_window()
			open = pp
			if (pp) {
				dir = kv($0, "prev_pid") + 0 < kv($0, "next_pid") + 0 ? "p2c" : "c2p"
				cnt = nrd = nwr = npc = nother = nirq = 0
			}
			next
		}
		if (!open || (ev != "read_msr:" && ev != "write_msr:" && ev != "rdpmc:"))
			next
		if (substr(flags, 3, 1) ~ /[hsHzZ]/) { nirq++; next }
		m = $(c + 4); sub(/,$/, "", m)
		if (ev == "rdpmc:") { cnt++; npc++ }
		else if (!pmu(m)) nother++
		else if (ev == "read_msr:") { cnt++; nrd++ }
		else { cnt++; nwr++ }
	}
	END {
		for (k = 1; k <= 2; k++) {
			d = k == 1 ? "p2c" : "c2p"
			if (!(d in windows)) { printf "dir=%s windows=0\n", d; continue }
			best = -1
			for (key in hist) {
				split(key, a, SUBSEP)
				if (a[1] == d && hist[key] > best) { best = hist[key]; mode = a[2] }
			}
			split(mode, t, ",")
			printf "dir=%s windows=%d mode=%d at_mode=%d mode_reads=%d mode_writes=%d mode_rdpmc=%d min=%d max=%d sum=%d other=%d irq=%d\n",
				d, windows[d], t[1] + t[2] + t[3], best, t[1], t[2], t[3], lo[d], hi[d], sum[d], oth[d], irq[d]
		}
	}' "$1"
}
