// SPDX-License-Identifier: GPL-2.0
/*
 * selfread [N [EVENTS]]: a thread counts itself and reads its own counters
 * N times (default 10) between slices of work, with libpmc's self-read
 * (pmc_self_read): through RDPMC and the session's page where it can,
 * through the READ ioctl otherwise.  EVENTS in pmcctl's -e syntax
 * (default instructions:u).  Prints one line a read and checks that no
 * value ever decreases; exit 0, 1 on a failure, 3 when pmcdrv is missing
 * or counting is not permitted.
 *
 * Build: make (build/examples/selfread).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpmc.h"

/* Some work to count: the compiler may not drop it (volatile). */
static void work(unsigned long iterations)
{
	volatile unsigned long x = 0;
	unsigned long i;

	for (i = 0; i < iterations; i++)
		x += i;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "selfread: %s: %s\n", what, strerror(-err));
	if (err == -ENOENT || err == -ENODEV)
		fprintf(stderr, "  fix: load pmcdrv (sudo insmod kmod/pmcdrv.ko)\n");
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "  fix: counting is not permitted: the device's mode or "
			"kernel.perf_event_paranoid (docs/security.md)\n");
	return err == -ENOENT || err == -ENODEV || err == -EACCES || err == -EPERM ? 3 : 1;
}

int main(int argc, char **argv)
{
	int reads = argc > 1 ? atoi(argv[1]) : 10;
	const char *events = argc > 2 ? argv[2] : "instructions:u";
	uint64_t vals[PMCDRV_MAX_EVENTS], prev[PMCDRV_MAX_EVENTS] = { 0 }, te, tr;
	struct pmc_evlist l = { .n = 0 };
	struct pmc_session *s;
	struct pmc_self *r;
	char msg[256];
	unsigned int i;
	int n, err, ret = 0;

	if (reads < 1 || pmc_evlist_parse(&l, events, msg, sizeof(msg))) {
		fprintf(stderr, "usage: selfread [N [EVENTS]]  (N >= 1)%s%s\n", reads < 1 ? "" : ": ",
			reads < 1 ? "" : msg);
		return 2;
	}
	/* 1. A session on the pmcdrv device with the events... */
	err = pmc_session_open(NULL, &s);
	if (err)
		return fail("cannot open " PMC_DEFAULT_DEVICE, err);
	for (i = 0; i < l.n; i++)
		pmc_session_add(s, &l.ev[i].ev);
	/* 2. ...that counts this thread (it starts counting at once)... */
	err = pmc_session_attach(s, 0, 0);
	if (err) {
		pmc_session_close(s);
		return fail("cannot count this thread", err);
	}
	/* 3. ...and a self-reader for this thread. */
	err = pmc_self_open(s, &r);
	if (err) {
		pmc_session_close(s);
		return fail("cannot open a self-reader", err);
	}
	printf("selfread: path=%s events=%u\n", pmc_self_fast(r) ? "rdpmc" : "ioctl", l.n);
	for (n = 0; n < reads; n++) {
		work(100000);
		err = pmc_self_read(r, vals, l.n, &te, &tr);
		if (err) {
			ret = fail("pmc_self_read", err);
			break;
		}
		printf("read %d:", n);
		for (i = 0; i < l.n; i++) {
			printf(" %s=%llu", l.ev[i].name, (unsigned long long)vals[i]);
			if (vals[i] < prev[i]) {
				printf(" (DECREASED from %llu)", (unsigned long long)prev[i]);
				ret = 1;
			}
			prev[i] = vals[i];
		}
		printf(" time_enabled=%llu time_running=%llu\n", (unsigned long long)te,
		       (unsigned long long)tr);
	}
	printf("selfread: %s\n", ret ? "FAILED: a value decreased" : "monotonic");
	pmc_self_close(r);
	pmc_session_close(s);
	return ret;
}
