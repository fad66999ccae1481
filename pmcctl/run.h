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
};

/* One measured run. */
struct run_result {
	struct pmcdrv_read r;
	double elapsed;		/* seconds */
	double utime, stime;
	int status;		/* wait status */
};

/*
 * The options of 'pmcctl @cmd' (run or compare; the MSR options are run's
 * only); @usage prints its help (then o->c.help is set).
 */
int run_parse_opts(int argc, char **argv, struct run_opts *o, const char *cmd,
		   void (*usage)(FILE *f));
/* Run the command once under a new task session. */
int run_once_task(const struct run_opts *o, struct run_result *res);

#endif /* PMCDRV_PMCCTL_RUN_H */
