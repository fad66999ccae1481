// SPDX-License-Identifier: GPL-2.0
/* pmcctl list: the events this CPU supports. */
#include <stdio.h>
#include <string.h>

#include "libpmc.h"
#include "pmcctl.h"

/* ---- pmcctl list ------------------------------------------------------------- */

static int list(int argc, char **argv)
{
	struct pmcdrv_info info;
	enum pmc_decode_err derr;
	unsigned int i;
	int fx;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: pmcctl list\n\nList the events this CPU supports, their encodings and counters.");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "pmcctl list: unexpected argument '%s'\n", argv[1]);
		return -EINVAL;
	}
	pmc_cpuid_info(&info, &derr);
	printf("Hardware events (architectural; CPUID.0AH, %s):\n",
	       (info.flags & PMCDRV_INFO_ARCH_PERFMON) ? "available per this CPU" : "this CPU has none");
	printf("  %-16s %-8s %-22s %s\n", "name", "code", "counters", "status");
	for (i = 0; i < PMC_ARCH_NR_EVENTS; i++) {
		const struct pmc_arch_event_desc *d = &pmc_arch_events[i];
		bool avail = (info.flags & PMCDRV_INFO_ARCH_PERFMON) && i < info.events_len &&
			     (info.events_avail & (1U << i));
		char counters[32];

		fx = d->fixed;
		if (d->event == PMC_EVENT_FIXED_PSEUDO)
			snprintf(counters, sizeof(counters), "fixed %d only", fx);
		else if (fx >= 0 && (info.avail_mask >> (PMC_GLOBAL_FIXED_SHIFT + fx)) & 1)
			snprintf(counters, sizeof(counters), "fixed %d, GP 0-%u", fx,
				 info.num_gp ? info.num_gp - 1 : 0);
		else
			snprintf(counters, sizeof(counters), "GP 0-%u", info.num_gp ? info.num_gp - 1 : 0);
		printf("  %-16s 0x%02x%02x   %-22s %s\n", d->name, d->umask, d->event,
		       info.num_gp ? counters : "-", avail ? "available" : "unavailable");
	}
	puts("\nSoftware events (no PMU needed):\n"
	     "  task-clock          ns on a CPU\n"
	     "  context-switches    (cs)\n"
	     "  cpu-migrations      (migrations)\n"
	     "\nSyntax: NAME[:u|:k|:uk], 0xUUEE (umask<<8|event), rHEX (perf raw: event, umask,\n"
	     "edge bit 18, inv bit 23, cmask bits 31:24), cpu/event=E,umask=U,cmask=C,inv,edge/.\n"
	     "Event 0 is fixed-counter-only: 0x0100..0x0400 = fixed counter 0..3 (ref-cycles = 0x0300;\n"
	     "0x013c is reference cycles at the bus clock, on a GP counter).\n"
	     "Model-specific events are given by code; see the SDM's event tables for this model.");
	return 0;
}

int cmd_list(int argc, char **argv)
{
	return pmcctl_exit_code(list(argc, argv));
}
