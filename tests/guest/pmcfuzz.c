// SPDX-License-Identifier: GPL-2.0
/*
 * pmcfuzz: a seeded, time-bounded fuzzer of /dev/pmcdrv: its ioctls and the
 * self-read page (mmap, mprotect, mremap, fork, RDPMC; docs/abi.md).
 *
 * Several threads share a table of file descriptors (fixed numbers from
 * SLOT_BASE up, so the kernel never hands one of them to anything but
 * /dev/pmcdrv) and, until the deadline, open, close, dup2 over and ioctl
 * them with random and near-valid arguments of every command in the UAPI:
 * sizes below VER0, exact, larger with a zero or non-zero tail, over a
 * page; reserved fields and unknown flags; bad pointers (NULL, unmapped,
 * straddling into a guard page, kernel and non-canonical addresses,
 * read-only pages for output); invalid command numbers, directions and
 * types; size bits in the command number (ignored by the ABI).  A closed
 * slot is closed under other threads' ioctls.  A helper process forks,
 * execs and exits in a loop and publishes its pids as attach targets; the
 * fuzz threads also attach to themselves and each other and fork bursts
 * of children while tracked.  Each thread also runs private session life
 * cycles with exact expectations and hands some of them to the table.
 *
 * Oracle (docs/abi.md):
 *  - every ioctl returns 0 or an errno the ABI lists for that command
 *    (EBADF too on table slots, which may be closed at any time);
 *  - a request with exactly one defect that the ABI checks first gets
 *    exactly its errno (EFAULT for a bad pointer, EINVAL, E2BIG, ENOTTY);
 *  - no success where the ABI forbids one: attaching to a kernel thread,
 *    a nonexistent pid, another user's task, a CPU or kernel-mode events
 *    without the privilege perf_event_paranoid demands; writing output to
 *    a read-only page;
 *  - outputs are well formed (size, reserved zero, no write past the
 *    kernel's struct, flags known, counts monotonic, frozen while disabled);
 *  - mmap of a session fd fails only with docs/abi.md's mmap errnos; a
 *    mapping has the documented version, size and flags, faults on a write
 *    and refuses mprotect to writable (EACCES); RDPMC with a page's index
 *    does not fault while the probing thread holds that page (flag RDPMC);
 *    a child forked with a page mapped has neither the page nor RDPMC;
 *  - with --exclusive (nothing else uses the PMU or pmcdrv): CONFIG never
 *    fails with EBUSY, and once every file is closed INFO shows no claim
 *    and no counter enabled or reserved.
 * The kernel log is checked by tests/guest/90-fuzz.sh and tests/vm/run.
 *
 * Usage: pmcfuzz [--seed N] [--seconds S] [--threads T] [--slots N]
 *                [--device PATH] [--exclusive] [--hotplug] [--no-churn] [-v]
 * The per-thread operation sequences are a function of the seed; thread
 * interleaving is not, so a replay reproduces the same mix of operations.
 * Exit: 0 clean, 1 violations, 2 setup error, 3 threads hung past the end.
 *
 * Only the UAPI header, libc and pthreads: no libpmc.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>
#include <linux/pmcdrv.h>
#include <pmcdrv/pmu.h>

#include "pmcdev.h"

#define SLOT_BASE	256
#define MAX_SLOTS	64
#define MAX_THREADS	32
#define LOG_LINES	12
#define LOG_LEN		200
#define RING		64
#define MAX_CHURN_KIDS	6
#define MAX_REPORTS	40

/* ---- parameters and shared state -------------------------------------------- */

static uint64_t opt_seed;
static int opt_seconds = 20, opt_threads = 4, opt_slots = 16, opt_verbose;
static bool opt_exclusive, opt_hotplug, opt_churn = true;
static const char *opt_dev = "/dev/pmcdrv";
static char self_exe[PATH_MAX];

static bool privileged;		/* euid 0: CAP_PERFMON, CAP_SYS_PTRACE */
static int paranoid = 2;
/*
 * perf_event_paranoid > 2 (Debian's default): no counting at all without
 * CAP_PERFMON, unless the caller is in the device's group and that group is
 * not root's, the administrator's opt-in (docs/security.md).
 */
static bool count_refused;
static long page;
static int ncpu_online, ncpu_possible;
static struct pmcdrv_info info0;	/* INFO at start */

static atomic_bool stop;
static atomic_long violations, notes;
static pid_t tids[MAX_THREADS];
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* Shared with the churn process (MAP_SHARED, inherited across fork). */
struct churn_ring {
	atomic_int pids[RING];
	atomic_uint idx;
	atomic_int stop;
};
static struct churn_ring *ring;
static pid_t churner;

/* ---- errno classes ------------------------------------------------------------ */

static const int errs[] = {
	EFAULT, EINVAL, E2BIG, ENOTTY, ENODEV, EOPNOTSUPP, ENOSPC, EBUSY, EACCES,
	EPERM, ESRCH, ENXIO, EEXIST, EALREADY, EBADFD, ENOMEM, EBADF, ENOENT,
};

static unsigned int eb(int e)
{
	unsigned int i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (errs[i] == e)
			return 1U << i;
	return 0;
}

static const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "OK";

	return n ? n : "E?";
}

static void eset_str(unsigned int set, bool ok, char *buf, size_t len)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = 0;
	if (ok)
		n += snprintf(buf + n, len - n, "OK ");
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]) && n < len; i++)
		if (set & (1U << i))
			n += snprintf(buf + n, len - n, "%s ", ename(errs[i]));
}

/* ---- per-thread state ------------------------------------------------------------ */

struct fz {
	int id;
	uint64_t rng;
	unsigned long op;
	unsigned char *arena;	/* pages: 0-1 RW, 2 none, 3 RO, 4 none */
	char log[LOG_LINES][LOG_LEN];
	unsigned int logi;
	unsigned long stats_ok, stats_err;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct fz *f)
{
	return mix64(f->rng += 0x9e3779b97f4a7c15ULL);	/* splitmix64 */
}

static uint32_t rn(struct fz *f, uint32_t n)
{
	return n ? (uint32_t)(rnd(f) % n) : 0;
}

static bool chance(struct fz *f, unsigned int pct)
{
	return rn(f, 100) < pct;
}

__attribute__((format(printf, 2, 3)))
static void flog(struct fz *f, const char *fmt, ...)
{
	va_list ap;
	char *l = f->log[f->logi++ % LOG_LINES];

	va_start(ap, fmt);
	vsnprintf(l, LOG_LEN, fmt, ap);
	va_end(ap);
	if (opt_verbose > 1) {
		pthread_mutex_lock(&out_lock);
		printf("t%d #%lu %s\n", f->id, f->op, l);
		pthread_mutex_unlock(&out_lock);
	}
}

__attribute__((format(printf, 2, 3)))
static void violation(struct fz *f, const char *fmt, ...)
{
	va_list ap;
	long n = atomic_fetch_add(&violations, 1);
	unsigned int i;

	if (n >= MAX_REPORTS)
		return;
	pthread_mutex_lock(&out_lock);
	printf("pmcfuzz: VIOLATION seed=%" PRIu64 " thread=%d op=%lu: ", opt_seed,
	       f ? f->id : -1, f ? f->op : 0);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (f) {
		printf("pmcfuzz:   last operations of thread %d (oldest first):\n", f->id);
		for (i = 0; i < LOG_LINES; i++) {
			const char *l = f->log[(f->logi + i) % LOG_LINES];

			if (*l)
				printf("pmcfuzz:     %s\n", l);
		}
	}
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

__attribute__((format(printf, 2, 3)))
static void note(struct fz *f, const char *fmt, ...)
{
	va_list ap;
	long n = atomic_fetch_add(&notes, 1);

	if (n >= 10 && !opt_verbose)
		return;
	pthread_mutex_lock(&out_lock);
	printf("pmcfuzz: note thread=%d op=%lu: ", f ? f->id : -1, f ? f->op : 0);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/* ---- commands ---------------------------------------------------------------------- */

/* K_BAD: a command the ABI does not define. */
/* K_MMAP: mmap(2) of a session fd, judged as a command (errnos: docs/abi.md's mmap table). */
enum kind {
	K_INFO, K_CONFIG, K_ATTACH, K_READ, K_ENABLE, K_DISABLE, K_RESET, K_APIVER, K_RSELF,
	K_SESSIONS, K_REVOKE, K_RCGROUP, K_BAD, K_MMAP, K_NR
};

static const struct {
	const char *name;
	unsigned long cmd;
	size_t size;		/* the kernel's struct (VER0: below it for CONFIG and READ) */
	unsigned int abi;	/* errnos docs/abi.md lists, filled in at start */
} cmds[K_NR] = {
	[K_INFO] = { "INFO", PMCDRV_IOC_INFO, sizeof(struct pmcdrv_info), 0 },
	[K_CONFIG] = { "CONFIG", PMCDRV_IOC_CONFIG, sizeof(struct pmcdrv_config), 0 },
	[K_ATTACH] = { "ATTACH", PMCDRV_IOC_ATTACH, sizeof(struct pmcdrv_attach), 0 },
	[K_READ] = { "READ", PMCDRV_IOC_READ, sizeof(struct pmcdrv_read_types), 0 },
	[K_ENABLE] = { "ENABLE", PMCDRV_IOC_ENABLE, 0, 0 },
	[K_DISABLE] = { "DISABLE", PMCDRV_IOC_DISABLE, 0, 0 },
	[K_RESET] = { "RESET", PMCDRV_IOC_RESET, 0, 0 },
	[K_APIVER] = { "API_VERSION", PMCDRV_IOC_API_VERSION, 0, 0 },
	[K_RSELF] = { "READ_SELF", PMCDRV_IOC_READ_SELF, sizeof(struct pmcdrv_read_types), 0 },
	[K_SESSIONS] = { "SESSIONS", PMCDRV_IOC_SESSIONS, sizeof(struct pmcdrv_sessions), 0 },
	[K_REVOKE] = { "REVOKE", PMCDRV_IOC_REVOKE, sizeof(struct pmcdrv_revoke), 0 },
	[K_RCGROUP] = { "READ_CGROUP", PMCDRV_IOC_READ_CGROUP, sizeof(struct pmcdrv_read_types), 0 },
	[K_BAD] = { "BAD_COMMAND", 0, 0, 0 },
	[K_MMAP] = { "mmap", 0, 0, 0 },
};
static unsigned int abi_set[K_NR];
/* Outcomes per command: [0] success, [1 + i] errs[i], [NERR + 1] anything else. */
#define NERR	(sizeof(errs) / sizeof(errs[0]))
static atomic_ulong hist[K_NR][NERR + 2];

static void hist_add(enum kind k, int e)
{
	unsigned int i = 0;

	if (e) {
		for (i = 1; i <= NERR && errs[i - 1] != e; i++)
			;
	}
	atomic_fetch_add_explicit(&hist[k][i], 1, memory_order_relaxed);
}

static void hist_print(void)
{
	unsigned int k, i;

	for (k = 0; k < K_NR; k++) {
		printf("pmcfuzz: %-11s", cmds[k].name);
		for (i = 0; i < NERR + 2; i++)
			if (atomic_load(&hist[k][i]))
				printf(" %s=%lu", i == 0 ? "OK" : i <= NERR ? ename(errs[i - 1]) : "other",
				       atomic_load(&hist[k][i]));
		printf("\n");
	}
}

static void init_abi_sets(void)
{
	unsigned int common = eb(EFAULT) | eb(EINVAL) | eb(E2BIG);

	abi_set[K_INFO] = common;
	abi_set[K_CONFIG] = common | eb(ENODEV) | eb(EOPNOTSUPP) | eb(ENOSPC) | eb(EBUSY) |
			    eb(EACCES) | eb(EALREADY) | eb(ENOMEM);
	abi_set[K_ATTACH] = common | eb(EBADFD) | eb(EALREADY) | eb(ESRCH) | eb(EPERM) |
			    eb(EEXIST) | eb(ENOMEM) | eb(EBUSY) | eb(ENXIO) | eb(EACCES) |
			    eb(EOPNOTSUPP) | eb(EBADF) | eb(ENOENT);
	abi_set[K_READ] = common | eb(EBADFD);
	abi_set[K_ENABLE] = abi_set[K_DISABLE] = abi_set[K_RESET] = eb(EINVAL) | eb(EBADFD);
	abi_set[K_APIVER] = 0;
	abi_set[K_RSELF] = common | eb(EBADFD) | eb(ESRCH) | eb(EOPNOTSUPP) | eb(ENOMEM);
	abi_set[K_SESSIONS] = common | eb(ENOMEM);
	abi_set[K_REVOKE] = common | eb(EPERM) | eb(ESRCH) | eb(EALREADY);
	abi_set[K_RCGROUP] = common | eb(EBADFD) | eb(EOPNOTSUPP);
	abi_set[K_BAD] = eb(ENOTTY);
	/* EPERM also from the VFS for PROT_EXEC on a noexec mount of /dev. */
	abi_set[K_MMAP] = eb(EINVAL) | eb(EPERM) | eb(EBADFD) | eb(EOPNOTSUPP) | eb(ESRCH) |
			  eb(ENOMEM);
}

/* What the ABI allows for one call. */
struct expect {
	bool ok;		/* success allowed */
	unsigned int errs;	/* errnos allowed */
	const char *why;	/* the defect, for reports */
};

/* The ABI forbids success here: only @errs (added to what ex allows). */
static void refuse(struct expect *ex, unsigned int set, const char *why)
{
	ex->ok = false;
	ex->errs |= set;
	ex->why = why;
}

static bool slot_fd(int fd)
{
	return fd >= SLOT_BASE && fd < SLOT_BASE + MAX_SLOTS;
}

/*
 * Issue one ioctl and judge it.  Returns the errno (0 on success); *ret
 * gets the return value.
 */
static int judge(struct fz *f, int fd, enum kind k, unsigned long cmd, unsigned long arg,
		 const char *mut, struct expect ex, long *ret)
{
	long r;
	int e;
	char want[200];

	r = ioctl(fd, cmd, arg);
	e = r < 0 ? errno : 0;
	if (ret)
		*ret = r;
	flog(f, "fd=%d %s cmd=%#lx arg=%#lx [%s] -> %s (%ld)", fd, cmds[k].name, cmd, arg,
	     mut, ename(e), r);
	hist_add(k, e);
	if (e == EBADF && slot_fd(fd))
		return e;
	if (e)
		f->stats_err++;
	else
		f->stats_ok++;
	/* The ABI's list for the command first: a class it never mentions. */
	if (e && !(abi_set[k] & eb(e))) {
		violation(f, "%s [%s] on fd %d: %s is not an errno docs/abi.md lists for %s",
			  cmds[k].name, mut, fd, ename(e), cmds[k].name);
		return e;
	}
	if ((!e && !ex.ok) || (e && !(ex.errs & eb(e)))) {
		eset_str(ex.errs, ex.ok, want, sizeof(want));
		violation(f, "%s [%s%s%s] on fd %d: got %s, want one of: %s", cmds[k].name, mut,
			  ex.why ? ": " : "", ex.why ? ex.why : "", fd, ename(e), want);
	}
	return e;
}

/* ---- arguments ------------------------------------------------------------------------ */

enum mut {
	M_VALID, M_ZTAIL, M_NZTAIL, M_SMALL, M_HUGE, M_NULL, M_BADPTR, M_STRADDLE,
	M_RDONLY, M_RESERVED, M_FIELD, M_RANDOM, M_NR
};
static const char *const mut_names[M_NR] = {
	"valid", "zero-tail", "nonzero-tail", "size<VER0", "size>page", "NULL", "bad-pointer",
	"straddles-guard", "read-only", "reserved", "field", "random",
};

static enum mut pick_mut(struct fz *f)
{
	static const unsigned char w[M_NR] = { 30, 8, 6, 6, 4, 4, 5, 5, 6, 8, 14, 4 };
	unsigned int i, x = rn(f, 100);

	for (i = 0; i < M_NR; i++) {
		if (x < w[i])
			return (enum mut)i;
		x -= w[i];
	}
	return M_VALID;
}

static unsigned char *guard(struct fz *f)
{
	return f->arena + 2 * page;
}

static unsigned char *ro_page(struct fz *f)
{
	return f->arena + 3 * page;
}

static unsigned long bad_pointer(struct fz *f)
{
	static const unsigned long fixed[] = {
		1, 0xffff888000000000UL, 0xffffffff81000000UL, 0x8000000000000000UL,
		0xffffffffff600000UL, 0x00007ffffffff000UL - 2,
	};

	if (chance(f, 40))
		return (unsigned long)guard(f) + rn(f, (uint32_t)page);
	if (chance(f, 20))
		return (unsigned long)(guard(f) + 2 * page) + rn(f, (uint32_t)page);
	return fixed[rn(f, sizeof(fixed) / sizeof(fixed[0]))];
}

/* Put @len bytes of @buf (whose first u32 is the size) where @m says. */
static unsigned long place(struct fz *f, enum mut m, unsigned char *buf, size_t len)
{
	unsigned char *p;
	size_t k;

	switch (m) {
	case M_NULL:
		return 0;
	case M_BADPTR:
		return bad_pointer(f);
	case M_STRADDLE:
		/* The first k bytes mapped, the rest in the guard page. */
		k = 1 + rn(f, (uint32_t)len - 1);
		p = guard(f) - k;
		memcpy(p, buf, k);
		return (unsigned long)p;
	case M_RDONLY:
		p = ro_page(f);
		if (mprotect(p, page, PROT_READ | PROT_WRITE))
			abort();
		memcpy(p, buf, len);
		if (mprotect(p, page, PROT_READ))
			abort();
		return (unsigned long)p;
	default:
		memcpy(f->arena, buf, len);
		return (unsigned long)f->arena;
	}
}

/* Size and tail for the size mutations.  @buf has room for 2 pages. */
static size_t apply_size(struct fz *f, enum mut m, unsigned char *buf, size_t ksize,
			 uint32_t ver0, uint32_t *size)
{
	size_t len = ksize;

	switch (m) {
	case M_ZTAIL:
		len = ksize + 1 + rn(f, (uint32_t)(page - ksize));
		memset(buf + ksize, 0, len - ksize);
		break;
	case M_NZTAIL:
		len = ksize + 1 + rn(f, (uint32_t)(page - ksize));
		memset(buf + ksize, 0, len - ksize);
		buf[ksize + rn(f, (uint32_t)(len - ksize))] = 1 + rn(f, 255);
		break;
	case M_SMALL:
		*size = rn(f, ver0);
		return ksize;
	case M_HUGE:
		*size = chance(f, 50) ? (uint32_t)page + 1 + rn(f, (uint32_t)page) :
					(uint32_t)rnd(f) | 0x80000000U;
		return ksize;
	default:
		break;
	}
	*size = (uint32_t)len;
	return len;
}

/* ---- near-valid structs ---------------------------------------------------------------- */

static const struct { uint8_t ev, um; } arch_ev[] = {
	{ 0x3c, 0x00 }, { 0xc0, 0x00 }, { 0x3c, 0x01 }, { 0x2e, 0x4f },
	{ 0x2e, 0x41 }, { 0xc4, 0x00 }, { 0xc5, 0x00 }, { 0xa4, 0x01 },
};

struct cfg_props {
	unsigned int nhw;
	bool kernel;
	bool task_sw;
};

static void gen_event(struct fz *f, struct pmcdrv_event *e, bool allow_hw, struct cfg_props *p)
{
	memset(e, 0, sizeof(*e));
	if (!allow_hw || chance(f, 45)) {
		e->type = PMCDRV_EVENT_SW;
		e->sw_id = 1 + rn(f, 3);
		if (e->sw_id != PMCDRV_SW_TASK_CLOCK)
			p->task_sw = true;
		return;
	}
	e->type = PMCDRV_EVENT_HW;
	if (chance(f, 75)) {
		unsigned int i = rn(f, sizeof(arch_ev) / sizeof(arch_ev[0]));

		e->event = arch_ev[i].ev;
		e->umask = arch_ev[i].um;
	} else {
		/* Event 0 is the fixed counters' pseudo-encoding, with rules of its own. */
		e->event = 1 + rn(f, 255);
		e->umask = rn(f, 256);
	}
	e->flags = chance(f, 70) ? PMCDRV_EVF_USER : 0;
	if (!e->flags || chance(f, 25))
		e->flags |= PMCDRV_EVF_KERNEL;
	if (chance(f, 10))
		e->flags |= PMCDRV_EVF_EDGE;
	if (chance(f, 10)) {
		e->cmask = 1 + rn(f, 255);
		if (chance(f, 50))
			e->flags |= PMCDRV_EVF_INV;
	}
	if (chance(f, 15))
		e->flags |= PMCDRV_EVF_NO_FIXED;
	/* A core type (perf's cpu_core/, cpu_atom/): hybrid parts only, EOPNOTSUPP elsewhere. */
	if (chance(f, 15))
		e->core_type = chance(f, 50) ? PMCDRV_CORE_TYPE_CORE : PMCDRV_CORE_TYPE_ATOM;
	p->nhw++;
	if (e->flags & PMCDRV_EVF_KERNEL)
		p->kernel = true;
}

static void gen_config(struct fz *f, struct pmcdrv_config *c, bool allow_hw, struct cfg_props *p)
{
	unsigned int i, n = chance(f, 60) ? 1 + rn(f, 3) : 1 + rn(f, PMCDRV_MAX_EVENTS);

	memset(c, 0, sizeof(*c));
	memset(p, 0, sizeof(*p));
	c->size = sizeof(*c);
	c->event_size = sizeof(c->events[0]);
	c->nr_events = n;
	if (chance(f, 30))
		c->flags = PMCDRV_CONFIG_NO_INHERIT;
	for (i = 0; i < n; i++)
		gen_event(f, &c->events[i], allow_hw, p);
}

/* What a near-valid CONFIG may return, by its properties. */
static struct expect config_expect(const struct cfg_props *p)
{
	struct expect ex = { .ok = true, .errs = eb(EALREADY) };

	if (count_refused)
		refuse(&ex, eb(EACCES),
		       "counting without CAP_PERFMON at perf_event_paranoid > 2, outside the device's group");
	if (p->nhw) {
		ex.errs |= eb(ENODEV) | eb(EOPNOTSUPP) | eb(ENOSPC);
		if (!opt_exclusive)
			ex.errs |= eb(EBUSY);
		if (p->kernel && !privileged && paranoid > 1) {
			/* perf's rule: no kernel-mode counting without CAP_PERFMON. */
			refuse(&ex, eb(EACCES),
			       "kernel mode without CAP_PERFMON, perf_event_paranoid > 1");
		}
	}
	return ex;
}

/* One defect in a config; returns the errnos it may get. */
static struct expect config_defect(struct fz *f, struct pmcdrv_config *c, bool reserved)
{
	struct expect ex = { .ok = false, .errs = eb(EINVAL) | eb(EALREADY) };
	struct pmcdrv_event *e;
	unsigned int k, i;

	if (reserved) {
		switch (rn(f, 3)) {
		case 0: c->event_size = 1 + rn(f, 7); break;	/* below VER0: EINVAL */
		case 1: c->reserved[0] = rnd(f) | 1; break;
		default: c->mux_interval_ns = rnd(f) | 1ULL << 63; break;	/* over 1 s */
		}
		ex.why = "reserved field";
		return ex;
	}
	switch (rn(f, 4)) {
	case 0:
		c->flags |= 1U << (1 + rn(f, 31));
		ex.why = "unknown config flag";
		return ex;
	case 1:
		c->nr_events = chance(f, 50) ? 0 : PMCDRV_MAX_EVENTS + 1 + rn(f, 1000);
		ex.why = "nr_events out of range";
		return ex;
	case 2:
		if (c->nr_events < PMCDRV_MAX_EVENTS) {
			e = &c->events[c->nr_events + rn(f, PMCDRV_MAX_EVENTS - c->nr_events)];
			((uint32_t *)e)[rn(f, 8)] = 1 + rn(f, 1000);
			ex.why = "unused event slot not zero";
			return ex;
		}
		break;
	default:
		break;
	}
	/* A bad field in event k; earlier HW events may fail first (no PMU, unavailable). */
	k = rn(f, c->nr_events);
	e = &c->events[k];
	for (i = 0; i < k; i++)
		if (c->events[i].type == PMCDRV_EVENT_HW)
			ex.errs |= eb(ENODEV) | eb(EOPNOTSUPP);
	ex.why = "bad event field";
	switch (rn(f, 11)) {
	case 0: e->type = chance(f, 50) ? 0 : 3 + rn(f, 1000); break;
	case 1:
		/* a core type other than 0, 0x20 (Atom) and 0x40 (Core) */
		e->core_type = 1 + rn(f, 1000);
		if (e->core_type == PMCDRV_CORE_TYPE_ATOM || e->core_type == PMCDRV_CORE_TYPE_CORE)
			e->core_type++;
		break;
	case 2:
		memset(e, 0, sizeof(*e));
		e->type = PMCDRV_EVENT_SW;
		e->sw_id = chance(f, 50) ? 0 : 4 + rn(f, 1000);
		break;
	case 3:
		memset(e, 0, sizeof(*e));
		e->type = PMCDRV_EVENT_SW;
		e->sw_id = 1;
		((uint32_t *)e)[1 + rn(f, 4)] = 1 + rn(f, 255);	/* flags/event/umask/cmask */
		break;
	default:
		memset(e, 0, sizeof(*e));
		e->type = PMCDRV_EVENT_HW;
		e->event = 0xc0;
		e->flags = PMCDRV_EVF_USER;
		switch (rn(f, 7)) {
		case 0: e->event = 0x100 + rn(f, 100000); break;
		case 1: e->umask = 0x100 + rn(f, 100000); break;
		case 2: e->cmask = 0x100 + rn(f, 100000); break;
		case 3: e->flags |= 1U << (5 + rn(f, 27)); break;
		case 4: e->flags = chance(f, 50) ? 0 : PMCDRV_EVF_EDGE; break;
		case 5: e->flags |= PMCDRV_EVF_INV; e->cmask = 0; break;
		default: e->sw_id = 1 + rn(f, 3); break;
		}
		break;
	}
	return ex;
}

enum target {
	T_SELF, T_PEER, T_CHURN, T_INIT, T_KTHREAD, T_NONE, T_CPU, T_CPU_BAD, T_CGROUP, T_CGROUP_BAD,
	T_NR
};

/*
 * Cgroup sessions' fds: the cgroup v2 root twice (a session may name one
 * cgroup twice), when mounted, else -1; and a file that is no cgroup.
 * Opened at start, never closed: the kernel reads them during ATTACH.
 */
static int32_t cg_fds[2] = { -1, -1 };
static int32_t cg_bad_fds[2] = { -1, -1 };

static void open_cgroup_fds(void)
{
	struct statfs sf;
	int fd = open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && (fstatfs(fd, &sf) || sf.f_type != CGROUP2_SUPER_MAGIC)) {
		close(fd);
		fd = -1;
	}
	cg_fds[0] = cg_fds[1] = fd;
	cg_bad_fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
}
static const char *const target_names[T_NR] = {
	"self", "peer", "churn", "init", "kthread", "no-such-pid", "cpu", "bad-cpu", "cgroup",
	"bad-cgroup-fd",
};

static pid_t churn_pid(struct fz *f)
{
	unsigned int n = atomic_load(&ring->idx);
	pid_t p;

	if (!n)
		return churner > 0 ? churner : 1;
	p = atomic_load(&ring->pids[(n - 1 - rn(f, n < RING ? n : RING)) % RING]);
	return p > 0 ? p : churner;
}

static enum target gen_attach(struct fz *f, struct pmcdrv_attach *a, enum target t)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (t == T_NR) {
		static const unsigned char w[T_NR] = { 23, 15, 28, 4, 4, 4, 12, 3, 5, 2 };
		unsigned int i, x = rn(f, 100);

		t = T_CHURN;
		for (i = 0; i < T_NR; i++) {
			if (x < w[i]) {
				t = (enum target)i;
				break;
			}
			x -= w[i];
		}
		if (!opt_churn && t == T_CHURN)
			t = T_SELF;
	}
	switch (t) {
	case T_SELF:
		a->pid = chance(f, 50) ? 0 : (chance(f, 70) ? (pid_t)syscall(SYS_gettid) : getpid());
		break;
	case T_PEER:
		a->pid = tids[rn(f, (uint32_t)opt_threads)];
		if (!a->pid)
			a->pid = getpid();
		break;
	case T_CHURN: a->pid = churn_pid(f); break;
	case T_INIT: a->pid = 1; break;
	case T_KTHREAD: a->pid = 2; break;	/* kthreadd */
	case T_NONE: a->pid = 0x7ffffff0 - (pid_t)rn(f, 1000); break;	/* over any pid_max */
	case T_CPU:
		a->flags = PMCDRV_ATTACH_CPU;
		a->cpu = rn(f, (uint32_t)ncpu_online);
		break;
	case T_CPU_BAD:
		a->flags = PMCDRV_ATTACH_CPU;
		a->cpu = chance(f, 50) ? (uint32_t)ncpu_possible + rn(f, 100) : 0xffffffffU - rn(f, 4);
		break;
	case T_CGROUP:
		a->flags = PMCDRV_ATTACH_CPU | PMCDRV_ATTACH_CGROUP;
		a->cpu = rn(f, (uint32_t)ncpu_online);
		a->cgroup_fds = (uintptr_t)cg_fds;
		a->nr_cgroups = 1 + rn(f, 2);
		break;
	case T_CGROUP_BAD:
		a->flags = PMCDRV_ATTACH_CPU | PMCDRV_ATTACH_CGROUP;
		a->cpu = rn(f, (uint32_t)ncpu_online);
		a->cgroup_fds = (uintptr_t)cg_bad_fds;
		a->nr_cgroups = 1 + rn(f, 2);	/* /dev/null, then a closed fd */
		break;
	case T_NR:
		break;
	}
	if (t < T_CPU && chance(f, 25))
		a->flags |= PMCDRV_ATTACH_ENABLE_ON_EXEC;
	return t;
}

/* What a near-valid ATTACH may return; @sess_task_sw: the config has cs/migrations, if known. */
static struct expect attach_expect(enum target t, int sess_task_sw)
{
	struct expect ex = { .ok = true, .errs = eb(EBADFD) | eb(EALREADY) | eb(ENOMEM) };

	switch (t) {
	case T_SELF:
	case T_PEER:
		ex.errs |= eb(EEXIST) | eb(EBUSY);
		break;
	case T_CHURN:
		/* It may have exited, its pid may be reused (by a kernel thread, too). */
		ex.errs |= eb(ESRCH) | eb(EPERM) | eb(EEXIST) | eb(EBUSY);
		break;
	case T_INIT:
		if (privileged) {
			ex.errs |= eb(EEXIST) | eb(EBUSY);
		} else {
			refuse(&ex, eb(EPERM), "another user's process");
		}
		break;
	case T_KTHREAD:
		refuse(&ex, eb(EPERM), "a kernel thread");
		break;
	case T_NONE:
		refuse(&ex, eb(ESRCH), "no such pid");
		break;
	case T_CPU:
		ex.errs |= eb(EBUSY);
		if (sess_task_sw)
			ex.errs |= eb(EOPNOTSUPP);
		if (opt_hotplug)
			ex.errs |= eb(ENXIO);
		if (!privileged && paranoid > 0) {
			refuse(&ex, eb(EACCES) | eb(EOPNOTSUPP) | eb(ENXIO),
			       "a CPU session without CAP_PERFMON, perf_event_paranoid > 0");
		}
		break;
	case T_CPU_BAD:
		refuse(&ex, eb(ENXIO), "no such CPU");
		break;
	case T_CGROUP:
	case T_CGROUP_BAD:
		/* The permission of a CPU session comes first, then the fds. */
		ex.errs |= eb(EBUSY) | eb(EOPNOTSUPP);
		if (opt_hotplug)
			ex.errs |= eb(ENXIO);
		if (t == T_CGROUP_BAD || cg_fds[0] < 0)
			refuse(&ex, eb(EBADF) | eb(EACCES) | eb(EBUSY) | eb(EOPNOTSUPP) | eb(ENXIO),
			       "fds that are no cgroup v2 directories");
		if (!privileged && paranoid > 0) {
			refuse(&ex, eb(EACCES) | eb(EOPNOTSUPP) | eb(ENXIO) | eb(EBADF),
			       "a cgroup session without CAP_PERFMON, perf_event_paranoid > 0");
		}
		break;
	case T_NR:
		break;
	}
	return ex;
}

static struct expect attach_defect(struct fz *f, struct pmcdrv_attach *a, bool reserved)
{
	struct expect ex = { .ok = false, .errs = eb(EINVAL) };

	if (reserved) {
		a->reserved1 = rnd(f) | 1;
		ex.why = "reserved field";
		return ex;
	}
	switch (rn(f, 5)) {
	case 0:
		a->flags |= 1U << (3 + rn(f, 29));	/* bits 0-2 are ENABLE_ON_EXEC, CPU, CGROUP */
		ex.why = "unknown attach flag";
		break;
	case 1:
		a->flags &= ~PMCDRV_ATTACH_CPU;
		a->cpu = 0;
		a->pid = -1 - (int32_t)rn(f, 0x7fffffff);
		ex.why = "negative pid";
		break;
	case 2:
		a->flags = PMCDRV_ATTACH_CPU;
		a->pid = 1 + (int32_t)rn(f, 1000);
		ex.why = "ATTACH_CPU with a pid";
		break;
	case 3:
		a->flags = PMCDRV_ATTACH_CPU | PMCDRV_ATTACH_ENABLE_ON_EXEC;
		a->pid = 0;
		ex.why = "ATTACH_CPU with ENABLE_ON_EXEC";
		break;
	default:
		a->flags &= ~PMCDRV_ATTACH_CPU;
		a->cpu = 1 + rn(f, 1000);
		ex.why = "cpu without ATTACH_CPU";
		break;
	}
	return ex;
}

/* ---- output checks ------------------------------------------------------------------ */

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		if (*c++)
			return false;
	return true;
}

static void check_info_out(struct fz *f, const struct pmcdrv_info *o)
{
	if (o->size != sizeof(*o) || o->api_version != PMCDRV_API_VERSION || o->reserved0 ||
	    !all_zero(o->reserved, sizeof(o->reserved)) || (o->flags & ~0xffU) ||
	    !!(o->flags & PMCDRV_INFO_HW_FAULTS) != !!o->hw_faults ||
	    o->vendor > PMCDRV_VENDOR_OTHER || !o->nr_cpus)
		violation(f, "INFO output malformed: size %u api %u flags %#x vendor %u nr_cpus %u reserved0 %u",
			  o->size, o->api_version, o->flags, o->vendor, o->nr_cpus, o->reserved0);
	if ((o->flags & PMCDRV_INFO_CLAIMED) && o->in_use_reserved)
		note(f, "INFO: CLAIMED with in_use_reserved %#llx (the ABI says 0 while CLAIMED)",
		     (unsigned long long)o->in_use_reserved);
}

/*
 * READ's reply, of a caller of @len bytes: the layout it was answered in
 * (struct pmcdrv_read up to its size, else struct pmcdrv_read_types), and
 * in the longer one the split by core type: at most four types, nothing
 * past them, their times adding up to the session's, no event's running
 * time there longer than its type's.
 */
static void check_read_out(struct fz *f, const struct pmcdrv_read *o, size_t len)
{
	const struct pmcdrv_read_types *rt = (const struct pmcdrv_read_types *)o;
	size_t want = len > sizeof(*o) ? sizeof(*rt) : sizeof(*o);
	unsigned long long te = 0;
	unsigned int i, e, over = 0;

	if (want == sizeof(*rt) && len >= sizeof(*rt)) {
		for (i = 0; i < rt->nr_types && i < PMCDRV_MAX_CORE_TYPES; i++) {
			te += rt->types[i].time_enabled;
			for (e = 0; e < PMCDRV_MAX_EVENTS; e++)
				over += rt->time_running[i][e] > rt->types[i].time_enabled;
		}
		if (rt->nr_types > PMCDRV_MAX_CORE_TYPES || rt->reserved || over ||
		    !all_zero(&rt->types[i], (PMCDRV_MAX_CORE_TYPES - i) * sizeof(rt->types[0])) ||
		    !all_zero(rt->time_running[i],
			      (PMCDRV_MAX_CORE_TYPES - i) * sizeof(rt->time_running[0])) ||
		    (rt->nr_types && te != o->time_enabled))
			violation(f, "READ's split by core type malformed: nr_types %u, their time %llu of %llu",
				  rt->nr_types, te, (unsigned long long)o->time_enabled);
	}
	if (o->size != want || !all_zero(o->reserved, sizeof(o->reserved)) || o->cgroup ||
	    (o->flags & ~(0xfU | PMCDRV_READ_HW_FAULTS | PMCDRV_READ_MULTIPLEXED |
			  PMCDRV_READ_CGROUP_REMOVED)) ||
	    o->nr_events > PMCDRV_MAX_EVENTS ||
	    !o->nr_events || o->time_running > o->time_enabled ||
	    /* less only when some counter yielded to a CPU session, or took turns */
	    (o->time_running < o->time_enabled && !(o->flags & PMCDRV_READ_MULTIPLEXED)) ||
	    !!(o->flags & PMCDRV_READ_HW_FAULTS) != !!o->hw_faults ||
	    (!!(o->flags & PMCDRV_READ_LOST_TASKS) != !!o->lost_tasks))
		violation(f, "READ output malformed: size %u flags %#x nr_events %u time %llu/%llu lost %llu",
			  o->size, o->flags, o->nr_events, (unsigned long long)o->time_enabled,
			  (unsigned long long)o->time_running, (unsigned long long)o->lost_tasks);
	for (i = o->nr_events; i < PMCDRV_MAX_EVENTS && o->nr_events <= PMCDRV_MAX_EVENTS; i++)
		if (o->values[i])
			violation(f, "READ: values[%u] = %llu past nr_events %u", i,
				  (unsigned long long)o->values[i], o->nr_events);
}

/* READ_SELF: READ's format, one task, always ATTACHED, nothing lost. */
static void check_rself_out(struct fz *f, const struct pmcdrv_read *o, size_t len)
{
	check_read_out(f, o, len);
	if (o->nr_tasks != 1 || o->lost_tasks || !(o->flags & PMCDRV_READ_ATTACHED) ||
	    (o->flags & ~(PMCDRV_READ_ENABLED | PMCDRV_READ_ATTACHED)))
		violation(f, "READ_SELF output: nr_tasks %u (want 1) lost %llu flags %#x (want ATTACHED, maybe ENABLED)",
			  o->nr_tasks, (unsigned long long)o->lost_tasks, o->flags);
}

static void check_config_out(struct fz *f, const struct pmcdrv_config *o,
			     const struct pmcdrv_config *in)
{
	uint64_t seen = 0;
	unsigned int i, hw = 0, mux = 0;

	if (o->size != sizeof(*o))
		violation(f, "CONFIG output size %u", o->size);
	for (i = 0; i < in->nr_events; i++) {
		uint32_t c = o->events[i].counter;

		if (in->events[i].type == PMCDRV_EVENT_SW) {
			if (c != ~0U)
				violation(f, "CONFIG: software event %u got counter %#x, want ~0", i, c);
			continue;
		}
		/* A multiplexing session: ~0 for every hardware event (checked below). */
		hw++;
		if (c == ~0U) {
			mux++;
			continue;
		}
		if (c >= 64 || !(info0.avail_mask & (1ULL << c)) || (seen & (1ULL << c)))
			violation(f, "CONFIG: event %u got counter %u (avail %#llx, taken %#llx)", i, c,
				  (unsigned long long)info0.avail_mask, (unsigned long long)seen);
		else
			seen |= 1ULL << c;
	}
	if (mux && mux != hw)
		violation(f, "CONFIG: %u of %u hardware events got counter ~0 (all or none: multiplexing)",
			  mux, hw);
}

/* Did CONFIG (its written-back counters) make a multiplexing session? */
static bool config_multiplexes(const struct pmcdrv_config *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_events && i < PMCDRV_MAX_EVENTS; i++)
		if (c->events[i].type != PMCDRV_EVENT_SW && c->events[i].counter == ~0U)
			return true;
	return false;
}

/* ---- the fd table ---------------------------------------------------------------------- */

static int pick_slot(struct fz *f)
{
	return SLOT_BASE + (int)rn(f, (uint32_t)opt_slots);
}

static int open_dev(struct fz *f)
{
	int fd = open(opt_dev, O_RDWR | (chance(f, 50) ? O_CLOEXEC : 0));

	if (fd < 0 && errno != ENOMEM && errno != EMFILE && errno != ENFILE)
		violation(f, "open(%s): %s", opt_dev, ename(errno));
	return fd;
}

static void op_open(struct fz *f)
{
	int fd = open_dev(f), s = pick_slot(f);

	if (fd < 0)
		return;
	flog(f, "open -> slot %d", s);
	if (dup2(fd, s) < 0)
		violation(f, "dup2 to slot %d: %s", s, ename(errno));
	close(fd);
}

/* ---- one random ioctl ----------------------------------------------------------------- */

/* SESSIONS' output: the count covers the caller's own open session, each entry is sane. */
static void check_sessions_out(struct fz *f, const struct pmcdrv_sessions *q,
			       const unsigned char *entries)
{
	const struct pmcdrv_session_info *e;
	unsigned int i, n = q->nr_entries < q->nr_sessions ? q->nr_entries : q->nr_sessions;

	if (!q->nr_sessions)
		violation(f, "SESSIONS: nr_sessions 0 with the caller's own session open");
	for (i = 0; i < n; i++) {
		e = (const struct pmcdrv_session_info *)(entries + (size_t)i * q->entry_size);
		if (!e->id || !memchr(e->comm, '\0', sizeof(e->comm)) ||
		    e->nr_events > PMCDRV_MAX_EVENTS || e->reserved[0] || e->reserved[1])
			violation(f, "SESSIONS entry %u: id %llu, nr_events %u, comm unterminated or reserved set",
				  i, (unsigned long long)e->id, e->nr_events);
		if (!all_zero((const unsigned char *)e + sizeof(*e), q->entry_size - sizeof(*e)))
			violation(f, "SESSIONS entry %u: bytes past the kernel's layout not zeroed", i);
	}
}

static void op_struct_ioctl(struct fz *f, int fd, enum kind k)
{
	unsigned char buf[2 * 4096 + 64] __attribute__((aligned(8)));
	enum mut m = pick_mut(f);
	unsigned long cmd = cmds[k].cmd, arg;
	size_t ks = cmds[k].size, len;
	struct expect ex = { .ok = true };
	struct cfg_props cp = { 0 };
	struct pmcdrv_config cin;
	struct pmcdrv_sessions *q = (struct pmcdrv_sessions *)buf;
	struct pmcdrv_revoke *rv = (struct pmcdrv_revoke *)buf;
	unsigned char *entries = NULL;
	enum target t = T_NR;
	uint32_t size = (uint32_t)ks;
	long r;
	int e;

	memset(buf, 0, sizeof(buf));
	/* The near-valid struct. */
	switch (k) {
	case K_INFO:
		ex.errs = 0;
		if (m == M_FIELD)	/* garbage in output-only fields is fine */
			for (len = 4; len < offsetof(struct pmcdrv_info, reserved0); len++)
				buf[len] = (unsigned char)rnd(f);
		break;
	case K_CONFIG:
		gen_config(f, (struct pmcdrv_config *)buf, chance(f, 70), &cp);
		ex = config_expect(&cp);
		break;
	case K_ATTACH:
		t = gen_attach(f, (struct pmcdrv_attach *)buf, T_NR);
		ex = attach_expect(t, -1);
		if (t == T_CPU)	/* unknown session config: may have task-only events */
			ex.errs |= eb(EOPNOTSUPP);
		break;
	case K_READ:
	case K_RSELF:
		ex.errs = eb(EBADFD) | eb(ENOMEM);	/* ENOMEM: the layout with the split */
		if (k == K_RSELF)	/* untracked thread, CPU session */
			ex.errs |= eb(ESRCH) | eb(EOPNOTSUPP) | eb(ENOMEM);
		/* Garbage in the output-only fields; 'cgroup' is input (zero here). */
		if (m == M_FIELD)
			for (len = 4; len < offsetof(struct pmcdrv_read, cgroup); len++)
				buf[len] = (unsigned char)rnd(f);
		break;
	case K_RCGROUP:
		/* Not known here whether the fd is a cgroup session, nor of how many. */
		((struct pmcdrv_read *)buf)->cgroup = chance(f, 80) ? rn(f, 3) : rnd(f);
		ex.errs = eb(EBADFD) | eb(EOPNOTSUPP) | eb(EINVAL) | eb(ENOMEM);
		if (m == M_FIELD)
			for (len = 4; len < offsetof(struct pmcdrv_read, cgroup); len++)
				buf[len] = (unsigned char)rnd(f);
		break;
	case K_SESSIONS:
		/* A few entries, of the kernel's size or larger, into a buffer of their size. */
		q->nr_entries = rn(f, 5);
		q->entry_size = sizeof(struct pmcdrv_session_info) + (chance(f, 20) ? 8 * rn(f, 64) : 0);
		entries = calloc(q->nr_entries + 1, q->entry_size);
		if (!entries)
			return;
		q->entries = (unsigned long)entries;
		ex.errs = eb(ENOMEM);
		break;
	case K_REVOKE:
		/* Never one of the sessions: ESRCH as root, EPERM otherwise. */
		rv->id = (1ULL << 63) | rnd(f);
		ex = (struct expect){ .ok = false, .errs = eb(ESRCH) | eb(EPERM), .why = "no such session" };
		break;
	default:
		abort();
	}
	memcpy(&cin, buf, sizeof(cin));
	/* The defect. */
	switch (m) {
	case M_RESERVED:
	case M_FIELD:
		if (k == K_CONFIG) {
			ex = config_defect(f, (struct pmcdrv_config *)buf, m == M_RESERVED);
		} else if (k == K_ATTACH) {
			ex = attach_defect(f, (struct pmcdrv_attach *)buf, m == M_RESERVED);
		} else if (m == M_RESERVED) {
			struct expect inv = { .ok = false, .errs = eb(EINVAL), .why = "reserved field" };

			struct pmcdrv_info *in = (struct pmcdrv_info *)buf;
			struct pmcdrv_read *rd = (struct pmcdrv_read *)buf;

			if (k == K_INFO) {
				if (chance(f, 30))
					in->reserved0 = 1 + rn(f, 1000);
				else
					in->reserved[rn(f, sizeof(in->reserved) / sizeof(in->reserved[0]))] = rnd(f) | 1;
			} else if (k == K_SESSIONS) {
				q->reserved[rn(f, 2)] = rnd(f) | 1;
			} else if (k == K_REVOKE) {
				if (chance(f, 50))
					rv->flags = 1 + rn(f, 1000);
				else
					rv->reserved[rn(f, 2)] = rnd(f) | 1;
			} else {
				rd->reserved[rn(f, sizeof(rd->reserved) / sizeof(rd->reserved[0]))] = rnd(f) | 1;
			}
			ex = inv;
		} else if (k == K_SESSIONS) {
			/* An entry size below the first layout, or entries nowhere. */
			if (chance(f, 50)) {
				q->nr_entries = 1 + rn(f, 4);
				q->entry_size = rn(f, sizeof(struct pmcdrv_session_info));
				ex = (struct expect){ .ok = false, .errs = eb(EINVAL), .why = "entry size" };
			} else {
				q->entries = chance(f, 50) ? 0 : (unsigned long)rnd(f) | (1UL << 63);
				/* OK when nothing is written: no entry asked for. */
				ex = (struct expect){ .ok = true, .errs = eb(EFAULT),
						      .why = "entries nowhere" };
			}
		}
		break;
	case M_NZTAIL:
	case M_HUGE:
		ex = (struct expect){ .ok = false, .errs = eb(E2BIG), .why = "size" };
		break;
	case M_SMALL:
		ex = (struct expect){ .ok = false, .errs = eb(EINVAL), .why = "size below VER0" };
		break;
	case M_NULL:
	case M_BADPTR:
	case M_STRADDLE:
		ex = (struct expect){ .ok = false, .errs = eb(EFAULT), .why = "bad pointer" };
		break;
	case M_RDONLY:
		if (k != K_ATTACH && k != K_REVOKE) {	/* output to a read-only page */
			ex.ok = false;
			ex.errs |= eb(EFAULT);
		}
		break;
	case M_RANDOM:
		for (len = 4; len < ks; len++)
			buf[len] = chance(f, 70) ? 0 : (unsigned char)rnd(f);
		ex = (struct expect){ .ok = true, .errs = abi_set[k] };
		if (k == K_SESSIONS)	/* never past the buffer: count alone, or nowhere */
			q->entries = q->nr_entries ? (unsigned long)rnd(f) | (1UL << 63) : 0;
		if (k == K_REVOKE)	/* never one of the sessions */
			rv->id |= 1ULL << 63;
		break;
	default:
		break;
	}
	len = apply_size(f, m, buf, ks, k == K_CONFIG ? PMCDRV_CONFIG_SIZE_VER0 :
				    k == K_READ || k == K_RSELF || k == K_RCGROUP ? PMCDRV_READ_SIZE_VER0 :
				    (uint32_t)ks,
			 &size);
	memcpy(buf, &size, sizeof(size));
	/* The size bits of the command are ignored by the ABI. */
	if (chance(f, 20))
		cmd = (cmd & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
		      ((unsigned long)rn(f, _IOC_SIZEMASK + 1) << _IOC_SIZESHIFT);
	arg = place(f, m, buf, len);
	e = judge(f, fd, k, cmd, arg, mut_names[m], ex, &r);
	if (k == K_SESSIONS && !e && m != M_NULL && m != M_BADPTR && m != M_STRADDLE &&
	    m != M_RDONLY && entries)
		check_sessions_out(f, (struct pmcdrv_sessions *)f->arena, entries);
	free(entries);
	if (e || m == M_NULL || m == M_BADPTR || m == M_STRADDLE || m == M_RDONLY)
		return;
	/* Success: the output. */
	if (!all_zero(f->arena + ks, len - ks))
		violation(f, "%s [%s]: the kernel wrote past its %zu-byte struct (caller size %zu)",
			  cmds[k].name, mut_names[m], ks, len);
	if (k == K_INFO)
		check_info_out(f, (struct pmcdrv_info *)f->arena);
	else if (k == K_READ || k == K_RCGROUP)
		check_read_out(f, (struct pmcdrv_read *)f->arena, len);
	else if (k == K_RSELF)
		check_rself_out(f, (struct pmcdrv_read *)f->arena, len);
	else if (k == K_CONFIG && m != M_RANDOM)
		check_config_out(f, (struct pmcdrv_config *)f->arena, &cin);
}

static void op_noarg_ioctl(struct fz *f, int fd, enum kind k)
{
	unsigned long arg = chance(f, 75) ? 0 : (chance(f, 50) ? 1 + rn(f, 1000) : (unsigned long)rnd(f));
	unsigned long cmd = cmds[k].cmd;
	struct expect ex = { .ok = true, .errs = eb(EBADFD) };
	long r;

	if (chance(f, 15))
		cmd |= (unsigned long)rn(f, _IOC_SIZEMASK + 1) << _IOC_SIZESHIFT;
	if (k == K_APIVER) {
		ex.errs = 0;
		if (judge(f, fd, k, cmd, arg, "any-arg", ex, &r) == 0 && r != PMCDRV_API_VERSION)
			violation(f, "API_VERSION returned %ld, want %d", r, PMCDRV_API_VERSION);
		return;
	}
	if (arg)
		ex = (struct expect){ .ok = false, .errs = eb(EINVAL), .why = "argument must be 0" };
	judge(f, fd, k, cmd, arg, arg ? "nonzero-arg" : "arg 0", ex, NULL);
}

/* Command numbers the VFS handles itself (FIONBIO, FIFREEZE, FICLONE...): not ours to test. */
static bool vfs_type(unsigned int type)
{
	return type == 0x00 || type == 'T' || type == 'X' || type == 'f' || type == 0x94;
}

static void op_bad_cmd(struct fz *f, int fd)
{
	struct expect ex = { .ok = false, .errs = eb(ENOTTY), .why = "unknown command" };
	unsigned int dir, type, nr, size, i;
	unsigned long cmd, arg = chance(f, 50) ? (unsigned long)f->arena : (unsigned long)rnd(f);
	const char *what;
	long r;
	int e;

	switch (rn(f, 3)) {
	case 0:		/* our type, unknown number (0x0b is READ_CGROUP) */
		type = PMCDRV_IOC_MAGIC;
		nr = 12 + rn(f, 244);
		dir = rn(f, 4);
		what = "unknown nr";
		break;
	case 1:		/* a known number with another direction */
		i = rn(f, K_BAD);
		type = PMCDRV_IOC_MAGIC;
		nr = _IOC_NR(cmds[i].cmd);
		dir = (_IOC_DIR(cmds[i].cmd) + 1 + rn(f, 3)) % 4;
		what = "wrong direction";
		break;
	default:	/* another type byte */
		do
			type = rn(f, 256);
		while (type == PMCDRV_IOC_MAGIC || vfs_type(type));
		nr = rn(f, 256);
		dir = rn(f, 4);
		what = "wrong type";
		break;
	}
	size = rn(f, _IOC_SIZEMASK + 1);
	cmd = _IOC(dir, type, nr, size);
	e = judge(f, fd, K_BAD, cmd, arg, what, ex, &r);
	if (!e)
		violation(f, "command %#lx (%s) succeeded, returning %ld", cmd, what, r);
}

static void op_ioctl(struct fz *f, int fd)
{
	enum kind k = (enum kind)rn(f, K_BAD + 2);

	if (k >= K_BAD) {
		op_bad_cmd(f, fd);
		return;
	}
	if (cmds[k].size)
		op_struct_ioctl(f, fd, k);
	else
		op_noarg_ioctl(f, fd, k);
}

/* ---- a private session with exact expectations ----------------------------------------- */

static int xio(struct fz *f, int fd, enum kind k, void *arg, struct expect ex, const char *what)
{
	return judge(f, fd, k, cmds[k].cmd, (unsigned long)arg, what, ex, NULL);
}

static bool xread(struct fz *f, int fd, struct pmcdrv_read *r, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	if (xio(f, fd, K_READ, r, (struct expect){ .ok = true }, what))
		return false;
	check_read_out(f, r, sizeof(*r));
	return true;
}

static void spin(struct fz *f)
{
	volatile unsigned long x = 0;
	unsigned long i, n = 1000 + rn(f, 100000);

	for (i = 0; i < n; i++)
		x += i;
	if (chance(f, 30))
		sched_yield();
}

/* ---- the self-read page: mmap, READ_SELF and RDPMC ---------------------------------------- */

/*
 * Probes that may fault: a read or write of a page, RDPMC.  A SIGSEGV or
 * SIGBUS inside a probe returns to it; anywhere else it kills the fuzzer
 * as it would without the handler.
 */
static __thread sigjmp_buf probe_jb;
static __thread volatile sig_atomic_t in_probe;

static void on_fault(int sig)
{
	if (in_probe)
		siglongjmp(probe_jb, 1);
	signal(sig, SIG_DFL);	/* the fault repeats and kills us */
}

static uint64_t rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return (uint64_t)hi << 32 | lo;
}

enum probe { P_READ, P_WRITE, P_RDPMC };

/* 0: done (*val: the byte read or the counter), 1: it faulted. */
static int probe(enum probe what, volatile unsigned char *p, uint32_t ecx, uint64_t *val)
{
	uint64_t v = 0;

	if (sigsetjmp(probe_jb, 1)) {
		in_probe = 0;
		return 1;
	}
	in_probe = 1;
	__asm__ __volatile__("" ::: "memory");
	switch (what) {
	case P_READ: v = *p; break;
	case P_WRITE: *p = *p; break;
	case P_RDPMC: v = rdpmc(ecx); break;
	}
	__asm__ __volatile__("" ::: "memory");
	in_probe = 0;
	if (val)
		*val = v;
	return 0;
}

/* What the self-page checks did, so a run shows they ran. */
static atomic_ulong n_pages, n_rdpmc, n_wfault, n_forks, n_moves, n_exited, n_exiter_mux;

/* /sys/.../cpu/rdpmc = 2: RDPMC allowed everywhere, so an unmapped process may use it. */
static bool rdpmc_everywhere;

/* A mapping a thread holds across operations; its slot may be closed or replaced meanwhile. */
struct hold {
	unsigned char *p;
	int fd;
	uint32_t nr_events;	/* 0: unknown (a table slot) */
	bool gone;		/* the page's thread has exited (another thread's page) */
};

/* Per thread, beside struct fz (kept out of it so the log stays first). */
#define MAX_HOLDS	4
static __thread struct hold holds[MAX_HOLDS];
static __thread unsigned int nholds;

/*
 * Check a mapped page: readable, the documented version, size and flags,
 * not writable (a write faults, mprotect to writable fails with EACCES).
 * The page is the calling thread's (@gone false): while it says RDPMC,
 * RDPMC with each live index works, as this thread runs with the page
 * mapped.  Or its thread has exited (@gone): it keeps its last values,
 * with no live index and not counting (an index is the owner's only, and
 * CR4.PCE is per thread: another thread's RDPMC may fault).  @nr_events:
 * the session's, or 0 if unknown.
 */
static void check_page(struct fz *f, unsigned char *p, uint32_t nr_events, bool gone,
		       const char *what)
{
	const volatile struct pmcdrv_self_page *pg = (const void *)p;
	struct pmcdrv_self_page snap;
	unsigned int i, tries;
	uint32_t seq;
	uint64_t v;

	if (probe(P_READ, p, 0, NULL) || probe(P_READ, p + page - 1, 0, NULL)) {
		violation(f, "self page %p (%s): a read of the mapped page faulted", (void *)p, what);
		return;
	}
	for (tries = 0; tries < 100; tries++) {
		seq = pg->seq;
		__asm__ __volatile__("" ::: "memory");
		memcpy(&snap, (const void *)pg, sizeof(snap));
		__asm__ __volatile__("" ::: "memory");
		if (pg->seq == seq)
			break;
	}
	if (snap.version != PMCDRV_SELF_PAGE_VERSION || snap.size != sizeof(snap) ||
	    snap.size < PMCDRV_SELF_PAGE_SIZE_VER0 ||
	    (snap.flags & ~(PMCDRV_SELF_COUNTING | PMCDRV_SELF_RDPMC | PMCDRV_SELF_TIME_TSC)) ||
	    snap.time_shift > 32 || (snap.time_shift && !snap.time_mult) ||
	    (!(snap.flags & PMCDRV_SELF_TIME_TSC) && snap.time_cycles) ||
	    ((snap.flags & PMCDRV_SELF_TIME_TSC) && !snap.time_mult) ||
	    !snap.nr_events || snap.nr_events > PMCDRV_SELF_MAX_EVENTS ||
	    (nr_events && snap.nr_events != (nr_events < PMCDRV_SELF_MAX_EVENTS ?
					     nr_events : PMCDRV_SELF_MAX_EVENTS)) ||
	    (snap.core_type && snap.core_type != PMC_CORE_TYPE_CORE &&
	     snap.core_type != PMC_CORE_TYPE_ATOM) ||
	    snap.reserved ||
	    snap.time_running != snap.time_enabled)
		violation(f, "self page (%s): version %u (want %u) size %u (want %zu) flags %#x nr_events %u (want %u) core_type %#x time %llu/%llu",
			  what, snap.version, PMCDRV_SELF_PAGE_VERSION, snap.size, sizeof(snap),
			  snap.flags, snap.nr_events, nr_events, snap.core_type,
			  (unsigned long long)snap.time_enabled, (unsigned long long)snap.time_running);
	for (i = 0; i < snap.nr_events && i < PMCDRV_SELF_MAX_EVENTS; i++) {
		const struct pmcdrv_self_event *e = &snap.events[i];

		if (e->width > 64 || (e->width && e->mask != (e->width == 64 ? ~0ULL :
							     (1ULL << e->width) - 1)) ||
		    (!e->width && (e->index || e->mask)))
			violation(f, "self page (%s): event %u index %#x width %u mask %#llx", what, i,
				  e->index, e->width, (unsigned long long)e->mask);
		if (gone && e->index)
			violation(f, "self page (%s): event %u has index %#x after its thread exited",
				  what, i, e->index);
		if (gone)
			continue;
		if (!e->index || !(snap.flags & PMCDRV_SELF_RDPMC) || (e->index & ~0x4000003fU))
			continue;
		if (probe(P_RDPMC, NULL, e->index - 1, &v))
			violation(f, "self page (%s) mapped with flag RDPMC, yet RDPMC %#x faulted", what,
				  e->index - 1);
		else
			atomic_fetch_add(&n_rdpmc, 1);
	}
	if (gone && (snap.flags & (PMCDRV_SELF_COUNTING | PMCDRV_SELF_TIME_TSC)))
		violation(f, "self page (%s): flags %#x say counting after its thread exited", what,
			  snap.flags);
	atomic_fetch_add(&n_pages, 1);
	if (!probe(P_WRITE, p + rn(f, (uint32_t)page), 0, NULL))
		violation(f, "self page (%s): a write to the read-only page succeeded", what);
	else
		atomic_fetch_add(&n_wfault, 1);
	if (!mprotect(p, page, PROT_READ | PROT_WRITE))
		violation(f, "self page (%s): mprotect to PROT_WRITE succeeded", what);
	else if (errno != EACCES)
		violation(f, "self page (%s): mprotect to PROT_WRITE: %s, want EACCES", what,
			  ename(errno));
	flog(f, "self page %p (%s): flags %#x nr_events %u seq %u", (void *)p, what, snap.flags,
	     snap.nr_events, snap.seq);
}

/* mmap(2) as a judged command; the mapping or NULL. */
static unsigned char *judge_mmap(struct fz *f, int fd, size_t len, int prot, int flags, off_t off,
				 const char *mut, struct expect ex)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);
	int e = p == MAP_FAILED ? errno : 0;

	flog(f, "fd=%d mmap len=%zu prot=%#x flags=%#x off=%#llx [%s] -> %s %p", fd, len, prot,
	     flags, (unsigned long long)off, mut, ename(e), p);
	hist_add(K_MMAP, e);
	ex.errs |= eb(ENOMEM);
	if (prot & PROT_EXEC)	/* the VFS: /dev mounted noexec */
		ex.errs |= eb(EPERM);
	if (e == EBADF && slot_fd(fd))
		return NULL;
	if (e)
		f->stats_err++;
	else
		f->stats_ok++;
	if ((!e && !ex.ok) || (e && !(ex.errs & eb(e)))) {
		char want[200];

		eset_str(ex.errs, ex.ok, want, sizeof(want));
		violation(f, "mmap [%s%s%s] len %zu prot %#x flags %#x off %#llx on fd %d: got %s, want one of: %s",
			  mut, ex.why ? ": " : "", ex.why ? ex.why : "", len, prot, flags,
			  (unsigned long long)off, fd, ename(e), want);
	}
	return e ? NULL : p;
}

static unsigned int state_errs(void)
{
	return eb(EBADFD) | eb(ESRCH) | eb(EOPNOTSUPP) | eb(ENOMEM);
}

static void hold_add(struct fz *f, unsigned char *p, int fd, uint32_t nr_events, bool gone)
{
	if (nholds < MAX_HOLDS && chance(f, 70)) {
		holds[nholds++] = (struct hold){ .p = p, .fd = fd, .nr_events = nr_events,
						 .gone = gone };
		flog(f, "hold %p (fd %d)", (void *)p, fd);
		return;
	}
	munmap(p, page);
}

/* A random, near-valid or valid mmap of a table slot. */
static void op_mmap(struct fz *f, int fd)
{
	struct expect ex = { .ok = true, .errs = state_errs() };
	int prot = PROT_READ, flags = MAP_SHARED;
	size_t len = (size_t)page;
	off_t off = 0;
	const char *mut = "valid";
	unsigned char *p;

	switch (rn(f, 12)) {
	case 0:
		len = 1 + rn(f, (uint32_t)page - 1);	/* rounds up to one page: valid */
		mut = "short length";
		break;
	case 1:
		len = (size_t)page + 1 + rn(f, 3 * (uint32_t)page);
		refuse(&ex, eb(EINVAL), "longer than a page");
		ex.errs = eb(EINVAL);
		mut = "long";
		break;
	case 2:
		len = 0;
		refuse(&ex, eb(EINVAL), "length 0");
		ex.errs = eb(EINVAL);
		mut = "length 0";
		break;
	case 3:
		off = chance(f, 50) ? page * (off_t)(1 + rn(f, 1000)) : 1 + rn(f, (uint32_t)page - 1);
		refuse(&ex, eb(EINVAL), "offset not 0");
		ex.errs = eb(EINVAL);
		mut = "offset";
		break;
	case 4:
		flags = MAP_PRIVATE;
		if (chance(f, 50))
			prot |= PROT_WRITE;
		refuse(&ex, eb(EINVAL), "MAP_PRIVATE");
		ex.errs = eb(EINVAL);
		mut = "private";
		break;
	case 5:
		prot = chance(f, 50) ? PROT_READ | PROT_WRITE : PROT_WRITE;
		refuse(&ex, eb(EPERM), "PROT_WRITE");
		ex.errs = eb(EPERM);
		mut = "writable";
		break;
	case 6:
		prot = PROT_READ | PROT_EXEC;
		mut = "exec";
		break;
	case 7:
		prot = PROT_NONE;
		mut = "PROT_NONE";
		break;
	case 8:
		flags |= MAP_POPULATE;
		mut = "populate";
		break;
	default:
		break;
	}
	p = judge_mmap(f, fd, len, prot, flags, off, mut, ex);
	if (!p)
		return;
	if (prot & PROT_READ)
		check_page(f, p, 0, false, mut);
	else if (!probe(P_READ, p, 0, NULL))
		violation(f, "self page mapped PROT_NONE: a read succeeded");
	if (prot & PROT_READ)
		hold_add(f, p, fd, 0, false);
	else
		munmap(p, page);
}

/* A child forked while this thread holds @h must not have the mapping, nor RDPMC through it. */
static void fork_check(struct fz *f, const struct hold *h)
{
	const struct pmcdrv_self_page *pg = (const void *)h->p;
	uint32_t ecx = 0;
	bool try_rdpmc = false;
	unsigned int i;
	int st;
	pid_t c;

	if (probe(P_READ, h->p, 0, NULL))
		return;
	if ((pg->flags & PMCDRV_SELF_RDPMC) && !rdpmc_everywhere)
		for (i = 0; i < pg->nr_events && i < PMCDRV_SELF_MAX_EVENTS; i++)
			if (pg->events[i].index && !(pg->events[i].index & ~0x4000003fU)) {
				ecx = pg->events[i].index - 1;
				try_rdpmc = true;
				break;
			}
	flog(f, "fork with %p mapped (rdpmc %d ecx %#x)", (void *)h->p, try_rdpmc, ecx);
	c = fork();
	if (c == 0) {
		char buf[16384], pat[40];
		ssize_t n, tot = 0;
		int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			while (tot < (ssize_t)sizeof(buf) - 1 &&
			       (n = read(fd, buf + tot, sizeof(buf) - 1 - (size_t)tot)) > 0)
				tot += n;
			close(fd);
		}
		buf[tot] = 0;
		snprintf(pat, sizeof(pat), "%lx-", (unsigned long)h->p);
		if (strstr(buf, pat))
			_exit(10);
		if (!probe(P_READ, h->p, 0, NULL))
			_exit(11);
		if (try_rdpmc && !probe(P_RDPMC, NULL, ecx, NULL))
			_exit(12);
		_exit(0);
	}
	if (c < 0)
		return;
	if (waitpid(c, &st, 0) != c)
		return;
	atomic_fetch_add(&n_forks, 1);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		violation(f, "fork with the self page %p mapped: the child %s",
			  (void *)h->p, !WIFEXITED(st) ? "died of a signal" :
			  WEXITSTATUS(st) == 10 ? "has it in /proc/self/maps" :
			  WEXITSTATUS(st) == 11 ? "can read it" :
			  WEXITSTATUS(st) == 12 ? "can execute RDPMC (CR4.PCE inherited without a page)" :
			  "failed");
}

/* Something on one held mapping: check it, move it, try to grow it, fork, unmap it. */
static void op_hold(struct fz *f)
{
	struct hold *h;
	unsigned int i;
	void *q, *t;

	if (!nholds)
		return;
	i = rn(f, nholds);
	h = &holds[i];
	switch (rn(f, 6)) {
	case 0:
	case 1:
		check_page(f, h->p, h->nr_events, h->gone, "held");
		return;
	case 2:		/* grow: VM_DONTEXPAND */
		q = mremap(h->p, page, 2 * page, chance(f, 50) ? MREMAP_MAYMOVE : 0);
		flog(f, "mremap grow %p -> %s", (void *)h->p, q == MAP_FAILED ? ename(errno) : "OK");
		if (q != MAP_FAILED) {
			violation(f, "mremap grew the one-page self mapping to %p", q);
			munmap(q, 2 * page);
			holds[i] = holds[--nholds];
			return;
		}
		check_page(f, h->p, h->nr_events, h->gone, "after a refused mremap");
		return;
	case 3:		/* move to another address: the page goes with it */
		t = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (t == MAP_FAILED)
			return;
		q = mremap(h->p, page, page, MREMAP_MAYMOVE | MREMAP_FIXED, t);
		flog(f, "mremap move %p -> %p: %s", (void *)h->p, t, q == MAP_FAILED ? ename(errno) : "OK");
		if (q == MAP_FAILED) {
			munmap(t, page);
			return;
		}
		h->p = q;
		atomic_fetch_add(&n_moves, 1);
		check_page(f, h->p, h->nr_events, h->gone, "moved");
		return;
	case 4:
		fork_check(f, h);
		return;
	default:
		flog(f, "munmap %p", (void *)h->p);
		if (munmap(h->p, page))
			violation(f, "munmap of the self page: %s", ename(errno));
		holds[i] = holds[--nholds];
		return;
	}
}

static void drop_holds(void)
{
	while (nholds)
		munmap(holds[--nholds].p, page);
}

/*
 * A thread that maps its page and exits: the page keeps its last values and
 * stays readable while mapped, READ_SELF from this (untracked) thread is
 * ESRCH, and the mapping outlives the fd.  A multiplexing session has no page
 * and no READ_SELF (EOPNOTSUPP).
 */
struct exiter {
	struct fz *f;
	struct fz mine;
	int fd;
	unsigned char *p;
	uint32_t nr_events;
	pid_t tid;
};

static void *exiter_fn(void *arg)
{
	struct exiter *x = arg;
	struct fz *f = &x->mine;
	struct pmcdrv_config c;
	struct pmcdrv_attach a;
	struct pmcdrv_read r;
	struct cfg_props cp;
	struct expect ex;
	bool mux;

	x->tid = (pid_t)syscall(SYS_gettid);
	x->fd = open_dev(f);
	if (x->fd < 0)
		return NULL;
	gen_config(f, &c, chance(f, 50), &cp);
	if (xio(f, x->fd, K_CONFIG, &c, config_expect(&cp), "exiter"))
		return NULL;
	x->nr_events = c.nr_events;
	mux = config_multiplexes(&c);
	gen_attach(f, &a, T_SELF);
	a.pid = 0;
	a.flags = 0;
	ex = attach_expect(T_SELF, cp.task_sw);
	ex.errs &= ~(eb(EBADFD) | eb(EALREADY));
	if (xio(f, x->fd, K_ATTACH, &a, ex, "exiter, self"))
		return NULL;
	if (mux) {
		ex = (struct expect){ .ok = false, .errs = eb(EOPNOTSUPP), .why = "a multiplexing session" };
		atomic_fetch_add(&n_exiter_mux, 1);
	} else {
		ex = (struct expect){ .ok = true, .errs = eb(ENOMEM) };
	}
	x->p = judge_mmap(f, x->fd, (size_t)page, PROT_READ, MAP_SHARED, 0, "exiter, tracked", ex);
	if (x->p)
		check_page(f, x->p, x->nr_events, false, "exiter's own");
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	if (!xio(f, x->fd, K_RSELF, &r, ex, "exiter, tracked"))
		check_rself_out(f, &r, sizeof(r));
	spin(f);
	return NULL;
}

/* Wait until thread @tid of this process is reaped (its /proc/self/task entry gone). */
static void wait_thread_gone(struct fz *f, pid_t tid)
{
	char path[48];
	struct stat st;
	unsigned int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (i = 0; i < 5000; i++) {
		if (stat(path, &st) && errno == ENOENT)
			return;
		usleep(200);
	}
	violation(f, "thread %d still in /proc/self/task 1 s after pthread_join()", (int)tid);
}

static void op_exiter(struct fz *f)
{
	struct exiter x = { .f = f, .fd = -1 };
	const struct expect esrch = { .ok = false, .errs = eb(ESRCH), .why = "an untracked thread" };
	struct pmcdrv_read r;
	pthread_t th;

	x.mine = *f;
	x.mine.stats_ok = x.mine.stats_err = 0;
	x.mine.rng = rnd(f);
	x.mine.id = f->id + 100;
	if (pthread_create(&th, NULL, exiter_fn, &x))
		return;
	pthread_join(th, NULL);
	/*
	 * pthread_join() returns at the thread's CLONE_CHILD_CLEARTID, in
	 * exit_mm(): before sched_process_exit, where pmcdrv stops its counting
	 * (the page may still say counting, with live indexes, meanwhile).  Its
	 * /proc/self/task entry goes in release_task(), after.
	 */
	wait_thread_gone(f, x.tid);
	f->stats_ok += x.mine.stats_ok;
	f->stats_err += x.mine.stats_err;
	if (x.fd < 0)
		return;
	flog(f, "exiter fd %d page %p, its thread gone", x.fd, (void *)x.p);
	if (x.p) {
		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		xio(f, x.fd, K_RSELF, &r, esrch, "exiter gone, from its creator");
		check_page(f, x.p, x.nr_events, true, "its thread exited");
		atomic_fetch_add(&n_exited, 1);
	}
	switch (rn(f, 3)) {
	case 0:		/* close first, keep reading */
		close(x.fd);
		if (x.p) {
			check_page(f, x.p, x.nr_events, true, "its fd closed, thread exited");
			hold_add(f, x.p, -1, x.nr_events, true);
		}
		break;
	case 1:		/* to the table; other threads close or replace it */
		if (x.p)
			hold_add(f, x.p, pick_slot(f), x.nr_events, true);
		dup2(x.fd, pick_slot(f));
		close(x.fd);
		break;
	default:
		if (x.p)
			munmap(x.p, page);
		close(x.fd);
		break;
	}
}

/*
 * READ_SELF and mmap on a private session at a known stage: exact errnos.
 * @tracked: the calling thread is counted by it; @cpu: a CPU session;
 * @mux: a multiplexing session (READ said PMCDRV_READ_MULTIPLEXED).
 */
static void self_exact(struct fz *f, int fd, int stage, bool tracked, bool cpu, bool mux,
		       uint32_t nr_events)
{
	struct expect ex;
	struct pmcdrv_read r;
	unsigned char *p;

	if (stage < 2) {
		ex = (struct expect){ .ok = false, .errs = eb(EBADFD), .why = "before ATTACH" };
	} else if (cpu) {
		ex = (struct expect){ .ok = false, .errs = eb(EOPNOTSUPP), .why = "a CPU session" };
	} else if (mux) {
		ex = (struct expect){ .ok = false, .errs = eb(EOPNOTSUPP), .why = "a multiplexing session" };
	} else if (!tracked) {
		ex = (struct expect){ .ok = false, .errs = eb(ESRCH), .why = "an untracked thread" };
	} else {
		ex = (struct expect){ .ok = true, .errs = eb(ENOMEM) };
	}
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	if (!xio(f, fd, K_RSELF, &r, ex, "lifecycle"))
		check_rself_out(f, &r, sizeof(r));
	p = judge_mmap(f, fd, (size_t)page, PROT_READ, MAP_SHARED, 0, "lifecycle", ex);
	if (!p)
		return;
	check_page(f, p, nr_events, false, "lifecycle");
	if (chance(f, 20)) {
		/* A write mapping stays refused whatever the state. */
		ex = (struct expect){ .ok = false, .errs = eb(EPERM), .why = "PROT_WRITE" };
		judge_mmap(f, fd, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, 0, "writable", ex);
	}
	if (chance(f, 30))
		fork_check(f, &(struct hold){ .p = p, .fd = fd, .nr_events = nr_events });
	hold_add(f, p, fd, nr_events, false);
}

static void op_lifecycle(struct fz *f)
{
	const struct expect badfd = { .ok = false, .errs = eb(EBADFD), .why = "before CONFIG" };
	const struct expect ok = { .ok = true };
	const struct expect already = { .ok = false, .errs = eb(EALREADY), .why = "second time" };
	struct pmcdrv_config c, c2, cin;
	struct pmcdrv_attach a;
	struct pmcdrv_read r1, r2;
	struct cfg_props cp, cp2;
	struct expect ex;
	enum target t;
	unsigned int i;
	bool enabled = true, attached = false;
	int fd, e;

	fd = open_dev(f);
	if (fd < 0)
		return;
	flog(f, "lifecycle fd=%d", fd);
	memset(&r1, 0, sizeof(r1));
	r1.size = sizeof(r1);
	xio(f, fd, K_READ, &r1, badfd, "fresh");
	xio(f, fd, chance(f, 50) ? K_ENABLE : K_RESET, NULL, badfd, "fresh");
	gen_attach(f, &a, T_SELF);
	xio(f, fd, K_ATTACH, &a, badfd, "fresh");
	if (chance(f, 15))
		self_exact(f, fd, 0, false, false, false, 0);

	gen_config(f, &c, chance(f, 60), &cp);
	cin = c;
	if (chance(f, 15)) {
		/* Output to a read-only page: EFAULT, and the session stays unconfigured. */
		ex = config_expect(&cp);
		ex.ok = false;
		ex.errs |= eb(EFAULT);
		e = judge(f, fd, K_CONFIG, cmds[K_CONFIG].cmd,
			  place(f, M_RDONLY, (unsigned char *)&c, sizeof(c)), "read-only, fresh", ex, NULL);
		if (e == EFAULT) {
			e = xio(f, fd, K_CONFIG, &c, config_expect(&cp), "after EFAULT");
			if (e == EALREADY) {
				violation(f, "CONFIG failed with EFAULT (output on a read-only page), yet it configured the session: the next CONFIG got EALREADY");
				e = 0;
			}
		}
	} else {
		e = xio(f, fd, K_CONFIG, &c, config_expect(&cp), "lifecycle");
		if (!e)
			check_config_out(f, &c, &cin);
	}
	if (e) {
		/* A software-only config cannot fail on a fresh session. */
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		c.event_size = sizeof(c.events[0]);
		c.nr_events = 1 + rn(f, 2);
		c.events[0].type = PMCDRV_EVENT_SW;
		c.events[0].sw_id = PMCDRV_SW_TASK_CLOCK;
		c.events[1].type = c.nr_events > 1 ? PMCDRV_EVENT_SW : 0;
		c.events[1].sw_id = c.nr_events > 1 ? 1 + rn(f, 3) : 0;
		memset(&cp, 0, sizeof(cp));
		cp.task_sw = c.events[1].sw_id > 1;
		if (xio(f, fd, K_CONFIG, &c, count_refused ? config_expect(&cp) : ok,
			"software only, fresh"))
			goto out;
	}
	gen_config(f, &c2, true, &cp2);
	xio(f, fd, K_CONFIG, &c2, already, "again");
	if (!xread(f, fd, &r1, "configured"))
		goto out;
	if (r1.nr_events != c.nr_events ||
	    (r1.flags & ~(PMCDRV_READ_ENABLED | PMCDRV_READ_MULTIPLEXED)) || r1.nr_tasks ||
	    r1.time_enabled || r1.lost_tasks || !all_zero(r1.values, sizeof(r1.values)))
		violation(f, "READ before ATTACH: nr_events %u (want %u) flags %#x nr_tasks %u time %llu: want nothing counted",
			  r1.nr_events, c.nr_events, r1.flags, r1.nr_tasks,
			  (unsigned long long)r1.time_enabled);
	if (chance(f, 25)) {
		xio(f, fd, K_DISABLE, NULL, ok, "before attach");
		enabled = false;
	}

	t = gen_attach(f, &a, chance(f, 45) ? T_SELF : (chance(f, 50) ? T_CHURN :
					       (chance(f, 60) ? (chance(f, 50) ? T_CPU : T_CGROUP) :
						T_PEER)));
	if (t == T_CHURN && !opt_churn)
		t = gen_attach(f, &a, T_SELF);
	ex = attach_expect(t, cp.task_sw);
	ex.errs &= ~(eb(EBADFD) | eb(EALREADY));
	e = xio(f, fd, K_ATTACH, &a, ex, target_names[t]);
	attached = !e;
	if (attached)
		xio(f, fd, K_ATTACH, &a, already, "again");
	if (chance(f, 60)) {
		pid_t me = (pid_t)syscall(SYS_gettid);

		self_exact(f, fd, attached ? 2 : 1,
			   attached && t != T_CPU && t != T_CGROUP && (a.pid == 0 || a.pid == me),
			   attached && (t == T_CPU || t == T_CGROUP), r1.flags & PMCDRV_READ_MULTIPLEXED,
			   c.nr_events);
	}
	/* Each of a cgroup session's cgroups reads; one past them is EINVAL; others EOPNOTSUPP. */
	for (i = 0; i <= (attached && t == T_CGROUP ? a.nr_cgroups : 0); i++) {
		const struct expect cg_ok = { .ok = true };
		const struct expect cg_inval = { .ok = false, .errs = eb(EINVAL), .why = "no such cgroup" };
		const struct expect cg_notsup = { .ok = false, .errs = eb(EOPNOTSUPP),
						  .why = "not a cgroup session" };
		const struct expect cg_badfd = { .ok = false, .errs = eb(EBADFD), .why = "before ATTACH" };

		memset(&r2, 0, sizeof(r2));
		r2.size = sizeof(r2);
		r2.cgroup = i;
		if (!xio(f, fd, K_RCGROUP, &r2, !attached ? cg_badfd : t != T_CGROUP ? cg_notsup :
			 i < a.nr_cgroups ? cg_ok : cg_inval, "lifecycle"))
			check_read_out(f, &r2, sizeof(r2));
	}

	for (i = 0; i < 3; i++) {
		if (!xread(f, fd, &r1, "a"))
			goto out;
		if (!!(r1.flags & PMCDRV_READ_ENABLED) != enabled)
			violation(f, "READ: ENABLED flag %d, want %d", !!(r1.flags & PMCDRV_READ_ENABLED),
				  enabled);
		if (attached && (t == T_CPU || t == T_CGROUP || t == T_SELF) &&
		    !(r1.flags & PMCDRV_READ_ATTACHED))
			violation(f, "READ: attached to %s (pid %d cpu %u) but no ATTACHED flag (flags %#x, nr_tasks %u)",
				  target_names[t], a.pid, a.cpu, r1.flags, r1.nr_tasks);
		spin(f);
		if (!xread(f, fd, &r2, "b"))
			goto out;
		if (r2.time_enabled < r1.time_enabled)
			violation(f, "READ: time went back %llu -> %llu",
				  (unsigned long long)r1.time_enabled, (unsigned long long)r2.time_enabled);
		for (unsigned int j = 0; j < r1.nr_events; j++)
			if (r2.values[j] < r1.values[j])
				violation(f, "READ: value %u went back %llu -> %llu", j,
					  (unsigned long long)r1.values[j],
					  (unsigned long long)r2.values[j]);
		if (!enabled && (r1.time_enabled != r2.time_enabled ||
				 memcmp(r1.values, r2.values, sizeof(r1.values))))
			violation(f, "READ: counts changed while disabled: time %llu -> %llu",
				  (unsigned long long)r1.time_enabled, (unsigned long long)r2.time_enabled);
		switch (rn(f, 3)) {
		case 0:
			enabled = !enabled;
			xio(f, fd, enabled ? K_ENABLE : K_DISABLE, NULL, ok, "lifecycle");
			break;
		case 1:
			xio(f, fd, K_RESET, NULL, ok, "lifecycle");
			break;
		default:
			break;
		}
	}
out:
	if (chance(f, 40)) {
		int s = pick_slot(f);

		flog(f, "lifecycle fd=%d handed to slot %d", fd, s);
		dup2(fd, s);
	}
	close(fd);
}

/* ---- other operations ---------------------------------------------------------------------- */

static void op_fork_burst(struct fz *f)
{
	unsigned int i, n = 1 + rn(f, 48);
	pid_t p;

	flog(f, "fork burst %u", n);
	for (i = 0; i < n; i++) {
		p = fork();
		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
}

static void *fuzz_thread(void *arg)
{
	struct fz *f = arg;
	int s, s2;

	tids[f->id] = (pid_t)syscall(SYS_gettid);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		unsigned int x = rn(f, 100);

		f->op++;
		if (x < 44) {
			op_ioctl(f, pick_slot(f));
		} else if (x < 50) {
			if (chance(f, 70))
				op_mmap(f, pick_slot(f));
			else
				op_hold(f);
		} else if (x < 52) {
			op_exiter(f);
		} else if (x < 58) {
			op_open(f);
		} else if (x < 63) {
			s = pick_slot(f);
			flog(f, "close slot %d", s);
			close(s);
		} else if (x < 67) {
			s = pick_slot(f);
			s2 = pick_slot(f);
			flog(f, "dup2 slot %d -> %d", s, s2);
			dup2(s, s2);
		} else if (x < 80) {
			op_lifecycle(f);
		} else if (x < 82) {
			op_fork_burst(f);
		} else if (x < 84) {
			usleep(rn(f, 2000));
		} else {
			/* a burst on one slot, so closes land inside it */
			s = pick_slot(f);
			for (s2 = 0; s2 < 8; s2++)
				op_ioctl(f, s);
		}
	}
	drop_holds();
	return NULL;
}

/* ---- the churn process: forks, execs, exits ------------------------------------------------- */

static void churn_publish(pid_t p)
{
	unsigned int i = atomic_fetch_add(&ring->idx, 1);

	atomic_store(&ring->pids[i % RING], p);
}

static void busy(uint64_t *r, unsigned int max)
{
	volatile unsigned long x = 0;
	unsigned long i, n;

	*r = *r * 6364136223846793005ULL + 1442695040888963407ULL;
	n = (*r >> 33) % max;
	for (i = 0; i < n; i++)
		x += i;
}

static void *churn_thread_fn(void *arg)
{
	uint64_t r = (uintptr_t)arg;

	churn_publish((pid_t)syscall(SYS_gettid));
	busy(&r, 200000);
	return NULL;
}

static void churn_child(uint64_t r)
{
	char depth[16];
	pthread_t th;
	pid_t g;

	churn_publish(getpid());
	busy(&r, 300000);
	switch ((r >> 40) % 5) {
	case 0:		/* exec ourselves a few times */
		snprintf(depth, sizeof(depth), "%u", (unsigned int)((r >> 20) % 3));
		execl(self_exe, self_exe, "--churn-exec", depth, (char *)NULL);
		break;
	case 1:		/* a grandchild */
		g = fork();
		if (g == 0) {
			churn_publish(getpid());
			busy(&r, 100000);
			_exit(0);
		}
		if (g > 0)
			waitpid(g, NULL, 0);
		break;
	case 2:		/* a thread */
		if (!pthread_create(&th, NULL, churn_thread_fn, (void *)(uintptr_t)r))
			pthread_join(th, NULL);
		break;
	default:
		break;
	}
	_exit(0);
}

static void churn_main(void)
{
	uint64_t r = opt_seed ^ 0x5bd1e995;
	unsigned int alive = 0;
	pid_t p;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	churn_publish(getpid());
	while (!atomic_load(&ring->stop)) {
		while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
			alive--;
		if (alive >= MAX_CHURN_KIDS) {
			if (waitpid(-1, NULL, 0) > 0)
				alive--;
			continue;
		}
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		p = fork();
		if (p == 0)
			churn_child(r);
		if (p > 0)
			alive++;
		else
			usleep(1000);
		if ((r >> 50) % 4 == 0)
			usleep((r >> 30) % 3000);
	}
	while (waitpid(-1, NULL, 0) > 0)
		;
	_exit(0);
}

/* pmcfuzz --churn-exec N: a freshly exec'd churn child. */
static int churn_exec(int depth)
{
	uint64_t r = (uint64_t)getpid() * 2654435761U;
	char d[16];

	busy(&r, 200000);
	if (depth > 0) {
		snprintf(d, sizeof(d), "%d", depth - 1);
		execl(self_exe, self_exe, "--churn-exec", d, (char *)NULL);
	}
	return 0;
}

/* ---- CPU hotplug (--hotplug, root) ------------------------------------------------------------ */

static int cpu_online_set(int cpu, int on)
{
	char path[96];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static void *hotplug_thread(void *arg)
{
	struct fz *f = arg;
	int cpu;

	while (!atomic_load(&stop) && ncpu_online > 1) {
		cpu = 1 + (int)rn(f, (uint32_t)ncpu_online - 1);
		cpu_online_set(cpu, 0);
		usleep(10000 + rn(f, 100000));
		cpu_online_set(cpu, 1);
		usleep(10000 + rn(f, 200000));
	}
	return NULL;
}

/* ---- setup and the end ----------------------------------------------------------------------- */

static int read_int_file(const char *path, int dflt)
{
	FILE *fp = fopen(path, "re");
	int v = dflt;

	if (fp) {
		if (fscanf(fp, "%d", &v) != 1)
			v = dflt;
		fclose(fp);
	}
	return v;
}

static int possible_cpus(void)
{
	FILE *fp = fopen("/sys/devices/system/cpu/possible", "re");
	int a = 0, b = -1;

	if (fp) {
		if (fscanf(fp, "%d-%d", &a, &b) < 1)
			b = -1;
		fclose(fp);
	}
	if (b < a)
		b = a;
	return b + 1;
}

static void on_alarm(int sig)
{
	static const char msg[] = "pmcfuzz: HANG: threads still running 60 s after the deadline\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pmcfuzz [--seed N] [--seconds S] [--threads T] [--slots N] [--device PATH]\n"
		"               [--exclusive] [--hotplug] [--no-churn] [-v]\n");
	exit(2);
}

static void final_checks(void)
{
	struct pmcdrv_info in;
	int fd = open(opt_dev, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		violation(NULL, "open at the end: %s", ename(errno));
		return;
	}
	/* The claim lingers 1 s after the last session stops counting (design.md). */
	errno = pmcdev_wait_unclaimed(fd, 3000, &in);
	if (errno && errno != ETIMEDOUT) {
		violation(NULL, "INFO at the end: %s", ename(errno));
	} else if (opt_exclusive && ((in.flags & PMCDRV_INFO_CLAIMED) || in.in_use_hw ||
				      in.in_use_reserved)) {
		violation(NULL, "every session closed, yet INFO says flags %#x (CLAIMED %d) in_use_hw %#llx in_use_reserved %#llx: a leaked claim or counters left running",
			  in.flags, !!(in.flags & PMCDRV_INFO_CLAIMED),
			  (unsigned long long)in.in_use_hw, (unsigned long long)in.in_use_reserved);
	}
	close(fd);
}

/* Is the caller in the device's group, when that group is not root's? */
static bool device_group_member(void)
{
	gid_t groups[256];
	struct stat st;
	int i, n;

	if (stat(opt_dev, &st) || st.st_gid == 0)
		return false;
	if (getegid() == st.st_gid)
		return true;
	n = getgroups(256, groups);
	for (i = 0; i < n; i++) {
		if (groups[i] == st.st_gid)
			return true;
	}
	return false;
}

int main(int argc, char **argv)
{
	struct fz *fzs;
	pthread_t th[MAX_THREADS], hp;
	struct fz hpf;
	struct timespec ts;
	unsigned long total = 0, okc = 0, errc = 0;
	bool seeded = false;
	int i, fd;

	if (argc == 3 && !strcmp(argv[1], "--churn-exec"))
		return churn_exec(atoi(argv[2]));
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--seed") && v) {
			opt_seed = strtoull(v, NULL, 0);
			seeded = true;
			i++;
		} else if (!strcmp(argv[i], "--seconds") && v) {
			opt_seconds = atoi(v);
			i++;
		} else if (!strcmp(argv[i], "--threads") && v) {
			opt_threads = atoi(v);
			i++;
		} else if (!strcmp(argv[i], "--slots") && v) {
			opt_slots = atoi(v);
			i++;
		} else if (!strcmp(argv[i], "--device") && v) {
			opt_dev = v;
			i++;
		} else if (!strcmp(argv[i], "--exclusive")) {
			opt_exclusive = true;
		} else if (!strcmp(argv[i], "--hotplug")) {
			opt_hotplug = true;
		} else if (!strcmp(argv[i], "--no-churn")) {
			opt_churn = false;
		} else if (!strcmp(argv[i], "-v")) {
			opt_verbose++;
		} else {
			usage();
		}
	}
	if (opt_threads < 1 || opt_threads > MAX_THREADS || opt_slots < 1 ||
	    opt_slots > MAX_SLOTS || opt_seconds < 0)
		usage();
	if (!seeded) {
		clock_gettime(CLOCK_REALTIME, &ts);
		opt_seed = ((uint64_t)ts.tv_sec * 1000003U) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid();
		opt_seed %= 1000000000ULL;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	init_abi_sets();
	open_cgroup_fds();
	page = sysconf(_SC_PAGESIZE);
	if (page != 4096) {
		fprintf(stderr, "pmcfuzz: page size %ld unsupported\n", page);
		return 2;
	}
	privileged = geteuid() == 0;
	/* perf's setting: cpu's, or on a hybrid part cpu_core's (one setting for both types) */
	rdpmc_everywhere = read_int_file("/sys/bus/event_source/devices/cpu/rdpmc",
					 read_int_file("/sys/bus/event_source/devices/cpu_core/rdpmc",
						       1)) == 2;
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fault;
		sigaction(SIGSEGV, &sa, NULL);
		sigaction(SIGBUS, &sa, NULL);
	}
	paranoid = read_int_file("/proc/sys/kernel/perf_event_paranoid", 2);
	count_refused = !privileged && paranoid > 2 && !device_group_member();
	ncpu_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	ncpu_possible = possible_cpus();
	if (ncpu_possible < ncpu_online)
		ncpu_possible = ncpu_online;
	opt_hotplug = opt_hotplug && privileged && ncpu_online > 1;
	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0)
		snprintf(self_exe, sizeof(self_exe), "%s", argv[0]);

	fd = open(opt_dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "pmcfuzz: %s: %s\n", opt_dev, strerror(errno));
		return 2;
	}
	info0.size = sizeof(info0);
	if (ioctl(fd, PMCDRV_IOC_INFO, &info0)) {
		fprintf(stderr, "pmcfuzz: INFO: %s\n", strerror(errno));
		return 2;
	}
	close(fd);

	printf("pmcfuzz: seed=%" PRIu64 " seconds=%d threads=%d slots=%d uid=%d paranoid=%d cpus=%d/%d perfmon=v%u gp=%u fixed=%u exclusive=%d hotplug=%d churn=%d\n",
	       opt_seed, opt_seconds, opt_threads, opt_slots, (int)geteuid(), paranoid,
	       ncpu_online, ncpu_possible, info0.perfmon_version, info0.num_gp, info0.num_fixed,
	       opt_exclusive, opt_hotplug, opt_churn);
	printf("pmcfuzz: replay: %s --seed %" PRIu64 " --seconds %d --threads %d --slots %d%s%s%s\n",
	       argv[0], opt_seed, opt_seconds, opt_threads, opt_slots,
	       opt_exclusive ? " --exclusive" : "", opt_hotplug ? " --hotplug" : "",
	       opt_churn ? "" : " --no-churn");

	ring = mmap(NULL, sizeof(*ring), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ring == MAP_FAILED)
		return 2;
	if (opt_churn) {
		churner = fork();
		if (churner == 0)
			churn_main();
		if (churner < 0) {
			perror("pmcfuzz: fork");
			return 2;
		}
	}

	fzs = calloc((size_t)opt_threads, sizeof(*fzs));
	if (!fzs)
		return 2;
	for (i = 0; i < opt_threads; i++) {
		struct fz *f = &fzs[i];

		f->id = i;
		/* Hashed per thread: additive offsets would make the streams shifted copies. */
		f->rng = mix64(opt_seed + mix64((uint64_t)i + 1));
		f->arena = mmap(NULL, 5 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (f->arena == MAP_FAILED || mprotect(f->arena + 2 * page, page, PROT_NONE) ||
		    mprotect(f->arena + 3 * page, page, PROT_READ) ||
		    mprotect(f->arena + 4 * page, page, PROT_NONE))
			return 2;
	}
	for (i = 0; i < opt_threads; i++)
		if (pthread_create(&th[i], NULL, fuzz_thread, &fzs[i]))
			return 2;
	memset(&hpf, 0, sizeof(hpf));
	hpf.rng = opt_seed ^ 0xabcdef;
	if (opt_hotplug && pthread_create(&hp, NULL, hotplug_thread, &hpf))
		opt_hotplug = false;

	/* Until the deadline, with a progress line a minute, so a long run shows it is alive. */
	for (i = 0; i < opt_seconds; i += 60) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += opt_seconds - i < 60 ? opt_seconds - i : 60;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		if (i + 60 < opt_seconds) {
			unsigned long ops = 0;

			for (fd = 0; fd < opt_threads; fd++)
				ops += fzs[fd].op;
			printf("pmcfuzz: %d s: %lu operations, %ld violations\n", i + 60, ops,
			       (long)atomic_load(&violations));
		}
	}
	atomic_store(&stop, true);
	signal(SIGALRM, on_alarm);
	alarm(60);
	for (i = 0; i < opt_threads; i++)
		pthread_join(th[i], NULL);
	if (opt_hotplug) {
		pthread_join(hp, NULL);
		for (i = 1; i < ncpu_possible; i++)
			cpu_online_set(i, 1);
	}
	if (opt_churn) {
		atomic_store(&ring->stop, 1);
		usleep(200000);
		kill(churner, SIGKILL);
		waitpid(churner, NULL, 0);
	}
	for (i = 0; i < MAX_SLOTS; i++)
		close(SLOT_BASE + i);
	alarm(0);
	final_checks();

	for (i = 0; i < opt_threads; i++) {
		total += fzs[i].op;
		okc += fzs[i].stats_ok;
		errc += fzs[i].stats_err;
	}
	hist_print();
	printf("pmcfuzz: self pages checked %lu (RDPMC through them %lu, writes faulted %lu), forks with a page mapped %lu, mremap moves %lu, pages outliving their thread %lu, exiting threads on a multiplexing session (no page) %lu\n",
	       atomic_load(&n_pages), atomic_load(&n_rdpmc), atomic_load(&n_wfault),
	       atomic_load(&n_forks), atomic_load(&n_moves), atomic_load(&n_exited),
	       atomic_load(&n_exiter_mux));
	printf("pmcfuzz: %lu operations, %lu ioctls succeeded, %lu failed as allowed or not; churn published %u pids; %ld notes\n",
	       total, okc, errc, ring->idx, (long)atomic_load(&notes));
	if (atomic_load(&violations)) {
		printf("pmcfuzz: FAILED: %ld violations; replay with --seed %" PRIu64 "\n",
		       (long)atomic_load(&violations), opt_seed);
		return 1;
	}
	printf("pmcfuzz: OK seed=%" PRIu64 "\n", opt_seed);
	return 0;
}
