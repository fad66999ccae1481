// SPDX-License-Identifier: GPL-2.0
/*
 * emupmu_rdpmc: user-space RDPMC on the emulated PMU (tests/qemu/patches).
 *
 *  - perf_event_open(instructions:u) + mmap of its first page: the page
 *    offers RDPMC (cap_user_rdpmc, index, pmc_width = CPUID's width) and Linux sets
 *    CR4.PCE for this mm;
 *  - a read of the running counter increases, and the difference between
 *    two RDPMCs around k dec/jnz iterations is exactly 2k + c, the same c
 *    every time (the counter counts user instructions exactly);
 *  - the RDPMC-based count (offset + counter) agrees with read() of the fd;
 *  - a fixed counter is read with ECX bit 30 set (instructions:u lands on
 *    fixed counter 0, so its index in the page is 1 + (1 << 30));
 *  - rdpmc=1 (default) in a program without a mapped event, and rdpmc=0
 *    even with one:
 *    RDPMC raises #GP, i.e. SIGSEGV;
 *  - rdpmc=2: RDPMC works without any event.
 * The sysfs value is restored on every exit.  Run as root, pinned to CPU 0.
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

/* The core PMU's rdpmc file: cpu's, or on a hybrid part the P-cores' (cpu_core), where the script runs this. */
static const char *rdpmc_sysfs = "/sys/bus/event_source/devices/cpu/rdpmc";
#define RDPMC_SYSFS rdpmc_sysfs

static struct check_state st;
static char saved_mode[16];

static int read_mode(char *buf, size_t len)
{
	int fd = open(RDPMC_SYSFS, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int write_mode(const char *mode)
{
	int fd = open(RDPMC_SYSFS, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, mode, strlen(mode));
	close(fd);
	return n == (ssize_t)strlen(mode) ? 0 : -1;
}

static void restore_mode(void)
{
	if (saved_mode[0])
		write_mode(saved_mode);
}

static inline uint64_t rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return lo | (uint64_t)hi << 32;
}

/* The PMU's shape from CPUID.0AH (the lane's model: tests/qemu/README.md). */
static unsigned int pmu_gp_counters, pmu_width, pmu_fixed;

static void read_pmu_shape(void)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid(0xa, eax, ebx, ecx, edx);
	pmu_gp_counters = (eax >> 8) & 0xff;
	pmu_width = (eax >> 16) & 0xff;
	/* version 5: the fixed counters are those of the ECX bitmap (all low here) */
	pmu_fixed = (eax & 0xff) >= 5 ? (unsigned int)__builtin_popcount(ecx) : edx & 0x1f;
}

/*
 * A hybrid part's leaf 0xA has the core types' common subset; CPU 0's own
 * counters (a P-core's 8 GP and 4 fixed on the emulated Alder Lake) come
 * from the script as EMUPMU_COUNTERS=GP,FIXED (pmcctl info's, per core type).
 */
static const char *counters_from = "CPUID.0AH";

static void read_own_counters(void)
{
	const char *v = getenv("EMUPMU_COUNTERS");
	unsigned int gp, fixed;

	if (v && sscanf(v, "%u,%u", &gp, &fixed) == 2) {
		pmu_gp_counters = gp;
		pmu_fixed = fixed;
		counters_from = "CPU 0's own";
	}
}

/* RDPMC, k iterations of dec/jnz (k >= 1), RDPMC: the difference. */
static uint64_t rdpmc_span(uint32_t ecx, uint64_t k)
{
	uint32_t lo1, hi1, lo2, hi2;

	asm volatile("rdpmc\n\t"
		     "mov %%eax, %0\n\t"
		     "mov %%edx, %1\n"
		     "1:\n\t"
		     "dec %4\n\t"
		     "jnz 1b\n\t"
		     "rdpmc"
		     : "=&r"(lo1), "=&r"(hi1), "=a"(lo2), "=d"(hi2), "+r"(k)
		     : "c"(ecx)
		     : "cc");
	return ((lo2 | (uint64_t)hi2 << 32) - (lo1 | (uint64_t)hi1 << 32)) &
	       ((1ULL << pmu_width) - 1);
}

static void spin(uint64_t k)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(k) : : "cc");
}

static int open_instructions_u(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/*
 * One consistent sample of the mapped event: the RDPMC index and the span
 * over k iterations, retried while the kernel updated the page meanwhile
 * (the event was rescheduled).  Returns 0 on success.
 */
static int span_sample(volatile struct perf_event_mmap_page *pc, uint64_t k,
		       uint32_t *index, uint64_t *span)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		uint32_t seq = pc->lock;
		uint32_t idx;

		__sync_synchronize();
		idx = pc->index;
		if (!pc->cap_user_rdpmc || !idx)
			return -1;
		*span = rdpmc_span(idx - 1, k);
		__sync_synchronize();
		if (pc->lock == seq) {
			*index = idx;
			return 0;
		}
	}
	return -1;
}

/* The event's count from user space, as perf_event_mmap_page documents. */
static int user_count(volatile struct perf_event_mmap_page *pc, uint64_t *count)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		uint32_t seq = pc->lock;
		int64_t pmc;
		uint64_t offset;
		uint32_t idx;
		uint16_t width;

		__sync_synchronize();
		idx = pc->index;
		offset = pc->offset;
		width = pc->pmc_width;
		if (!pc->cap_user_rdpmc || !idx || !width)
			return -1;
		pmc = (int64_t)(rdpmc(idx - 1) << (64 - width)) >> (64 - width);
		__sync_synchronize();
		if (pc->lock == seq) {
			*count = offset + pmc;
			return 0;
		}
	}
	return -1;
}

static sigjmp_buf jb;
static volatile sig_atomic_t got_sig;

static void on_fault(int sig)
{
	got_sig = sig;
	siglongjmp(jb, 1);
}

/* RDPMC of counter 0 in this process: 0 if it worked, else the signal. */
static int try_rdpmc_here(uint32_t ecx)
{
	struct sigaction sa, old_segv, old_ill;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGILL, &sa, &old_ill);
	got_sig = 0;
	if (sigsetjmp(jb, 1) == 0) {
		(void)rdpmc(ecx);
		ret = 0;
	} else {
		ret = got_sig;
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGILL, &old_ill, NULL);
	return ret;
}

/*
 * RDPMC of counter 0 in a freshly exec'd program, which never had a perf
 * event mapped (a forked child would share the parent's RDPMC permission,
 * which Linux keeps per mm): 0 if it worked, else the signal.
 */
static int try_rdpmc_exec(void)
{
	pid_t pid = fork();
	int status, r;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl("/proc/self/exe", "emupmu_rdpmc", "--rdpmc0", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status))
		return -1;
	r = WEXITSTATUS(status);
	return r == 0 || r == SIGSEGV || r == SIGILL ? r : -1;
}

int main(int argc, char **argv)
{
	volatile struct perf_event_mmap_page *pc;
	uint64_t span1[5], span2, before, after, rdcount, rdcount2, rd;
	uint32_t idx = 0, idx2;
	cpu_set_t set;
	int fd, i, r, same;
	char name[96];
	void *page;

	/*
	 * The exec'd program: exit with the signal number RDPMC raised, or 0.
	 * Handled, so the kernel does not log "general protection fault".
	 */
	if (argc == 2 && !strcmp(argv[1], "--rdpmc0"))
		return try_rdpmc_here(0);

	if (access(rdpmc_sysfs, F_OK) && !access("/sys/bus/event_source/devices/cpu_core/rdpmc", F_OK))
		rdpmc_sysfs = "/sys/bus/event_source/devices/cpu_core/rdpmc";
	read_pmu_shape();
	read_own_counters();
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");

	if (read_mode(saved_mode, sizeof(saved_mode))) {
		printf("FAIL: rdpmc: cannot read %s: %s\n", RDPMC_SYSFS, strerror(errno));
		return 1;
	}
	atexit(restore_mode);
	CHECK(&st, !write_mode("1"), "rdpmc: sysfs rdpmc=1 accepted", "%s", strerror(errno));

	fd = open_instructions_u();
	if (fd < 0) {
		printf("FAIL: rdpmc: perf_event_open(instructions:u): %s\n", strerror(errno));
		return 1;
	}
	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		printf("FAIL: rdpmc: mmap of the event page: %s\n", strerror(errno));
		return 1;
	}
	pc = page;
	spin(1000);	/* make sure the event has been scheduled in */
	CHECK(&st, pc->cap_user_rdpmc && pc->index, "rdpmc: event page offers RDPMC",
	      "cap_user_rdpmc=%u index=%u", (unsigned)pc->cap_user_rdpmc, pc->index);
	CHECK(&st, pc->pmc_width == pmu_width, "rdpmc: event page pmc_width is CPUID's counter width",
	      "pmc_width=%u, CPUID.0AH width %u", (unsigned)pc->pmc_width, pmu_width);
	/* instructions:u alone goes on fixed counter 0: RDPMC ECX = 1 << 30. */
	CHECK(&st, pc->index == 1 + (1U << 30), "rdpmc: instructions:u is on fixed counter 0",
	      "index=%#x", pc->index);

	/* A running counter increases. */
	r = user_count(pc, &before);
	spin(100000);
	r |= user_count(pc, &after);
	CHECK(&st, r == 0 && after > before && after - before >= 200000,
	      "rdpmc: running counter increases by at least the loop",
	      "r=%d before=%llu after=%llu", r, (unsigned long long)before,
	      (unsigned long long)after);

	/* Exactness: RDPMC; k x (dec; jnz); RDPMC spans 2k + c, c fixed. */
	r = 0;
	for (i = 0; i < 5; i++)
		r |= span_sample(pc, 100000, &idx, &span1[i]);
	r |= span_sample(pc, 300000, &idx2, &span2);
	same = 1;
	for (i = 1; i < 5; i++)
		same &= span1[i] == span1[0];
	CHECK(&st, r == 0 && same, "rdpmc: span over 100000 iterations identical in 5 runs",
	      "r=%d spans %llu %llu %llu %llu %llu", r, (unsigned long long)span1[0],
	      (unsigned long long)span1[1], (unsigned long long)span1[2],
	      (unsigned long long)span1[3], (unsigned long long)span1[4]);
	CHECK(&st, r == 0 && span2 - span1[0] == 400000,
	      "rdpmc: span(300000) - span(100000) is exactly 400000 instructions",
	      "span(100000)=%llu span(300000)=%llu", (unsigned long long)span1[0],
	      (unsigned long long)span2);
	CHECK(&st, r == 0 && span1[0] >= 200000 && span1[0] - 200000 < 16,
	      "rdpmc: span(100000) is 200000 plus a few instructions",
	      "span=%llu", (unsigned long long)span1[0]);

	/* RDPMC-based count and read() agree (read() comes a few instructions later). */
	r = user_count(pc, &rdcount);
	if (read(fd, &rd, sizeof(rd)) != sizeof(rd))
		r = -1;
	r |= user_count(pc, &rdcount2);
	CHECK(&st, r == 0 && rd >= rdcount && rd <= rdcount2,
	      "rdpmc: offset + RDPMC brackets read() of the event",
	      "r=%d rdpmc=%llu read=%llu rdpmc-after=%llu", r,
	      (unsigned long long)rdcount, (unsigned long long)rd,
	      (unsigned long long)rdcount2);

	/* A bad index raises #GP even with permission. */
	r = try_rdpmc_here(pmu_gp_counters);
	snprintf(name, sizeof(name), "rdpmc: GP counter index N (of N, %s) raises SIGSEGV", counters_from);
	CHECK(&st, r == SIGSEGV, name, "index %u: got %s", pmu_gp_counters, r ? strsignal(r) : "no fault");
	r = try_rdpmc_here((1U << 30) | pmu_fixed);
	snprintf(name, sizeof(name), "rdpmc: fixed counter index N (of N, %s) raises SIGSEGV", counters_from);
	CHECK(&st, r == SIGSEGV, name, "index %u: got %s", pmu_fixed, r ? strsignal(r) : "no fault");

	/* rdpmc=1: a process without a mapped event has no CR4.PCE. */
	r = try_rdpmc_exec();
	CHECK(&st, r == SIGSEGV, "rdpmc=1: RDPMC without a mapped event raises SIGSEGV",
	      "program got %s", r > 0 ? strsignal(r) : r == 0 ? "no fault" : "error");

	/* rdpmc=0: never, not even with the mapped event. */
	CHECK(&st, !write_mode("0"), "rdpmc: sysfs rdpmc=0 accepted", "%s", strerror(errno));
	r = try_rdpmc_here(idx - 1);
	CHECK(&st, r == SIGSEGV, "rdpmc=0: RDPMC with a mapped event raises SIGSEGV",
	      "got %s", r ? strsignal(r) : "no fault");

	/* rdpmc=2: always, even without any event. */
	CHECK(&st, !write_mode("2"), "rdpmc: sysfs rdpmc=2 accepted", "%s", strerror(errno));
	r = try_rdpmc_exec();
	CHECK(&st, r == 0, "rdpmc=2: RDPMC without a mapped event works",
	      "program got %s", r > 0 ? strsignal(r) : "error");

	/* Back to the mapped event with the original mode: it works again. */
	restore_mode();
	r = saved_mode[0] == '0' ? 0 : try_rdpmc_here(idx - 1);
	CHECK(&st, r == 0, "rdpmc: works again after restoring sysfs rdpmc",
	      "got %s", r ? strsignal(r) : "");

	munmap(page, sysconf(_SC_PAGESIZE));
	close(fd);
	return check_summary(&st, "emupmu_rdpmc");
}
