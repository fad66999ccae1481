// SPDX-License-Identifier: GPL-2.0
/* pmcctl run: count a command through pmcdrv, or through the MSR device without it. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hybrid.h"
#include "interval.h"
#include "libpmc.h"
#include "metrics.h"
#include "mpi.h"
#include "output.h"
#include "pmcctl.h"
#include "regions.h"
#include "report.h"
#include "run.h"
#include "topdown.h"

static void run_usage(FILE *f)
{
	fputs("usage: pmcctl run [options] [--] CMD [ARGS...]\n"
	      "       pmcctl run [options] -p PID[,PID...] | -t TID[,TID...] [--duration S]\n"
	      "\n"
	      "Count CMD (and, by default, every process and thread it creates) from exec to exit;\n"
	      "or tasks that already run, from now until they exit, --duration ends or Ctrl-C.\n"
	      "\n"
	      "  -e, --event LIST     events, comma-separated, option may repeat (see 'pmcctl list'):\n"
	      "                       instructions, cycles, ref-cycles, branches, ...; 0xUUEE (umask<<8|event);\n"
	      "                       rHEX (perf raw); cpu/event=0xc0,umask=0x1,cmask=1,inv,edge/;\n"
	      "                       each optionally :u, :k or :uk. Default: task-clock,\n"
	      "                       context-switches, cpu-migrations, cycles, instructions, branches,\n"
	      "                       branch-misses (those the CPU offers)\n"
	      "  -x, --field-separator SEP   CSV output with SEP between fields\n"
	      "  -j, --json           one JSON object per event\n"
	      "  -c, --scale          scale the counts of a multiplexing session (more events than\n"
	      "                       counters) by time enabled / time running, as perf stat (default)\n"
	      "      --no-scale       print their raw counts instead\n"
	      "  -o, --output FILE    write the counts to FILE (default: standard error, as perf stat);\n"
	      "                       %r the MPI rank, %l the local rank, %h the host, %p the pid,\n"
	      "                       %% a '%' (%r/%l without an MPI launcher are an error)\n"
	      "  -r, --repeat N       run N times; print means and the spread (not with -I)\n"
	      "  -i, --no-inherit     count only the first process, not its children and threads\n"
	      "                       (with -p/-t: only the threads there are at the attach)\n"
	      "  -p, --pid LIST       count these running processes, comma-separated: every thread\n"
	      "                       each has (/proc/PID/task) and, unless -i, the threads and\n"
	      "                       children they create from now on; needs the ptrace right to\n"
	      "                       them (same user and not setuid or non-dumpable, or CAP_SYS_PTRACE)\n"
	      "  -t, --tid LIST       count only these threads (and, unless -i, what they create)\n"
	      "      --duration S     with -p/-t: stop after S seconds (decimals allowed)\n"
	      "  -I, --interval-print MS   print the counts of each MS milliseconds (at least 10)\n"
	      "                       while CMD (or -p/-t's tasks) runs, as perf stat -I: text with\n"
	      "                       the time first, CSV with -x, JSON with -j; the last, partial\n"
	      "                       interval at the end, then no summary. Through pmcdrv only (the\n"
	      "                       MSR path is refused), not with -r or --regions\n"
	      "      --plot FILE      with -I: after the count, draw the intervals over time into\n"
	      "                       FILE.png or FILE.svg, as 'pmcctl plot' (needs gnuplot)\n"
	      "  -d, --device PATH    pmcdrv device (default " PMC_DEFAULT_DEVICE ")\n"
	      "      --msr            count through the MSR device even when pmcdrv is loaded (the\n"
	      "                       default without it): CMD is pinned to one CPU, whose counts\n"
	      "                       include everything else that runs there\n"
	      "      --msr-device PATH   MSR device (implies --msr); %d is the CPU number, e.g.\n"
	      "                       /dev/cpu/%d/msr_safe (default /dev/cpu/N/msr, then msr_safe)\n"
	      "  -C, --cpu N          MSR path: the CPU to pin CMD to and count (default: pmcctl's)\n"
	      "  -f, --force          MSR path: use counters someone else has enabled (put back after)\n"
	      "      --regions        CMD marks regions with libpmc (pmc_region_begin/end): hand it the\n"
	      "                       session and print its table of regions after the counts\n"
	      "      --topdown        top-down analysis as perf stat --topdown: count slots and the\n"
	      "                       PMU's PERF_METRICS fields in one group and print the share of\n"
	      "                       each (retiring, bad speculation, frontend and backend bound; at\n"
	      "                       level 2 also heavy/light operations, branch mispredict/machine\n"
	      "                       clears, fetch latency/bandwidth, memory/core bound) from\n"
	      "                       PERF_METRICS (Ice Lake and later cores), or level 1 from the\n"
	      "                       model's TopdownL1 metrics (Sandy Bridge to Cascade Lake)\n"
	      "      --td-level N     with --topdown: level 1 or 2 (default: the PMU's deepest, as perf)\n"
	      "      --all-user       count every hardware event in user mode only (perf's --all-user)\n"
	      "      --cputype TYPE   hybrid CPUs: print the counts of one core type only, core\n"
	      "                       (P-cores) or atom (E-cores), as perf's cpu_core/ or cpu_atom/ rows\n"
	      "      --hybrid-merge   hybrid CPUs: print each event's sum over the core types only\n"
	      "                       (default: one row per core type, then the exact sum)\n"
	      "  -M, --metrics LIST   metrics or metric groups of this CPU's model, comma-separated,\n"
	      "                       option may repeat ('pmcctl list --metrics'): their events are\n"
	      "                       counted with -e's and each value printed in the # column\n"
	      "      --pin            under an MPI launcher: pin each local rank to its own share of\n"
	      "                       the allowed CPUs, unless the launcher already bound it (then it is\n"
	      "                       left as is); says which on standard error\n"
	      "  -v, --verbose        say where the MPI rank, local rank and host come from\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "MPI: the rank comes from OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH's hydra),\n"
	      "PMIX_RANK or SLURM_PROCID, the first set; JSON output then starts with an object naming\n"
	      "host, rank, local rank and world size (what 'pmcctl report' merges); with -I too, before\n"
	      "the intervals.\n"
	      "\n"
	      "Exit status: CMD's (128+N if a signal N killed it), or 1 when that is 0 and --plot could\n"
	      "not draw; 2 usage, 3 module, MSR device or PMU unavailable, 4 counters busy, 126 CMD not\n"
	      "executable, 127 CMD not found.  With -p/-t: 0 once the tasks given exited or --duration\n"
	      "ended (1 if --plot could not draw); after Ctrl-C (SIGINT) or SIGTERM the counts are\n"
	      "printed (and drawn) and pmcctl ends by that signal, as perf stat (128+N in the shell);\n"
	      "1 no such task or not permitted, 4 also a task another pmcdrv session counts.\n", f);
}

/* The command as the report's target: 'CMD ARGS'. */
static void format_target(char *buf, size_t len, char **argv)
{
	size_t o = 0;
	unsigned int a;

	o += (size_t)snprintf(buf, len, "'");
	for (a = 0; argv[a] && o < len; a++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", a ? " " : "", argv[a]);
	if (o < len)
		snprintf(buf + o, len - o, "'");
}

/* "GenuineIntel-6-55": vendor, family and model (hex) as perf's CPUID strings begin; false if unknown. */
static bool cpu_model(char *buf, size_t len)
{
	struct pmcdrv_info info;
	char vendor[13];

	if (pmc_cpuid_info(&info, NULL))
		return false;
	memcpy(vendor, info.vendor_id, 12);
	vendor[12] = '\0';
	snprintf(buf, len, "%s-%u-%X", vendor, info.family, info.model);
	return true;
}

/*
 * @mc: counted through the MSR device (the report says what that means), or
 * NULL; @m: the MPI rank (rank -1 outside a launcher); @cm: the -M metrics, or
 * NULL; @ta: the split by core type of a hybrid CPU (ta->nr 0: none).
 */
static void print_results(FILE *f, const struct run_opts *o, const struct mpi_rank *m,
			  struct count_metrics *cm,
			  const struct msr_counting *mc,
			  const struct pmcdrv_read *last, const struct stat_acc *vals,
			  const struct type_acc *ta, const struct stat_acc *t_run,
			  const struct stat_acc *elapsed, const struct stat_acc *ut,
			  const struct stat_acc *st)
{
	struct report_row rows[PMCDRV_MAX_EVENTS];
	struct report_row trows[PMCDRV_MAX_EVENTS * (PMCDRV_MAX_CORE_TYPES + 1)];
	struct pmc_evsel tev[PMCDRV_MAX_EVENTS * PMCDRV_MAX_CORE_TYPES];
	const struct report_row *shown;
	char cmd[512], target[700], note[1024], model[64];
	size_t tl;
	struct report r = {
		.format = count_format(&o->c),
		.sep = o->c.csv_sep,
		.target = target,
		.runs = o->repeat,
		.interval = -1,
		.time_running = t_run->mean,
		.elapsed = elapsed->mean,
		.elapsed_spread_pct = acc_spread_pct(elapsed),
		.have_rusage = true,
		.utime = ut->mean,
		.stime = st->mean,
	};
	unsigned int i, nr;

	format_target(cmd, sizeof(cmd), o->argv);
	if (mc) {
		msr_counting_target(mc, cmd, target, sizeof(target));
		msr_counting_note(mc, note, sizeof(note));
		/* Text carries the note; CSV and JSON stay machine-readable, the warning goes to stderr. */
		if (r.format == REPORT_TEXT)
			r.note = note;
		else
			fprintf(stderr, "pmcctl run: warning: %s\n", note);
	} else {
		snprintf(target, sizeof(target), "%s", cmd);
	}
	tl = strlen(target);
	if (m->rank >= 0 && tl < sizeof(target))
		snprintf(target + tl, sizeof(target) - tl, " (MPI rank %d on %s)", m->rank, m->host);
	if (m->rank >= 0 && r.format == REPORT_JSON)
		mpi_json_identity(f, m, (long)getpid(), cpu_model(model, sizeof(model)) ? model : NULL);
	for (i = 0; i < o->c.events.n; i++) {
		rows[i] = (struct report_row){
			.ev = &o->c.events.ev[i],
			.value = vals[i].mean,
			.spread_pct = acc_spread_pct(&vals[i]),
		};
		/* The times of the last run (of -r N). */
		count_row_times(&rows[i], last->flags & PMCDRV_READ_MULTIPLEXED,
				(double)last->times[i].time_enabled,
				(double)last->times[i].time_running);
	}
	if (cm)
		count_metrics_eval(cm, rows, o->c.events.n, elapsed->mean, &r, "run");
	if (o->topdown) {
		report_print_topdown(f, &r, rows, o->c.events.n, o->td_level, o->c.td, true);
		return;
	}
	shown = type_rows_shown(o->cputype, o->hybrid_merge, cm != NULL, ta, rows,
				o->c.events.n, trows, tev, &nr);
	report_print(f, &r, shown, nr);
}

/*
 * pmcdrv or the MSR device?  Without the module (and without -d) run falls
 * back to the MSR device, saying so.  Checks the options that belong to one
 * path.
 */
static int choose_path(struct run_opts *o)
{
	struct pmcdrv_info info;
	struct pmc_session *s;
	bool fallback = false;
	int err, cpu;

	err = pmc_session_open(o->msr ? NULL : o->c.device, &s);
	if (!err) {
		err = pmc_session_info(s, &info);
		pmc_session_close(s);
		if (!o->msr) {
			if (o->cpu >= 0 || o->force) {
				fprintf(stderr, "pmcctl run: -C and -f belong to the MSR path; pmcdrv is loaded and "
					"counts CMD's own tasks on every CPU (add --msr for the MSR path)\n");
				return -EINVAL;
			}
			return 0;
		}
		/* Its sessions reprogram the counters at every context switch: both would be wrong. */
		if (!err && (info.flags & PMCDRV_INFO_CLAIMED) && !o->force) {
			fprintf(stderr, "pmcctl run: pmcdrv sessions hold the counters now; the MSR path would corrupt their counts and ours\n"
				"  fix: wait for them, drop --msr to count through pmcdrv, or --force\n");
			return -EBUSY;
		}
	} else if (!o->msr) {
		if (o->c.device || o->regions || (err != -ENOENT && err != -ENODEV && err != -ENXIO))
			return 0;	/* prepare_events() explains */
		if (o->interval_ms) {
			fprintf(stderr, "pmcctl run: -I needs pmcdrv, which is not loaded (%s: %s); the MSR path "
				"reads its counters only when CMD exits: load it (sudo insmod kmod/pmcdrv.ko)\n",
				PMC_DEFAULT_DEVICE, strerror(-err));
			return -ENODEV;
		}
		fprintf(stderr, "pmcctl run: pmcdrv is not loaded (%s: %s): counting one whole CPU through its MSR device instead; "
			"for per-task counts load pmcdrv (sudo insmod kmod/pmcdrv.ko)\n",
			PMC_DEFAULT_DEVICE, strerror(-err));
		o->msr = true;
		fallback = true;
	}
	if (!o->inherit) {
		fprintf(stderr, "pmcctl run: -i (only CMD's first process) needs pmcdrv's per-task counting; "
			"the MSR path counts everything on one CPU\n");
		return fallback ? -ENODEV : -EINVAL;
	}
	if (o->cpu < 0) {
		cpu = sched_getcpu();
		o->cpu = cpu < 0 ? 0 : cpu;
	}
	return 0;
}

static int run_once_msr(struct msr_counting *mc, const struct run_opts *o, struct run_result *res)
{
	struct msr_result m;
	int ex = msr_counting_run(mc, o->argv, &m);

	memset(res, 0, sizeof(*res));
	res->status = m.status;
	if (ex)
		return ex;
	memcpy(res->r.values, m.values, sizeof(res->r.values));
	res->r.time_running = (uint64_t)llround(m.elapsed * 1e9);
	res->elapsed = m.elapsed;
	res->utime = m.utime;
	res->stime = m.stime;
	return 0;
}

/* --regions: add one run's tables to @t; a table that does not parse is an error. */
static int regions_add(struct region_table *t, struct run_result *res)
{
	char err[256];
	int ret = 0;

	if (res->regions && region_table_add(t, res->regions, res->regions_len, err, sizeof(err))) {
		fprintf(stderr, "pmcctl run: --regions: the command's region table is malformed: %s\n", err);
		ret = -EIO;
	}
	free(res->regions);
	res->regions = NULL;
	return ret;
}

/*
 * --regions --topdown: each region's top-down breakdown (as perf stat
 * --topdown's metrics) after the table: text "region NAME: xx.x% Retiring,
 * ..."; CSV "region-topdown" SEP NAME SEP value SEP metric, one line a
 * metric; JSON one object a region with its "topdown" list.
 */
static void regions_topdown_print(FILE *f, const struct report *r, const struct pmc_evlist *ev,
				  const struct region_table *t, unsigned int level, struct td_gp *gp)
{
	struct report_row rows[PMCDRV_MAX_EVENTS];
	struct td_value v[16];
	unsigned int i, j;
	int m, k;

	for (i = 0; i < t->n; i++) {
		for (j = 0; j < t->nr_events && j < ev->n; j++)
			rows[j] = (struct report_row){ .ev = &ev->ev[j], .value = t->rows[i].values[j] };
		m = report_topdown_metrics(rows, j, level, gp, v);
		if (r->format == REPORT_JSON) {
			fputs("{\"region\": ", f);
			json_string(f, t->rows[i].name);
			fputs(", \"topdown\": [", f);
		} else if (r->format == REPORT_TEXT) {
			fprintf(f, "%sregion %s:", i ? "" : "\n", t->rows[i].name);
		}
		for (k = 0; k < m; k++) {
			if (r->format == REPORT_JSON)
				fprintf(f, "%s{\"metric-value\": %.6f, \"metric-unit\": \"%s\"}",
					k ? ", " : "", v[k].pct, v[k].unit);
			else if (r->format == REPORT_CSV)
				fprintf(f, "region-topdown%s%s%s%.1f%s%s\n", r->sep, t->rows[i].name,
					r->sep, v[k].pct, r->sep, v[k].unit);
			else
				fprintf(f, "%s %.1f%% %s", k ? "," : "", v[k].pct, v[k].unit);
		}
		if (r->format == REPORT_JSON)
			fputs("]}\n", f);
		else if (r->format == REPORT_TEXT)
			fputs(m ? "\n" : " no top-down metrics (no slots counted)\n", f);
	}
}

/* --regions: the table after the counts, or why there is none. */
static void regions_print(FILE *f, const struct run_opts *o, const struct region_table *t,
			  struct count_metrics *cm)
{
	char target[512];
	struct report r = { .format = count_format(&o->c), .sep = o->c.csv_sep, .target = target };

	if (t->error[0])
		fprintf(stderr, "pmcctl run: --regions: the command could not count its regions: %s\n",
			t->error);
	if (!t->tables) {
		fprintf(stderr, "pmcctl run: --regions: '%s' wrote no region table: it does not use libpmc's "
			"regions (pmc_region_begin), or it ended without exit() (a signal, _exit, exec)\n",
			o->argv[0]);
		return;
	}
	format_target(target, sizeof(target), o->argv);
	region_report_print(f, &r, &o->c.events, t, t->runs, cm);
	if (o->topdown)
		regions_topdown_print(f, &r, &o->c.events, t, o->td_level, o->c.td);
}

static const char *env_get(const char *name)
{
	return getenv(name);
}

/*
 * --pin: local rank l of n on this host gets its own share of the CPUs
 * pmcctl may run on (mpi_pin_share()), unless fewer CPUs than are online
 * are allowed: then the launcher (or taskset, or a cpuset) bound it and it
 * is left as is.  Says which on stderr.
 */
static int pin_rank(const struct mpi_rank *m)
{
	cpu_set_t allowed, set;
	unsigned int n = 0, first, count, i, cpus[CPU_SETSIZE];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char all[512], mine[512];
	bool shared;

	if (m->rank < 0) {
		fprintf(stderr, "pmcctl run: --pin pins the ranks of an MPI job, and none of OMPI_COMM_WORLD_RANK, "
			"PMI_RANK, PMIX_RANK, SLURM_PROCID is set: start pmcctl under mpirun/mpiexec/srun, "
			"or pin with taskset\n");
		return -EINVAL;
	}
	if (m->local_rank < 0 || m->local_size < 1) {
		fprintf(stderr, "pmcctl run: --pin: the launcher (%s) does not say the local rank and how many ranks "
			"this host runs; let it bind them (mpirun --bind-to core, srun --cpu-bind=cores)\n",
			m->rank_var);
		return -EINVAL;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		fprintf(stderr, "pmcctl run: --pin: sched_getaffinity: %s\n", strerror(errno));
		return -EIO;
	}
	pmc_cpulist_format(&allowed, all, sizeof(all));
	if (CPU_COUNT(&allowed) < online) {
		fprintf(stderr, "pmcctl run: --pin: rank %d on %s is already bound to CPUs %s (%d of the %ld online: "
			"the launcher, taskset or a cpuset bound it); left as is\n",
			m->rank, m->host, all, CPU_COUNT(&allowed), online);
		return 0;
	}
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &allowed))
			cpus[n++] = i;
	shared = mpi_pin_share(n, (unsigned int)m->local_rank, (unsigned int)m->local_size, &first, &count);
	CPU_ZERO(&set);
	for (i = first; i < first + count && i < n; i++)
		CPU_SET(cpus[i], &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "pmcctl run: --pin: sched_setaffinity: %s\n", strerror(errno));
		return -EIO;
	}
	pmc_cpulist_format(&set, mine, sizeof(mine));
	fprintf(stderr, "pmcctl run: --pin: local rank %d of %d on %s pinned to CPUs %s (of %s)%s\n",
		m->local_rank, m->local_size, m->host, mine, all,
		shared ? ", shared: more ranks than CPUs" : "");
	return 0;
}

/*
 * Under an MPI launcher: who this rank is (*m), -v's account of it, -o's
 * expansions (into @path, and o->c.out_path points there) and --pin.
 */
static int mpi_setup(struct run_opts *o, struct mpi_rank *m, char *path, size_t len)
{
	char err[512];
	int ex;

	ex = mpi_rank_detect(m, env_get, err, sizeof(err));
	if (ex) {
		fprintf(stderr, "pmcctl run: %s\n", err);
		return -EINVAL;
	}
	if (gethostname(m->host, sizeof(m->host) - 1))
		snprintf(m->host, sizeof(m->host), "localhost");
	m->host[sizeof(m->host) - 1] = '\0';
	if (o->verbose) {
		if (m->rank < 0)
			fprintf(stderr, "pmcctl run: not an MPI rank (none of OMPI_COMM_WORLD_RANK, PMI_RANK, "
				"PMIX_RANK, SLURM_PROCID is set); host %s\n", m->host);
		else
			fprintf(stderr, "pmcctl run: MPI rank %d (%s) of %d, local rank %d (%s) of %d, host %s\n",
				m->rank, m->rank_var, m->world_size, m->local_rank,
				m->local_var ? m->local_var : "unknown", m->local_size, m->host);
	}
	if (o->c.out_path) {
		ex = mpi_expand_path(o->c.out_path, m, (long)getpid(), path, len, err, sizeof(err));
		if (ex) {
			fprintf(stderr, "pmcctl run: -o %s: %s\n", o->c.out_path, err);
			return -EINVAL;
		}
		o->c.out_path = path;
	}
	return o->pin ? pin_rank(m) : 0;
}

/*
 * -I: where the intervals go (@out) and, with --plot, the plot's file;
 * o->io points at @io.  @cm: the -M metrics, or NULL.
 */
static int interval_setup(struct run_opts *o, struct interval_out *io, FILE *out,
			  struct count_metrics *cm, char *target, size_t len)
{
	if (!o->interval_ms)
		return 0;
	if (o->argv)
		format_target(target, len, o->argv);
	else
		snprintf(target, len, "'%s'", o->attach_arg);
	*io = (struct interval_out){
		.f = out,
		.c = &o->c,
		.topdown = o->topdown,
		.td_level = o->td_level,
		.cm = cm,
		.target = target,
		.cmd = "run",
		.interval = (double)o->interval_ms / 1000.0,
		.plot = o->plot,
	};
	o->io = io;
	return interval_open(io);
}

/*
 * -p/-t: count the running tasks; *sig: the signal that ended the count, or
 * 0; *code: 1 when --plot could not draw, else 0.
 */
static int run_tasks(struct run_opts *o, int *sig, int *code)
{
	struct count_metrics metrics, *cm = NULL;
	struct interval_out io;
	char target[600];
	FILE *out;
	int ex;

	*code = 0;
	if (o->metric_list[0]) {
		ex = count_metrics_setup(&metrics, &o->c, o->metric_list, false, "run");
		if (ex)
			return ex;
		cm = &metrics;
	}
	ex = prepare_events(&o->c.events, o->c.device, "run");
	if (ex)
		goto out_metrics;
	out = count_output(&o->c, "run");
	if (!out) {
		ex = -EIO;
		goto out_metrics;
	}
	ex = interval_setup(o, &io, out, cm, target, sizeof(target));
	if (!ex)
		ex = run_attached(o, out, cm, sig);
	if (out != stderr && fclose(out) && !ex) {
		fprintf(stderr, "pmcctl run: -o %s: %s\n", o->c.out_path, strerror(errno));
		ex = -EIO;
	}
	if (o->io)
		ex = interval_finish(o->io, ex, code);
out_metrics:
	if (cm)
		count_metrics_close(cm);
	return ex;
}

/*
 * Count CMD o.repeat times and print the counts; *status: the last run's
 * wait status; *plot_failed: --plot could not draw; *td: --topdown's
 * TopdownL1 metrics when it set them up (the caller closes them).
 */
static int run(int argc, char **argv, int *status, bool *plot_failed, struct td_gp **td)
{
	struct interval_out io;
	char target[700];
	int code = 0;
	struct run_opts o;
	struct stat_acc vals[PMCDRV_MAX_EVENTS], t_run = { 0 }, elapsed = { 0 }, ut = { 0 }, st = { 0 };
	struct type_acc types;
	struct msr_counting *mc = NULL;
	struct region_table *regions = NULL;
	struct count_metrics metrics, *cm = NULL;
	struct run_result res;
	struct mpi_rank mpi;
	char out_path[4096];
	unsigned int i, r;
	FILE *out;
	int ex;

	*status = 0;
	*plot_failed = false;
	ex = run_parse_opts(argc, argv, &o, "run", run_usage);
	if (ex || o.c.help)
		goto out_ids;
	ex = mpi_setup(&o, &mpi, out_path, sizeof(out_path));
	if (ex)
		goto out_ids;
	if (o.attach) {
		int sig;

		ex = run_tasks(&o, &sig, &code);
		free(o.ids);
		*plot_failed = code != 0;
		/* As perf stat: the counts printed, end by the signal that stopped them. */
		if (!ex && sig) {
			signal(sig, SIG_DFL);
			raise(sig);
			*status = sig;	/* a wait status: killed by @sig */
		}
		return ex;
	}
	if (o.metric_list[0]) {
		ex = count_metrics_setup(&metrics, &o.c, o.metric_list, false, "run");
		if (ex)
			return ex;
		cm = &metrics;
	}
	ex = choose_path(&o);
	if (ex)
		return ex;
	ex = o.msr ? 0 : run_hybrid_check(&o, "run");
	if (ex)
		return ex;
	if (!o.msr) {
		ex = run_topdown_setup(&o, "run");
		*td = o.c.td;
		if (ex)
			return ex;
	} else if (o.topdown) {
		fprintf(stderr, "pmcctl run: --topdown needs pmcdrv (PERF_METRICS is folded by the module "
			"at every switch); load it (sudo insmod kmod/pmcdrv.ko)\n");
		return -ENODEV;
	}
	if (o.msr) {
		struct msr_opts mo = { .cpu = o.cpu, .device = o.msr_device, .force = o.force };

		ex = msr_counting_open(&mo, &o.c.events, &mc);
	} else {
		ex = prepare_events(&o.c.events, o.c.device, "run");
	}
	if (ex)
		return ex;
	if (o.regions) {
		regions = calloc(1, sizeof(*regions));
		if (!regions) {
			fprintf(stderr, "pmcctl run: out of memory\n");
			return -ENOMEM;
		}
	}
	out = count_output(&o.c, "run");
	if (!out) {
		msr_counting_close(mc);
		free(regions);
		return -EIO;
	}
	ex = interval_setup(&o, &io, out, cm, target, sizeof(target));
	if (ex) {
		if (out != stderr)
			fclose(out);
		return ex;
	}
	/* Under MPI, JSON intervals start with the rank's identity, as the counts would. */
	if (o.io && mpi.rank >= 0 && count_format(&o.c) == REPORT_JSON) {
		char model[64];

		mpi_json_identity(out, &mpi, (long)getpid(), cpu_model(model, sizeof(model)) ? model : NULL);
	}
	setup_signals();

	memset(vals, 0, sizeof(vals));
	ex = 0;
	memset(&types, 0, sizeof(types));
	for (r = 0; r < o.repeat; r++) {
		res.nr_types = 0;
		ex = mc ? run_once_msr(mc, &o, &res) : run_once_task(&o, &res);
		if (ex)
			break;
		if (regions) {
			regions->runs++;
			ex = regions_add(regions, &res);
			if (ex)
				break;
		}
		for (i = 0; i < o.c.events.n; i++)
			acc_add(&vals[i], count_value(&o.c, &res.r, i));
		type_acc_add(&types, &res, o.c.events.n,
			     !o.c.no_scale && (res.r.flags & PMCDRV_READ_MULTIPLEXED));
		acc_add(&t_run, (double)res.r.time_running);
		acc_add(&elapsed, res.elapsed);
		acc_add(&ut, res.utime);
		acc_add(&st, res.stime);
		*status = res.status;
		report_read_warnings("run", &res.r);
		/* A command killed by a signal ends the repetitions, as with perf. */
		if (WIFSIGNALED(res.status))
			break;
	}
	if (ex == -EINTR)
		*status = res.status;	/* ended before it started */
	if (ex && !t_run.n) {
		if (out != stderr)
			fclose(out);
		msr_counting_close(mc);
		free(regions);
		if (cm)
			count_metrics_close(cm);
		return o.io ? interval_finish(o.io, ex, &code) : ex;
	}
	/* -I: the intervals were the output; no summary after them, as perf stat -I. */
	if (!o.io)
		print_results(out, &o, &mpi, cm, mc, &res.r, vals, &types, &t_run, &elapsed, &ut, &st);
	if (regions)
		regions_print(out, &o, regions, cm);
	free(regions);
	msr_counting_close(mc);
	if (cm)
		count_metrics_close(cm);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "pmcctl run: -o %s: %s\n", o.c.out_path, strerror(errno));
		ex = ex ? ex : -EIO;
	}
	if (o.io) {
		/* A failed drawing shows as 1 only when CMD's status is 0 (code starts at 1 otherwise). */
		code = child_exit_code(*status);
		ex = interval_finish(o.io, ex, &code);
		*plot_failed = !child_exit_code(*status) && code;
	}
	return ex;
out_ids:
	free(o.ids);
	return ex;
}

int cmd_run(int argc, char **argv)
{
	bool plot_failed;
	struct td_gp *td = NULL;
	int status, err = run(argc, argv, &status, &plot_failed, &td);

	td_gp_close(td);
	/* Killed before it started: the signal's code, as the shell would report it. */
	if (err == -EINTR && WIFSIGNALED(status))
		return child_exit_code(status);
	if (err)
		return pmcctl_exit_code(err);
	/* --plot could not draw: 1 when CMD's status (or -p/-t's) would be 0, as stat. */
	return plot_failed && !child_exit_code(status) ? EXIT_FAIL : child_exit_code(status);
}
