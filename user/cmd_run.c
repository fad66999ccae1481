// SPDX-License-Identifier: GPL-2.0
/* pmcctl run and pmcctl list. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpmc.h"
#include "output.h"
#include "pmcctl.h"
#include "report.h"

#define MAX_REPEAT 100000

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

volatile sig_atomic_t child_pid;

/* Sent to pmcctl while it counts a command: passed on to the command. */
static const int forwarded[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };

static void forward_signal(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

pid_t fork_command(void)
{
	struct sigaction cur;
	sigset_t set, old;
	unsigned int i;
	pid_t pid;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		for (i = 0; i < ARRAY_SIZE(forwarded); i++) {
			sigaction(forwarded[i], NULL, &cur);
			if (cur.sa_handler == forward_signal)
				signal(forwarded[i], SIG_DFL);
		}
	} else if (pid > 0) {
		child_pid = pid;
	}
	/* A signal held meanwhile now reaches the child: forwarded, or its own. */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
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
	      "      --msr            count through the MSR device even when pmcdrv is loaded (the\n"
	      "                       default without it): CMD is pinned to one CPU, whose counts\n"
	      "                       include everything else that runs there\n"
	      "      --msr-device PATH   MSR device (implies --msr); %d is the CPU number, e.g.\n"
	      "                       /dev/cpu/%d/msr_safe (default /dev/cpu/N/msr, then msr_safe)\n"
	      "  -C, --cpu N          MSR path: the CPU to pin CMD to and count (default: pmcctl's)\n"
	      "  -f, --force          MSR path: use counters someone else has enabled (put back after)\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "Exit status: CMD's (128+N if a signal N killed it); 2 usage, 3 module, MSR device or PMU\n"
	      "unavailable, 4 counters busy, 126 CMD not executable, 127 CMD not found.\n", f);
}

static void compare_usage(FILE *f);

static int parse_run_opts(int argc, char **argv, struct run_opts *o, bool compare)
{
	void (*usage)(FILE *) = compare ? compare_usage : run_usage;
	const char *cmd = compare ? "compare" : "run";
	enum { OPT_MSR = 256, OPT_MSR_DEVICE };
	static const struct option opts[] = {
		COUNT_LONGOPTS,
		{ "repeat", required_argument, NULL, 'r' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "msr", no_argument, NULL, OPT_MSR },
		{ "msr-device", required_argument, NULL, OPT_MSR_DEVICE },
		{ "cpu", required_argument, NULL, 'C' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool msr_opt = false;
	long n;
	int c, ex;

	memset(o, 0, sizeof(*o));
	o->inherit = true;
	o->repeat = 1;
	o->cpu = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+" COUNT_SHORTOPTS "r:iC:fh", opts, NULL)) != -1) {
		ex = count_opt(&o->c, c, optarg, cmd);
		if (ex == -1)
			continue;
		if (ex >= 0)
			return ex;
		switch (c) {
		case 'r':
			if (!parse_long(optarg, 1, MAX_REPEAT, &n)) {
				fprintf(stderr, "pmcctl %s: -r '%s': give a count from 1 to %d\n",
					cmd, optarg, MAX_REPEAT);
				return EXIT_USAGE;
			}
			o->repeat = (unsigned int)n;
			break;
		case 'i':
			o->inherit = false;
			break;
		case OPT_MSR_DEVICE:
			if (!*optarg) {
				fprintf(stderr, "pmcctl %s: --msr-device needs a path\n", cmd);
				return EXIT_USAGE;
			}
			o->msr_device = optarg;
			/* fall through */
		case OPT_MSR:
			o->msr = true;
			msr_opt = true;
			break;
		case 'C':
			if (!parse_long(optarg, 0, CPU_SETSIZE - 1, &n)) {
				fprintf(stderr, "pmcctl %s: -C '%s': give a CPU number\n", cmd, optarg);
				return EXIT_USAGE;
			}
			o->cpu = (int)n;
			msr_opt = true;
			break;
		case 'f':
			o->force = true;
			msr_opt = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	ex = count_opts_check(&o->c, cmd);
	if (ex >= 0)
		return ex;
	if (compare && msr_opt) {
		fprintf(stderr, "pmcctl compare: --msr, --msr-device, -C and -f are options of 'pmcctl run'; "
			"compare measures pmcdrv against perf_event\n");
		return EXIT_USAGE;
	}
	if (o->msr && o->c.device) {
		fprintf(stderr, "pmcctl %s: -d names the pmcdrv device; with --msr use --msr-device\n", cmd);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "pmcctl %s: no command given\n", cmd);
		usage(stderr);
		return EXIT_USAGE;
	}
	o->argv = argv + optind;
	return -1;	/* go on */
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool parse_long(const char *arg, long min, long max, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || *end || end == arg || n < min || n > max)
		return false;
	*out = n;
	return true;
}

int device_error(const char *cmd, const char *device, int err)
{
	fprintf(stderr, "pmcctl %s: %s: %s\n  fix: %s\n", cmd, device ? device : PMC_DEFAULT_DEVICE,
		strerror(-err), pmcctl_module_hint(err));
	return EXIT_UNAVAILABLE;
}

/* Report an errno from the child and exit: stage 0 attach, 1 exec. */
static void child_fail(int fd, int stage, int err)
{
	int msg[2] = { stage, err };

	if (write(fd, msg, sizeof(msg)) < 0)
		_exit(127);
	_exit(127);
}

int count_opt(struct count_opts *co, int c, const char *arg, const char *cmd)
{
	char err[256];

	switch (c) {
	case 'e':
		if (pmc_evlist_parse(&co->events, arg, err, sizeof(err))) {
			fprintf(stderr, "pmcctl %s: -e %s: %s\n", cmd, arg, err);
			return EXIT_USAGE;
		}
		return -1;
	case 'x':
		if (!*arg) {
			fprintf(stderr, "pmcctl %s: -x needs a non-empty separator\n", cmd);
			return EXIT_USAGE;
		}
		co->csv_sep = arg;
		return -1;
	case 'j':
		co->json = true;
		return -1;
	case 'o':
		co->out_path = arg;
		return -1;
	case 'd':
		co->device = arg;
		return -1;
	default:
		return -2;
	}
}

int count_opts_check(const struct count_opts *co, const char *cmd)
{
	if (co->json && co->csv_sep) {
		fprintf(stderr, "pmcctl %s: -x and --json exclude each other\n", cmd);
		return EXIT_USAGE;
	}
	return -1;
}

enum report_format count_format(const struct count_opts *co)
{
	return co->json ? REPORT_JSON : co->csv_sep ? REPORT_CSV : REPORT_TEXT;
}

FILE *count_output(const struct count_opts *co, const char *cmd)
{
	FILE *f;

	if (!co->out_path)
		return stderr;
	f = fopen(co->out_path, "we");
	if (!f)
		fprintf(stderr, "pmcctl %s: -o %s: %s\n", cmd, co->out_path, strerror(errno));
	return f;
}

int session_error(const char *cmd, const char *what, int err)
{
	switch (err) {
	case -EBUSY:
		fprintf(stderr, "pmcctl %s: %s: the counters are busy: perf_events or the NMI watchdog holds the PMU\n"
			"  fix: sudo sysctl kernel.nmi_watchdog=0, or stop the perf user, then retry\n", cmd, what);
		return EXIT_BUSY;
	case -EACCES:
		fprintf(stderr, "pmcctl %s: %s: counting kernel mode needs CAP_PERFMON (or root) when "
			"kernel.perf_event_paranoid > 1; use :u events or run as root\n", cmd, what);
		return EXIT_FAIL;
	case -ENODEV:
		fprintf(stderr, "pmcctl %s: %s: this CPU has no architectural performance counters; "
			"only task-clock, context-switches and cpu-migrations can be counted\n", cmd, what);
		return EXIT_UNAVAILABLE;
	case -ENOSPC:
		fprintf(stderr, "pmcctl %s: %s: more hardware events than counters ('pmcctl info' lists them); "
			"multiplexing is not supported\n", cmd, what);
		return EXIT_USAGE;
	default:
		fprintf(stderr, "pmcctl %s: %s: %s\n", cmd, what, strerror(-err));
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

	err = pmc_session_open(o->c.device, &s);
	if (err)
		return device_error("run", o->c.device, err);
	for (i = 0; i < o->c.events.n; i++)
		pmc_session_add(s, &o->c.events.ev[i].ev);
	pmc_session_set_inherit(s, o->inherit);
	err = pmc_session_config(s);
	if (err) {
		ex = session_error("run", "cannot configure the events", err);
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
	pid = fork_command();
	if (pid < 0) {
		fprintf(stderr, "pmcctl run: fork: %s\n", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		pmc_session_close(s);
		return EXIT_FAIL;
	}
	if (pid == 0) {
		close(pipefd[0]);
		err = pmc_session_attach(s, 0, PMCDRV_ATTACH_ENABLE_ON_EXEC);
		if (err)
			child_fail(pipefd[1], 0, -err);
		execvp(o->argv[0], o->argv);
		child_fail(pipefd[1], 1, errno);
	}
	close(pipefd[1]);
	n = read(pipefd[0], msg, sizeof(msg));
	close(pipefd[0]);
	while (wait4(pid, &res->status, 0, &ru) < 0 && errno == EINTR)
		;
	res->elapsed = now_s() - t0;
	child_pid = 0;
	if (n == (ssize_t)sizeof(msg)) {
		pmc_session_close(s);
		if (msg[0] == 0 && msg[1] == EBUSY) {
			fprintf(stderr, "pmcctl run: cannot attach to the command: 'pmcctl stat' counts whole CPUs now, "
				"and CPU and task sessions exclude each other\n  fix: wait for it to end, then retry\n");
			return EXIT_BUSY;
		}
		if (msg[0] == 0)
			return session_error("run", "cannot attach to the command", -msg[1]);
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

/* @mc: counted through the MSR device (the report says what that means), or NULL. */
static void print_results(FILE *f, const struct run_opts *o, const struct msr_counting *mc,
			  const struct stat_acc *vals, const struct stat_acc *t_run,
			  const struct stat_acc *elapsed, const struct stat_acc *ut,
			  const struct stat_acc *st)
{
	struct report_row rows[PMCDRV_MAX_EVENTS];
	char cmd[512], target[600], note[1024];
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
	unsigned int i;

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
	for (i = 0; i < o->c.events.n; i++) {
		rows[i] = (struct report_row){
			.ev = &o->c.events.ev[i],
			.value = vals[i].mean,
			.spread_pct = acc_spread_pct(&vals[i]),
		};
	}
	report_print(f, &r, rows, o->c.events.n);
}

/* Shell-style status of a waited child. */
int child_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_FAIL;
}

int check_events(struct pmc_evlist *events, const struct pmcdrv_info *info, const char *cmd)
{
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	struct pmc_arch_perfmon pm;
	uint32_t counter[PMCDRV_MAX_EVENTS];
	unsigned int i;
	int err;

	if (!events->n)
		pmc_evlist_default(events, info);

	memset(&cfg, 0, sizeof(cfg));
	pmc_perfmon_from_info(info, &pm);
	cfg.nr_events = events->n;
	for (i = 0; i < events->n; i++)
		cfg.events[i] = events->ev[i].ev;
	err = pmc_config_check(&cfg, &pm, ~0ULL, counter, &v);
	if (err) {
		if (v.err == PMC_CONFIG_BAD_EVENT)
			fprintf(stderr, "pmcctl %s: event '%s': %s\n", cmd,
				events->ev[v.bad_index].name, pmc_config_strerror(&v));
		else
			fprintf(stderr, "pmcctl %s: %s\n", cmd, pmc_config_strerror(&v));
		return err == -ENODEV || err == -EOPNOTSUPP ? EXIT_UNAVAILABLE : EXIT_USAGE;
	}
	return -1;
}

/*
 * Ask the module what the PMU offers, fill in the default events, and check
 * the events in user space first, to name an offending one.  Returns -1 to
 * go on, or an exit code.
 */
int prepare_events(struct pmc_evlist *events, const char *device, const char *cmd)
{
	struct pmcdrv_info info;
	struct pmc_session *probe;
	int err;

	err = pmc_session_open(device, &probe);
	if (err)
		return device_error(cmd, device, err);
	err = pmc_session_info(probe, &info);
	pmc_session_close(probe);
	if (err) {
		fprintf(stderr, "pmcctl %s: INFO: %s\n", cmd, strerror(-err));
		return EXIT_FAIL;
	}
	return check_events(events, &info, cmd);
}

/* The terminal's Ctrl-C and Ctrl-\ reach the child; we wait, then report. */
void setup_signals(void)
{
	struct sigaction sa, old;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = forward_signal;
	for (i = 0; i < ARRAY_SIZE(forwarded); i++) {
		/* An inherited SIG_IGN (nohup) stays, for pmcctl and for the command. */
		sigaction(forwarded[i], NULL, &old);
		if (old.sa_handler != SIG_IGN)
			sigaction(forwarded[i], &sa, NULL);
	}
}

/*
 * pmcdrv or the MSR device?  Without the module (and without -d) run falls
 * back to the MSR device, saying so.  Checks the options that belong to one
 * path.  -1 to go on, or an exit code.
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
				return EXIT_USAGE;
			}
			return -1;
		}
		/* Its sessions reprogram the counters at every context switch: both would be wrong. */
		if (!err && (info.flags & PMCDRV_INFO_CLAIMED) && !o->force) {
			fprintf(stderr, "pmcctl run: pmcdrv sessions hold the counters now; the MSR path would corrupt their counts and ours\n"
				"  fix: wait for them, drop --msr to count through pmcdrv, or --force\n");
			return EXIT_BUSY;
		}
	} else if (!o->msr) {
		if (o->c.device || (err != -ENOENT && err != -ENODEV && err != -ENXIO))
			return -1;	/* prepare_events() explains */
		fprintf(stderr, "pmcctl run: pmcdrv is not loaded (%s: %s): counting one whole CPU through its MSR device instead; "
			"for per-task counts load pmcdrv (sudo insmod kmod/pmcdrv.ko)\n",
			PMC_DEFAULT_DEVICE, strerror(-err));
		o->msr = true;
		fallback = true;
	}
	if (!o->inherit) {
		fprintf(stderr, "pmcctl run: -i (only CMD's first process) needs pmcdrv's per-task counting; "
			"the MSR path counts everything on one CPU\n");
		return fallback ? EXIT_UNAVAILABLE : EXIT_USAGE;
	}
	if (o->cpu < 0) {
		cpu = sched_getcpu();
		o->cpu = cpu < 0 ? 0 : cpu;
	}
	return -1;
}

static int run_once_msr(struct msr_counting *mc, const struct run_opts *o, struct run_result *res)
{
	struct msr_result m;
	int ex = msr_counting_run(mc, o->argv, &m);

	if (ex >= 0)
		return ex;
	memset(res, 0, sizeof(*res));
	memcpy(res->r.values, m.values, sizeof(res->r.values));
	res->r.time_running = (uint64_t)llround(m.elapsed * 1e9);
	res->elapsed = m.elapsed;
	res->utime = m.utime;
	res->stime = m.stime;
	res->status = m.status;
	return -1;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct stat_acc vals[PMCDRV_MAX_EVENTS], t_run = { 0 }, elapsed = { 0 }, ut = { 0 }, st = { 0 };
	struct msr_counting *mc = NULL;
	struct run_result res;
	unsigned int i, r;
	FILE *out;
	int ex, last_status = 0;

	ex = parse_run_opts(argc, argv, &o, false);
	if (ex >= 0)
		return ex;
	ex = choose_path(&o);
	if (ex >= 0)
		return ex;
	if (o.msr) {
		struct msr_opts mo = { .cpu = o.cpu, .device = o.msr_device, .force = o.force };

		ex = msr_counting_open(&mo, &o.c.events, &mc);
	} else {
		ex = prepare_events(&o.c.events, o.c.device, "run");
	}
	if (ex >= 0)
		return ex;
	out = count_output(&o.c, "run");
	if (!out) {
		msr_counting_close(mc);
		return EXIT_FAIL;
	}
	setup_signals();

	memset(vals, 0, sizeof(vals));
	ex = -1;
	for (r = 0; r < o.repeat; r++) {
		ex = mc ? run_once_msr(mc, &o, &res) : run_once(&o, &res);
		if (ex >= 0)
			break;
		for (i = 0; i < o.c.events.n; i++)
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
		msr_counting_close(mc);
		return ex;
	}
	print_results(out, &o, mc, vals, &t_run, &elapsed, &ut, &st);
	msr_counting_close(mc);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "pmcctl run: -o %s: %s\n", o.c.out_path, strerror(errno));
		return EXIT_FAIL;
	}
	return ex >= 0 ? ex : child_exit_code(last_status);
}

/* ---- pmcctl compare ----------------------------------------------------------- */

static void compare_usage(FILE *f)
{
	fputs("usage: pmcctl compare [-e LIST] [-r N] [-i] [-j] [-d PATH] [--] CMD [ARGS...]\n"
	      "\n"
	      "Count CMD N times through pmcdrv and N times through perf_event_open(2) (this\n"
	      "program's own calls, same events, inherited, enabled on exec), and print both\n"
	      "means, their difference, and whether it lies within the run-to-run spread.\n"
	      "Options as for 'pmcctl run' (-e, -r, -i, -d) and -j for JSON.\n"
	      "Exit status: 0 when every difference is within the spread, 1 when one is not,\n"
	      "otherwise as 'pmcctl run'.\n", f);
}

static int perf_open(const struct pmcdrv_event *ev, bool inherit, pid_t pid)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = inherit;
	a.exclude_hv = 1;
	if (ev->type == PMCDRV_EVENT_HW) {
		/* perf's raw config has the EVTSEL layout. */
		a.type = PERF_TYPE_RAW;
		a.config = ev->event | ((uint64_t)ev->umask << PMC_EVTSEL_UMASK_SHIFT) |
			   ((uint64_t)ev->cmask << PMC_EVTSEL_CMASK_SHIFT);
		if (ev->flags & PMCDRV_EVF_EDGE)
			a.config |= PMC_EVTSEL_EDGE;
		if (ev->flags & PMCDRV_EVF_INV)
			a.config |= PMC_EVTSEL_INV;
		a.exclude_user = !(ev->flags & PMCDRV_EVF_USER);
		a.exclude_kernel = !(ev->flags & PMCDRV_EVF_KERNEL);
	} else {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = ev->sw_id == PMCDRV_SW_TASK_CLOCK ? PERF_COUNT_SW_TASK_CLOCK :
			   ev->sw_id == PMCDRV_SW_CONTEXT_SWITCHES ? PERF_COUNT_SW_CONTEXT_SWITCHES :
			   PERF_COUNT_SW_CPU_MIGRATIONS;
	}
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Run CMD once counted by perf_event_open.  -1 on success, else an exit code. */
static int run_once_perf(const struct run_opts *o, uint64_t *vals)
{
	int fds[PMCDRV_MAX_EVENTS], go[2], report[2], msg[2], status, ex = -1;
	unsigned int i, n = 0;
	char c = 0;
	pid_t pid;

	/* go: parent -> child "events attached"; report: child -> parent exec errno. */
	if (pipe2(go, O_CLOEXEC)) {
		fprintf(stderr, "pmcctl compare: pipe: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	if (pipe2(report, O_CLOEXEC)) {
		fprintf(stderr, "pmcctl compare: pipe: %s\n", strerror(errno));
		close(go[0]);
		close(go[1]);
		return EXIT_FAIL;
	}
	fflush(NULL);
	pid = fork_command();
	if (pid < 0) {
		fprintf(stderr, "pmcctl compare: fork: %s\n", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(report[0]);
		close(report[1]);
		return EXIT_FAIL;
	}
	if (pid == 0) {
		/* Wait until the parent has attached the events; then report exec errors. */
		close(go[1]);
		close(report[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(o->argv[0], o->argv);
		child_fail(report[1], 1, errno);
	}
	close(go[0]);
	close(report[1]);
	for (n = 0; n < o->c.events.n; n++) {
		fds[n] = perf_open(&o->c.events.ev[n].ev, o->inherit, pid);
		if (fds[n] < 0) {
			fprintf(stderr, "pmcctl compare: perf_event_open for '%s': %s\n",
				o->c.events.ev[n].name, strerror(errno));
			ex = errno == EACCES || errno == EPERM ? EXIT_FAIL : EXIT_UNAVAILABLE;
			break;
		}
	}
	if (ex >= 0) {
		kill(pid, SIGKILL);
	} else if (write(go[1], &c, 1) != 1) {
		kill(pid, SIGKILL);
		ex = EXIT_FAIL;
	}
	close(go[1]);
	if (ex < 0 && read(report[0], msg, sizeof(msg)) == (ssize_t)sizeof(msg)) {
		fprintf(stderr, "pmcctl compare: cannot run '%s': %s\n", o->argv[0], strerror(msg[1]));
		ex = msg[1] == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
	}
	close(report[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	for (i = 0; i < n; i++) {
		if (ex < 0 && read(fds[i], &vals[i], sizeof(vals[i])) != sizeof(vals[i])) {
			fprintf(stderr, "pmcctl compare: reading '%s': %s\n", o->c.events.ev[i].name,
				strerror(errno));
			ex = EXIT_FAIL;
		}
		close(fds[i]);
	}
	return ex;
}

int cmd_compare(int argc, char **argv)
{
	struct stat_acc mine[PMCDRV_MAX_EVENTS], theirs[PMCDRV_MAX_EVENTS];
	uint64_t pv[PMCDRV_MAX_EVENTS];
	struct run_result res;
	struct run_opts o;
	unsigned int i, r, a;
	bool all_within = true;
	char b1[32], b2[32];
	int ex;

	ex = parse_run_opts(argc, argv, &o, true);
	if (ex >= 0)
		return ex;
	if (o.c.csv_sep || o.c.out_path) {
		fprintf(stderr, "pmcctl compare: -x and -o are options of 'pmcctl run'; use -j for machine-readable output\n");
		return EXIT_USAGE;
	}
	ex = prepare_events(&o.c.events, o.c.device, "compare");
	if (ex >= 0)
		return ex;
	setup_signals();
	memset(mine, 0, sizeof(mine));
	memset(theirs, 0, sizeof(theirs));
	for (r = 0; r < o.repeat; r++) {
		ex = run_once(&o, &res);
		if (ex >= 0)
			return ex;
		for (i = 0; i < o.c.events.n; i++)
			acc_add(&mine[i], (double)res.r.values[i]);
	}
	for (r = 0; r < o.repeat; r++) {
		ex = run_once_perf(&o, pv);
		if (ex >= 0)
			return ex;
		for (i = 0; i < o.c.events.n; i++)
			acc_add(&theirs[i], (double)pv[i]);
	}

	if (!o.c.json) {
		printf("\n pmcdrv vs perf_event for '");
		for (a = 0; o.argv[a]; a++)
			printf("%s%s", a ? " " : "", o.argv[a]);
		printf("' (%u run%s each):\n\n", o.repeat, o.repeat > 1 ? "s" : "");
		printf(" %-24s %18s %18s %14s %12s  %s\n", "event", "pmcdrv", "perf_event",
		       "difference", "spread (sd)", "verdict");
	}
	for (i = 0; i < o.c.events.n; i++) {
		double diff = mine[i].mean - theirs[i].mean;
		double spread = fmax(acc_sd(&mine[i]), acc_sd(&theirs[i]));
		bool within = fabs(diff) <= spread;
		const char *verdict = diff == 0 ? "equal" : within ? "within spread" : "DIFFERENT";

		all_within = all_within && within;
		if (o.c.json) {
			printf("{\"event\": ");
			json_string(stdout, o.c.events.ev[i].name);
			printf(", \"pmcdrv\": %.3f, \"perf_event\": %.3f, \"difference\": %.3f, \"spread\": %.3f, \"runs\": %u, \"within_spread\": %s}\n",
			       mine[i].mean, theirs[i].mean, diff, spread, o.repeat, within ? "true" : "false");
		} else {
			printf(" %-24s %18s %18s %14.1f %12.1f  %s\n", o.c.events.ev[i].name,
			       fmt_thousands((uint64_t)llround(mine[i].mean), b1, sizeof(b1)),
			       fmt_thousands((uint64_t)llround(theirs[i].mean), b2, sizeof(b2)),
			       diff, spread, verdict);
		}
	}
	if (!o.c.json)
		printf("\n task-clock is in ns; spread is the larger standard deviation of the two sides.\n\n");
	return all_within ? EXIT_OK : EXIT_FAIL;
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
