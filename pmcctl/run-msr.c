// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl run without the module: count one CPU through its MSR device
 * (/dev/cpu/N/msr, /dev/cpu/N/msr_safe, or a path given with --msr-device).
 *
 * Two halves.  The register layer (struct msr_pmu) is the only code in
 * pmcctl that writes PMU registers.  It reads every register it may touch
 * before writing any, programs the counters from the shared logic's
 * struct pmc_prog (pmc_assign_counters, pmc_prog_build), reads them, and
 * writes the saved values back in an order that never leaves a counter
 * enabled with a configuration that is not its owner's.  It never prints.
 * The command half (msr_counting_*) pins CMD to the CPU, runs it, and
 * explains every failure with its fix.
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

/* ---- register layer ------------------------------------------------------- */

/* Registers a run writes: a counter and an EVTSEL per event, FIXED_CTR_CTRL, GLOBAL_CTRL, OVF_CTRL. */
#define MSR_MAX_WRITTEN		(2 * PMCDRV_MAX_EVENTS + 3)

struct msr_write {
	uint32_t msr;
	uint64_t val;
};

struct msr_pmu {
	struct pmc_msr *dev;
	struct pmc_arch_perfmon pm;
	bool fw_write;			/* IA32_A_PMCx: full-width counter writes */
	/* As found by pmu_save(), before any write. */
	uint64_t evtsel[PMC_MAX_GP], gp[PMC_MAX_GP], fixed[PMC_MAX_FIXED];
	uint64_t fixed_ctrl, global_ctrl, global_status;
	uint64_t foreign;		/* counters someone else has enabled */
	struct pmc_prog prog;		/* ours */
	uint64_t wrapped;		/* GLOBAL_STATUS bits our counters set */
	bool dirty;			/* written since the save: the saved values are owed */
	int err;			/* first failed access since the step began */
	uint32_t err_msr;
	unsigned int nr_unrestored;	/* writes of pmu_restore() that failed */
	struct msr_write unrestored[MSR_MAX_WRITTEN];
};

static int pmu_rd(struct msr_pmu *p, uint32_t msr, uint64_t *val)
{
	int err = pmc_msr_read(p->dev, msr, val);

	if (err && !p->err) {
		p->err = err;
		p->err_msr = msr;
	}
	return err;
}

static int pmu_wr(struct msr_pmu *p, uint32_t msr, uint64_t val)
{
	int err = pmc_msr_write(p->dev, msr, val);

	if (!err) {
		p->dirty = true;
	} else if (!p->err) {
		p->err = err;
		p->err_msr = msr;
	}
	return err;
}

/* Read every perfmon register a run may touch, and who has counters enabled.  Writes nothing. */
static int pmu_save(struct msr_pmu *p)
{
	const struct pmc_arch_perfmon *pm = &p->pm;
	unsigned int i;

	p->err = 0;
	p->fixed_ctrl = 0;
	for (i = 0; i < pm->num_gp && !p->err; i++) {
		if (!pmu_rd(p, PMC_MSR_PERFEVTSEL0 + i, &p->evtsel[i]))
			pmu_rd(p, PMC_MSR_PMC0 + i, &p->gp[i]);
	}
	for (i = 0; i < PMC_MAX_FIXED && !p->err; i++) {
		if (pm->fixed_mask & BIT_ULL(i))
			pmu_rd(p, PMC_MSR_FIXED_CTR0 + i, &p->fixed[i]);
	}
	if (pm->fixed_mask && !p->err)
		pmu_rd(p, PMC_MSR_FIXED_CTR_CTRL, &p->fixed_ctrl);
	if (pm->version >= 2 && !p->err && !pmu_rd(p, PMC_MSR_PERF_GLOBAL_CTRL, &p->global_ctrl))
		pmu_rd(p, PMC_MSR_PERF_GLOBAL_STATUS, &p->global_status);
	if (p->err)
		return p->err;
	p->foreign = pmc_enabled_counters(pm, p->evtsel, p->fixed_ctrl);
	return 0;
}

/* GP counters whose value a legacy (32-bit, sign-extending) write cannot put back. */
static uint64_t pmu_unrestorable(const struct msr_pmu *p)
{
	uint64_t mask = 0, w;
	unsigned int i;

	for (i = 0; i < p->pm.num_gp && !p->fw_write; i++) {
		if (!pmc_legacy_write_value(p->gp[i], p->pm.gp_width, &w))
			mask |= BIT_ULL(i);
	}
	return mask;
}

/*
 * Pick counters for @specs: free ones first; with @force also those others
 * enabled.  -EBUSY: others have counters enabled and no @force; -ERANGE:
 * only counters whose value cannot be written back would do; -ENOSPC.
 */
static int pmu_assign(struct msr_pmu *p, const struct pmc_event_spec *specs, unsigned int n,
		      bool force)
{
	uint64_t all = pmc_counter_mask(&p->pm), keep = pmu_unrestorable(p);
	uint32_t idx[PMCDRV_MAX_EVENTS];

	if (p->foreign && !force)
		return -EBUSY;
	if (pmc_assign_counters(specs, n, &p->pm, all & ~keep & ~p->foreign, idx) &&
	    pmc_assign_counters(specs, n, &p->pm, all & ~keep, idx))
		return pmc_assign_counters(specs, n, &p->pm, all, idx) ? -ENOSPC : -ERANGE;
	pmc_prog_build(specs, idx, n, &p->pm, p->fw_write, &p->prog);
	return 0;
}

/* Stop our counters and nothing else: their GLOBAL_CTRL bits, EVTSELs and FIXED_CTR_CTRL fields. */
static void pmu_quiesce(struct msr_pmu *p)
{
	const struct pmc_prog *g = &p->prog;
	unsigned int i;

	if (g->has_global)
		pmu_wr(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl & ~g->global_mask);
	for (i = 0; i < g->nr; i++) {
		if (g->sel_msr[i])
			pmu_wr(p, g->sel_msr[i], 0);
	}
	if (g->fixed_ctrl_mask)
		pmu_wr(p, PMC_MSR_FIXED_CTR_CTRL, p->fixed_ctrl & ~g->fixed_ctrl_mask);
}

/* Zero and enable our counters; GLOBAL_CTRL last, so they start together.  Stops at the first failure. */
static int pmu_start(struct msr_pmu *p)
{
	const struct pmc_prog *g = &p->prog;
	unsigned int i;

	p->err = 0;
	p->wrapped = 0;
	pmu_quiesce(p);
	for (i = 0; i < g->nr && !p->err; i++)
		pmu_wr(p, g->ctr_msr[i], 0);
	for (i = 0; i < g->nr && !p->err; i++) {
		if (g->sel_msr[i])
			pmu_wr(p, g->sel_msr[i], g->evtsel[i]);
	}
	if (g->fixed_ctrl_mask && !p->err)
		pmu_wr(p, PMC_MSR_FIXED_CTR_CTRL,
		       (p->fixed_ctrl & ~g->fixed_ctrl_mask) | g->fixed_ctrl);
	if (g->has_global && !p->err)
		pmu_wr(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl | g->global_mask);
	return p->err;
}

/* Stop our counters (at once where GLOBAL_CTRL exists) and read what they counted from zero. */
static int pmu_stop(struct msr_pmu *p, uint64_t *vals)
{
	const struct pmc_prog *g = &p->prog;
	uint64_t v, status;
	unsigned int i;

	p->err = 0;
	if (g->has_global) {
		pmu_wr(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl & ~g->global_mask);
	} else {
		for (i = 0; i < g->nr; i++) {
			if (g->sel_msr[i])
				pmu_wr(p, g->sel_msr[i], 0);
		}
	}
	for (i = 0; i < g->nr; i++) {
		vals[i] = 0;
		if (!pmu_rd(p, g->ctr_msr[i], &v))
			vals[i] = pmc_delta(0, v, g->width[i]);
	}
	/* A counter that wrapped set its overflow bit: pmu_restore() clears what we set. */
	if (g->has_global && !pmu_rd(p, PMC_MSR_PERF_GLOBAL_STATUS, &status))
		p->wrapped = status & ~p->global_status & g->global_mask;
	return p->err;
}

static void pmu_put(struct msr_pmu *p, uint32_t msr, uint64_t val)
{
	if (pmu_wr(p, msr, val) && p->nr_unrestored < MSR_MAX_WRITTEN)
		p->unrestored[p->nr_unrestored++] = (struct msr_write){ msr, val };
}

/*
 * Write the saved value of every register written since pmu_save(): our
 * counters stopped first, then the counter values, the EVTSELs and
 * FIXED_CTR_CTRL, GLOBAL_CTRL last, so no counter counts with a mix of
 * ours and its owner's settings.  Tries every write; the failed ones are
 * in p->unrestored.
 */
static int pmu_restore(struct msr_pmu *p)
{
	const struct pmc_prog *g = &p->prog;
	unsigned int i, n;
	uint64_t w;

	if (!p->dirty)
		return 0;
	p->err = 0;
	p->nr_unrestored = 0;
	pmu_quiesce(p);
	for (i = 0; i < g->nr; i++) {
		n = g->idx[i];
		if (n >= PMC_GLOBAL_FIXED_SHIFT)
			pmu_put(p, g->ctr_msr[i], p->fixed[n - PMC_GLOBAL_FIXED_SHIFT]);
		else if (p->fw_write)
			pmu_put(p, g->ctr_msr[i], p->gp[n]);
		else if (pmc_legacy_write_value(p->gp[n], p->pm.gp_width, &w))
			pmu_put(p, PMC_MSR_PMC0 + n, w);	/* pmu_assign() made sure */
	}
	for (i = 0; i < g->nr; i++) {
		if (g->sel_msr[i])
			pmu_put(p, g->sel_msr[i], p->evtsel[g->idx[i]]);
	}
	if (g->fixed_ctrl_mask)
		pmu_put(p, PMC_MSR_FIXED_CTR_CTRL, p->fixed_ctrl);
	if (p->wrapped)
		pmu_put(p, PMC_MSR_PERF_GLOBAL_OVF_CTRL, p->wrapped);
	if (g->has_global)
		pmu_put(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl);
	p->dirty = false;
	return p->err;
}

/* ---- the command half ------------------------------------------------------- */

struct msr_counting {
	struct msr_pmu pmu;		/* .dev NULL without hardware events */
	int cpu;
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

/* CPUID as CPU @cpu answers it (hybrid CPUs differ by core type): run there for the call. */
static int cpuid_info_on(int cpu, struct pmcdrv_info *info)
{
	cpu_set_t old, one;

	if (sched_getaffinity(0, sizeof(old), &old))
		return -errno;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -errno;
	pmc_cpuid_info(info, NULL);
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
	if (pmc_msr_kind(c->pmu.dev) == PMC_MSR_DEV_MSR_SAFE || strstr(c->path, "msr_safe"))
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

/* Print a failed register access; returns the exit code. */
static int access_error(const struct msr_counting *c, const char *what, bool write)
{
	const char *hint = access_hint(c, c->pmu.err, write);

	fprintf(stderr, "pmcctl run: %s MSR 0x%x on CPU %d (%s): %s\n", what, c->pmu.err_msr, c->cpu,
		c->path, strerror(-c->pmu.err));
	if (hint)
		fprintf(stderr, "  fix: %s\n", hint);
	return EXIT_FAIL;
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
		return EXIT_USAGE;
	case -ENOENT:
	case -ENODEV:
		fprintf(stderr, "  fix: %s, or load pmcdrv for per-task counts\n", msr_hint(err));
		return EXIT_UNAVAILABLE;
	default:
		fprintf(stderr, "  fix: %s\n", msr_hint(err));
		return EXIT_FAIL;
	}
}

/* Open the MSR device and learn whether counters can be written in full width. */
static int open_device(struct msr_counting *c, const struct msr_opts *o, const struct pmcdrv_info *info)
{
	uint64_t cap;
	int err;

	err = device_path(o->device ? o->device : "/dev/cpu/%d/msr", o->cpu, c->path, sizeof(c->path));
	if (err) {
		fprintf(stderr, "pmcctl run: --msr-device %s: %s\n", o->device,
			err == -EINVAL ? "only %d (the CPU number) and %% may follow a %" : strerror(-err));
		return EXIT_USAGE;
	}
	err = pmc_msr_open(o->cpu, o->device ? c->path : NULL, true, &c->pmu.dev);
	if (err)
		return open_error(c, err);
	snprintf(c->path, sizeof(c->path), "%s", pmc_msr_path(c->pmu.dev));
	if ((info->flags & PMCDRV_INFO_PDCM) &&
	    !pmc_msr_read(c->pmu.dev, PMC_MSR_PERF_CAPABILITIES, &cap))
		c->pmu.fw_write = cap & PMC_PERF_CAP_FW_WRITE;
	return -1;
}

int msr_counting_open(const struct msr_opts *o, struct pmc_evlist *events, struct msr_counting **out)
{
	struct pmcdrv_info info;
	struct msr_counting *c;
	unsigned int i;
	int err, ex;

	err = cpuid_info_on(o->cpu, &info);
	if (err) {
		fprintf(stderr, "pmcctl run: -C %d: %s: CPU %d is not online or not allowed to pmcctl "
			"(/sys/devices/system/cpu/online, cpusets)\n", o->cpu, strerror(-err), o->cpu);
		return EXIT_USAGE;
	}
	ex = check_events(events, &info, "run");
	if (ex >= 0)
		return ex;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "pmcctl run: %s\n", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	c->cpu = o->cpu;
	c->force = o->force;
	c->events = events;
	pmc_perfmon_from_info(&info, &c->pmu.pm);
	for (i = 0; i < events->n; i++) {
		if (!pmc_evsel_is_hw(&events->ev[i]))
			continue;
		pmc_event_to_spec(&events->ev[i].ev, &c->specs[c->nr_hw]);
		c->modes |= events->ev[i].ev.flags & (PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL);
		c->hw_index[c->nr_hw++] = i;
	}
	/* Software events alone need no device: nothing to program. */
	ex = c->nr_hw ? open_device(c, o, &info) : -1;
	if (ex >= 0) {
		msr_counting_close(c);
		return ex;
	}
	*out = c;
	return -1;
}

void msr_counting_close(struct msr_counting *c)
{
	if (!c)
		return;
	if (c->pmu.dev && pmu_restore(&c->pmu))
		restore_error(c);
	pmc_msr_close(c->pmu.dev);
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

/* Refusals before anything is written; returns the exit code. */
static int assign_error(const struct msr_counting *c, int err)
{
	char mask[128];

	switch (err) {
	case -EBUSY:
		fprintf(stderr, "pmcctl run: CPU %d: counters %s are enabled by someone else (perf_events, the NMI watchdog, another tool)\n"
			"  fix: stop that user (the NMI watchdog: sudo sysctl kernel.nmi_watchdog=0), count on another CPU with -C,\n"
			"  or take them with --force (their settings and values are put back afterwards)\n",
			c->cpu, fmt_counter_mask(c->pmu.foreign, mask, sizeof(mask)));
		return EXIT_BUSY;
	case -ERANGE:
		fprintf(stderr, "pmcctl run: CPU %d: the free counters hold values this CPU cannot write back "
			"(no full-width counter writes): refusing to overwrite them; use fewer events\n", c->cpu);
		return EXIT_BUSY;
	default:
		fprintf(stderr, "pmcctl run: more hardware events than counters on CPU %d ('pmcctl info' lists them)\n",
			c->cpu);
		return EXIT_USAGE;
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
	int sv[2], err, ex = -1;
	unsigned int i;
	sigset_t old;
	double t0 = 0;
	pid_t pid = -1;

	memset(res, 0, sizeof(*res));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		fprintf(stderr, "pmcctl run: socketpair: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	hold_signals(&old);
	if (c->nr_hw) {
		err = pmu_save(&c->pmu);
		if (err)
			ex = access_error(c, "cannot read", false);
		else if ((err = pmu_assign(&c->pmu, c->specs, c->nr_hw, c->force)))
			ex = assign_error(c, err);
	}
	if (ex < 0) {
		fflush(NULL);
		pid = fork_command();
		if (pid < 0) {
			fprintf(stderr, "pmcctl run: fork: %s\n", strerror(errno));
			ex = EXIT_FAIL;
		}
	}
	if (ex >= 0) {
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
		ex = EXIT_USAGE;
	} else if (c->nr_hw && pmu_start(&c->pmu)) {
		ex = access_error(c, "cannot write", true);
		kill(pid, SIGKILL);
	} else {
		/* Pinned, counting: let it exec. */
		started = true;
		t0 = now_s();
		if (send(sv[0], &go, 1, MSG_NOSIGNAL) == 1 && child_recv(sv[0], &pre) &&
		    child_recv(sv[0], &m) && m.step == CHILD_EXEC_FAILED) {
			fprintf(stderr, "pmcctl run: cannot run '%s': %s\n", argv[0], strerror(m.err));
			ex = m.err == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
		}
	}
	close(sv[0]);
	while (wait4(pid, &res->status, 0, &ru) < 0 && errno == EINTR)
		;
	res->elapsed = started ? now_s() - t0 : 0;
	child_pid = 0;

	if (c->nr_hw) {
		if (started && pmu_stop(&c->pmu, hw) && ex < 0)
			ex = access_error(c, "cannot stop or read", true);
		if (pmu_restore(&c->pmu)) {
			restore_error(c);
			ex = EXIT_FAIL;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ex >= 0)
		return ex;
	if (!started) {
		fprintf(stderr, "pmcctl run: the command ended before it started\n");
		return WIFSIGNALED(res->status) ? child_exit_code(res->status) : EXIT_FAIL;
	}
	for (i = 0; i < c->nr_hw; i++)
		res->values[c->hw_index[i]] = hw[i];
	sw_values(c, &ru, &pre.ru, res);
	if (c->nr_hw && c->pmu.wrapped)
		fprintf(stderr, "pmcctl run: warning: counters %s wrapped past their width: their counts are low by a multiple of 2^width\n",
			fmt_counter_mask(c->pmu.wrapped, mask, sizeof(mask)));
	return -1;
}
