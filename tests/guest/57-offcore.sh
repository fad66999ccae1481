# SPDX-License-Identifier: GPL-2.0
# Offcore response through the module (ABI VER1 'extra'): bad values get
# their errnos, and MSR_OFFCORE_RSP_0 of the CPU where a tracked task spins
# holds the session's value (read through /dev/cpu/N/msr), 0 once the
# session is closed (tests/guest/offcore.c).  Then the writes themselves,
# from the msr:write_msr tracepoint: a session's extra register is written
# once per CPU (per-CPU shadow), not at every switch, and zeroed at release.
. tests/lib/guest.sh

module_loaded || insmod "$PMCDRV_KO"
modprobe msr
if [ -x build/tests/offcore ]; then
	build/tests/offcore
else
	fail "offcore" "build/tests/offcore not built (make tests)"
fi

# ---- MSR writes: once per CPU, not per switch; zeroed at release ------------------
if have_pmu && build/tests/offcore --pingpong 0 1 2>/dev/null; then
	. bench/lib/msrtrace.sh
	cpu=$(($(nproc) > 1 ? 1 : 0))
	rounds=200
	if msr_trace_start; then
		build/tests/offcore --pingpong $cpu $rounds
		rc=$?
		msr_trace_stop "$cpu" /tmp/offcore.trace
		expect_eq "offcore: ping-pong of a tracked and an untracked task ran" "$rc" 0
		switches=$(grep -c 'sched_switch:.*offcore.*==> .*offcore' /tmp/offcore.trace)
		check "offcore: at least $rounds switches between the two tasks traced ($switches)" \
			test "$switches" -ge "$rounds"
		expect_eq "offcore: MSR_OFFCORE_RSP_0 written with the value once on CPU $cpu (per-CPU shadow)" \
			"$(grep -c 'write_msr: 1a6, value 10001' /tmp/offcore.trace)" 1
		expect_eq "offcore: MSR_OFFCORE_RSP_0 zeroed once at release" \
			"$(grep -c 'write_msr: 1a6, value 0$' /tmp/offcore.trace)" 1
		expect_eq "offcore: MSR_OFFCORE_RSP_1 never written (no event uses it)" \
			"$(grep -c 'write_msr: 1a7' /tmp/offcore.trace)" 0
		k=$(msr_trace_overrun "$cpu")
		expect_eq "offcore: no trace events lost" "${k:-0}" 0
	else
		fail "offcore: MSR write count" "cannot enable the msr/sched tracepoints (tracefs)"
	fi
else
	echo "SKIP: offcore MSR write count: no PMU or no offcore table in this guest"
fi
