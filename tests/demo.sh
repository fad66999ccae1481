#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build everything, boot the guest (with the emulated PMU when
# the project's QEMU is built), load pmcdrv and show what it sees.
set -euo pipefail
cd "$(dirname "$0")/.."
tests/deps.sh
eval "$(tests/vm/kernel)"
make -s tests
make -s module KDIR="$GUEST_KDIR"
if [ -x tests/qemu/build ]; then
	tests/qemu/build >/dev/null || echo "demo: the emulated-PMU QEMU did not build; using Debian's QEMU (no PMU)" >&2
fi
exec tests/vm/run -- bash -c '
	set -e
	echo "### guest: $(uname -sr), $(nproc) vCPUs"
	dmesg | grep -E "Performance Events|pmcdrv: arch|pmcdrv: .*only software"
	echo
	echo "### pmcctl info"
	pmcctl info
	echo
	echo "### pmcctl run -- gzip -9 of 4 MiB (default events)"
	head -c 4194304 /dev/urandom > /tmp/data
	pmcctl run -- gzip -9 -k -f /tmp/data
	if pmcctl info --json | jq -e .perfmon.available >/dev/null; then
		echo "### the same command: pmcctl and perf stat, user-mode instructions (exact on the emulated PMU)"
		echo "### pmcctl run -e instructions:u,cycles:u -x,"
		pmcctl run -e instructions:u,cycles:u -x, -- build/progs/loop 001000000
		echo "### perf stat -e instructions:u,cycles:u -x,"
		perf stat -e instructions:u,cycles:u -x, -- build/progs/loop 001000000
		echo "### pmcctl compare -r 3 -e instructions:u,cycles:u -- gzip -9 of 4 MiB"
		pmcctl compare -r 3 -e instructions:u,cycles:u -- gzip -9 -k -f /tmp/data
		echo "### pmcctl list MEM_LOAD_RETIRED: this model'"'"'s events and unit masks, through libpfm4"
		pmcctl list MEM_LOAD_RETIRED | head -n 16
		echo "### pmcctl run -e {INST_RETIRED:ANY_P,CPU_CLK_UNHALTED:THREAD_P}:u: libpfm4 names, one group"
		pmcctl run -e "{INST_RETIRED:ANY_P,CPU_CLK_UNHALTED:THREAD_P}:u" -- build/progs/loop 001000000
		echo "### pmcctl run with 10 events on 4 GP + 3 fixed counters: multiplexed and scaled as perf stat, (xx.xx%) = time on a counter"
		pmcctl run -e "instructions:u,cycles:u,ref-cycles:u,r00c0:u,r003c:u,r013c:u,r10000c0:u,CPU_CLK_UNHALTED:THREAD_P:u,{r00c0:u,r003c:u}" -- build/progs/loop 020000000
		echo "### pmcctl run -p PID --duration 0.5: a process that already runs"
		build/progs/loop 999999999 & pid=$!
		pmcctl run -p $pid --duration 0.5 -e instructions:u,cycles:u
		kill $pid
		echo "### pmcctl run --regions: examples/matmul measures two regions of its own code"
		pmcctl run --regions -e instructions:u,cycles:u -- build/examples/matmul 64 >/dev/null
	fi
	echo "### pmcctl stat -a -A -- gzip -9 of 4 MiB (whole CPUs, one line per CPU)"
	pmcctl stat -a -A -- gzip -9 -k -f /tmp/data
	echo "### pmcctl run without pmcdrv: the MSR fallback (one whole CPU, says so)"
	rmmod pmcdrv
	modprobe msr 2>/dev/null || true
	pmcctl run -e instructions:u -- build/progs/loop 001000000 || true
'
