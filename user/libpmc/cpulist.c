// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: CPU lists ("0-3,5,7-8"), the kernel's cpulist format, as pmcctl
 * stat -C takes them and /sys/devices/system/cpu/online gives them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libpmc.h"
#include "internal.h"

#define CPULIST_HINT	"write CPUs as 0-3,5"
#define ONLINE_PATH	"/sys/devices/system/cpu/online"


/*
 * One CPU number: decimal digits only (no sign, blanks or 0x), the whole of
 * [s, s + n).  -EINVAL: not a number; -ERANGE: >= CPU_SETSIZE (however many
 * digits: the value saturates instead of overflowing).
 */
static int parse_cpu(const char *s, size_t n, unsigned int *cpu)
{
	unsigned long v = 0;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v < CPU_SETSIZE)
			v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v >= CPU_SETSIZE)
		return -ERANGE;
	*cpu = (unsigned int)v;
	return 0;
}

/* One end of a term, with the message that names it. */
static int parse_end(const char *list, const char *s, size_t n, unsigned int *cpu,
		     char *err, size_t errlen)
{
	int ret = parse_cpu(s, n, cpu);

	if (ret == -ERANGE)
		return pmc_error(ret, err, errlen,
				 "bad CPU list '%s': CPU %.*s is too large (CPU_SETSIZE is %d: CPUs 0-%d)",
				 list, (int)n, s, CPU_SETSIZE, CPU_SETSIZE - 1);
	if (ret)
		return pmc_error(ret, err, errlen,
				 "bad CPU list '%s': '%.*s' is not a CPU number; " CPULIST_HINT,
				 list, (int)n, s);
	return 0;
}

/* One term, "a" or "a-b", at [t, t + n) of @list. */
static int parse_term(const char *list, const char *t, size_t n, cpu_set_t *set,
		      char *err, size_t errlen)
{
	const char *dash = memchr(t, '-', n);
	unsigned int first, last, cpu;
	size_t n1;
	int ret;

	if (!n)
		return pmc_error(-EINVAL, err, errlen,
				 "bad CPU list '%s': empty term at offset %zu (a comma too many?); "
				 CPULIST_HINT, list, (size_t)(t - list));
	n1 = dash ? (size_t)(dash - t) : n;
	if (dash && !n1)
		return pmc_error(-EINVAL, err, errlen,
				 "bad CPU list '%s': '%.*s' has no first CPU; " CPULIST_HINT,
				 list, (int)n, t);
	if (dash && n1 == n - 1)
		return pmc_error(-EINVAL, err, errlen,
				 "bad CPU list '%s': '%.*s' has no last CPU; " CPULIST_HINT,
				 list, (int)n, t);
	ret = parse_end(list, t, n1, &first, err, errlen);
	if (ret)
		return ret;
	last = first;
	if (dash) {
		ret = parse_end(list, dash + 1, n - n1 - 1, &last, err, errlen);
		if (ret)
			return ret;
		if (last < first)
			return pmc_error(-EINVAL, err, errlen,
					 "bad CPU list '%s': range '%.*s' goes down; write it as %u-%u",
					 list, (int)n, t, last, first);
	}
	for (cpu = first; cpu <= last; cpu++)
		CPU_SET(cpu, set);
	return 0;
}

int pmc_cpulist_parse(const char *list, cpu_set_t *set, char *err, size_t errlen)
{
	const char *start, *end;
	cpu_set_t s;
	int ret;

	CPU_ZERO(set);
	if (!list || !*list)
		return pmc_error(-EINVAL, err, errlen, "empty CPU list; " CPULIST_HINT);
	CPU_ZERO(&s);
	for (start = list;; start = end + 1) {
		end = start + strcspn(start, ",");
		ret = parse_term(list, start, (size_t)(end - start), &s, err, errlen);
		if (ret)
			return ret;
		if (!*end)
			break;
	}
	*set = s;
	return 0;
}

int pmc_cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t pos = 0;
	int first = -1, cpu, n;

	if (!len)
		return -ENOSPC;		/* not even room for "" */
	buf[0] = '\0';
	/* Runs of set CPUs; CPU_SETSIZE ends the last one. */
	for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
		bool on = cpu < CPU_SETSIZE && CPU_ISSET(cpu, set);

		if (on && first < 0)
			first = cpu;
		if (on || first < 0)
			continue;
		if (first == cpu - 1)
			n = snprintf(buf + pos, len - pos, "%s%d", pos ? "," : "", first);
		else
			n = snprintf(buf + pos, len - pos, "%s%d-%d", pos ? "," : "", first,
				     cpu - 1);
		if (n < 0 || (size_t)n >= len - pos) {
			/* Keep the whole terms that fit. */
			if (pos < len)
				buf[pos] = '\0';
			return -ENOSPC;
		}
		pos += (size_t)n;
		first = -1;
	}
	return (int)pos;
}

int pmc_online_cpus(const char *path, cpu_set_t *set)
{
	char buf[8192];
	size_t n = 0;
	ssize_t r;
	int fd, ret = 0;

	CPU_ZERO(set);
	fd = open(path ? path : ONLINE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < sizeof(buf)) {
		r = read(fd, buf + n, sizeof(buf) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (ret)
		return ret;
	/* Too long for any cpulist of CPU_SETSIZE CPUs worth reading, or a NUL inside. */
	if (n == sizeof(buf) || memchr(buf, '\0', n))
		return -EINVAL;
	if (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return pmc_cpulist_parse(buf, set, NULL, 0);
}
