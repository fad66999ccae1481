// SPDX-License-Identifier: GPL-2.0
/*
 * The debug-lane build's delay points (debug.h): one module parameter per
 * point, in milliseconds, read at each pass.  Busy-waits (mdelay): the
 * points sit in atomic context.  Built only with PMCDRV_DEBUG=1.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>

#include "debug.h"

/* Longest delay a point takes, whatever is asked: 1 s. */
#define PMCD_DELAY_MAX_MS	1000

static unsigned int debug_fork_delay_ms;
module_param(debug_fork_delay_ms, uint, 0600);
MODULE_PARM_DESC(debug_fork_delay_ms, "debug build: ms the fork probe waits before tracking");

static unsigned int debug_perm_delay_ms;
module_param(debug_perm_delay_ms, uint, 0600);
MODULE_PARM_DESC(debug_perm_delay_ms, "debug build: ms ATTACH's permission check waits inside");

static unsigned int *const pmcd_delays[PMCD_DELAY_NR] = {
	[PMCD_DELAY_FORK] = &debug_fork_delay_ms,
	[PMCD_DELAY_PERM] = &debug_perm_delay_ms,
};

void pmcd_debug_delay(enum pmcd_delay_point point)
{
	unsigned int ms = READ_ONCE(*pmcd_delays[point]);

	if (ms)
		mdelay(min(ms, PMCD_DELAY_MAX_MS));
}
