// SPDX-License-Identifier: GPL-2.0
/* pmcctl compare: pmcdrv against perf_event_open(2) on the same command. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libpmc.h"
#include "output.h"
#include "pmcctl.h"
#include "report.h"
#include "run.h"

/* ---- pmcctl compare ----------------------------------------------------------- */

static void compare_usage(FILE *f)
{
	fputs("usage: pmcctl compare [-e LIST] [-r N] [-i] [-j] [--no-scale] [-d PATH] [--] CMD [ARGS...]\n"
	      "\n"
	      "Count CMD N times through pmcdrv and N times through perf_event_open(2) (this\n"
	      "program's own calls, same events, inherited, enabled on exec), and print both\n"
	      "means, their difference, and whether it lies within the run-to-run spread.\n"
	      "Options as for 'pmcctl run' (-e, -r, -i, -d, -c/--scale, --no-scale) and -j for\n"
	      "JSON.  When either side multiplexes (more events than counters) both are scaled\n"
	      "as perf stat scales (time enabled / time running) unless --no-scale.  On a\n"
	      "hybrid CPU the perf side counts each hardware event on every core type's PMU\n"
	      "(cpu_core and cpu_atom), as perf stat does, and adds them up.\n"
	      "Exit status: 0 when every difference is within the spread, 1 when one is not,\n"
	      "otherwise as 'pmcctl run'.\n", f);
}

/*
 * A hybrid part's PMUs by core type, as perf_event_open(2) knows them: the
 * P-cores' cpu_core (perf's PERF_TYPE_RAW) and the E-cores' cpu_atom, each
 * counting only while the task runs on a CPU of its type.  0 elsewhere.
 */
static unsigned int hybrid_pmus(uint32_t *types, unsigned int *core_types)
{
	static const struct { const char *name; unsigned int core_type; } pmus[] = {
		{ "cpu_core", PMCDRV_CORE_TYPE_CORE }, { "cpu_atom", PMCDRV_CORE_TYPE_ATOM },
	};
	unsigned int k, n = 0;

	for (k = 0; k < sizeof(pmus) / sizeof(pmus[0]); k++) {
		char path[96];
		unsigned int t;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmus[k].name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%u", &t) == 1) {
			types[n] = t;
			core_types[n++] = pmus[k].core_type;
		}
		fclose(f);
	}
	return n;
}

static int perf_open(const struct pmcdrv_event *ev, bool inherit, pid_t pid, uint32_t type)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = inherit;
	a.exclude_hv = 1;
	/* perf multiplexes too when its events outnumber the counters: scale as perf stat. */
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (ev->type == PMCDRV_EVENT_HW) {
		struct pmc_event_spec spec;

		/*
		 * perf's raw config has the EVTSEL layout; the modes are perf's exclude_* bits.
		 * ref-cycles (event 0x00, umask 3) is 0x0300, perf's fixed-counter-2-only
		 * pseudo-encoding, as pmcdrv's; raw 0x013C is a GP event on both sides.
		 */
		pmc_event_to_spec(ev, &spec);
		a.type = type;
		a.config = pmc_evtsel_encode(&spec) & ~(PMC_EVTSEL_USR | PMC_EVTSEL_OS);
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

/*
 * Run CMD once counted by perf_event_open.  On a hybrid part a hardware
 * event is one perf event per core type's PMU (one, its own, for an event of
 * one core type), as perf stat opens it: their raw counts and running times
 * add up to the task's, scaled (if at all) by the sum of the running times.
 */
static int run_once_perf(const struct run_opts *o, uint64_t *vals)
{
	int fds[PMCDRV_MAX_EVENTS][PMCDRV_MAX_CORE_TYPES], go[2], report[2], msg[2], status, ex = 0;
	unsigned int i, k, n = 0, nfd[PMCDRV_MAX_EVENTS] = { 0 }, core_types[PMCDRV_MAX_CORE_TYPES];
	uint32_t types[PMCDRV_MAX_CORE_TYPES];
	unsigned int nr_pmus = hybrid_pmus(types, core_types);
	char c = 0;
	pid_t pid;

	/* go: parent -> child "events attached"; report: child -> parent exec errno. */
	if (pipe2(go, O_CLOEXEC)) {
		fprintf(stderr, "pmcctl compare: pipe: %s\n", strerror(errno));
		return -EIO;
	}
	if (pipe2(report, O_CLOEXEC)) {
		fprintf(stderr, "pmcctl compare: pipe: %s\n", strerror(errno));
		close(go[0]);
		close(go[1]);
		return -EIO;
	}
	fflush(NULL);
	pid = fork_command();
	if (pid < 0) {
		fprintf(stderr, "pmcctl compare: fork: %s\n", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(report[0]);
		close(report[1]);
		return -EIO;
	}
	if (pid == 0) {
		/* Wait until the parent has attached the events; then report exec errors. */
		close(go[1]);
		close(report[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(o->argv[0], o->argv);
		child_report_fail(report[1], 1, errno);
	}
	close(go[0]);
	close(report[1]);
	for (n = 0; n < o->c.events.n && !ex; n++) {
		const struct pmcdrv_event *ev = &o->c.events.ev[n].ev;

		for (k = 0; k < (ev->type == PMCDRV_EVENT_HW && nr_pmus ? nr_pmus : 1); k++) {
			int fd;

			if (ev->type == PMCDRV_EVENT_HW && nr_pmus && ev->core_type &&
			    ev->core_type != core_types[k])
				continue;
			fd = perf_open(ev, o->inherit, pid,
				       ev->type == PMCDRV_EVENT_HW && nr_pmus ? types[k] : PERF_TYPE_RAW);
			if (fd < 0) {
				fprintf(stderr, "pmcctl compare: perf_event_open for '%s': %s\n",
					o->c.events.ev[n].name, strerror(errno));
				ex = errno == EACCES || errno == EPERM ? -EIO : -ENODEV;
				break;
			}
			fds[n][nfd[n]++] = fd;
		}
	}
	if (ex) {
		kill(pid, SIGKILL);
	} else if (write(go[1], &c, 1) != 1) {
		kill(pid, SIGKILL);
		ex = -EIO;
	}
	close(go[1]);
	if (!ex && read(report[0], msg, sizeof(msg)) == (ssize_t)sizeof(msg)) {
		fprintf(stderr, "pmcctl compare: cannot run '%s': %s\n", o->argv[0], strerror(msg[1]));
		ex = msg[1] == ENOENT ? -ENOENT : -ENOEXEC;
	}
	close(report[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	for (i = 0; i < n; i++) {
		uint64_t rd[3], sum[3] = { 0 };	/* value, time_enabled, time_running */

		for (k = 0; k < nfd[i]; k++) {
			if (!ex && read(fds[i][k], rd, sizeof(rd)) != sizeof(rd)) {
				fprintf(stderr, "pmcctl compare: reading '%s': %s\n",
					o->c.events.ev[i].name, strerror(errno));
				ex = -EIO;
			}
			if (!ex) {
				sum[0] += rd[0];
				sum[1] = rd[1] > sum[1] ? rd[1] : sum[1];
				sum[2] += rd[2];
			}
			close(fds[i][k]);
		}
		if (!ex && o->c.no_scale)
			vals[i] = sum[0];
		else if (!ex)
			pmc_scale_count(sum[0], sum[1], sum[2] < sum[1] ? sum[2] : sum[1], &vals[i]);
	}
	return ex;
}

/* Count CMD both ways and print both; -EDOM when a difference is beyond the spread. */
static int compare(int argc, char **argv)
{
	struct stat_acc mine[PMCDRV_MAX_EVENTS], theirs[PMCDRV_MAX_EVENTS];
	uint64_t pv[PMCDRV_MAX_EVENTS];
	struct run_result res;
	struct run_opts o;
	unsigned int i, r, a;
	bool all_within = true;
	char b1[32], b2[32];
	int ex;

	ex = run_parse_opts(argc, argv, &o, "compare", compare_usage);
	if (ex || o.c.help)
		return ex;
	if (o.c.csv_sep || o.c.out_path) {
		fprintf(stderr, "pmcctl compare: -x and -o are options of 'pmcctl run'; use -j for machine-readable output\n");
		return -EINVAL;
	}
	ex = prepare_events(&o.c.events, o.c.device, "compare");
	if (ex)
		return ex;
	setup_signals();
	memset(mine, 0, sizeof(mine));
	memset(theirs, 0, sizeof(theirs));
	for (r = 0; r < o.repeat; r++) {
		ex = run_once_task(&o, &res);
		if (ex)
			return ex;
		for (i = 0; i < o.c.events.n; i++)
			acc_add(&mine[i], count_value(&o.c, &res.r, i));
	}
	for (r = 0; r < o.repeat; r++) {
		ex = run_once_perf(&o, pv);
		if (ex)
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
	return all_within ? 0 : -EDOM;
}

int cmd_compare(int argc, char **argv)
{
	return pmcctl_exit_code(compare(argc, argv));
}
