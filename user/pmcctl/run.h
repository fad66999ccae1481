/* SPDX-License-Identifier: GPL-2.0 */
/* Counting a command through pmcdrv: what run and compare share (run-task.c). */
#ifndef PMCDRV_PMCCTL_RUN_H
#define PMCDRV_PMCCTL_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "pmcctl.h"

struct count_metrics;

struct interval_out;

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
	/* Attaching to running tasks (run only, attach.c): -p or -t instead of CMD. */
	enum { ATTACH_NONE, ATTACH_PID, ATTACH_TID } attach;
	const char *attach_arg;	/* the list as given, for the report */
	pid_t *ids;		/* the parsed list (malloc'd), nr_ids of them */
	unsigned int nr_ids;
	double duration;	/* --duration seconds; 0 without */
	/* Top-down (run only): --topdown, --td-level N (0: the PMU's deepest), --all-user. */
	bool topdown;
	unsigned int td_level;
	bool all_user;
	/*
	 * A hybrid CPU (run only): --cputype core|atom prints that core type's
	 * counts alone (PMC_CORE_TYPE_*, 0: every type's, then their sum);
	 * --hybrid-merge the sum alone.
	 */
	unsigned int cputype;
	bool hybrid_merge;
	/* -M (run only): metric names and groups, comma-separated, every -M's together */
	char metric_list[1024];
	/* Under an MPI launcher (run only, mpi.h): --pin, -v. */
	bool pin;
	bool verbose;
	/* -I MS (run only): each interval's counts while counting; --plot FILE after. */
	long interval_ms;
	const char *plot;
	struct interval_out *io;	/* -I's printing (interval.h), set up by run; else NULL */
};

/*
 * --topdown: add the top-down events (slots and PERF_METRICS's fields, one
 * group) to o's events, or say plainly why this PMU cannot; --all-user:
 * every hardware event counts in user mode only.  After parsing, before
 * the events are checked.
 */
int run_topdown_setup(struct run_opts *o, const char *cmd);
int run_hybrid_check(const struct run_opts *o, const char *cmd);

/* One measured run. */
struct run_result {
	struct pmcdrv_read r;
	/* A hybrid CPU: the split of r by core type (pmc_session_read_types()); nr_types 0 else. */
	unsigned int nr_types;
	struct pmcdrv_read_type types[PMCDRV_MAX_CORE_TYPES];
	/* ns each event was on a counter of each type (pmcdrv_read_types.time_running) */
	uint64_t type_running[PMCDRV_MAX_CORE_TYPES][PMCDRV_MAX_EVENTS];
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
 * A task session with o's events and inheritance, configured, not attached
 * yet: *out.  Errors are explained; returns the error to exit with
 * (count.c, under both run-task.c and attach.c).
 */
int task_session_open(const struct run_opts *o, struct pmc_session **out);
/*
 * Run the command once under a new task session.  With o->regions the
 * command gets the session and a file for its region tables through the
 * environment (PMCDRV_REGIONS, _SESSION, _EVENTS: libpmc.h), and
 * res->regions holds what it wrote; the caller frees it.
 */
int run_once_task(const struct run_opts *o, struct run_result *res);

/*
 * -p PID[,PID...] / -t TID[,TID...]: parse @arg into o->ids (malloc'd);
 * -EINVAL after naming the bad part.
 */
int attach_parse_list(struct run_opts *o, int mode, const char *opt, const char *arg);
/*
 * Count the tasks of o->ids (one session per thread, summed) until they
 * have exited (the processes or threads given, not children they created),
 * o->duration ends or SIGINT/SIGTERM; print the counts, with @cm's
 * metrics (-M; NULL: none) beside them.
 * *sig: the signal that ended the count, 0 if none.
 */
int run_attached(const struct run_opts *o, FILE *out, struct count_metrics *cm, int *sig);

#endif /* PMCDRV_PMCCTL_RUN_H */
