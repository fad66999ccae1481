/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delay points for the debug-lane build only (PMCDRV_DEBUG_DELAYS, set by
 * kmod/Kbuild when built with PMCDRV_DEBUG=1), as the kernel's fault
 * injection: a test holds a race window open deterministically by setting
 * the matching module parameter (milliseconds, 0 = off) under
 * /sys/module/pmcdrv/parameters/.  Elsewhere each point compiles to
 * nothing and the parameters do not exist.
 *
 *  - PMCD_DELAY_FORK (debug_fork_delay_ms): the fork probe busy-waits
 *    before it looks at the parent, while the child is findable by pid
 *    and not yet tracked (the fork/ATTACH race), and after dup_mm() copied
 *    the parent's perf_rdpmc_allowed (a munmap racing the fork);
 *  - PMCD_DELAY_PERM (debug_perm_delay_ms): ATTACH's permission check
 *    busy-waits after it read the target's mm and before it reads the
 *    mm's dumpability, while an exiting target may run exit_mm() (the
 *    check holds task_lock() across it, so exit_mm() waits).
 * tests/guest/security_leaks.c sets them.
 */
#ifndef PMCDRV_DEBUG_H
#define PMCDRV_DEBUG_H

enum pmcd_delay_point {
	PMCD_DELAY_FORK,
	PMCD_DELAY_PERM,
	PMCD_DELAY_NR,
};

#ifdef PMCDRV_DEBUG_DELAYS
void pmcd_debug_delay(enum pmcd_delay_point point);
#else
static inline void pmcd_debug_delay(enum pmcd_delay_point point)
{
}
#endif

#endif /* PMCDRV_DEBUG_H */
