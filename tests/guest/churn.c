// SPDX-License-Identifier: GPL-2.0
/*
 * What a loop of short sessions costs the rest of the machine: N cycles of
 * open, CONFIG (instructions:u, or task-clock without a PMU), ATTACH to
 * itself, DISABLE, ENABLE and close, and around them the IPIs every CPU
 * received (/proc/interrupts: CAL, function calls, text patching's syncs
 * among them; TLB, shootdowns) and how often the module registered its
 * scheduler probes (INFO's probe_registrations: each registration and its
 * unregistration patch kernel text on every CPU).
 *
 * Bounds (docs/design.md, "Probe registration"):
 * - the probes linger a second after the last session: registrations at
 *   most 1 + the loop's seconds, however many cycles;
 * - IPIs at most PER_CYCLE_IPIS per cycle and other CPU: the five the
 *   cycle broadcasts (the claim's three, close's stop and the claim's
 *   release, which comes at once when the last session with hardware
 *   events closes; DISABLE and ENABLE reach only the CPU of the session's
 *   task, this one), with room for the kernel's own.  Measured on the
 *   emulated PMU, 2 CPUs: 5.6 per cycle on Debian's 6.1, 6.8 on the debug
 *   kernel;
 *   7.6 when DISABLE and ENABLE went to every CPU, and 83 when the probes
 *   were also registered and unregistered at every cycle (text patching's
 *   syncs).  Where DISABLE and ENABLE go is checked by cross_cpu().
 *
 * Then DISABLE and ENABLE of a session whose task spins on another CPU:
 * they stop and start it there, through the IPI to that CPU alone.
 *
 * usage: churn [CYCLES]  (default 1000)
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "check.h"
#include "pmcdev.h"

#define PER_CYCLE_IPIS	10

static const char *dev = "/dev/pmcdrv";
static struct check_state st;

/* The sum over CPUs of /proc/interrupts' row @name ("CAL", "TLB"). */
static long long irq_row(const char *name)
{
	char line[4096], *p, *end;
	size_t len = strlen(name);
	long long sum = -1, v;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, name, len) || p[len] != ':')
			continue;
		sum = 0;
		for (p += len + 1;; p = end) {
			v = strtoll(p, &end, 10);
			if (end == p)
				break;
			sum += v;
		}
		break;
	}
	fclose(f);
	return sum;
}

static int info(struct pmcdrv_info *i)
{
	int fd = pmcdev_open(dev), e;

	memset(i, 0, sizeof(*i));
	i->size = sizeof(*i);
	e = pmcdev_io(fd, PMCDRV_IOC_INFO, i);
	close(fd);
	return e;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One cycle: 0, or the errno of the step that failed (*step names it). */
static int cycle(const struct pmcdrv_config *c, const char **step)
{
	struct pmcdrv_config cc = *c;
	int fd = pmcdev_open(dev), e;

	*step = "CONFIG";
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &cc);
	if (!e) {
		*step = "ATTACH";
		e = pmcdev_attach(fd, 0, 0);
	}
	if (!e) {
		*step = "DISABLE";
		e = pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	}
	if (!e) {
		*step = "ENABLE";
		e = pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL);
	}
	close(fd);
	return e;
}

static void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static unsigned long long value(int fd)
{
	struct pmcdrv_read r;

	return pmcdev_read(fd, &r) ? ~0ULL : r.values[0];
}

/*
 * DISABLE and ENABLE reach the CPU where the session's task runs: a child
 * that spins on the last CPU, never switching out, stops counting at
 * DISABLE and counts again at ENABLE only through those IPIs.
 */
static void cross_cpu(const struct pmcdrv_config *c)
{
	long last = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	unsigned long long v0, v1, v2, v3;
	struct pmcdrv_config cc = *c;
	cpu_set_t set;
	int fd, e, status;
	pid_t child;

	if (last < 1) {
		printf("SKIP: churn: DISABLE/ENABLE of a task on another CPU: one CPU\n");
		return;
	}
	child = fork();
	if (child == 0) {
		CPU_ZERO(&set);
		CPU_SET(last, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (;;)
			__asm__ volatile("" ::: "memory");
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &cc);
	msleep(20);	/* the child is on its CPU */
	if (!e)
		e = pmcdev_attach(fd, child, 0);
	msleep(50);
	v0 = value(fd);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	v1 = value(fd);
	msleep(50);
	v2 = value(fd);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL);
	msleep(50);
	v3 = value(fd);
	close(fd);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	CHECK(&st, !e && v0 > 0 && v0 != ~0ULL, "churn: a task spinning on the last CPU counted",
	      "errno %d, %llu", e, v0);
	CHECK(&st, !e && v1 == v2, "churn: DISABLE stops it there at once (one IPI to its CPU)",
	      "%llu after DISABLE, %llu 50 ms later", v1, v2);
	CHECK(&st, !e && v3 > v2 && v3 != ~0ULL, "churn: ENABLE starts it there again without a switch",
	      "%llu before ENABLE, %llu 50 ms after", v2, v3);
}

int main(int argc, char **argv)
{
	long cycles = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, n, others;
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_info before, after;
	long long cal0, tlb0, cal1, tlb1, ipis;
	unsigned long long regs;
	const char *step = "";
	double t0, secs;
	bool hw;
	int e = 0;

	if (cycles < 1)
		cycles = 1;
	if (info(&before)) {
		printf("FAIL: churn: INFO: %s\n", strerror(errno));
		return 1;
	}
	hw = before.perfmon_version > 0 && before.num_fixed > 0;
	if (hw) {
		c.events[0] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW,
						     .flags = PMCDRV_EVF_USER, .event = 0xc0 };
	}
	others = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	cal0 = irq_row("CAL");
	tlb0 = irq_row("TLB");
	t0 = now_s();
	for (n = 0; n < cycles && !e; n++)
		e = cycle(&c, &step);
	secs = now_s() - t0;
	cal1 = irq_row("CAL");
	tlb1 = irq_row("TLB");
	CHECK(&st, !e, "churn: every cycle's ioctls succeed", "cycle %ld: %s: %s", n, step, strerror(e));
	CHECK(&st, !info(&after), "churn: INFO after the loop", "%s", strerror(errno));
	regs = after.probe_registrations - before.probe_registrations;
	ipis = cal1 - cal0 + tlb1 - tlb0;
	printf("churn-figure: %ld cycles of %s in %.2f s: %llu probe registrations, %lld CAL and %lld TLB IPIs (%.2f per cycle and other CPU)\n",
	       n, hw ? "instructions:u" : "task-clock", secs, regs, cal1 - cal0, tlb1 - tlb0,
	       others > 0 ? (double)ipis / n / others : 0.0);
	CHECK(&st, regs <= 1 + (unsigned long long)secs,
	      "churn: the probes were registered at most once a second (they linger after a close)",
	      "%llu registrations in %.2f s", regs, secs);
	if (others > 0 && cal0 >= 0 && tlb0 >= 0)
		CHECK(&st, ipis <= (long long)PER_CYCLE_IPIS * n * others,
		      "churn: IPIs per cycle and other CPU within the bound",
		      "%lld IPIs in %ld cycles to %ld other CPUs: more than %d per cycle and CPU",
		      ipis, n, others, PER_CYCLE_IPIS);
	else
		printf("SKIP: churn: IPIs per cycle: one CPU, or no CAL/TLB rows in /proc/interrupts\n");
	cross_cpu(&c);
	return check_summary(&st, "churn");
}
