// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: an IA32_PERFEVTSELx value back into ABI event fields, below both
 * ways of naming an event: pmcctl's syntax (events.c, rNNN) and libpfm4's
 * names (pfm.c).
 */
#include <stdint.h>

#include <linux/pmcdrv.h>
#include <pmcdrv/pmu.h>

#include "internal.h"

void pmc_evtsel_decode(uint64_t sel, struct pmcdrv_event *ev)
{
	ev->event = (uint32_t)(sel & PMC_EVTSEL_EVENT);
	ev->umask = (uint32_t)((sel & PMC_EVTSEL_UMASK) >> PMC_EVTSEL_UMASK_SHIFT);
	ev->cmask = (uint32_t)((sel & PMC_EVTSEL_CMASK) >> PMC_EVTSEL_CMASK_SHIFT);
	if (sel & PMC_EVTSEL_USR)
		ev->flags |= PMCDRV_EVF_USER;
	if (sel & PMC_EVTSEL_OS)
		ev->flags |= PMCDRV_EVF_KERNEL;
	if (sel & PMC_EVTSEL_EDGE)
		ev->flags |= PMCDRV_EVF_EDGE;
	if (sel & PMC_EVTSEL_INV)
		ev->flags |= PMCDRV_EVF_INV;
}
