/* SPDX-License-Identifier: GPL-2.0 */
/* Counting a command through pmcdrv: what run and compare share (run-task.c). */
#ifndef PMCDRV_PMCCTL_RUN_H
#define PMCDRV_PMCCTL_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "pmcctl.h"

struct run_opts {
	struct count_opts c;	/* -e, -x, -j, -o, -d */
	bool inherit;
	unsigned int repeat;
	char **argv;
	/* The MSR path (run only). */
	bool msr;		/* --msr, --msr-device, or no module */
	const char *msr_device;
	int cpu;		/* -C; -1: the CPU pmcctl is on */
	bool force;
	bool regions;		/* --regions (run only): the command's region tables */
};

/* One measured run. */
struct run_result {
	struct pmcdrv_read r;
	double elapsed;		/* seconds */
	double utime, stime;
	int status;		/* wait status */
	char *regions;		/* --regions: what the command's processes wrote (malloc'd), or NULL */
	size_t regions_len;
};

/*
 * The options of 'pmcctl @cmd' (run or compare; the MSR options are run's
 * only); @usage prints its help (then o->c.help is set).
 */
int run_parse_opts(int argc, char **argv, struct run_opts *o, const char *cmd,
		   void (*usage)(FILE *f));
/*
 * Run the command once under a new task session.  With o->regions the
 * command gets the session and a file for its region tables through the
 * environment (PMCDRV_REGIONS, _SESSION, _EVENTS: libpmc.h), and
 * res->regions holds what it wrote; the caller frees it.
 */
int run_once_task(const struct run_opts *o, struct run_result *res);

#endif /* PMCDRV_PMCCTL_RUN_H */
