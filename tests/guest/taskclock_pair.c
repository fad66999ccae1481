// SPDX-License-Identifier: GPL-2.0
/*
 * taskclock_pair CMD [ARGS...]: count one run of CMD's task-clock with
 * pmcdrv and with perf_event_open at the same time (both attached to the
 * child before it execs, both enable-on-exec, both inherited), and check
 * they agree within 1%.  Measuring the same run removes run-to-run noise.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "libpmc.h"

int main(int argc, char **argv)
{
	struct pmcdrv_event clk = { .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK };
	struct perf_event_attr attr;
	struct check_state st = { 0 };
	struct pmc_session *s;
	struct pmcdrv_read r;
	uint64_t perf_ns = 0;
	int go[2], pfd, err, status;
	double diff;
	pid_t pid;
	char c = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: taskclock_pair CMD [ARGS...]\n");
		return 2;
	}
	if (pipe(go))
		return 1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(go[0]);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;
	pfd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, 0);
	CHECK(&st, pfd >= 0, "perf_event_open task-clock on the child", "%s", strerror(errno));
	err = pmc_session_open(NULL, &s);
	CHECK(&st, !err, "pmcdrv session", "%s", strerror(-err));
	if (pfd < 0 || err) {
		kill(pid, SIGKILL);
		return check_summary(&st, "taskclock_pair");
	}
	pmc_session_add(s, &clk);
	err = pmc_session_attach(s, pid, PMCDRV_ATTACH_ENABLE_ON_EXEC);
	CHECK(&st, !err, "pmcdrv attach to the child, enable-on-exec", "%s", strerror(-err));

	if (write(go[1], &c, 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	waitpid(pid, &status, 0);
	CHECK(&st, WIFEXITED(status) && !WEXITSTATUS(status), "command ran", "status 0x%x", status);

	pmc_session_read(s, &r);
	if (read(pfd, &perf_ns, sizeof(perf_ns)) != sizeof(perf_ns))
		perf_ns = 0;
	diff = perf_ns ? ((double)r.values[0] - (double)perf_ns) / (double)perf_ns : 1;
	CHECK(&st, perf_ns > 0 && diff < 0.01 && diff > -0.01,
	      "task-clock: pmcdrv within 1% of perf_event on the same run",
	      "pmcdrv %llu ns, perf %llu ns (%+.3f%%)", (unsigned long long)r.values[0],
	      (unsigned long long)perf_ns, 100 * diff);
	printf("task-clock: pmcdrv %llu ns, perf %llu ns (%+.3f%%)\n",
	       (unsigned long long)r.values[0], (unsigned long long)perf_ns, 100 * diff);
	close(pfd);
	pmc_session_close(s);
	return check_summary(&st, "taskclock_pair");
}
