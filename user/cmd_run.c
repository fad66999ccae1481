// SPDX-License-Identifier: GPL-2.0
/* pmcctl run and pmcctl list. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpmc.h"
#include "output.h"
#include "pmcctl.h"

#define MAX_REPEAT 100000

struct run_opts {
	struct pmc_evlist events;
	const char *device;
	const char *csv_sep;
	const char *out_path;
	bool json;
	bool inherit;
	unsigned int repeat;
	char **argv;
};

/* One measured run. */
struct run_result {
	struct pmcdrv_read r;
	double elapsed;		/* seconds */
	double utime, stime;
	int status;		/* wait status */
};

static volatile sig_atomic_t child_pid;

static void forward_signal(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void run_usage(FILE *f)
{
	fputs("usage: pmcctl run [options] [--] CMD [ARGS...]\n"
	      "\n"
	      "Count CMD (and, by default, every process and thread it creates) from exec to exit.\n"
	      "\n"
	      "  -e, --event LIST     events, comma-separated, option may repeat (see 'pmcctl list'):\n"
	      "                       instructions, cycles, ref-cycles, branches, ...; 0xUUEE (umask<<8|event);\n"
	      "                       rHEX (perf raw); cpu/event=0xc0,umask=0x1,cmask=1,inv,edge/;\n"
	      "                       each optionally :u, :k or :uk. Default: task-clock,\n"
	      "                       context-switches, cpu-migrations, cycles, instructions, branches,\n"
	      "                       branch-misses (those the CPU offers)\n"
	      "  -x, --field-separator SEP   CSV output with SEP between fields\n"
	      "  -j, --json           one JSON object per event\n"
	      "  -o, --output FILE    write the counts to FILE (default: standard error, as perf stat)\n"
	      "  -r, --repeat N       run N times; print means and the spread\n"
	      "  -i, --no-inherit     count only the first process, not its children and threads\n"
	      "  -d, --device PATH    pmcdrv device (default " PMC_DEFAULT_DEVICE ")\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "Exit status: CMD's (128+N if a signal N killed it); 2 usage, 3 module or PMU\n"
	      "unavailable, 4 counters busy, 126 CMD not executable, 127 CMD not found.\n", f);
}

static int parse_run_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[256], *end;
	long n;
	int c;

	memset(o, 0, sizeof(*o));
	o->inherit = true;
	o->repeat = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:x:jo:r:id:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (pmc_evlist_parse(&o->events, optarg, err, sizeof(err))) {
				fprintf(stderr, "pmcctl run: -e %s: %s\n", optarg, err);
				return EXIT_USAGE;
			}
			break;
		case 'x':
			if (!*optarg) {
				fprintf(stderr, "pmcctl run: -x needs a non-empty separator\n");
				return EXIT_USAGE;
			}
			o->csv_sep = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->out_path = optarg;
			break;
		case 'r':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || *end || n < 1 || n > MAX_REPEAT) {
				fprintf(stderr, "pmcctl run: -r '%s': give a count from 1 to %d\n",
					optarg, MAX_REPEAT);
				return EXIT_USAGE;
			}
			o->repeat = (unsigned int)n;
			break;
		case 'i':
			o->inherit = false;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'h':
			run_usage(stdout);
			return EXIT_OK;
		default:
			run_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (o->json && o->csv_sep) {
		fprintf(stderr, "pmcctl run: -x and --json exclude each other\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "pmcctl run: no command given\n");
		run_usage(stderr);
		return EXIT_USAGE;
	}
	o->argv = argv + optind;
	return -1;	/* go on */
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Report an errno from the child and exit: stage 0 attach, 1 exec. */
static void child_fail(int fd, int stage, int err)
{
	int msg[2] = { stage, err };

	if (write(fd, msg, sizeof(msg)) < 0)
		_exit(127);
	_exit(127);
}

static int session_error(const char *what, int err)
{
	switch (err) {
	case -EBUSY:
		fprintf(stderr, "pmcctl run: %s: the counters are busy: perf_events or the NMI watchdog holds the PMU\n"
			"  fix: sudo sysctl kernel.nmi_watchdog=0, or stop the perf user, then retry\n", what);
		return EXIT_BUSY;
	case -EACCES:
		fprintf(stderr, "pmcctl run: %s: counting kernel mode needs CAP_PERFMON (or root) when "
			"kernel.perf_event_paranoid > 1; use :u events or run as root\n", what);
		return EXIT_FAIL;
	case -ENODEV:
		fprintf(stderr, "pmcctl run: %s: this CPU has no architectural performance counters; "
			"only task-clock, context-switches and cpu-migrations can be counted\n", what);
		return EXIT_UNAVAILABLE;
	case -ENOSPC:
		fprintf(stderr, "pmcctl run: %s: more hardware events than counters ('pmcctl info' lists them); "
			"multiplexing is not supported\n", what);
		return EXIT_USAGE;
	default:
		fprintf(stderr, "pmcctl run: %s: %s\n", what, strerror(-err));
		return EXIT_FAIL;
	}
}

/* Run the command once under a new session.  Returns -1 on success, an exit code otherwise. */
static int run_once(const struct run_opts *o, struct run_result *res)
{
	struct pmc_session *s;
	struct rusage ru;
	int pipefd[2], msg[2], err, ex;
	unsigned int i;
	ssize_t n;
	pid_t pid;
	double t0;

	err = pmc_session_open(o->device, &s);
	if (err) {
		fprintf(stderr, "pmcctl run: %s: %s\n  fix: %s\n", o->device ? o->device : PMC_DEFAULT_DEVICE,
			strerror(-err), pmcctl_module_hint(err));
		return EXIT_UNAVAILABLE;
	}
	for (i = 0; i < o->events.n; i++)
		pmc_session_add(s, &o->events.ev[i].ev);
	pmc_session_set_inherit(s, o->inherit);
	err = pmc_session_config(s);
	if (err) {
		ex = session_error("cannot configure the events", err);
		pmc_session_close(s);
		return ex;
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		fprintf(stderr, "pmcctl run: pipe: %s\n", strerror(errno));
		pmc_session_close(s);
		return EXIT_FAIL;
	}
	fflush(NULL);
	t0 = now_s();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "pmcctl run: fork: %s\n", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		pmc_session_close(s);
		return EXIT_FAIL;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		close(pipefd[0]);
		err = pmc_session_attach(s, 0, PMCDRV_ATTACH_ENABLE_ON_EXEC);
		if (err)
			child_fail(pipefd[1], 0, -err);
		execvp(o->argv[0], o->argv);
		child_fail(pipefd[1], 1, errno);
	}
	child_pid = pid;
	close(pipefd[1]);
	n = read(pipefd[0], msg, sizeof(msg));
	close(pipefd[0]);
	while (wait4(pid, &res->status, 0, &ru) < 0 && errno == EINTR)
		;
	res->elapsed = now_s() - t0;
	child_pid = 0;
	if (n == (ssize_t)sizeof(msg)) {
		pmc_session_close(s);
		if (msg[0] == 0)
			return session_error("cannot attach to the command", -msg[1]);
		fprintf(stderr, "pmcctl run: cannot run '%s': %s\n", o->argv[0], strerror(msg[1]));
		return msg[1] == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
	}
	res->utime = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	res->stime = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	err = pmc_session_read(s, &res->r);
	pmc_session_close(s);
	if (err) {
		fprintf(stderr, "pmcctl run: reading the counts: %s\n", strerror(-err));
		return EXIT_FAIL;
	}
	return -1;
}

struct stat_acc {
	double mean, m2;	/* Welford */
	unsigned int n;
};

static void acc_add(struct stat_acc *a, double x)
{
	double d = x - a->mean;

	a->n++;
	a->mean += d / a->n;
	a->m2 += d * (x - a->mean);
}

/* Relative spread of the mean in percent, as perf stat reports it. */
static double acc_spread_pct(const struct stat_acc *a)
{
	double sd;

	if (a->n < 2 || a->mean == 0)
		return 0;
	sd = sqrt(a->m2 / (a->n - 1));
	return 100.0 * sd / sqrt(a->n) / a->mean;
}

static int find_event(const struct run_opts *o, const char *name)
{
	unsigned int i;
	const char *k;

	for (i = 0; i < o->events.n; i++) {
		k = pmc_event_known_name(&o->events.ev[i].ev);
		if (k && !strcmp(k, name))
			return (int)i;
	}
	return -1;
}

static void print_results(FILE *f, const struct run_opts *o, struct stat_acc *vals,
			  const struct stat_acc *t_run, const struct stat_acc *elapsed,
			  const struct stat_acc *ut, const struct stat_acc *st)
{
	int ins = find_event(o, "instructions"), cyc = find_event(o, "cycles");
	/* IPC only from counts of the same privilege levels. */
	bool same_mode = ins >= 0 && cyc >= 0 &&
			 o->events.ev[ins].ev.flags == o->events.ev[cyc].ev.flags;
	double ipc = (same_mode && vals[cyc].mean > 0) ?
		     vals[ins].mean / vals[cyc].mean : -1;
	unsigned int i, a;
	char buf[64];

	if (!o->json && !o->csv_sep) {
		fprintf(f, "\n Performance counter stats for '");
		for (a = 0; o->argv[a]; a++)
			fprintf(f, "%s%s", a ? " " : "", o->argv[a]);
		if (o->repeat > 1)
			fprintf(f, "' (%u runs):\n\n", o->repeat);
		else
			fprintf(f, "':\n\n");
	}
	for (i = 0; i < o->events.n; i++) {
		const struct pmc_evsel *e = &o->events.ev[i];
		bool clock = !pmc_evsel_is_hw(e) && e->ev.sw_id == PMCDRV_SW_TASK_CLOCK;
		double v = clock ? vals[i].mean / 1e6 : vals[i].mean;
		double spread = acc_spread_pct(&vals[i]);
		bool show_ipc = (int)i == ins && ipc >= 0;

		if (o->json) {
			fprintf(f, "{\"event\": ");
			json_string(f, e->name);
			fprintf(f, ", \"counter-value\": %.6f, \"unit\": \"%s\", \"event-runtime\": %.0f, \"pcnt-running\": 100.00",
				v, clock ? "msec" : "", t_run->mean);
			if (o->repeat > 1)
				fprintf(f, ", \"runs\": %u, \"variance\": %.2f", o->repeat, spread);
			if (show_ipc)
				fprintf(f, ", \"metric-value\": %.6f, \"metric-unit\": \"insn per cycle\"", ipc);
			fprintf(f, "}\n");
		} else if (o->csv_sep) {
			fprintf(f, "%.*f%s%s%s%s%s%.0f%s100.00", clock ? 2 : 0, v, o->csv_sep,
				clock ? "msec" : "", o->csv_sep, e->name, o->csv_sep, t_run->mean,
				o->csv_sep);
			if (show_ipc)
				fprintf(f, "%s%.2f%sinsn per cycle", o->csv_sep, ipc, o->csv_sep);
			fputc('\n', f);
		} else {
			if (clock)
				fprintf(f, "%18.2f msec %-28s", v, e->name);
			else
				fprintf(f, "%18s      %-28s", fmt_thousands((uint64_t)llround(v), buf, sizeof(buf)),
					e->name);
			if (show_ipc)
				fprintf(f, " #  %6.2f  insn per cycle", ipc);
			else if (clock && elapsed->mean > 0)
				fprintf(f, " #  %6.3f CPUs utilized", vals[i].mean / 1e9 / elapsed->mean);
			if (o->repeat > 1)
				fprintf(f, "%s( +- %5.2f%% )", show_ipc || clock ? "  " : "                                 ",
					spread);
			fputc('\n', f);
		}
	}
	if (!o->json && !o->csv_sep) {
		fprintf(f, "\n %14.9f seconds time elapsed", elapsed->mean);
		if (o->repeat > 1)
			fprintf(f, "  ( +- %5.2f%% )", acc_spread_pct(elapsed));
		fprintf(f, "\n\n %14.9f seconds user\n %14.9f seconds sys\n\n", ut->mean, st->mean);
	}
}

/* Shell-style status of a waited child. */
static int child_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_FAIL;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct stat_acc vals[PMCDRV_MAX_EVENTS], t_run = { 0 }, elapsed = { 0 }, ut = { 0 }, st = { 0 };
	struct run_result res;
	struct pmcdrv_info info;
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	struct pmc_arch_perfmon pm;
	struct pmc_session *probe;
	struct sigaction sa;
	uint32_t counter[PMCDRV_MAX_EVENTS];
	unsigned int i, r;
	FILE *out = stderr;
	int ex, err, last_status = 0;

	ex = parse_run_opts(argc, argv, &o);
	if (ex >= 0)
		return ex;

	err = pmc_session_open(o.device, &probe);
	if (err) {
		fprintf(stderr, "pmcctl run: %s: %s\n  fix: %s\n"
			"  (the MSR fallback without the module is not implemented yet)\n",
			o.device ? o.device : PMC_DEFAULT_DEVICE, strerror(-err), pmcctl_module_hint(err));
		return EXIT_UNAVAILABLE;
	}
	err = pmc_session_info(probe, &info);
	pmc_session_close(probe);
	if (err) {
		fprintf(stderr, "pmcctl run: INFO: %s\n", strerror(-err));
		return EXIT_FAIL;
	}
	if (!o.events.n)
		pmc_evlist_default(&o.events, &info);

	/* Check in user space first, to name the offending event. */
	memset(&cfg, 0, sizeof(cfg));
	memset(&pm, 0, sizeof(pm));
	pm.version = info.perfmon_version;
	pm.num_gp = info.num_gp;
	pm.gp_width = info.gp_width;
	pm.num_fixed = info.num_fixed;
	pm.fixed_width = info.fixed_width;
	pm.events_len = info.events_len;
	pm.events_avail = info.events_avail;
	pm.fixed_mask = (uint32_t)(info.avail_mask >> PMC_GLOBAL_FIXED_SHIFT);
	cfg.nr_events = o.events.n;
	for (i = 0; i < o.events.n; i++)
		cfg.events[i] = o.events.ev[i].ev;
	err = pmc_config_check(&cfg, &pm, ~0ULL, counter, &v);
	if (err) {
		if (v.err == PMC_CONFIG_BAD_EVENT)
			fprintf(stderr, "pmcctl run: event '%s': %s\n", o.events.ev[v.bad_index].name,
				pmc_config_strerror(&v));
		else
			fprintf(stderr, "pmcctl run: %s\n", pmc_config_strerror(&v));
		return err == -ENODEV || err == -EOPNOTSUPP ? EXIT_UNAVAILABLE : EXIT_USAGE;
	}

	if (o.out_path) {
		out = fopen(o.out_path, "we");
		if (!out) {
			fprintf(stderr, "pmcctl run: -o %s: %s\n", o.out_path, strerror(errno));
			return EXIT_FAIL;
		}
	}
	/* The terminal's Ctrl-C and Ctrl-\ reach the child; we wait, then report. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = forward_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	memset(vals, 0, sizeof(vals));
	ex = -1;
	for (r = 0; r < o.repeat; r++) {
		ex = run_once(&o, &res);
		if (ex >= 0)
			break;
		for (i = 0; i < o.events.n; i++)
			acc_add(&vals[i], (double)res.r.values[i]);
		acc_add(&t_run, (double)res.r.time_running);
		acc_add(&elapsed, res.elapsed);
		acc_add(&ut, res.utime);
		acc_add(&st, res.stime);
		last_status = res.status;
		if (res.r.flags & PMCDRV_READ_LOST_TASKS)
			fprintf(stderr, "pmcctl run: warning: %llu new tasks could not be tracked (out of memory); counts are low\n",
				(unsigned long long)res.r.lost_tasks);
		/* A command killed by a signal ends the repetitions, as with perf. */
		if (WIFSIGNALED(res.status))
			break;
	}
	if (ex >= 0 && !t_run.n) {
		if (out != stderr)
			fclose(out);
		return ex;
	}
	print_results(out, &o, vals, &t_run, &elapsed, &ut, &st);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "pmcctl run: -o %s: %s\n", o.out_path, strerror(errno));
		return EXIT_FAIL;
	}
	return ex >= 0 ? ex : child_exit_code(last_status);
}

/* ---- pmcctl list ------------------------------------------------------------- */

int cmd_list(int argc, char **argv)
{
	struct pmcdrv_info info;
	enum pmc_decode_err derr;
	unsigned int i;
	int fx;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: pmcctl list\n\nList the events this CPU supports, their encodings and counters.");
		return EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "pmcctl list: unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
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
		if (fx >= 0 && (info.avail_mask >> (PMC_GLOBAL_FIXED_SHIFT + fx)) & 1)
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
	     "Model-specific events are given by code; see the SDM's event tables for this model.");
	return EXIT_OK;
}
