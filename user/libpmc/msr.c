// SPDX-License-Identifier: GPL-2.0
/* libpmc: /dev/cpu/N/msr and /dev/cpu/N/msr_safe access. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmc.h"

struct pmc_msr {
	int fd;
	enum pmc_msr_kind kind;
	char path[PATH_MAX];
};

static int try_open(const char *path, bool writable)
{
	int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int pmc_msr_open(int cpu, const char *path, bool writable, struct pmc_msr **out)
{
	static const struct {
		const char *leaf;
		enum pmc_msr_kind kind;
	} devs[] = {
		{ "msr", PMC_MSR_DEV_MSR },
		{ "msr_safe", PMC_MSR_DEV_MSR_SAFE },
	};
	char buf[PATH_MAX];
	enum pmc_msr_kind kind = PMC_MSR_DEV_PATH;
	struct pmc_msr *m;
	int fd = -ENOENT, first_err = 0;
	size_t i;

	if (cpu < 0)
		return -EINVAL;
	if (path) {
		fd = try_open(path, writable);
		snprintf(buf, sizeof(buf), "%s", path);
	} else {
		for (i = 0; i < ARRAY_SIZE(devs); i++) {
			snprintf(buf, sizeof(buf), "/dev/cpu/%d/%s", cpu, devs[i].leaf);
			fd = try_open(buf, writable);
			kind = devs[i].kind;
			if (fd >= 0)
				break;
			/* Report the most telling error: a permission problem beats "missing". */
			if (!first_err || first_err == -ENOENT)
				first_err = fd;
		}
		if (fd < 0)
			fd = first_err;
	}
	if (fd < 0)
		return fd;
	m = calloc(1, sizeof(*m));
	if (!m) {
		close(fd);
		return -ENOMEM;
	}
	m->fd = fd;
	m->kind = kind;
	snprintf(m->path, sizeof(m->path), "%s", buf);
	*out = m;
	return 0;
}

void pmc_msr_close(struct pmc_msr *m)
{
	if (!m)
		return;
	close(m->fd);
	free(m);
}

enum pmc_msr_kind pmc_msr_kind(const struct pmc_msr *m)
{
	return m->kind;
}

const char *pmc_msr_path(const struct pmc_msr *m)
{
	return m->path;
}

int pmc_msr_read(struct pmc_msr *m, uint32_t reg, uint64_t *val)
{
	ssize_t n = pread(m->fd, val, sizeof(*val), reg);

	if (n < 0)
		return -errno;
	return n == sizeof(*val) ? 0 : -EIO;
}

int pmc_msr_write(struct pmc_msr *m, uint32_t reg, uint64_t val)
{
	ssize_t n = pwrite(m->fd, &val, sizeof(val), reg);

	if (n < 0)
		return -errno;
	return n == sizeof(val) ? 0 : -EIO;
}
