// SPDX-License-Identifier: GPL-2.0
/* pmcctl stat: count whole CPUs, system wide or a CPU list (pmcdrv's CPU sessions). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroups.h"
#include "hybrid.h"
#include "interval.h"
#include "libpmc.h"
#include "metrics.h"
#include "pmcctl.h"
#include "report.h"
#include "topdown.h"

#define MAX_DURATION_S		(365.0 * 24 * 3600)

struct stat_opts {
	struct count_opts c;	/* -e, -x, -j, -o, -d */
	bool all;		/* -a */
	bool cpus_given;	/* -C */
	cpu_set_t cpus;		/* what -a or -C chose */
	bool per_cpu;		/* -A */
	long interval_ms;	/* -I; 0 without */
	double duration;	/* -t seconds; 0 without */
	char **argv;		/* CMD, or NULL */
	bool topdown;		/* --topdown */
	unsigned int td_level;	/* --td-level; 0: the PMU's deepest */
	char metric_list[1024];	/* -M */
	struct count_metrics *cm;
	struct pmcctl_cgroups cg;	/* -G, --for-each-cgroup: nr 0 without */
	struct report_metric *cm_rows;	/* -M with -G or -A: each cgroup's or CPU's metrics */
	struct interval_out io;	/* -I's printing, --plot's picture drawn after the count */
};

/* One counted CPU. */
struct stat_cpu {
	unsigned int cpu;
	char label[16];			/* "CPU3" */
	uint32_t cpuid_1a;		/* a hybrid part's: its CPUID.1AH:EAX (core type); 0 else */
	struct pmc_session *s;
	struct pmcdrv_read now;		/* the latest read */
	struct pmcdrv_read prev;	/* at the last printed interval */
	struct pmcdrv_read *cg_now;	/* with -G: each cgroup's, as now and prev */
	struct pmcdrv_read *cg_prev;
};

static void stat_usage(FILE *f)
{
	fputs("usage: pmcctl stat {-a | -C LIST} [options] [-t S | [--] CMD [ARGS...]]\n"
	      "\n"
	      "Count everything that runs on whole CPUs (every task, the kernel when :k or no\n"
	      "modifier is given, idle time), like 'perf stat -a'. Counting starts at once and ends\n"
	      "when CMD exits, after -t seconds, or at Ctrl-C. Needs root or CAP_PERFMON unless\n"
	      "kernel.perf_event_paranoid <= 0. While it counts, 'pmcctl run' cannot (and vice versa).\n"
	      "\n"
	      "  -a, --all-cpus       every online CPU\n"
	      "  -C, --cpu LIST       these CPUs: 0-3,6 (the kernel's cpulist syntax)\n"
	      "  -A, --no-aggr        one count per CPU instead of their sum\n"
	      "  -I, --interval-print MS   print the counts of each MS milliseconds (at least 10)\n"
	      "  -t, --duration S     count for S seconds (decimals allowed) instead of a command\n"
	      "  -e, --event LIST     events as for 'pmcctl run' (see 'pmcctl list'); task-clock is\n"
	      "                       the time each CPU was counted. context-switches and\n"
	      "                       cpu-migrations belong to tasks: use 'pmcctl run'. Default:\n"
	      "                       task-clock, cycles, instructions, branches, branch-misses\n"
	      "  -x, --field-separator SEP   CSV output with SEP between fields\n"
	      "  -j, --json           one JSON object per event\n"
	      "  -c, --scale          scale the counts of a multiplexing session (more events than\n"
	      "                       counters) by time enabled / time running, as perf stat (default)\n"
	      "      --no-scale       print their raw counts instead\n"	      "  -o, --output FILE    write the counts to FILE (default: standard error, as perf stat)\n"
	      "  -d, --device PATH    pmcdrv device (default " PMC_DEFAULT_DEVICE ")\n"
	      "      --topdown        top-down analysis of the CPUs, as perf stat -a --topdown (see\n"
	      "                       'pmcctl run --help'); per CPU with -A, per interval with -I\n"
	      "      --td-level N     with --topdown: level 1 or 2 (default: the PMU's deepest)\n"
	      "  -M, --metrics LIST   metrics or metric groups, as for 'pmcctl run' (per CPU with -A)\n"
	      "  -G, --cgroup LIST    count only while tasks of these cgroups run, each cgroup (with\n"
	      "                       its subtree) on its own rows: names relative to the cgroup v2\n"
	      "                       mount (/sys/fs/cgroup), comma-separated; every event counts for\n"
	      "                       every cgroup, as perf's --for-each-cgroup (perf's -G pairs\n"
	      "                       cgroups with events one by one)\n"
	      "      --for-each-cgroup REGEX   the same for every cgroup whose name matches one of\n"
	      "                       these comma-separated extended regular expressions\n"
	      "      --plot FILE      with -I: after the count, draw the intervals over time into\n"
	      "                       FILE.png or FILE.svg, as 'pmcctl plot' (needs gnuplot)\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "Exit status: CMD's when one is given (128+N if a signal N killed it); without CMD,\n"
	      "0 after -t, 128+N when signal N (Ctrl-C: 130) ended the count, as perf;\n"
	      "1 failure or permission, or --plot could not draw (when the status would be 0),\n"
	      "2 usage, 3 module or PMU unavailable, 4 counters busy,\n"
	      "126 CMD not executable, 127 CMD not found.\n", f);
}

static int parse_stat_opts(int argc, char **argv, struct stat_opts *o)
{
	static const struct option opts[] = {
		COUNT_LONGOPTS,
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "duration", required_argument, NULL, 't' },
		{ "topdown", no_argument, NULL, 0x400 },
		{ "td-level", required_argument, NULL, 0x401 },
		{ "metrics", required_argument, NULL, 'M' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "for-each-cgroup", required_argument, NULL, 0x403 },
		{ "plot", required_argument, NULL, 0x402 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[256];
	long n;
	int c, ex;

	memset(o, 0, sizeof(*o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "+" COUNT_SHORTOPTS "aC:AI:t:M:G:h", opts, NULL)) != -1) {
		if (count_opt_owns(c)) {
			ex = count_opt(&o->c, c, optarg, "stat");
			if (ex)
				return ex;
			continue;
		}
		switch (c) {
		case 'a':
			o->all = true;
			break;
		case 'C':
			if (pmc_cpulist_parse(optarg, &o->cpus, err, sizeof(err))) {
				fprintf(stderr, "pmcctl stat: -C %s: %s\n", optarg, err);
				return -EINVAL;
			}
			o->cpus_given = true;
			break;
		case 'A':
			o->per_cpu = true;
			break;
		case 'M':
			ex = metric_list_add(o->metric_list, sizeof(o->metric_list), optarg, "stat");
			if (ex)
				return ex;
			break;
		case 'I':
			ex = interval_parse(optarg, &o->interval_ms, "stat");
			if (ex)
				return ex;
			break;
		case 't':
			if (!parse_seconds(optarg, MAX_DURATION_S, &o->duration)) {
				fprintf(stderr, "pmcctl stat: -t '%s': give seconds, more than 0 (e.g. 1 or 0.5)\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'G':
		case 0x403:	/* --for-each-cgroup */
			ex = c == 'G' ? pmcctl_cgroups_parse(optarg, &o->cg, err, sizeof(err)) :
					pmcctl_cgroups_match(optarg, &o->cg, err, sizeof(err));
			if (ex) {
				fprintf(stderr, "pmcctl stat: %s\n", err);
				return -EINVAL;
			}
			break;
		case 0x400:	/* --topdown */
			o->topdown = true;
			break;
		case 0x401:	/* --td-level */
			if (!parse_long(optarg, 1, 2, &n)) {
				fprintf(stderr, "pmcctl stat: --td-level '%s': give 1 or 2\n", optarg);
				return -EINVAL;
			}
			o->td_level = (unsigned int)n;
			break;
		case 0x402:	/* --plot */
			if (!plot_output_ok(optarg, "stat --plot"))
				return -EINVAL;
			o->io.plot = optarg;
			break;
		case 'h':
			stat_usage(stdout);
			o->c.help = true;
			return 0;
		default:
			stat_usage(stderr);
			return -EINVAL;
		}
	}
	ex = count_opts_check(&o->c, "stat");
	if (ex)
		return ex;
	if (o->td_level && !o->topdown) {
		fprintf(stderr, "pmcctl stat: --td-level goes with --topdown\n");
		return -EINVAL;
	}
	ex = interval_plot_check(o->io.plot, o->interval_ms, "stat");
	if (ex)
		return ex;
	if (!o->all && !o->cpus_given) {
		fprintf(stderr, "pmcctl stat: say which CPUs: -a (all) or -C LIST; %s\n",
			o->cg.nr ? "-G counts cgroups on whole CPUs, as perf's" :
				   "to count a command's own tasks use 'pmcctl run'");
		return -EINVAL;
	}
	if (o->cg.nr && o->topdown) {
		fprintf(stderr, "pmcctl stat: -G and --for-each-cgroup go without --topdown (not there "
			"yet); -M TopdownL1 gives each cgroup's level 1 where the model has it\n");
		return -EINVAL;
	}
	if (optind < argc)
		o->argv = argv + optind;
	if (o->argv && o->duration > 0) {
		fprintf(stderr, "pmcctl stat: give either a command or -t S, not both\n");
		return -EINVAL;
	}

	ex = cpus_choose(&o->cpus, o->cpus_given, "stat");
	if (ex)
		return ex;
	/* -a with -C: the list wins, as with perf. */
	if (o->cpus_given)
		o->all = false;
	return 0;
}

static int attach_error(unsigned int cpu, int err)
{
	switch (err) {
	case -EBUSY: {
		char what[48];

		snprintf(what, sizeof(what), "CPU %u: busy", cpu);
		return attach_busy_error("stat", what, "another 'pmcctl stat' or 'pmcctl serve' "
					 "counts this CPU");
	}
	case -EACCES:
		fprintf(stderr, "pmcctl stat: counting whole CPUs sees every task: it needs root or CAP_PERFMON "
			"when kernel.perf_event_paranoid > 0\n"
			"  fix: run it with sudo, or sudo sysctl kernel.perf_event_paranoid=0\n");
		return -EIO;
	case -ENXIO:
		fprintf(stderr, "pmcctl stat: CPU %u went offline; choose online CPUs with -C\n", cpu);
		return -EINVAL;
	case -ENOENT:
		fprintf(stderr, "pmcctl stat: -G: a cgroup was removed before counting began; "
			"name cgroups that exist\n");
		return -EINVAL;
	case -EBADF:
		fprintf(stderr, "pmcctl stat: -G: the kernel does not take a cgroup as one of the "
			"unified (v2) hierarchy; name cgroups under the cgroup2 mount\n");
		return -EINVAL;
	case -EOPNOTSUPP:
		fprintf(stderr, "pmcctl stat: -G: this kernel has no cgroups (CONFIG_CGROUPS) or no "
			"cgroup_attach_task tracepoint, so pmcdrv cannot count cgroups on it\n");
		return -EIO;
	default: {
		char what[48];

		snprintf(what, sizeof(what), "CPU %u", cpu);
		return session_error("stat", what, err);
	}
	}
}

static void close_cpus(struct stat_cpu *cpus, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		pmc_session_close(cpus[i].s);
		free(cpus[i].cg_now);
		free(cpus[i].cg_prev);
	}
	free(cpus);
}

/* A hybrid part: each CPU's core type (each CPU's CPUID read on it), for the rows by type. */
static void set_core_types(struct stat_cpu *cpus, unsigned int n)
{
	struct pmc_core_type_desc types[PMCDRV_MAX_CORE_TYPES];
	int nt = pmc_cpuid_core_types(types, PMCDRV_MAX_CORE_TYPES), t;
	unsigned int i;

	for (t = 0; t < nt; t++)
		for (i = 0; i < n; i++)
			if (CPU_ISSET(cpus[i].cpu, &types[t].cpus))
				cpus[i].cpuid_1a = types[t].cpuid_1a;
}

/*
 * The counts of @n CPUs by core type (now - prev of each, as print_counts()
 * sums them), each CPU's added to its type's; false when no CPU has a type.
 */
static bool split_by_type(const struct pmc_evlist *ev, const struct stat_cpu *cpus,
			  unsigned int n, struct run_result *res)
{
	struct pmcdrv_read d;
	unsigned int i, e;
	int k;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < n; i++) {
		k = cpus[i].cpuid_1a ? type_slot(res, cpus[i].cpuid_1a) : -1;
		if (k < 0)
			return false;
		for (e = 0; e < ev->n; e++) {
			interval_delta(&cpus[i].now, &cpus[i].prev, e, &d);
			res->types[k].values[e] += d.values[0];
			res->type_running[k][e] += d.times[0].time_running;
			if (!e)
				res->types[k].time_enabled += d.times[0].time_enabled;
		}
	}
	return res->nr_types > 0;
}

/*
 * One session per CPU, attached disabled, so that start_cpus() starts them
 * all at once: *out.
 */
static int open_cpus(const struct stat_opts *o, const struct pmc_evlist *ev,
		     struct stat_cpu **out, unsigned int *nout)
{
	unsigned int n = (unsigned int)CPU_COUNT(&o->cpus), k = 0, i;
	struct stat_cpu *cpus = calloc(n, sizeof(*cpus));
	int cpu, err, ex = 0;

	if (!cpus) {
		fprintf(stderr, "pmcctl stat: out of memory\n");
		return -EIO;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && k < n; cpu++) {
		struct stat_cpu *c = &cpus[k];

		if (!CPU_ISSET(cpu, &o->cpus))
			continue;
		c->cpu = (unsigned int)cpu;
		snprintf(c->label, sizeof(c->label), "CPU%d", cpu);
		err = pmc_session_open(o->c.device, &c->s);
		if (err) {
			ex = device_error("stat", o->c.device, err);
			break;
		}
		k++;
		for (i = 0; i < ev->n; i++)
			pmc_session_add(c->s, &ev->ev[i].ev);
		err = pmc_session_config(c->s);
		if (!err)
			err = pmc_session_disable(c->s);
		if (err) {
			ex = session_error("stat", "cannot configure the events", err);
			break;
		}
		if (o->cg.nr) {
			int fds[PMCDRV_MAX_CGROUPS];

			c->cg_now = calloc(o->cg.nr, sizeof(*c->cg_now));
			c->cg_prev = calloc(o->cg.nr, sizeof(*c->cg_prev));
			if (!c->cg_now || !c->cg_prev) {
				fprintf(stderr, "pmcctl stat: out of memory\n");
				ex = -EIO;
				break;
			}
			for (i = 0; i < o->cg.nr; i++)
				fds[i] = o->cg.v[i].fd;
			err = pmc_session_attach_cgroups(c->s, c->cpu, fds, o->cg.nr);
		} else {
			err = pmc_session_attach_cpu(c->s, c->cpu);
		}
		if (err) {
			ex = attach_error(c->cpu, err);
			break;
		}
	}
	if (ex) {
		close_cpus(cpus, k);
		return ex;
	}
	set_core_types(cpus, k);
	*out = cpus;
	*nout = k;
	return 0;
}

static int start_cpus(struct stat_cpu *cpus, unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = pmc_session_enable(cpus[i].s);
		if (err) {
			char what[48];

			snprintf(what, sizeof(what), "starting CPU %u", cpus[i].cpu);
			return session_error("stat", what, err);
		}
	}
	return 0;
}

static int read_cpus(struct stat_cpu *cpus, unsigned int n, unsigned int ncg)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		unsigned int j;

		err = pmc_session_read(cpus[i].s, &cpus[i].now);
		for (j = 0; !err && cpus[i].cg_now && j < ncg; j++)
			err = pmc_session_read_cgroup(cpus[i].s, j, &cpus[i].cg_now[j]);
		if (err) {
			char what[48];

			snprintf(what, sizeof(what), "reading CPU %u", cpus[i].cpu);
			return session_error("stat", what, err);
		}
	}
	return 0;
}

/*
 * -M with -G or -A: each cgroup's (and each CPU's) metrics from its own rows,
 * beside them.  @rows: for each cgroup (one without -G), each event, the
 * CPUs' rows (@ncpu of them with -A, one sum without).
 */
static void block_metrics(const struct stat_opts *o, const struct pmc_evlist *ev,
			  const struct report_row *rows, unsigned int ncpu, double elapsed,
			  struct report *r)
{
	unsigned int ncg = o->cg.nr ? o->cg.nr : 1, nc = o->per_cpu ? ncpu : 1;
	unsigned int g, i, e, k, n = 0;
	struct report_row blk[PMCDRV_MAX_EVENTS];

	for (g = 0; g < ncg; g++)
	for (i = 0; i < nc; i++) {
		for (e = 0; e < ev->n; e++)
			blk[e] = rows[(g * ev->n + e) * nc + i];
		count_metrics_eval(o->cm, blk, ev->n, elapsed, r, "stat");
		for (k = 0; k < r->nr_metrics; k++) {
			o->cm_rows[n] = r->metrics[k];
			o->cm_rows[n++].row = (g * ev->n + r->metrics[k].row) * nc + i;
		}
	}
	r->metrics = o->cm_rows;
	r->nr_metrics = n;
}

static bool any_mux(const struct stat_cpu *cpus, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (cpus[i].now.flags & PMCDRV_READ_MULTIPLEXED)
			return true;
	return false;
}

/*
 * The summed @rows of a hybrid part's CPUs with their rows by core type, or
 * with @metrics (-M) as they are, each event of one core type marked with
 * its time on its type; false: not hybrid.
 */
static bool print_by_type(struct stat_opts *o, const struct pmc_evlist *ev,
			  const struct stat_cpu *cpus, unsigned int n, struct report *r,
			  struct report_row *rows, bool metrics, bool first)
{
	struct {
		struct run_result res;
		struct type_acc ta;
		struct report_row trows[PMCDRV_MAX_EVENTS * (PMCDRV_MAX_CORE_TYPES + 1)];
		struct pmc_evsel tev[PMCDRV_MAX_EVENTS * PMCDRV_MAX_CORE_TYPES];
	} *w = calloc(1, sizeof(*w));
	bool ok = w && split_by_type(ev, cpus, n, &w->res);

	const struct report_row *shown;
	unsigned int nr;

	if (ok) {
		type_acc_add(&w->ta, &w->res, ev->n, !o->c.no_scale && any_mux(cpus, n));
		shown = type_rows_shown(0, false, metrics, &w->ta, rows, ev->n, w->trows, w->tev, &nr);
		interval_print_rows(&o->io, r, shown, nr, first);
	}
	free(w);
	return ok;
}

/*
 * Print now - prev (prev zero for the whole run) of every CPU, summed or per
 * CPU.  @interval: seconds since the start with -I, < 0 otherwise;
 * @elapsed: the seconds the counts cover (the interval with -I).
 */
static void print_counts(struct stat_opts *o, const struct pmc_evlist *ev,
			 struct stat_cpu *cpus, unsigned int n, double interval, double elapsed,
			 bool first)
{
	unsigned int ncg = o->cg.nr ? o->cg.nr : 1, g;
	unsigned int nrows = (o->per_cpu ? ev->n * n : ev->n) * ncg, e, i, k = 0;
	struct report_row *rows = calloc(nrows, sizeof(*rows));
	char target[300], list[256];
	double t_run = 0;
	struct report r = {
		.format = count_format(&o->c),
		.sep = o->c.csv_sep,
		.target = target,
		.runs = 1,
		.interval = interval,
		.elapsed = elapsed,
	};

	if (!rows) {
		fprintf(stderr, "pmcctl stat: out of memory\n");
		return;
	}
	if (o->all) {
		snprintf(target, sizeof(target), "'system wide'");
	} else {
		pmc_cpulist_format(&o->cpus, list, sizeof(list));
		snprintf(target, sizeof(target), "'CPU(s) %s'", list);
	}
	for (i = 0; i < n; i++)
		t_run += (double)(cpus[i].now.time_running - cpus[i].prev.time_running);
	/* Summed: the CPUs' time together, as perf; per CPU: one CPU's. */
	r.time_running = o->per_cpu ? t_run / n : t_run;
	for (g = 0; g < ncg; g++)
	for (e = 0; e < ev->n; e++) {
		const char *cgroup = o->cg.nr ? o->cg.v[g].name : NULL;
		struct pmcdrv_read d;
		double sum = 0, ena_sum = 0, run_sum = 0, ena, run;
		bool mux = false;

		/* perf: each CPU's count scaled, or the sums of counts and times scaled. */
		for (i = 0; i < n; i++) {
			const struct pmcdrv_read *now = o->cg.nr ? &cpus[i].cg_now[g] : &cpus[i].now;
			const struct pmcdrv_read *prev = o->cg.nr ? &cpus[i].cg_prev[g] : &cpus[i].prev;

			interval_delta(now, prev, e, &d);
			d.flags = cpus[i].now.flags & PMCDRV_READ_MULTIPLEXED;
			ena = (double)d.times[0].time_enabled;
			run = (double)d.times[0].time_running;
			mux |= cpus[i].now.flags & PMCDRV_READ_MULTIPLEXED;
			if (o->per_cpu) {
				rows[k] = (struct report_row){ .ev = &ev->ev[e], .cpu = cpus[i].label,
							       .cgroup = cgroup,
							       .value = count_value(&o->c, &d, 0) };
				count_row_times(&rows[k++], cpus[i].now.flags & PMCDRV_READ_MULTIPLEXED,
						ena, run);
			}
			sum += (double)d.values[0];
			ena_sum += ena;
			run_sum += run;
		}
		if (!o->per_cpu) {
			if (mux && !o->c.no_scale)
				sum = run_sum > 0 && run_sum < ena_sum ?
				      floor(sum * ena_sum / run_sum) : run_sum > 0 ? sum : 0;
			rows[k] = (struct report_row){ .ev = &ev->ev[e], .cgroup = cgroup,
						       .value = sum };
			count_row_times(&rows[k++], mux, ena_sum, run_sum);
		}
	}
	if (o->cm && (o->cg.nr || o->per_cpu))
		block_metrics(o, ev, rows, n, elapsed, &r);
	else if (o->cm)
		count_metrics_eval(o->cm, rows, nrows, elapsed, &r, "stat");
	/* A hybrid part, the CPUs summed: rows by core type, as run prints them. */
	if (!o->cg.nr && !o->per_cpu &&
	    print_by_type(o, ev, cpus, n, &r, rows, o->cm, first)) {
		free(rows);
		return;
	}
	interval_print_rows(&o->io, &r, rows, nrows, first);
	free(rows);
}

/* The signals pmcctl takes with sigtimedwait(), and their dispositions before. */
static const int stat_signals[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
#define NR_STAT_SIGNALS	ARRAY_SIZE(stat_signals)

struct stat_sigs {
	sigset_t set;				/* blocked: stat_signals and SIGCHLD */
	sigset_t orig_mask;
	struct sigaction orig[NR_STAT_SIGNALS];
};

static void no_op(int sig)
{
	(void)sig;
}

/*
 * Block the signals before anything starts, so that no stop signal or
 * child exit is missed.  Handlers, as perf's, so that a shell's SIG_IGN of
 * SIGINT/SIGQUIT for background jobs does not discard them; an inherited
 * SIG_IGN of the others (nohup) is kept, for pmcctl and for CMD.
 */
static void take_signals(struct stat_sigs *g)
{
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&g->set);
	for (i = 0; i < NR_STAT_SIGNALS; i++) {
		int sig = stat_signals[i];

		sigaction(sig, NULL, &g->orig[i]);
		sigaddset(&g->set, sig);
		if (g->orig[i].sa_handler == SIG_IGN && sig != SIGINT && sig != SIGQUIT)
			continue;
		sa.sa_handler = no_op;
		sigaction(sig, &sa, NULL);
	}
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
	sigaddset(&g->set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &g->set, &g->orig_mask);
}

/* Start CMD with pmcctl's signal dispositions and mask undone. */
static int start_child(char **argv, const struct stat_sigs *g, pid_t *pid)
{
	int pipefd[2], err = 0;
	unsigned int i;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC)) {
		fprintf(stderr, "pmcctl stat: pipe: %s\n", strerror(errno));
		return -EIO;
	}
	fflush(NULL);
	*pid = fork();
	if (*pid < 0) {
		fprintf(stderr, "pmcctl stat: fork: %s\n", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -EIO;
	}
	if (*pid == 0) {
		close(pipefd[0]);
		for (i = 0; i < NR_STAT_SIGNALS; i++)
			sigaction(stat_signals[i], &g->orig[i], NULL);
		sigprocmask(SIG_SETMASK, &g->orig_mask, NULL);
		execvp(argv[0], argv);
		err = errno;
		if (write(pipefd[1], &err, sizeof(err)) < 0)
			_exit(EXIT_NOT_FOUND);
		_exit(EXIT_NOT_FOUND);
	}
	close(pipefd[1]);
	n = read(pipefd[0], &err, sizeof(err));
	close(pipefd[0]);
	if (n == (ssize_t)sizeof(err)) {
		while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
			;
		*pid = 0;
		fprintf(stderr, "pmcctl stat: cannot run '%s': %s\n", argv[0], strerror(err));
		return err == ENOENT ? -ENOENT : -ENOEXEC;
	}
	return 0;
}

/*
 * A signal taken while counting.  With CMD: Ctrl-C and Ctrl-\ reach it from
 * the terminal, the others are passed on, and its exit ends the count
 * (returns 1, *status set).  Without: USR1/USR2 are ignored, the others end
 * the count (returns the signal).  0: go on.
 */
static int on_signal(int sig, pid_t pid, int *status)
{
	if (sig == SIGCHLD)
		return pid > 0 && waitpid(pid, status, WNOHANG) == pid;
	if (pid > 0) {
		if (sig != SIGINT && sig != SIGQUIT)
			kill(pid, sig);
		return 0;
	}
	return sig == SIGUSR1 || sig == SIGUSR2 ? 0 : sig;
}

/* Where the next interval starts: now. */
static void next_interval(struct stat_cpu *cpus, unsigned int n, unsigned int ncg)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		cpus[i].prev = cpus[i].now;
		if (ncg)
			memcpy(cpus[i].cg_prev, cpus[i].cg_now, ncg * sizeof(*cpus[i].cg_now));
	}
}

/*
 * Count until CMD exits, the duration ends or a signal says stop, printing
 * each interval with -I.  Sets *status (CMD's wait status), *stop_sig
 * (the signal that ended a count without CMD, or 0) and *t_last (when the
 * last interval was printed, else t0).
 */
static int count_loop(struct stat_opts *o, const struct pmc_evlist *ev,
		      struct stat_cpu *cpus, unsigned int n, double t0, pid_t pid,
		      const struct stat_sigs *g, int *status, int *stop_sig, double *t_last)
{
	double interval = o->io.interval, next_print, end, t, wait;
	struct timespec ts;
	siginfo_t si;
	int sig, ex, r;

	*t_last = t0;
	next_print = interval > 0 ? t0 + interval : INFINITY;
	end = o->duration > 0 ? t0 + o->duration : INFINITY;
	for (;;) {
		t = now_s();
		if (t >= end)
			break;
		if (t >= next_print) {
			ex = read_cpus(cpus, n, o->cg.nr);
			if (ex)
				return ex;
			/* Rates such as CPUs utilized are per interval. */
			print_counts(o, ev, cpus, n, t - t0, t - *t_last, *t_last == t0);
			*t_last = t;
			next_interval(cpus, n, o->cg.nr);
			next_print = interval_next_due(next_print, interval, t);
			continue;
		}
		/* The kernel folds the counters itself, so waiting long is fine. */
		wait = fmin(fmin(next_print, end) - t, 3600.0);
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(&g->set, &si, &ts);
		if (sig < 0)
			continue;	/* timeout or EINTR */
		r = on_signal(sig, pid, status);
		if (r && sig != SIGCHLD)
			*stop_sig = r;
		if (r)
			break;
	}
	return 0;
}

/* Counting failed while CMD runs: wait for it as its parent, still passing signals on. */
static void wait_child(pid_t pid, const struct stat_sigs *g)
{
	int status, sig;

	fprintf(stderr, "pmcctl stat: waiting for the command to end\n");
	do {
		sig = sigwaitinfo(&g->set, NULL);
	} while (sig < 0 || !on_signal(sig, pid, &status));
}

/* Count the CPUs and print the counts; *code: the exit code when all went well. */
/* *td: --topdown's TopdownL1 metrics when it set them up (the caller closes them). */
static int stat_cpus(int argc, char **argv, int *code, struct td_gp **td)
{
	struct count_metrics metrics;
	struct pmc_evlist events;
	struct stat_cpu *cpus = NULL;
	struct stat_opts o;
	struct stat_sigs g;
	unsigned int n = 0, i;
	int ex, status = 0, stop_sig = 0;
	bool defaults;
	double t0, t, t_last;
	pid_t pid = 0;
	FILE *out;

	*code = EXIT_OK;
	ex = parse_stat_opts(argc, argv, &o);
	if (ex || o.c.help)
		return ex;
	if (o.metric_list[0] && o.topdown) {
		fprintf(stderr, "pmcctl stat: -M goes without --topdown (use -M TopdownL1)\n");
		return -EINVAL;
	}
	if (o.metric_list[0]) {
		ex = count_metrics_setup(&metrics, &o.c, o.metric_list, true, "stat");
		if (ex)
			return ex;
		o.cm = &metrics;
		if (o.cg.nr || o.per_cpu) {
			size_t blocks = (o.cg.nr ? o.cg.nr : 1) *
					(o.per_cpu ? (size_t)CPU_COUNT(&o.cpus) : 1);

			o.cm_rows = calloc(blocks * PMCDRV_MAX_EVENTS, sizeof(*o.cm_rows));
			if (!o.cm_rows) {
				count_metrics_close(o.cm);
				fprintf(stderr, "pmcctl stat: out of memory\n");
				return -EIO;
			}
		}
	}
	if (o.topdown) {
		ex = count_topdown_setup(&o.c, &o.td_level, true, "stat");
		if (ex)
			return ex;
		*td = o.c.td;
	}
	/* Per-task events the user gave are refused before the module is asked; defaults are filtered. */
	defaults = !o.c.events.n;
	if (!defaults) {
		ex = cpu_events(&o.c.events, false, &events, "stat");
		if (ex)
			return ex;
	}
	ex = prepare_events(&o.c.events, o.c.device, "stat");
	if (ex)
		return ex;
	if (defaults)
		cpu_events(&o.c.events, true, &events, "stat");
	out = count_output(&o.c, "stat");
	if (!out)
		return -EIO;
	o.io.f = out;
	o.io.c = &o.c;
	o.io.topdown = o.topdown;
	o.io.td_level = o.td_level;
	o.io.cmd = "stat";
	o.io.interval = (double)o.interval_ms / 1000.0;

	ex = interval_open(&o.io);
	if (ex) {
		if (out != stderr)
			fclose(out);
		return ex;
	}

	take_signals(&g);
	ex = open_cpus(&o, &events, &cpus, &n);
	if (ex)
		goto out_close;
	ex = start_cpus(cpus, n);
	if (ex)
		goto out_cpus;
	t0 = now_s();
	if (o.interval_ms)
		interval_begin(&o.io, t0, o.per_cpu);
	if (o.argv) {
		ex = start_child(o.argv, &g, &pid);
		if (ex)
			goto out_cpus;
	}
	ex = count_loop(&o, &events, cpus, n, t0, pid, &g, &status, &stop_sig, &t_last);
	if (!ex)
		ex = read_cpus(cpus, n, o.cg.nr);
	t = now_s();
	if (!ex) {
		if (o.interval_ms) {
			/* The last, partial interval, unless it is empty. */
			for (i = 0; i < n && cpus[i].now.time_enabled == cpus[i].prev.time_enabled; i++)
				;
			if (i < n)
				print_counts(&o, &events, cpus, n, t - t0, t - t_last, t_last == t0);
		} else {
			/* prev is still zero: the whole count. */
			print_counts(&o, &events, cpus, n, -1, t - t0, true);
		}
		for (i = 0; i < n; i++)
			report_read_warnings("stat", &cpus[i].now);
		for (i = 0; i < o.cg.nr && n; i++) {
			if (cpus[0].cg_now[i].flags & PMCDRV_READ_CGROUP_REMOVED)
				fprintf(stderr, "pmcctl stat: cgroup '%s' was removed while counted: its "
					"counts are those until then\n", o.cg.v[i].name);
		}
		/* As perf: CMD's status, or 128 + the signal that ended the count. */
		*code = pid > 0 ? child_exit_code(status) : stop_sig ? 128 + stop_sig : EXIT_OK;
	} else if (pid > 0) {
		wait_child(pid, &g);
	}
out_cpus:
	close_cpus(cpus, n);
out_close:
	pmcctl_cgroups_free(&o.cg);
	free(o.cm_rows);
	if (o.cm)
		count_metrics_close(o.cm);
	/* The signals stay blocked: a late Ctrl-C must not cut the exit short. */
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "pmcctl stat: -o %s: %s\n", o.c.out_path, strerror(errno));
		ex = ex ? ex : -EIO;
	}
	return interval_finish(&o.io, ex, code);
}

int cmd_stat(int argc, char **argv)
{
	struct td_gp *td = NULL;
	int code, err = stat_cpus(argc, argv, &code, &td);

	td_gp_close(td);

	return err ? pmcctl_exit_code(err) : code;
}
