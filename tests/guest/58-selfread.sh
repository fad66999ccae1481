# SPDX-License-Identifier: GPL-2.0
# The self-read page and READ_SELF (tests/guest/selfread.c): exact against
# READ, per thread, monotonic under preemption, migration and fork, RDPMC
# only for a process with a page, every bad mmap's errno, the fallbacks.
# With --no-pmu: the fallback and bad-input parts.  Prints the figures
# (selfread-figure: lines) of one page read against READ_SELF and perf.
. tests/lib/guest.sh

if [ ! -x build/tests/selfread ]; then
	fail "selfread" "build/tests/selfread not built (make tests)"
	exit 1
fi
build/tests/selfread
