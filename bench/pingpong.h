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

#endif /* PMCDRV_BENCH_PINGPONG_H */
