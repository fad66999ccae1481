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
	echo "### dmesg | grep pmcdrv"
	dmesg | grep pmcdrv
	echo
	echo "### pmcctl info"
	pmcctl info
	echo
	echo "### pmcctl info --json | jq -c .perfmon"
	pmcctl info --json | jq -c .perfmon
'
