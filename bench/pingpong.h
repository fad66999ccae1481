/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/pingpong.h: the pipe round trip of bench/'s ping-pong programs
 * (pingpong.c, pingpong-rdpmc.c): one byte each way, and the clock that
 * times it.  The including program defines die(const char *what) before
 * this header: it reports @what with errno and exits.
 */
#ifndef PMCDRV_BENCH_PINGPONG_H
#define PMCDRV_BENCH_PINGPONG_H

#include <time.h>
#include <unistd.h>

static void die(const char *what);

static inline void xread(int fd, char *c)
{
	if (read(fd, c, 1) != 1)
		die("read");
}

static inline void xwrite(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		die("write");
}

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The parent's warm-up: round trips with the byte 'w' through @to (to the
 * child) and @from for @warmup_ms ms (at least one: both tasks have run).
 * Returns their number.
 */
static inline long long pingpong_warmup(int to, int from, long long warmup_ms)
{
	long long warm = 0, end = now_ns() + warmup_ms * 1000000;
	char c;

	do {
		xwrite(to, 'w');
		xread(from, &c);
		warm++;
	} while (now_ns() < end);
	return warm;
}

/* The parent's @rounds timed round trips with the byte 'x': their guest ns. */
static inline long long pingpong_timed(int to, int from, long long rounds)
{
	long long i, t0 = now_ns();
	char c;

	for (i = 0; i < rounds; i++) {
		xwrite(to, 'x');
		xread(from, &c);
	}
	return now_ns() - t0;
}

#endif /* PMCDRV_BENCH_PINGPONG_H */
