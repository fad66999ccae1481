# SPDX-License-Identifier: GPL-2.0
# The self-read page and READ_SELF (tests/guest/selfread.c): exact against
# READ, per thread, monotonic under preemption, migration and fork, RDPMC
# only for a process with a page, every bad mmap's errno, the fallbacks.
# With --no-pmu: the fallback and bad-input parts.  Prints the figures
# (selfread-figure: lines) of one page read against READ_SELF and perf.
# tests/guest/selftype.c: the page's core type on each CPU.
. tests/lib/guest.sh

if [ ! -x build/tests/selfread ]; then
	fail "selfread" "build/tests/selfread not built (make tests)"
	exit 1
fi
build/tests/selfread
# The page's core type: CPUID.1AH's on each CPU of a hybrid part, 0 elsewhere (selftype.c).
if have_pmu; then
	build/tests/selftype
fi
