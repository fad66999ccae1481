// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl run without the module: count one CPU through its MSR device
 * (/dev/cpu/N/msr, /dev/cpu/N/msr_safe, or a path given with --msr-device).
 * The registers are saved, programmed and restored by libpmc
 * (libpmc/msr_pmu.c); this file pins CMD to the CPU, runs it, and explains
 * every failure with its fix.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpmc.h"
#include "output.h"
#include "pmcctl.h"

/* ---- the command half ------------------------------------------------------- */

struct msr_counting {
	struct pmc_msr *dev;		/* NULL without hardware events */
	struct pmc_arch_perfmon pm;
	struct pmc_msr_pmu pmu;
	int cpu;
	unsigned int core_type;		/* a hybrid part's: the CPU's PMC_CORE_TYPE_*; 0 otherwise */
	bool force;
	char path[PATH_MAX];
	const struct pmc_evlist *events;
	unsigned int nr_hw;
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	unsigned int hw_index[PMCDRV_MAX_EVENTS];	/* event-list index of specs[i] */
	uint32_t modes;			/* PMCDRV_EVF_USER/KERNEL of the hardware events */
};

/* Child -> parent: pinned; about to exec (its rusage so far); or which step failed. */
enum child_step { CHILD_PINNED, CHILD_PIN_FAILED, CHILD_EXECS, CHILD_EXEC_FAILED };

struct child_msg {
	enum child_step step;
	int err;		/* errno of a failed step */
	struct rusage ru;	/* CHILD_EXECS: what the child used before exec */
};

/*
 * CPUID as CPU @cpu answers it (hybrid CPUs differ by core type: *core_type
 * says which, 0 when not hybrid): run there for the call.
 */
static int cpuid_info_on(int cpu, struct pmcdrv_info *info, unsigned int *core_type)
{
	struct pmc_core_type_desc t;
	cpu_set_t old, one;
	uint32_t gp;

	if (sched_getaffinity(0, sizeof(old), &old))
		return -errno;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -errno;
	pmc_cpuid_info(info, NULL);
	*core_type = pmc_cpuid_core_type();
	/*
	 * One CPU, one core type: its counters and events are that type's
	 * (*core_type says which), so the events are checked as on a part
	 * with one core type, not against the types' common subset: with
	 * its GP counters (an Alder Lake P-core's 8), the low ones in a row,
	 * as the module plans them (pmc_type_set_gp()).
	 */
	info->flags &= ~PMCDRV_INFO_HYBRID;
	if (*core_type && pmc_cpuid_this_core_type(&t)) {
		gp = pmc_gp_in_a_row(t.gp_mask);
		if (gp > info->num_gp)
			info->num_gp = gp;
	}
	if (sched_setaffinity(0, sizeof(old), &old))
		return -errno;
	return 0;
}

/* @tmpl with every %d replaced by @cpu (and %% by %); -EINVAL for another %, -ENAMETOOLONG. */
static int device_path(const char *tmpl, int cpu, char *buf, size_t len)
{
	size_t o = 0;
	int n;

	for (; *tmpl; tmpl++) {
		if (*tmpl != '%') {
			if (o + 1 >= len)
				return -ENAMETOOLONG;
			buf[o++] = *tmpl;
			continue;
		}
		tmpl++;
		if (*tmpl == 'd')
			n = snprintf(buf + o, len - o, "%d", cpu);
		else if (*tmpl == '%')
			n = snprintf(buf + o, len - o, "%%");
		else
			return -EINVAL;
		if (n < 0 || (size_t)n >= len - o)
			return -ENAMETOOLONG;
		o += (size_t)n;
	}
	buf[o] = '\0';
	return 0;
}

/* The fix for a refused access of the open device (a missing driver or root shows at open). */
static const char *access_hint(const struct msr_counting *c, int err, bool write)
{
	char buf[16] = "";
	FILE *f;

	if (err == -EIO)
		return write ? "the CPU refused the value (#GP): its PMU is not what CPUID describes" :
			       "the register does not exist on this CPU (#GP): its PMU is not what CPUID describes";
	if (err != -EPERM && err != -EACCES)
		return NULL;
	if (pmc_msr_kind(c->dev) == PMC_MSR_DEV_MSR_SAFE || strstr(c->path, "msr_safe"))
		return "msr_safe's allowlist (/dev/cpu/msr_allowlist) must allow reading the PMU registers "
		       "and writing them with full masks";
	if (lockdown_active())
		return "kernel lockdown forbids MSR writes (/sys/kernel/security/lockdown): boot without lockdown, or use pmcdrv";
	f = fopen("/sys/module/msr/parameters/allow_writes", "re");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	if (!strncmp(buf, "off", 3))
		return "the msr driver refuses writes (allow_writes=off): boot with msr.allow_writes=on, or "
		       "echo on > /sys/module/msr/parameters/allow_writes";
	return "MSR access refused: check kernel lockdown, msr.allow_writes=on and CAP_SYS_RAWIO";
}

/* Print a failed register access; returns the error. */
static int access_error(const struct msr_counting *c, const char *what, bool write)
{
	const char *hint = access_hint(c, c->pmu.err, write);

	fprintf(stderr, "pmcctl run: %s MSR 0x%x on CPU %d (%s): %s\n", what, c->pmu.err_msr, c->cpu,
		c->path, strerror(-c->pmu.err));
	if (hint)
		fprintf(stderr, "  fix: %s\n", hint);
	return -EIO;
}

/* Say which registers could not be put back, with the command that does it. */
static void restore_error(const struct msr_counting *c)
{
	unsigned int i;

	access_error(c, "cannot restore", true);
	fprintf(stderr, "pmcctl run: these registers of CPU %d are NOT as pmcctl found them; to put them back:\n",
		c->cpu);
	for (i = 0; i < c->pmu.nr_unrestored; i++)
		fprintf(stderr, "  wrmsr -p %d 0x%x 0x%llx\n", c->cpu, c->pmu.unrestored[i].msr,
			(unsigned long long)c->pmu.unrestored[i].val);
}

static int open_error(const struct msr_counting *c, int err)
{
	fprintf(stderr, "pmcctl run: %s: %s\n", c->path, strerror(-err));
	switch (err) {
	case -ENXIO:
		fprintf(stderr, "  fix: CPU %d is offline or does not exist: pick an online CPU with -C "
			"(/sys/devices/system/cpu/online)\n", c->cpu);
		return -EINVAL;
	case -ENOENT:
	case -ENODEV:
		fprintf(stderr, "  fix: %s, or load pmcdrv for per-task counts\n", msr_hint(err));
		return -ENODEV;
	default:
		fprintf(stderr, "  fix: %s\n", msr_hint(err));
		return -EIO;
	}
}

/* Open the MSR device and learn whether counters can be written in full width. */
static int open_device(struct msr_counting *c, const struct msr_opts *o, const struct pmcdrv_info *info)
{
	bool fw_write = false;
	uint64_t cap;
	int err;

	err = device_path(o->device ? o->device : "/dev/cpu/%d/msr", o->cpu, c->path, sizeof(c->path));
	if (err) {
		fprintf(stderr, "pmcctl run: --msr-device %s: %s\n", o->device,
			err == -EINVAL ? "only %d (the CPU number) and %% may follow a %" : strerror(-err));
		return -EINVAL;
	}
	err = pmc_msr_open(o->cpu, o->device ? c->path : NULL, true, &c->dev);
	if (err)
		return open_error(c, err);
	snprintf(c->path, sizeof(c->path), "%s", pmc_msr_path(c->dev));
	if ((info->flags & PMCDRV_INFO_PDCM) &&
	    !pmc_msr_read(c->dev, PMC_MSR_PERF_CAPABILITIES, &cap))
		fw_write = cap & PMC_PERF_CAP_FW_WRITE;
	pmc_msr_pmu_init(&c->pmu, c->dev, &c->pm, fw_write);
	return 0;
}

int msr_counting_open(const struct msr_opts *o, struct pmc_evlist *events, struct msr_counting **out)
{
	struct pmcdrv_info info;
	struct msr_counting *c;
	unsigned int i, core_type = 0;
	int err, ex;

	err = cpuid_info_on(o->cpu, &info, &core_type);
	if (err) {
		fprintf(stderr, "pmcctl run: -C %d: %s: CPU %d is not online or not allowed to pmcctl "
			"(/sys/devices/system/cpu/online, cpusets)\n", o->cpu, strerror(-err), o->cpu);
		return -EINVAL;
	}
	/*
	 * One CPU: an event of one core type (cpu_core/EVENT/) is counted
	 * there when the CPU is of that type, as an event of its own.
	 */
	for (i = 0; i < events->n; i++) {
		uint32_t ct = events->ev[i].ev.core_type;

		if (!ct)
			continue;
		if (ct != core_type) {
			fprintf(stderr, "pmcctl run: %s counts on %s alone, and CPU %d is %s: "
				"give -C a CPU of that type (pmcctl info lists them)\n",
				events->ev[i].name, pmc_core_type_pmu(ct), o->cpu,
				core_type ? pmc_core_type_name(core_type) : "not of a hybrid CPU");
			return -EINVAL;
		}
		events->ev[i].ev.core_type = 0;
	}
	ex = check_events(events, &info, "run");
	if (ex)
		return ex;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "pmcctl run: %s\n", strerror(ENOMEM));
		return -EIO;
	}
	c->cpu = o->cpu;
	c->core_type = core_type;
	c->force = o->force;
	c->events = events;
	pmc_perfmon_from_info(&info, &c->pm);
	for (i = 0; i < events->n; i++) {
		if (!pmc_evsel_is_hw(&events->ev[i]))
			continue;
		pmc_event_to_spec(&events->ev[i].ev, &c->specs[c->nr_hw]);
		c->modes |= events->ev[i].ev.flags & (PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL);
		c->hw_index[c->nr_hw++] = i;
	}
	/* Software events alone need no device: nothing to program. */
	ex = c->nr_hw ? open_device(c, o, &info) : 0;
	if (ex) {
		msr_counting_close(c);
		return ex;
	}
	*out = c;
	return 0;
}

void msr_counting_close(struct msr_counting *c)
{
	if (!c)
		return;
	if (c->dev && pmc_msr_pmu_restore(&c->pmu))
		restore_error(c);
	pmc_msr_close(c->dev);
	free(c);
}

void msr_counting_target(const struct msr_counting *c, const char *cmd, char *buf, size_t len)
{
	if (c->nr_hw)
		snprintf(buf, len, "CPU %d while %s ran", c->cpu, cmd);
	else
		snprintf(buf, len, "%s (pinned to CPU %d)", cmd, c->cpu);
}

void msr_counting_note(const struct msr_counting *c, char *buf, size_t len)
{
	const char *mode = c->modes == PMCDRV_EVF_USER ? "in user mode" :
			   c->modes == PMCDRV_EVF_KERNEL ? "in kernel mode" : "in user and kernel mode";
	bool own = false, migrations = false;
	unsigned int i;
	size_t o = 0;

	for (i = 0; i < c->events->n; i++) {
		const struct pmcdrv_event *ev = &c->events->ev[i].ev;

		if (ev->type == PMCDRV_EVENT_SW && ev->sw_id == PMCDRV_SW_CPU_MIGRATIONS)
			migrations = true;
		else if (ev->type == PMCDRV_EVENT_SW)
			own = true;
	}
	buf[0] = '\0';
	if (c->nr_hw)
		o += (size_t)snprintf(buf, len,
			"Counted through %s, not pmcdrv: these counts include everything else that ran on\n"
			" CPU %d %s while the command ran, not only the command (load pmcdrv for per-task counts).",
			c->path, c->cpu, mode);
	/* One CPU of a hybrid part: its core type's counters and events (leaf 0AH read there). */
	if (c->nr_hw && c->core_type && o < len)
		o += (size_t)snprintf(buf + o, len - o,
			"\n CPU %d is %s of a hybrid CPU: the counts are of that core type, and an event given\n"
			" by its encoding (rNNNN, cpu/.../) means that core type's event.",
			c->cpu, pmc_core_type_name(c->core_type));
	if (own && o < len)
		o += (size_t)snprintf(buf + o, len - o,
			"%stask-clock and context-switches are the command's own, from its rusage from exec on\n"
			" (task-clock to the microsecond).", o ? "\n " : "");
	if (migrations && o < len)
		snprintf(buf + o, len - o, "%scpu-migrations is 0: the command was pinned to CPU %d.",
			 o ? "\n " : "", c->cpu);
}

static void child_send(int fd, enum child_step step, int err)
{
	struct child_msg m = { .step = step, .err = err };

	if (step == CHILD_EXECS)
		getrusage(RUSAGE_SELF, &m.ru);
	if (send(fd, &m, sizeof(m), MSG_NOSIGNAL) < 0)
		_exit(127);
}

/* The next child message; false at end of file (the child exec'd or died). */
static bool child_recv(int fd, struct child_msg *m)
{
	ssize_t n;

	do
		n = recv(fd, m, sizeof(*m), MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*m);
}

/* The child: pin to the CPU, say so, wait for the counters, exec. */
static void count_child(int fd, int cpu, char **argv, const sigset_t *mask)
{
	cpu_set_t one;
	ssize_t n;
	char go;

	/* fork_command() gave this child default dispositions: Ctrl-C and TERM end it before exec. */
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		child_send(fd, CHILD_PIN_FAILED, errno);
		_exit(127);
	}
	child_send(fd, CHILD_PINNED, 0);
	do
		n = recv(fd, &go, 1, 0);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127);	/* pmcctl gave up: it reports why */
	sigprocmask(SIG_SETMASK, mask, NULL);
	child_send(fd, CHILD_EXECS, 0);
	execvp(argv[0], argv);
	child_send(fd, CHILD_EXEC_FAILED, errno);
	_exit(127);
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/*
 * Signals that would end pmcctl between the first MSR write and the
 * restore: held until the restore is done (SIGKILL cannot be).  TERM, HUP,
 * USR1 and USR2 are forwarded to the command, INT and QUIT ignored
 * (setup_signals); job control and faults keep their meaning.
 */
static void hold_signals(sigset_t *old)
{
	static const int pass[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGINT, SIGQUIT, SIGCHLD,
				    SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH, SIGURG, SIGSEGV,
				    SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT };
	sigset_t set;
	unsigned int i;

	sigfillset(&set);
	for (i = 0; i < ARRAY_SIZE(pass); i++)
		sigdelset(&set, pass[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Refusals before anything is written; returns the error. */
static int assign_error(const struct msr_counting *c, int err)
{
	char mask[128];

	switch (err) {
	case -EBUSY:
		fprintf(stderr, "pmcctl run: CPU %d: counters %s are enabled by someone else (perf_events, the NMI watchdog, another tool)\n"
			"  fix: stop that user (the NMI watchdog: sudo sysctl kernel.nmi_watchdog=0), count on another CPU with -C,\n"
			"  or take them with --force (their settings and values are put back afterwards)\n",
			c->cpu, fmt_counter_mask(c->pmu.foreign, mask, sizeof(mask)));
		return -EBUSY;
	case -ERANGE:
		fprintf(stderr, "pmcctl run: CPU %d: the free counters hold values this CPU cannot write back "
			"(no full-width counter writes): refusing to overwrite them; use fewer events\n", c->cpu);
		return -EBUSY;
	default:
		fprintf(stderr, "pmcctl run: more hardware events than counters on CPU %d ('pmcctl info' lists them)\n",
			c->cpu);
		return -EINVAL;
	}
}

/* Fill the software events from CMD's rusage minus what the child used before exec. */
static void sw_values(const struct msr_counting *c, const struct rusage *end,
		      const struct rusage *pre, struct msr_result *res)
{
	double cpu = tv_s(&end->ru_utime) + tv_s(&end->ru_stime) -
		     tv_s(&pre->ru_utime) - tv_s(&pre->ru_stime);
	long cs = end->ru_nvcsw + end->ru_nivcsw - pre->ru_nvcsw - pre->ru_nivcsw;
	unsigned int i;

	res->utime = tv_s(&end->ru_utime) - tv_s(&pre->ru_utime);
	res->stime = tv_s(&end->ru_stime) - tv_s(&pre->ru_stime);
	for (i = 0; i < c->events->n; i++) {
		const struct pmcdrv_event *ev = &c->events->ev[i].ev;

		if (ev->type != PMCDRV_EVENT_SW)
			continue;
		if (ev->sw_id == PMCDRV_SW_TASK_CLOCK)
			res->values[i] = cpu > 0 ? (uint64_t)llround(cpu * 1e9) : 0;
		else if (ev->sw_id == PMCDRV_SW_CONTEXT_SWITCHES)
			res->values[i] = cs > 0 ? (uint64_t)cs : 0;
		else
			res->values[i] = 0;	/* cpu-migrations: the command is pinned */
	}
}

int msr_counting_run(struct msr_counting *c, char **argv, struct msr_result *res)
{
	uint64_t hw[PMCDRV_MAX_EVENTS] = { 0 };
	struct child_msg m, pre = { .step = CHILD_EXECS };
	bool started = false;
	struct rusage ru;
	char go = 1, mask[128];
	int sv[2], err, ex = 0;
	unsigned int i;
	sigset_t old;
	double t0 = 0;
	pid_t pid = -1;

	memset(res, 0, sizeof(*res));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		fprintf(stderr, "pmcctl run: socketpair: %s\n", strerror(errno));
		return -EIO;
	}
	hold_signals(&old);
	if (c->nr_hw) {
		err = pmc_msr_pmu_save(&c->pmu);
		if (err)
			ex = access_error(c, "cannot read", false);
		else if ((err = pmc_msr_pmu_assign(&c->pmu, c->specs, c->nr_hw, c->force)))
			ex = assign_error(c, err);
	}
	if (!ex) {
		fflush(NULL);
		pid = fork_command();
		if (pid < 0) {
			fprintf(stderr, "pmcctl run: fork: %s\n", strerror(errno));
			ex = -EIO;
		}
	}
	if (ex) {
		/* Nothing was written. */
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(sv[0]);
		close(sv[1]);
		return ex;
	}
	if (pid == 0) {
		close(sv[0]);
		count_child(sv[1], c->cpu, argv, &old);
	}
	close(sv[1]);

	if (!child_recv(sv[0], &m)) {
		/* Ended before pinning: killed by a forwarded signal, or out of memory. */
	} else if (m.step == CHILD_PIN_FAILED) {
		fprintf(stderr, "pmcctl run: cannot pin the command to CPU %d: %s\n", c->cpu, strerror(m.err));
		ex = -EINVAL;
	} else if (c->nr_hw && pmc_msr_pmu_start(&c->pmu)) {
		ex = access_error(c, "cannot write", true);
		kill(pid, SIGKILL);
	} else {
		/* Pinned, counting: let it exec. */
		started = true;
		t0 = now_s();
		if (send(sv[0], &go, 1, MSG_NOSIGNAL) == 1 && child_recv(sv[0], &pre) &&
		    child_recv(sv[0], &m) && m.step == CHILD_EXEC_FAILED) {
			fprintf(stderr, "pmcctl run: cannot run '%s': %s\n", argv[0], strerror(m.err));
			ex = m.err == ENOENT ? -ENOENT : -ENOEXEC;
		}
	}
	close(sv[0]);
	while (wait4(pid, &res->status, 0, &ru) < 0 && errno == EINTR)
		;
	res->elapsed = started ? now_s() - t0 : 0;
	child_pid = 0;

	if (c->nr_hw) {
		if (started && pmc_msr_pmu_stop(&c->pmu, hw) && !ex)
			ex = access_error(c, "cannot stop or read", true);
		if (pmc_msr_pmu_restore(&c->pmu)) {
			restore_error(c);
			ex = -EIO;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ex)
		return ex;
	if (!started) {
		fprintf(stderr, "pmcctl run: the command ended before it started\n");
		return -EINTR;
	}
	for (i = 0; i < c->nr_hw; i++)
		res->values[c->hw_index[i]] = hw[i];
	sw_values(c, &ru, &pre.ru, res);
	if (c->nr_hw && c->pmu.wrapped)
		fprintf(stderr, "pmcctl run: warning: counters %s wrapped past their width: their counts are low by a multiple of 2^width\n",
			fmt_counter_mask(c->pmu.wrapped, mask, sizeof(mask)));
	return 0;
}
