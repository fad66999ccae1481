// SPDX-License-Identifier: GPL-2.0
/*
 * Counting a command through pmcdrv (a task session that follows it from
 * exec): the options and one run, shared by run and compare.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "interval.h"
#include "libpmc.h"
#include "pmcctl.h"
#include "run.h"

#define MAX_REPEAT 100000
#define MAX_DURATION_S (365.0 * 24 * 3600)

int run_parse_opts(int argc, char **argv, struct run_opts *o, const char *cmd,
		   void (*usage)(FILE *f))
{
	bool compare = strcmp(cmd, "run");
	enum { OPT_MSR = 256, OPT_MSR_DEVICE, OPT_REGIONS, OPT_DURATION, OPT_TOPDOWN, OPT_TD_LEVEL,
	       OPT_ALL_USER, OPT_PIN, OPT_PLOT, OPT_CPUTYPE, OPT_HYBRID_MERGE };
	static const struct option opts[] = {
		COUNT_LONGOPTS,
		{ "repeat", required_argument, NULL, 'r' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "msr", no_argument, NULL, OPT_MSR },
		{ "msr-device", required_argument, NULL, OPT_MSR_DEVICE },
		{ "cpu", required_argument, NULL, 'C' },
		{ "force", no_argument, NULL, 'f' },
		{ "regions", no_argument, NULL, OPT_REGIONS },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "topdown", no_argument, NULL, OPT_TOPDOWN },
		{ "td-level", required_argument, NULL, OPT_TD_LEVEL },
		{ "all-user", no_argument, NULL, OPT_ALL_USER },
		{ "cputype", required_argument, NULL, OPT_CPUTYPE },
		{ "hybrid-merge", no_argument, NULL, OPT_HYBRID_MERGE },
		{ "metrics", required_argument, NULL, 'M' },
		{ "pin", no_argument, NULL, OPT_PIN },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool msr_opt = false, repeat_opt = false;
	char *end;
	long n;
	int c, ex;

	memset(o, 0, sizeof(*o));
	o->inherit = true;
	o->repeat = 1;
	o->cpu = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+" COUNT_SHORTOPTS "r:iC:fp:t:M:vI:h", opts, NULL)) != -1) {
		if (count_opt_owns(c)) {
			ex = count_opt(&o->c, c, optarg, cmd);
			if (ex)
				return ex;
			continue;
		}
		switch (c) {
		case 'r':
			if (!parse_long(optarg, 1, MAX_REPEAT, &n)) {
				fprintf(stderr, "pmcctl %s: -r '%s': give a count from 1 to %d\n",
					cmd, optarg, MAX_REPEAT);
				return -EINVAL;
			}
			o->repeat = (unsigned int)n;
			repeat_opt = true;
			break;
		case 'i':
			o->inherit = false;
			break;
		case OPT_MSR_DEVICE:
			if (!*optarg) {
				fprintf(stderr, "pmcctl %s: --msr-device needs a path\n", cmd);
				return -EINVAL;
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
				return -EINVAL;
			}
			o->cpu = (int)n;
			msr_opt = true;
			break;
		case 'f':
			o->force = true;
			msr_opt = true;
			break;
		case OPT_REGIONS:
			o->regions = true;
			break;
		case 'p':
		case 't':
			ex = attach_parse_list(o, c == 'p' ? ATTACH_PID : ATTACH_TID, c == 'p' ? "-p" : "-t", optarg);
			if (ex)
				return ex;
			break;
		case OPT_DURATION:
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o->duration > 0) ||
			    o->duration > MAX_DURATION_S) {
				fprintf(stderr, "pmcctl %s: --duration '%s': give seconds, more than 0 (e.g. 1 or 0.5)\n",
					cmd, optarg);
				return -EINVAL;
			}
			break;
		case OPT_TOPDOWN:
			o->topdown = true;
			break;
		case OPT_TD_LEVEL:
			if (!parse_long(optarg, 1, 2, &n)) {
				fprintf(stderr, "pmcctl %s: --td-level '%s': give 1 or 2\n", cmd, optarg);
				return -EINVAL;
			}
			o->td_level = (unsigned int)n;
			break;
		case OPT_ALL_USER:
			o->all_user = true;
			break;
		case OPT_CPUTYPE:
			if (!strcmp(optarg, "core")) {
				o->cputype = PMC_CORE_TYPE_CORE;
			} else if (!strcmp(optarg, "atom")) {
				o->cputype = PMC_CORE_TYPE_ATOM;
			} else {
				fprintf(stderr, "pmcctl %s: --cputype '%s': give core (P-cores) or atom (E-cores)\n",
					cmd, optarg);
				return -EINVAL;
			}
			break;
		case OPT_HYBRID_MERGE:
			o->hybrid_merge = true;
			break;
		case 'M':
			ex = metric_list_add(o->metric_list, sizeof(o->metric_list), optarg, cmd);
			if (ex)
				return ex;
			break;
		case OPT_PIN:
			o->pin = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'I':
			ex = interval_parse(optarg, &o->interval_ms, cmd);
			if (ex)
				return ex;
			break;
		case OPT_PLOT:
			if (!plot_output_ok(optarg, "run --plot"))
				return -EINVAL;
			o->plot = optarg;
			break;
		case 'h':
			usage(stdout);
			o->c.help = true;
			return 0;
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	ex = count_opts_check(&o->c, cmd);
	if (ex)
		return ex;
	if (compare && msr_opt) {
		fprintf(stderr, "pmcctl compare: --msr, --msr-device, -C and -f are options of 'pmcctl run'; "
			"compare measures pmcdrv against perf_event\n");
		return -EINVAL;
	}
	if (compare && (o->topdown || o->td_level || o->all_user || o->cputype || o->hybrid_merge)) {
		fprintf(stderr, "pmcctl compare: --topdown, --td-level, --all-user, --cputype and "
			"--hybrid-merge are options of 'pmcctl run'\n");
		return -EINVAL;
	}
	if (o->cputype && o->hybrid_merge) {
		fprintf(stderr, "pmcctl %s: --cputype and --hybrid-merge exclude each other: one core "
			"type's counts, or the sum of all\n", cmd);
		return -EINVAL;
	}
	if ((o->cputype || o->hybrid_merge) && msr_opt) {
		fprintf(stderr, "pmcctl %s: --cputype and --hybrid-merge split pmcdrv's counts by core "
			"type; the MSR path counts one CPU, of one type: drop --msr, --msr-device, -C and -f\n",
			cmd);
		return -EINVAL;
	}
	if (o->td_level && !o->topdown) {
		fprintf(stderr, "pmcctl %s: --td-level goes with --topdown\n", cmd);
		return -EINVAL;
	}
	if (o->topdown && msr_opt) {
		fprintf(stderr, "pmcctl %s: --topdown needs pmcdrv (PERF_METRICS is folded by the module at "
			"every switch); drop --msr, --msr-device, -C and -f\n", cmd);
		return -EINVAL;
	}
	if (compare && o->metric_list[0]) {
		fprintf(stderr, "pmcctl compare: -M is an option of 'pmcctl run' and 'pmcctl stat'\n");
		return -EINVAL;
	}
	if (o->metric_list[0] && o->topdown) {
		fprintf(stderr, "pmcctl %s: -M and --topdown exclude each other; for the top-down tree "
			"through metrics use -M TopdownL1 (or tma_* names)\n", cmd);
		return -EINVAL;
	}
	if (compare && (o->pin || o->verbose)) {
		fprintf(stderr, "pmcctl compare: --pin and -v are options of 'pmcctl run'\n");
		return -EINVAL;
	}
	if (compare && (o->interval_ms || o->plot)) {
		fprintf(stderr, "pmcctl compare: -I and --plot are options of 'pmcctl run' and 'pmcctl stat'\n");
		return -EINVAL;
	}
	if (o->interval_ms && (repeat_opt || o->regions)) {
		fprintf(stderr, "pmcctl %s: -I and %s exclude each other: %s\n", cmd,
			repeat_opt ? "-r" : "--regions",
			repeat_opt ? "the intervals are one run's; drop -r, or run pmcctl N times" :
				     "the region table is the whole run's; drop one");
		return -EINVAL;
	}
	if (o->interval_ms && msr_opt) {
		fprintf(stderr, "pmcctl %s: -I needs pmcdrv (the MSR path reads its counters only when "
			"CMD exits); drop --msr, --msr-device, -C and -f\n", cmd);
		return -EINVAL;
	}
	ex = interval_plot_check(o->plot, o->interval_ms, cmd);
	if (ex)
		return ex;
	if (compare && o->regions) {
		fprintf(stderr, "pmcctl compare: --regions is an option of 'pmcctl run'\n");
		return -EINVAL;
	}
	if (o->regions && msr_opt) {
		fprintf(stderr, "pmcctl %s: --regions needs pmcdrv's task sessions (the command reads its own "
			"counts through one); drop --msr, --msr-device, -C and -f\n", cmd);
		return -EINVAL;
	}
	if (o->msr && o->c.device) {
		fprintf(stderr, "pmcctl %s: -d names the pmcdrv device; with --msr use --msr-device\n", cmd);
		return -EINVAL;
	}
	if (compare && (o->attach || o->duration > 0)) {
		fprintf(stderr, "pmcctl compare: -p, -t and --duration are options of 'pmcctl run'; "
			"compare runs its command under both counters\n");
		return -EINVAL;
	}
	if (o->attach) {
		if (optind < argc) {
			fprintf(stderr, "pmcctl %s: -p/-t count tasks that already run; '%s' is a command to start: "
				"give either -p/-t or a command, not both\n", cmd, argv[optind]);
			return -EINVAL;
		}
		if (msr_opt || o->regions || repeat_opt) {
			fprintf(stderr, "pmcctl %s: -p/-t count through pmcdrv's task sessions: --msr, --msr-device, "
				"-C, -f, --regions and -r belong to counting a command; drop them\n", cmd);
			return -EINVAL;
		}
		return 0;
	}
	if (o->duration > 0) {
		fprintf(stderr, "pmcctl %s: --duration limits counting tasks that already run (-p/-t); "
			"a command is counted until it exits\n", cmd);
		return -EINVAL;
	}
	if (optind >= argc) {
		fprintf(stderr, "pmcctl %s: no command given\n", cmd);
		usage(stderr);
		return -EINVAL;
	}
	o->argv = argv + optind;
	return 0;
}

/* Steps of the child that can fail, as child_report_fail() reports them. */
enum { STAGE_ATTACH, STAGE_EXEC, STAGE_REGIONS };

/* --regions: a file the command's processes append their region tables to (whole writes). */
static int regions_file(void)
{
	int fd = memfd_create("pmcctl-regions", MFD_CLOEXEC);

	if (fd < 0 || fcntl(fd, F_SETFL, O_APPEND)) {
		fprintf(stderr, "pmcctl run: --regions: cannot make the file for the region tables: %s\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	return fd;
}

/* In the child: hand the session and the file to the command (libpmc.h "regions"); -errno. */
static int regions_env(const struct run_opts *o, struct pmc_session *s, int rfd)
{
	char num[16], names[PMCDRV_MAX_EVENTS * (PMC_EVENT_NAME_MAX + 1)] = "";
	int sfd = fcntl(pmc_session_fd(s), F_DUPFD, 3);	/* without close-on-exec */
	int ofd = fcntl(rfd, F_DUPFD, 3);
	unsigned int i;
	size_t n = 0;

	if (sfd < 0 || ofd < 0)
		return -errno;
	for (i = 0; i < o->c.events.n; i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? "," : "",
				      o->c.events.ev[i].name);
	snprintf(num, sizeof(num), "%d", ofd);
	if (setenv("PMCDRV_REGIONS", num, 1))
		return -errno;
	snprintf(num, sizeof(num), "%d", sfd);
	if (setenv("PMCDRV_REGIONS_SESSION", num, 1) || setenv("PMCDRV_REGIONS_EVENTS", names, 1))
		return -errno;
	/* -M: the program's pmc_region_metric() computes the same metrics */
	if (o->metric_list[0] ? setenv("PMCDRV_REGIONS_METRICS", o->metric_list, 1) :
				unsetenv("PMCDRV_REGIONS_METRICS"))
		return -errno;
	return 0;
}

/* What the command's processes wrote into @rfd: res->regions (malloc'd). */
static int regions_collect(int rfd, struct run_result *res)
{
	struct stat st;
	size_t off = 0;
	ssize_t n;

	if (fstat(rfd, &st))
		goto fail;
	res->regions = malloc((size_t)st.st_size + 1);
	if (!res->regions)
		goto fail;
	while (off < (size_t)st.st_size) {
		n = pread(rfd, res->regions + off, (size_t)st.st_size - off, (off_t)off);
		if (n <= 0)
			goto fail;
		off += (size_t)n;
	}
	res->regions[off] = '\0';
	res->regions_len = off;
	return 0;
fail:
	fprintf(stderr, "pmcctl run: --regions: cannot read the region tables back: %s\n",
		strerror(errno));
	free(res->regions);
	res->regions = NULL;
	return -EIO;
}

/* The final READ, with its split by core type on a hybrid CPU. */
static int run_read_final(struct pmc_session *s, struct run_result *res)
{
	struct pmcdrv_read_types rt;
	int err;

	err = pmc_session_read_types(s, &rt);
	if (err)
		return err;
	res->r = rt.read;
	res->nr_types = rt.nr_types;
	memcpy(res->types, rt.types, sizeof(res->types));
	memcpy(res->type_running, rt.time_running, sizeof(res->type_running));
	return 0;
}

/*
 * -I: wait for the command, reading the session and printing an interval
 * whenever one is due.  SIGCHLD is blocked only here (the command has the
 * mask it had), so its exit either is pending or is seen by WNOHANG.  A
 * read that fails ends the intervals (said once), not the wait.
 */
static int wait_intervals(const struct run_opts *o, struct pmc_session *s, pid_t pid,
			  int *status, struct rusage *ru)
{
	struct interval_out *io = o->io;
	struct pmcdrv_read r;
	struct timespec ts;
	sigset_t chld, old;
	double t, wait;
	int err = 0;
	pid_t w;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	for (;;) {
		w = wait4(pid, status, err ? 0 : WNOHANG, ru);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (w <= 0 && err)
			continue;
		t = now_s();
		if (t >= io->next) {
			err = pmc_session_read(s, &r);
			if (err)
				err = session_error("run", "-I: reading the counts", err);
			else
				interval_print_read(io, &r, t, false);
			continue;
		}
		wait = io->next - t;
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		sigtimedwait(&chld, NULL, &ts);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

int run_once_task(const struct run_opts *o, struct run_result *res)
{
	struct pmc_session *s;
	struct rusage ru;
	int pipefd[2], msg[2], err, ex, iex = 0, rfd = -1;
	ssize_t n;
	pid_t pid;
	double t0, t_end;

	err = task_session_open(o, &s);
	if (err)
		return err;
	res->regions = NULL;
	res->regions_len = 0;
	if (o->regions) {
		err = pmc_session_read(s, &res->r);
		if (err || (res->r.flags & PMCDRV_READ_MULTIPLEXED)) {
			if (err)
				err = session_error("run", "--regions: cannot read the session", err);
			else
				fprintf(stderr, "pmcctl run: --regions: the events do not fit the counters at "
					"once (they would take turns), and a region needs all of them counting; "
					"give fewer events ('pmcctl info' lists the counters)\n");
			pmc_session_close(s);
			return err ? err : -EINVAL;
		}
		rfd = regions_file();
		if (rfd < 0) {
			pmc_session_close(s);
			return rfd;
		}
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		fprintf(stderr, "pmcctl run: pipe: %s\n", strerror(errno));
		if (rfd >= 0)
			close(rfd);
		pmc_session_close(s);
		return -EIO;
	}
	fflush(NULL);
	t0 = now_s();
	pid = fork_command();
	if (pid < 0) {
		fprintf(stderr, "pmcctl run: fork: %s\n", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		if (rfd >= 0)
			close(rfd);
		pmc_session_close(s);
		return -EIO;
	}
	if (pid == 0) {
		close(pipefd[0]);
		err = pmc_session_attach(s, 0, PMCDRV_ATTACH_ENABLE_ON_EXEC);
		if (err)
			child_report_fail(pipefd[1], STAGE_ATTACH, -err);
		if (rfd >= 0) {
			err = regions_env(o, s, rfd);
			if (err)
				child_report_fail(pipefd[1], STAGE_REGIONS, -err);
		}
		execvp(o->argv[0], o->argv);
		child_report_fail(pipefd[1], STAGE_EXEC, errno);
	}
	close(pipefd[1]);
	n = read(pipefd[0], msg, sizeof(msg));
	close(pipefd[0]);
	if (o->io && n != (ssize_t)sizeof(msg)) {
		/* Counting began at the exec, which closed the pipe. */
		interval_begin(o->io, now_s(), false);
		iex = wait_intervals(o, s, pid, &res->status, &ru);
	} else {
		while (wait4(pid, &res->status, 0, &ru) < 0 && errno == EINTR)
			;
	}
	t_end = now_s();
	res->elapsed = t_end - t0;
	child_pid = 0;
	if (n == (ssize_t)sizeof(msg)) {
		pmc_session_close(s);
		if (rfd >= 0)
			close(rfd);
		if (msg[0] == STAGE_REGIONS) {
			fprintf(stderr, "pmcctl run: --regions: cannot hand the session to the command: %s\n",
				strerror(msg[1]));
			return -EIO;
		}
		if (msg[0] == STAGE_ATTACH && msg[1] == EBUSY)
			return attach_busy_error("run", "cannot attach to the command", NULL);
		if (msg[0] == STAGE_ATTACH)
			return session_error("run", "cannot attach to the command", -msg[1]);
		fprintf(stderr, "pmcctl run: cannot run '%s': %s\n", o->argv[0], strerror(msg[1]));
		return msg[1] == ENOENT ? -ENOENT : -ENOEXEC;
	}
	res->utime = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	res->stime = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	err = run_read_final(s, res);
	pmc_session_close(s);
	if (iex)
		return iex;	/* -I's read failed: explained, and no final interval */
	if (!err && o->io)
		interval_print_read(o->io, &res->r, t_end, true);
	if (rfd >= 0) {
		ex = regions_collect(rfd, res);
		close(rfd);
		if (ex)
			return ex;
	}
	if (err) {
		free(res->regions);
		res->regions = NULL;
		return session_error("run", "reading the counts", err);
	}
	return 0;
}

/*
 * --cputype and --hybrid-merge need a hybrid CPU (perf refuses them
 * elsewhere too), and a module that splits the counts by core type.
 */
int run_hybrid_check(const struct run_opts *o, const char *cmd)
{
	struct pmcdrv_info info;
	struct pmc_session *s;
	int err;

	if (!o->cputype && !o->hybrid_merge)
		return 0;
	err = pmc_session_open(o->c.device, &s);
	if (err)
		return session_error(cmd, "cannot open the device", err);
	err = pmc_session_info(s, &info);
	pmc_session_close(s);
	if (err)
		return session_error(cmd, "INFO failed", err);
	if (!(info.flags & PMCDRV_INFO_HYBRID)) {
		fprintf(stderr, "pmcctl %s: --%s is for hybrid CPUs (P-cores and E-cores), and this one "
			"has one core type: drop the option\n", cmd, o->cputype ? "cputype" : "hybrid-merge");
		return -EINVAL;
	}
	return 0;
}

int run_topdown_setup(struct run_opts *o, const char *cmd)
{
	unsigned int i;
	int ret;

	if (o->topdown) {
		ret = count_topdown_setup(&o->c, &o->td_level, false, cmd);
		if (ret)
			return ret;
	}
	for (i = 0; o->all_user && i < o->c.events.n; i++) {
		struct pmcdrv_event *ev = &o->c.events.ev[i].ev;

		if (ev->type == PMCDRV_EVENT_HW)
			ev->flags = (ev->flags & ~PMCDRV_EVF_KERNEL) | PMCDRV_EVF_USER;
	}
	return 0;
}
