// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest test of multiplexing (69-multiplex.sh): 12 hardware events,
 * more than the emulated PMU's 4 GP + 3 fixed counters, over a steady loop
 * of exactly known instructions (2 per iteration; cycles = 2 x instructions
 * on the emulated PMU).  Checks: CONFIG accepts them (ENOSPC before
 * multiplexing); every event's scaled count is within 1% of the exact one;
 * each event's time_running is its share of the rotation (the steps of
 * pmc_mux_step(), within 0.05 of time_enabled); the events of a group have
 * one time_running; mux_interval_ns out of bounds is EINVAL; a session that
 * fits keeps time_running == time_enabled; the self-read page of a
 * multiplexing session is EOPNOTSUPP.
 * Usage: mux [DEVICE]
 *        mux --run INTERVAL_NS ITERATIONS [fit]: one session of the 12 events
 *        (or 3 that fit) over the loop, no checks (for the script's count of
 *        rotation ticks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pmcdrv/pmu.h>

#include "check.h"
#include "libpmc.h"
#include "pmcdev.h"

#define NEV		12
#define ITERS		100000000ULL	/* 200M instructions: 0.2 s of the guest's clock */

static struct check_state st;
static const char *dev = PMC_DEFAULT_DEVICE;

/* 2 instructions per iteration, user mode, nothing else. */
static void loop(uint64_t n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static struct pmcdrv_event hw(uint32_t event, uint32_t umask, uint32_t flags, uint32_t group)
{
	return (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .event = event, .umask = umask,
				      .flags = PMCDRV_EVF_USER | flags, .group = group };
}

/* Instructions and cycles in every form the counters take; two groups. */
static struct pmcdrv_config many(uint64_t interval_ns)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	unsigned int i;

	c.events[0] = hw(0xc0, 0x00, 0, 0);			/* fixed 0 */
	c.events[1] = hw(0x00, 0x01, 0, 0);			/* fixed 0 only */
	c.events[2] = hw(0x3c, 0x00, 0, 0);			/* fixed 1 */
	c.events[3] = hw(0x3c, 0x00, PMCDRV_EVF_NO_FIXED, 0);
	c.events[4] = hw(0xc0, 0x00, PMCDRV_EVF_NO_FIXED, 1);	/* group 1 */
	c.events[5] = hw(0x3c, 0x00, PMCDRV_EVF_NO_FIXED, 1);
	for (i = 6; i < 10; i++)
		c.events[i] = hw(0xc0, 0x00, PMCDRV_EVF_NO_FIXED, 0);
	c.events[10] = hw(0xc0, 0x00, PMCDRV_EVF_NO_FIXED, 2);	/* group 2 */
	c.events[11] = hw(0x3c, 0x00, PMCDRV_EVF_NO_FIXED, 2);
	c.nr_events = NEV;
	c.mux_interval_ns = interval_ns;
	return c;
}

static struct pmcdrv_config fit(void)
{
	struct pmcdrv_config c = many(0);

	/* fixed 0, fixed 1, a GP counter */
	c.events[1] = c.events[3];
	memset(&c.events[3], 0, (NEV - 3) * sizeof(c.events[0]));
	c.events[2] = hw(0xc0, 0x00, PMCDRV_EVF_NO_FIXED, 0);
	c.nr_events = 3;
	return c;
}

/* Exact count of events[i] over the loop. */
static double exact(const struct pmcdrv_event *e, uint64_t iters)
{
	return (e->event == 0x3c ? 4.0 : 2.0) * (double)iters;
}

/* CONFIG @c, ATTACH this thread, run the loop, DISABLE, READ VER1 into @r; errno or 0. */
static int run(struct pmcdrv_config *c, uint64_t iters, struct pmcdrv_read *r, int *fdp)
{
	struct pmcdrv_attach a = { .size = sizeof(a) };
	int fd = pmcdev_open(dev), e;

	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, c);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	if (!e) {
		loop(iters);
		e = pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	}
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_READ, r);
	if (fdp && !e)
		*fdp = fd;
	else
		close(fd);
	return e;
}

static void test_many(void)
{
	struct pmcdrv_config c = many(0);
	struct pmc_arch_perfmon pm = { 0 };
	struct pmcdrv_info info = { .size = sizeof(info) };
	struct pmc_mux_work w;
	struct pmcdrv_read r;
	double share[NEV] = { 0 }, scaled, run_share, want;
	/* Bounds: 1% and 0.05 of a share, wider where 69-multiplex.sh says why (a debug kernel). */
	const char *env_tol = getenv("MUX_TOL_PCT"), *env_stol = getenv("MUX_SHARE_TOL");
	double tol = env_tol ? strtod(env_tol, NULL) : 1.0;
	double stol = env_stol ? strtod(env_stol, NULL) : 0.05;
	/* A longer loop, more rounds of the rotation, where 69-multiplex.sh says why. */
	const char *env_iters = getenv("MUX_ITERS");
	uint64_t iters = env_iters ? strtoull(env_iters, NULL, 0) : ITERS;
	unsigned int i, k, step, hw_i, steps[NEV] = { 0 };
	int fd, e;
	void *page;

	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_INFO, &info);
	close(fd);
	CHECK(&st, e == 0, "mux: INFO", "errno %d", e);
	e = run(&c, iters, &r, &fd);
	CHECK(&st, e == 0, "mux: 12 events on 4 GP + 3 fixed counters are accepted (not ENOSPC)",
	      "errno %d (%s)", e, strerror(e));
	if (e)
		return;
	for (i = 0; i < NEV; i++)
		CHECK(&st, c.events[i].counter == ~0U, "mux: counter ~0 written back (no fixed counter)",
		      "event %u counter 0x%x", i, c.events[i].counter);
	/* The shares the rotation gives each event: its steps among all. */
	pmc_perfmon_from_info(&info, &pm);
	pmc_mux_prepare(&c, NULL, &w);
	for (step = 0; step < w.nr_units; step++) {
		pmc_mux_step(&w, &pm, NULL, ~0ULL, step);
		for (k = 0; k < w.nr; k++)
			steps[w.hw[k]]++;
	}
	for (i = 0; i < NEV; i++)
		share[i] = (double)steps[i] / w.nr_units;
	printf("mux: %" PRIu64 " iterations, time_enabled %" PRIu64 " ns, %u steps\n", iters,
	       (uint64_t)r.time_enabled, w.nr_units);
	for (i = 0, hw_i = 0; i < NEV; i++, hw_i++) {
		const struct pmcdrv_read_time *t = &r.times[i];

		want = exact(&c.events[i], iters);
		scaled = t->time_running ? (double)r.values[i] * t->time_enabled / t->time_running : 0;
		run_share = t->time_enabled ? (double)t->time_running / t->time_enabled : 0;
		printf("mux: event %2u %#04x/%#04x: raw %" PRIu64 " scaled %.0f exact %.0f running %.4f (plan %.4f)\n",
		       i, c.events[i].event, c.events[i].umask, (uint64_t)r.values[i], scaled, want,
		       run_share, share[hw_i]);
		CHECK(&st, t->time_enabled == r.time_enabled, "mux: each event's time_enabled is the session's",
		      "event %u: %" PRIu64 " vs %" PRIu64, i, (uint64_t)t->time_enabled,
		      (uint64_t)r.time_enabled);
		/* Cycles on fixed counter 1 is the only event for it: in every step. */
		if (steps[hw_i] < w.nr_units)
			CHECK(&st, t->time_running > 0 && t->time_running < t->time_enabled,
			      "mux: an event that takes turns ran part of the time",
			      "event %u: running %" PRIu64 " of %" PRIu64, i,
			      (uint64_t)t->time_running, (uint64_t)t->time_enabled);
		else
			CHECK(&st, t->time_running == t->time_enabled,
			      "mux: an event in every step ran all the time",
			      "event %u: running %" PRIu64 " of %" PRIu64, i,
			      (uint64_t)t->time_running, (uint64_t)t->time_enabled);
		CHECK(&st, scaled > want * (1 - tol / 100) && scaled < want * (1 + tol / 100),
		      "mux: scaled count within the bound (1%, MUX_TOL_PCT) of the exact one",
		      "event %u: %.0f vs %.0f (%+.3f%%, bound %.1f%%)",
		      i, scaled, want, (scaled - want) * 100 / want, tol);
		CHECK(&st, run_share > share[hw_i] - stol && run_share < share[hw_i] + stol,
		      "mux: time_running is the event's share of the rotation",
		      "event %u: %.4f, plan %.4f", i, run_share, share[hw_i]);
	}
	CHECK(&st, r.times[4].time_running == r.times[5].time_running &&
		   r.times[10].time_running == r.times[11].time_running,
	      "mux: the events of a group have one time_running", "%" PRIu64 "/%" PRIu64 ", %" PRIu64 "/%" PRIu64,
	      (uint64_t)r.times[4].time_running, (uint64_t)r.times[5].time_running,
	      (uint64_t)r.times[10].time_running, (uint64_t)r.times[11].time_running);
	/* No self-read page: its events are not all on counters. */
	page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd,
		    PMCDRV_SELF_MMAP_OFFSET);
	e = page == MAP_FAILED ? errno : 0;
	CHECK(&st, e == EOPNOTSUPP, "mux: self-read page of a multiplexing session -> EOPNOTSUPP",
	      "errno %d", e);
	if (page != MAP_FAILED)
		munmap(page, (size_t)sysconf(_SC_PAGESIZE));
	e = pmcdev_io(fd, PMCDRV_IOC_READ_SELF, &r);
	CHECK(&st, e == EOPNOTSUPP, "mux: READ_SELF of a multiplexing session -> EOPNOTSUPP",
	      "errno %d", e);
	close(fd);
}

static void test_fit_and_bounds(void)
{
	struct pmcdrv_config c = fit();
	struct pmcdrv_read r;
	unsigned int i;
	int e;

	e = run(&c, ITERS / 10, &r, NULL);
	CHECK(&st, e == 0, "mux: 3 events that fit", "errno %d", e);
	for (i = 0; !e && i < c.nr_events; i++) {
		CHECK(&st, r.times[i].time_running == r.times[i].time_enabled &&
			   r.times[i].time_enabled == r.time_enabled && r.time_enabled > 0,
		      "mux: a session that fits runs all the time", "event %u: %" PRIu64 " of %" PRIu64,
		      i, (uint64_t)r.times[i].time_running, (uint64_t)r.times[i].time_enabled);
		CHECK(&st, c.events[i].counter != ~0U, "mux: a session that fits has its counters",
		      "event %u", i);
	}
	c = many(PMCDRV_MUX_INTERVAL_MIN_NS - 1);
	e = run(&c, 1, &r, NULL);
	CHECK(&st, e == EINVAL, "mux: mux_interval_ns below 1 ms -> EINVAL", "errno %d", e);
	c = many(PMCDRV_MUX_INTERVAL_MAX_NS + 1);
	e = run(&c, 1, &r, NULL);
	CHECK(&st, e == EINVAL, "mux: mux_interval_ns above 1 s -> EINVAL", "errno %d", e);
	c = many(PMCDRV_MUX_INTERVAL_MIN_NS);
	e = run(&c, ITERS / 10, &r, NULL);
	CHECK(&st, e == 0, "mux: mux_interval_ns 1 ms accepted", "errno %d", e);
}

/* libpmc's self-reader (regions) refuses a multiplexing session: its counts take turns. */
static void test_self_refused(void)
{
	struct pmcdrv_config c = many(0);
	struct pmc_session *s;
	struct pmc_self *rd = NULL;
	unsigned int i;
	int err;

	err = pmc_session_open(dev, &s);
	CHECK(&st, err == 0, "mux: libpmc opens a session", "%d", err);
	if (err)
		return;
	for (i = 0; i < c.nr_events; i++)
		pmc_session_add(s, &c.events[i]);
	err = pmc_session_config(s);
	if (!err)
		err = pmc_session_attach(s, 0, 0);
	CHECK(&st, err == 0, "mux: libpmc configures 12 events and attaches itself", "%d", err);
	if (!err) {
		err = pmc_self_open(s, &rd);
		CHECK(&st, err == -EOPNOTSUPP,
		      "mux: pmc_self_open() of a multiplexing session -> -EOPNOTSUPP", "%d", err);
		if (!err)
			pmc_self_close(rd);
	}
	pmc_session_close(s);
}

int main(int argc, char **argv)
{
	struct pmcdrv_config c;
	struct pmcdrv_read r;

	if (argc >= 4 && !strcmp(argv[1], "--run")) {
		c = argc > 4 && !strcmp(argv[4], "fit") ? fit() : many(strtoull(argv[2], NULL, 0));
		return run(&c, strtoull(argv[3], NULL, 0), &r, NULL) ? 1 : 0;
	}
	if (argc > 1)
		dev = argv[1];
	test_many();
	test_fit_and_bounds();
	test_self_refused();
	return check_summary(&st, "mux");
}
