/* SPDX-License-Identifier: GPL-2.0 */
/* pmcctl internals shared by its command files. */
#ifndef PMCDRV_PMCCTL_H
#define PMCDRV_PMCCTL_H

/* Exit codes: docs/pmcctl.md. */
enum pmcctl_exit {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_UNAVAILABLE = 3,	/* module or PMU unavailable */
	EXIT_BUSY = 4,		/* counters held by someone else */
	EXIT_NOT_EXEC = 126,	/* command found but not executable */
	EXIT_NOT_FOUND = 127,	/* command not found */
};

/*
 * pmcctl's functions return 0 or a negative errno, after printing what went
 * wrong and its fix; each command turns that into its exit code in one
 * place, pmcctl_exit_code(): -EINVAL usage (2); -ENODEV module, MSR device
 * or PMU unavailable (3); -EBUSY counters busy (4); -ENOEXEC command not
 * executable (126); -ENOENT command not found (127); any other, e.g. -EIO,
 * a failure (1).  A system call's errno is therefore never passed up as is.
 */
int pmcctl_exit_code(int err);

/* What to do when the device could not be opened with -errno @err. */
const char *pmcctl_module_hint(int err);

/* Shared by the counting commands (builtin-run.c, builtin-compare.c, builtin-stat.c). */
#include <signal.h>
#include <stdio.h>
#include "libpmc.h"
#include "report.h"

/* The options run, compare and stat share. */
struct td_gp;

struct count_opts {
	struct pmc_evlist events;	/* -e */
	const char *device;		/* -d: pmcdrv device, NULL for the default */
	const char *csv_sep;		/* -x */
	const char *out_path;		/* -o */
	bool json;			/* -j */
	bool no_scale;			/* --no-scale: raw counts of a multiplexed session */
	bool help;			/* -h: the help is printed, nothing more to do */
	/* --topdown without PERF_METRICS: the model's TopdownL1 metrics (topdown.h), else NULL */
	struct td_gp *td;
};

#define COUNT_OPT_NO_SCALE	0x300	/* getopt code of --no-scale (no short option) */
#define COUNT_SHORTOPTS	"e:x:jo:d:c"
#define COUNT_LONGOPTS \
	{ "scale", no_argument, NULL, 'c' }, \
	{ "no-scale", no_argument, NULL, COUNT_OPT_NO_SCALE }, \
	{ "event", required_argument, NULL, 'e' }, \
	{ "field-separator", required_argument, NULL, 'x' }, \
	{ "json", no_argument, NULL, 'j' }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "device", required_argument, NULL, 'd' }

/*
 * Event @i of @r as perf stat counts it: scaled by its time_enabled /
 * time_running (libpmc's pmc_scale_count()) unless --no-scale.
 */
double count_value(const struct count_opts *co, const struct pmcdrv_read *r, unsigned int i);
/*
 * @row's runtime and running percentage from time_enabled @ena and
 * time_running @run (summed over CPUs for a total) when the session
 * multiplexed (@mux): the "(xx.xx%)" column and "<not counted>".
 */
void count_row_times(struct report_row *row, bool mux, double ena, double run);

/* Is getopt's option @c one of the shared ones? */
bool count_opt_owns(int c);
/* Take the shared option @c with its @arg. */
int count_opt(struct count_opts *co, int c, const char *arg, const char *cmd);
/* Once parsed: do the shared options agree? */
int count_opts_check(const struct count_opts *co, const char *cmd);
/*
 * --topdown: add slots and the PMU's PERF_METRICS fields (one group) to
 * co's events; *level: 0 asks for the PMU's deepest, set to it; more than
 * the PMU has is explained and refused.  Without PERF_METRICS, the events
 * of the model's TopdownL1 metrics (topdown.h), one group, with co->td set
 * to them (the caller closes it: td_gp_close()), or a refusal that says why
 * not.  @system_wide: every CPU is counted (stat -a), perf's #core_wide.
 */
int count_topdown_setup(struct count_opts *co, unsigned int *level, bool system_wide,
			const char *cmd);
/* -M @arg: append it to @list (comma-separated); too long is explained, -EINVAL. */
int metric_list_add(char *list, size_t len, const char *arg, const char *cmd);
/* The report format -x and -j ask for. */
enum report_format count_format(const struct count_opts *co);
/* Where the counts go: -o FILE or standard error; NULL after saying why not. */
FILE *count_output(const struct count_opts *co, const char *cmd);

/* The command being counted, for forwarded signals; 0 when none. */
extern volatile sig_atomic_t child_pid;
/* Ignore Ctrl-C/Ctrl-\ (they reach the child); forward TERM, HUP, USR1, USR2 unless ignored. */
void setup_signals(void);
/*
 * fork() for the command being counted: the forwarded signals are held
 * across it, so one sent before child_pid is set still reaches the command;
 * the child gets default dispositions for Ctrl-C, Ctrl-\ and the forwarded
 * signals (an ignored one stays ignored).  Sets child_pid in the parent.
 */
pid_t fork_command(void);
/* CLOCK_MONOTONIC in seconds. */
double now_s(void);
/* A decimal option argument from @min to @max, nothing else around it. */
bool parse_long(const char *arg, long min, long max, long *out);
/* Seconds, decimals allowed: more than 0, at most @max, nothing else around it. */
bool parse_seconds(const char *arg, double max, double *out);
/*
 * The CPUs of a whole-CPU command (stat, serve): -C's list in @cpus
 * (@given), each online, or every online CPU.  -EINVAL names the offline ones.
 */
int cpus_choose(cpu_set_t *cpus, bool given, const char *cmd);
/*
 * What CPU sessions count of @l into @out: hardware events and task-clock.
 * Another event the user gave (context switches and migrations are counted
 * per task) is refused naming it; of the defaults (@defaults) it is left out.
 */
int cpu_events(const struct pmc_evlist *l, bool defaults, struct pmc_evlist *out, const char *cmd);
/* The pmcdrv device did not open with -errno @err: say so and the fix; returns -ENODEV. */
int device_error(const char *cmd, const char *device, int err);
/* In a forked child: tell the parent through @fd that step @stage (0 attach, 1 exec) failed with errno @err, and exit. */
void child_report_fail(int fd, int stage, int err) __attribute__((noreturn));
/* Shell-style exit code of a waited child's status. */
int child_exit_code(int status);
/*
 * Print what a session call's -errno means and its fix; returns the error to
 * exit with (-EOWNERDEAD, a revoked session: -EIO, exit 1).
 */
int session_error(const char *cmd, const char *what, int err);
/*
 * Who may hold the PMU against pmcdrv, for a busy message: the NMI watchdog
 * when it is on, and processes with perf_event files open that /proc shows
 * the caller (a few, then "and N more"); empty when none is seen.
 */
void pmu_holders(char *buf, size_t len);
/*
 * EBUSY at ATTACH: @excluder ("another 'pmcctl stat' counts this CPU"; NULL
 * for a task session, which only perf_events can keep out) may hold the
 * CPU, or perf_events the PMU; says both with their fixes and returns -EBUSY.
 */
int attach_busy_error(const char *cmd, const char *what, const char *excluder);
/*
 * Fill in the default events when @events is empty and check them against
 * what the PMU offers, naming an offending event.
 */
int prepare_events(struct pmc_evlist *events, const char *device, const char *cmd);

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/*
 * Draw the interval JSON @json into @out (.png or .svg) as 'pmcctl plot'
 * does, only the @events and @metrics named when not NULL; messages name
 * @cmd.  0; -EINVAL an unknown event or metric; -EIO otherwise.
 */
int plot_draw(const char *json, const char *out, const char *events, const char *metrics,
	      const char *cmd);
/* Does @out end in .png or .svg?  Says so when not. */
bool plot_output_ok(const char *out, const char *cmd);

/* Is kernel lockdown (integrity or confidentiality) in force? */
bool lockdown_active(void);
/* What to do when an MSR device could not be opened with -errno @err. */
const char *msr_hint(int err);
/*
 * prepare_events() once the PMU is known: fill in the default events when
 * @events is empty and check them against @info.
 */
int check_events(struct pmc_evlist *events, const struct pmcdrv_info *info, const char *cmd);

/* ---- the MSR fallback of 'pmcctl run' (run-msr.c) ---- */
struct msr_counting;

struct msr_opts {
	int cpu;		/* where CMD is pinned and counted */
	const char *device;	/* --msr-device, %d = the CPU; NULL: /dev/cpu/N/msr, then msr_safe */
	bool force;		/* take counters someone else has enabled */
};

/* One run of CMD. */
struct msr_result {
	uint64_t values[PMCDRV_MAX_EVENTS];	/* in event-list order */
	double elapsed;				/* seconds the counters ran */
	double utime, stime;			/* CMD's rusage, seconds */
	int status;				/* CMD's wait status */
};

/*
 * Check @events (filling in the defaults) against the PMU of CPU o->cpu and
 * open its MSR device when there are hardware events: *out.
 */
int msr_counting_open(const struct msr_opts *o, struct pmc_evlist *events, struct msr_counting **out);
/*
 * Run @argv once pinned to the CPU: save the PMU registers, refuse counters
 * others enabled (-EBUSY) unless forced, count, and put every register back,
 * also when CMD fails or is killed.  -EINTR: CMD ended before it started
 * (res->status says how).
 */
int msr_counting_run(struct msr_counting *c, char **argv, struct msr_result *res);
void msr_counting_close(struct msr_counting *c);
/* The report's target: "CPU 1 while 'CMD' ran" (@cmd is "'CMD'"). */
void msr_counting_target(const struct msr_counting *c, const char *cmd, char *buf, size_t len);
/* What these counts are (whole CPU; software events from rusage), for the report. */
void msr_counting_note(const struct msr_counting *c, char *buf, size_t len);

#endif /* PMCDRV_PMCCTL_H */
