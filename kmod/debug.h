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
 *    and not yet tracked (the fork/ATTACH race, tests/guest/65-security).
 */
#ifndef PMCDRV_DEBUG_H
#define PMCDRV_DEBUG_H

enum pmcd_delay_point {
	PMCD_DELAY_FORK,
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
