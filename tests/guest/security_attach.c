// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest security tests (docs/security.md), run as root by
 * tests/guest/65-security.sh; every check runs its ioctls as an
 * unprivileged user (nobody, 65534) on a file root opened, as if the
 * device were world-accessible (devmode=0666):
 *
 *  - attach: pmcdrv's verdict equals the kernel's PTRACE_MODE_READ_REALCREDS
 *    verdict, read from kcmp(2), which asks exactly that, for another
 *    user's process, one's own, a non-dumpable one, a running setuid
 *    program, a process in another user namespace, and a non-dumpable
 *    process seen from root of a user namespace that does not own its mm;
 *  - setuid exec: a tracked task that execs a setuid image stops being
 *    counted there (flag SECURE_EXEC), and enable-on-exec never starts it;
 *  - perf_event_paranoid 3, 2, 1, 0, -1 and the device-group opt-in.
 *
 * Usage: security_attach SUID-COPY PLAIN-COPY  (both copies of this program,
 *        the first setuid root), or security_attach --spin MS | --sleep
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/kcmp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "pmcdev.h"
#include "libpmc.h"

#define NOBODY		65534
#define OTHER_UID	1000
#define OPT_IN_GID	4242

static struct check_state st;
static const char *dev = PMC_DEFAULT_DEVICE;
static const char *suid_copy, *plain_copy;
static bool have_pmu;






/*
 * Become @uid/@gid (with @extra_gid as the only supplementary group, or
 * none), and dumpable again, as a process that user started would be (the
 * change of credentials made it non-dumpable).
 */
static void become(uid_t uid, gid_t gid, gid_t extra_gid)
{
	if (setgroups(extra_gid ? 1 : 0, &extra_gid) || setgid(gid) || setuid(uid) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		_exit(99);
}

/* Wait for @pid; its exit status, or -1 if it did not exit. */
static int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- target processes ---------------------------------------------------------- */

enum target_kind {
	T_PLAIN,	/* dumpable, as @uid */
	T_NONDUMP,	/* prctl(PR_SET_DUMPABLE, 0) */
	T_USERNS,	/* in a user namespace of its own */
	T_USERNS_NONDUMP, /* that, and non-dumpable */
	T_SUID,		/* the setuid copy of this program, run by @uid */
};

/* A sleeping target as @uid; returns its pid once it is ready. */
static pid_t spawn_target(enum target_kind kind, uid_t uid)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		become(uid, uid, 0);
		if (kind == T_NONDUMP && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			_exit(98);
		if ((kind == T_USERNS || kind == T_USERNS_NONDUMP) && unshare(CLONE_NEWUSER))
			_exit(98);
		if (kind == T_USERNS_NONDUMP && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			_exit(98);
		if (kind == T_SUID) {
			dup2(p[1], 3);	/* --sleep writes its readiness there */
			execl(suid_copy, suid_copy, "--sleep", (char *)NULL);
			_exit(97);
		}
		if (write(p[1], "r", 1) != 1)
			_exit(98);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		close(p[0]);
		kill(pid, SIGKILL);
		wait_status(pid);
		return -1;
	}
	close(p[0]);
	return pid;
}

static void kill_target(pid_t pid)
{
	kill(pid, SIGKILL);
	wait_status(pid);
}

/* ---- attach: pmcdrv against the kernel's own READ_REALCREDS verdict ---------------- */

/* kcmp(2) asks ptrace_may_access(PTRACE_MODE_READ_REALCREDS) of both tasks. */
static int kcmp_errno(pid_t pid)
{
	return syscall(SYS_kcmp, getpid(), pid, KCMP_VM, 0, 0) < 0 ? errno : 0;
}

/* Child: ATTACH to @pid and ask kcmp; the two errnos go back through @out. */
static void attach_and_kcmp(int fd, pid_t pid, int out)
{
	unsigned char r[2];

	r[0] = (unsigned char)pmcdev_attach(fd, pid, 0);
	r[1] = (unsigned char)kcmp_errno(pid);
	if (write(out, r, 2) != 2)
		_exit(98);
	_exit(0);
}

/* As nobody: ATTACH to @pid on a fresh session; *kcmp gets the kernel's verdict. */
static int attach_as_nobody(pid_t pid, int *kcmp)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	unsigned char r[2] = { 98, 98 };
	int fd = pmcdev_open(dev), p[2];
	pid_t child;

	if (pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c) || pipe(p))
		return -1;
	child = fork();
	if (child == 0) {
		close(p[0]);
		become(NOBODY, NOBODY, 0);
		attach_and_kcmp(fd, pid, p[1]);
	}
	close(p[1]);
	if (read(p[0], r, 2) != 2)
		r[0] = r[1] = 97;
	close(p[0]);
	wait_status(child);
	close(fd);
	*kcmp = r[1];
	return r[0];
}

static void check_attach(const char *name, enum target_kind kind, uid_t uid, int want)
{
	char buf[160];
	int e, k = -1;
	pid_t t = spawn_target(kind, uid);

	if (t < 0) {
		printf("SKIP: %s: cannot create the target\n", name);
		return;
	}
	e = attach_as_nobody(t, &k);
	snprintf(buf, sizeof(buf), "%s -> %s", name, want ? strerror(want) : "ok");
	CHECK(&st, e == want, buf, "attach errno %d (%s)", e, strerror(e));
	if (k == ENOSYS) {
		printf("SKIP: %s: same verdict as the kernel's: this kernel has no kcmp(2) (CONFIG_KCMP)\n",
		       name);
	} else {
		snprintf(buf, sizeof(buf), "%s: same verdict as the kernel's (kcmp)", name);
		CHECK(&st, (e == 0) == (k == 0), buf, "attach errno %d, kcmp errno %d", e, k);
	}
	kill_target(t);
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/*
 * Root of a user namespace (nobody outside) holds CAP_SYS_PTRACE over
 * tasks whose credentials belong to that namespace, but not over an mm
 * that init_user_ns owns: a non-dumpable such task is refused, as by
 * __ptrace_may_access(), which checks dumpability against mm->user_ns on
 * the CAP_SYS_PTRACE path too.
 */
static void check_attach_userns_root(void)
{
	const char *name = "attach as root of a user namespace to a non-dumpable task whose mm it does not own";
	struct pmcdrv_config c = pmcdev_task_clock_config();
	unsigned char r[2] = { 97, 97 };
	int fd = pmcdev_open(dev), p[2], q[2];
	pid_t child, t;
	char ch;

	if (pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c) || pipe(p))
		return;
	child = fork();
	if (child == 0) {
		close(p[0]);
		become(NOBODY, NOBODY, 0);
		if (unshare(CLONE_NEWUSER) ||
		    write_file("/proc/self/uid_map", "0 65534 1") ||
		    write_file("/proc/self/setgroups", "deny") ||
		    write_file("/proc/self/gid_map", "0 65534 1")) {
			r[0] = r[1] = 96;
			if (write(p[1], r, 2) != 2)
				_exit(98);
			_exit(0);
		}
		if (pipe(q))
			_exit(98);
		t = fork();
		if (t == 0) {
			close(q[0]);
			if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) || write(q[1], "r", 1) != 1)
				_exit(98);
			pause();
			_exit(0);
		}
		close(q[1]);
		if (read(q[0], &ch, 1) != 1)
			_exit(98);
		r[0] = (unsigned char)pmcdev_attach(fd, t, 0);
		r[1] = (unsigned char)kcmp_errno(t);
		kill(t, SIGKILL);
		wait_status(t);
		if (write(p[1], r, 2) != 2)
			_exit(98);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], r, 2) != 2)
		r[0] = r[1] = 97;
	close(p[0]);
	wait_status(child);
	close(fd);
	if (r[0] == 96) {
		printf("SKIP: %s: no unprivileged user namespaces here\n", name);
		return;
	}
	CHECK(&st, r[0] == EPERM, name, "attach errno %d (%s), want EPERM", r[0], strerror(r[0]));
	if (r[1] == ENOSYS)
		printf("SKIP: that: same verdict as the kernel's: this kernel has no kcmp(2) (CONFIG_KCMP)\n");
	else
		CHECK(&st, (r[0] == 0) == (r[1] == 0), "that: same verdict as the kernel's (kcmp)",
		      "attach errno %d, kcmp errno %d", r[0], r[1]);
}

/* ---- setuid exec ------------------------------------------------------------------ */

/*
 * As nobody: track a child of our own (nobody too) that execs @path
 * --spin @ms, with ATTACH @flags.  Returns the READ after it exited.
 */
static int exec_counted(const char *path, uint32_t flags, unsigned int ms, struct pmcdrv_read *out)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	int fd = pmcdev_open(dev), p[2], q[2];
	pid_t mon;

	if (pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c) || pipe(q))
		return -1;
	mon = fork();
	if (mon == 0) {
		struct pmcdrv_read r;
		char msbuf[16];
		pid_t t;
		int e;

		close(q[0]);
		become(NOBODY, NOBODY, 0);
		if (pipe(p))
			_exit(98);
		t = fork();
		if (t == 0) {
			char ch;

			close(p[1]);
			if (read(p[0], &ch, 1) != 1)
				_exit(98);
			snprintf(msbuf, sizeof(msbuf), "%u", ms);
			execl(path, path, "--spin", msbuf, (char *)NULL);
			_exit(97);
		}
		close(p[0]);
		e = pmcdev_attach(fd, t, flags);
		if (write(p[1], "g", 1) != 1)
			_exit(98);
		close(p[1]);
		wait_status(t);
		memset(&r, 0, sizeof(r));
		if (!e)
			e = pmcdev_read(fd, &r);
		r.reserved[0] = (uint64_t)e;	/* carry the errno back */
		if (write(q[1], &r, sizeof(r)) != sizeof(r))
			_exit(98);
		_exit(0);
	}
	close(q[1]);
	memset(out, 0, sizeof(*out));
	if (read(q[0], out, sizeof(*out)) != sizeof(*out))
		out->reserved[0] = 97;
	close(q[0]);
	wait_status(mon);
	close(fd);
	return (int)out->reserved[0];
}

static bool is_setuid_root(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && sb.st_uid == 0 && (sb.st_mode & S_ISUID);
}

static void test_setuid_exec(void)
{
	struct pmcdrv_read r;
	const unsigned int ms = 300;
	const uint64_t full = ms * 1000000ULL * 8 / 10, little = ms * 1000000ULL / 5;
	int e;

	if (!is_setuid_root(suid_copy)) {
		printf("SKIP: setuid exec: %s is not setuid root\n", suid_copy);
		return;
	}
	/* The control: the same program without the setuid bit is counted whole. */
	e = exec_counted(plain_copy, 0, ms, &r);
	CHECK(&st, e == 0 && r.values[0] >= full && !(r.flags & PMCDRV_READ_SECURE_EXEC),
	      "exec of a plain program: counted on (task-clock >= 80% of its spin)",
	      "errno %d task-clock %llu ns flags 0x%x", e, (unsigned long long)r.values[0], r.flags);
	e = exec_counted(suid_copy, 0, ms, &r);
	CHECK(&st, e == 0 && r.values[0] < little,
	      "exec of a setuid-root program: not counted after the exec (task-clock < 20% of its spin)",
	      "errno %d task-clock %llu ns", e, (unsigned long long)r.values[0]);
	CHECK(&st, e == 0 && (r.flags & PMCDRV_READ_SECURE_EXEC) && !(r.flags & PMCDRV_READ_ATTACHED),
	      "exec of a setuid-root program: READ says SECURE_EXEC, no task attached",
	      "errno %d flags 0x%x", e, r.flags);
	e = exec_counted(plain_copy, PMCDRV_ATTACH_ENABLE_ON_EXEC, ms, &r);
	CHECK(&st, e == 0 && r.values[0] >= full,
	      "enable-on-exec of a plain program: counted", "errno %d task-clock %llu ns",
	      e, (unsigned long long)r.values[0]);
	e = exec_counted(suid_copy, PMCDRV_ATTACH_ENABLE_ON_EXEC, ms, &r);
	CHECK(&st, e == 0 && r.values[0] == 0 && (r.flags & PMCDRV_READ_SECURE_EXEC),
	      "enable-on-exec of a setuid-root program: never starts (task-clock 0, SECURE_EXEC)",
	      "errno %d task-clock %llu ns flags 0x%x", e, (unsigned long long)r.values[0], r.flags);
}

/* ---- perf_event_paranoid ------------------------------------------------------------ */

static int set_paranoid(int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d\n", v);
	return write_file("/proc/sys/kernel/perf_event_paranoid", buf);
}

/* As nobody (with @gid as a supplementary group when non-zero): CONFIG @c, then ATTACH @flags. */
static void as_nobody(const struct pmcdrv_config *c, uint32_t flags, gid_t gid,
		      int *config_err, int *attach_err)
{
	int fd = pmcdev_open(dev), p[2], r[2] = { 97, 97 };
	pid_t child;

	if (pipe(p))
		exit(1);
	child = fork();
	if (child == 0) {
		struct pmcdrv_config copy = *c;
		struct pmcdrv_attach a;

		close(p[0]);
		become(NOBODY, NOBODY, gid);
		r[0] = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &copy);
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.flags = flags;
		r[1] = r[0] ? -1 : pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
		if (write(p[1], r, sizeof(r)) != sizeof(r))
			_exit(98);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], r, sizeof(r)) != sizeof(r))
		r[0] = r[1] = 97;
	close(p[0]);
	wait_status(child);
	close(fd);
	*config_err = r[0];
	*attach_err = r[1];
}

static void test_paranoid(void)
{
	struct pmcdrv_config user = pmcdev_task_clock_config(), kern;
	char name[160];
	int ce, ae, i;
	static const struct {
		int paranoid;
		int user, kernel, cpu;	/* errno of each as nobody */
	} t[] = {
		{ 3, EACCES, EACCES, EACCES },
		{ 2, 0, EACCES, EACCES },
		{ 1, 0, 0, EACCES },
		{ 0, 0, 0, 0 },
		{ -1, 0, 0, 0 },
	};

	memset(&kern, 0, sizeof(kern));
	kern.size = sizeof(kern);
	kern.nr_events = 1;
	kern.events[0].type = PMCDRV_EVENT_HW;
	kern.events[0].event = 0xc0;
	kern.events[0].flags = PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL;

	for (i = 0; i < (int)ARRAY_SIZE(t); i++) {
		if (set_paranoid(t[i].paranoid)) {
			printf("SKIP: paranoid %d: cannot set the sysctl\n", t[i].paranoid);
			continue;
		}
		as_nobody(&user, 0, 0, &ce, &ae);
		snprintf(name, sizeof(name), "paranoid %d, nobody: count itself in user mode -> %s",
			 t[i].paranoid, t[i].user ? "EACCES at CONFIG" : "ok");
		CHECK(&st, ce == t[i].user && (ce || !ae), name, "config errno %d, attach errno %d", ce, ae);
		if (have_pmu) {
			as_nobody(&kern, 0, 0, &ce, &ae);
			snprintf(name, sizeof(name), "paranoid %d, nobody: kernel-mode event -> %s",
				 t[i].paranoid, t[i].kernel ? "EACCES at CONFIG" : "ok");
			CHECK(&st, ce == t[i].kernel, name, "config errno %d", ce);
		}
		as_nobody(&user, PMCDRV_ATTACH_CPU, 0, &ce, &ae);
		snprintf(name, sizeof(name), "paranoid %d, nobody: CPU session -> %s",
			 t[i].paranoid, t[i].cpu ? "EACCES" : "ok");
		CHECK(&st, (ce ? ce : ae) == t[i].cpu, name, "config errno %d, attach errno %d", ce, ae);
	}

	/* The administrator's opt-in under paranoid 3: the device's group. */
	if (!set_paranoid(3) && !chown(dev, 0, OPT_IN_GID) && !chmod(dev, 0660)) {
		as_nobody(&user, 0, OPT_IN_GID, &ce, &ae);
		CHECK(&st, ce == 0 && ae == 0,
		      "paranoid 3, nobody in the device's group: counts itself in user mode",
		      "config errno %d, attach errno %d", ce, ae);
		as_nobody(&user, 0, 0, &ce, &ae);
		CHECK(&st, ce == EACCES,
		      "paranoid 3, nobody not in the device's group (fd passed to it) -> EACCES",
		      "config errno %d", ce);
		as_nobody(&user, PMCDRV_ATTACH_CPU, OPT_IN_GID, &ce, &ae);
		CHECK(&st, ae == EACCES, "paranoid 3, device group: a CPU session still -> EACCES",
		      "config errno %d, attach errno %d", ce, ae);
	}
	if (chown(dev, 0, 0) || chmod(dev, 0600))
		perror(dev);
}

/* ---- INFO: serialised against CONFIG, IPIs bounded ------------------------------------ */

static int info_once(int fd)
{
	struct pmcdrv_info info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	return pmcdev_io(fd, PMCDRV_IOC_INFO, &info);
}

/* Function-call IPIs received so far, all CPUs ("CAL" in /proc/interrupts). */
static long long call_ipis(void)
{
	char line[4096];
	long long sum = -1, v;
	FILE *f = fopen("/proc/interrupts", "r");
	char *p, *end;

	while (f && fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "CAL:", 4))
			continue;
		sum = 0;
		for (p += 4;; p = end) {
			v = strtoll(p, &end, 10);
			if (end == p)
				break;
			sum += v;
		}
	}
	if (f)
		fclose(f);
	return sum;
}

static void test_info(void)
{
	struct pmcdrv_config c;
	int i, busy = 0, other = 0, fd;
	long long before, after;
	pid_t child;

	if (have_pmu) {
		/* INFO's trial reservation, looping, against CONFIG's claim, looping. */
		child = fork();
		if (child == 0) {
			struct timespec t0, t;

			fd = pmcdev_open(dev);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			do {
				info_once(fd);
				clock_gettime(CLOCK_MONOTONIC, &t);
			} while (t.tv_sec - t0.tv_sec < 3);
			_exit(0);
		}
		for (i = 0; i < 1000; i++) {
			memset(&c, 0, sizeof(c));
			c.size = sizeof(c);
			c.nr_events = 1;
			c.events[0].type = PMCDRV_EVENT_HW;
			c.events[0].event = 0xc0;
			c.events[0].flags = PMCDRV_EVF_USER;
			fd = pmcdev_open(dev);
			switch (pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c)) {
			case 0: break;
			case EBUSY: busy++; break;
			default: other++; break;
			}
			close(fd);
		}
		wait_status(child);
		CHECK(&st, busy == 0 && other == 0,
		      "1000 CONFIGs while INFO loops: never a false EBUSY from INFO's trial reservation",
		      "%d EBUSY, %d other errors", busy, other);
	} else {
		printf("SKIP: INFO against CONFIG: no PMU in this guest\n");
	}

	/* As nobody: 2000 INFOs in a row send only a few IPIs. */
	before = call_ipis();
	child = fork();
	if (child == 0) {
		fd = pmcdev_open(dev);
		become(NOBODY, NOBODY, 0);
		for (i = 0; i < 2000; i++)
			info_once(fd);
		_exit(0);
	}
	wait_status(child);
	after = call_ipis();
	if (before < 0) {
		printf("SKIP: INFO IPIs: no CAL line in /proc/interrupts\n");
		return;
	}
	CHECK(&st, after - before < 500, "2000 INFOs as nobody: fewer than 500 function-call IPIs",
	      "%lld IPIs", after - before);
}

/* ---- the ioctl type byte ------------------------------------------------------------ */

/*
 * pmcdrv's commands mean nothing to another driver: sent by mistake to a
 * namespace file, they are ENOTTY (with type 0xB7, ENABLE was nsfs's
 * NS_GET_OWNER_UID and succeeded).
 */
static void test_ioctl_type(void)
{
	int fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC), e;
	uint32_t uid = 0;

	if (fd < 0) {
		printf("SKIP: ioctl type: no /proc/self/ns/user\n");
		return;
	}
	e = pmcdev_io(fd, PMCDRV_IOC_ENABLE, &uid);
	CHECK(&st, e == ENOTTY, "PMCDRV_IOC_ENABLE on a user-namespace file -> ENOTTY (type byte not nsfs's)",
	      "errno %d (%s)", e, strerror(e));
	e = pmcdev_io(fd, PMCDRV_IOC_API_VERSION, NULL);
	CHECK(&st, e == ENOTTY, "PMCDRV_IOC_API_VERSION on a user-namespace file -> ENOTTY",
	      "errno %d (%s)", e, strerror(e));
	close(fd);
}

/* ---- the programs the targets run -------------------------------------------------- */

static int spin(unsigned int ms)
{
	struct timespec ts;
	volatile unsigned long x = 0;

	do {
		for (int i = 0; i < 100000; i++)
			x++;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000 < ms);
	return 0;
}

int main(int argc, char **argv)
{
	struct pmcdrv_info info;
	char old[16] = "";
	FILE *f;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "--spin"))
		return spin((unsigned int)atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "--sleep")) {
		if (write(3, "r", 1) != 1)
			return 1;
		close(3);
		pause();
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s SUID-COPY PLAIN-COPY\n", argv[0]);
		return 2;
	}
	suid_copy = argv[1];
	plain_copy = argv[2];
	fd = pmcdev_open(dev);
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	have_pmu = !pmcdev_io(fd, PMCDRV_IOC_INFO, &info) && (info.flags & PMCDRV_INFO_ARCH_PERFMON);
	close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);

	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (!f || !fgets(old, sizeof(old), f)) {
		printf("FAIL: cannot read perf_event_paranoid\n");
		return 1;
	}
	fclose(f);

	/* Attach as nobody: each target against the kernel's own verdict. */
	if (set_paranoid(2))
		printf("SKIP: cannot set perf_event_paranoid 2 for the attach tests\n");
	check_attach("attach as nobody to another user's process", T_PLAIN, OTHER_UID, EPERM);
	check_attach("attach as nobody to its own process", T_PLAIN, NOBODY, 0);
	check_attach("attach as nobody to its own non-dumpable process", T_NONDUMP, NOBODY, EPERM);
	check_attach("attach as nobody to a setuid-root program it runs", T_SUID, NOBODY, EPERM);
	check_attach("attach as nobody to its own process in another user namespace", T_USERNS,
		     NOBODY, 0);
	/*
	 * nobody owns that namespace, so has CAP_SYS_PTRACE over the task's
	 * credentials; but its mm belongs to init_user_ns, where nobody has
	 * no capability: the kernel refuses.
	 */
	check_attach("attach as nobody to its own non-dumpable process in a user namespace it owns",
		     T_USERNS_NONDUMP, NOBODY, EPERM);
	check_attach_userns_root();
	test_setuid_exec();
	test_paranoid();
	test_ioctl_type();
	test_info();
	if (write_file("/proc/sys/kernel/perf_event_paranoid", old))
		perror("restoring perf_event_paranoid");
	return check_summary(&st, "security_attach");
}
