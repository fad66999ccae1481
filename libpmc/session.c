// SPDX-License-Identifier: GPL-2.0
/* libpmc: sessions, one open of the pmcdrv char device each. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libpmc.h"

struct pmc_session {
	int fd;
	bool inherit;
	bool configured;
	struct pmcdrv_config cfg;
};

int pmc_session_open(const char *path, struct pmc_session **out)
{
	struct pmc_session *s;
	int fd;

	fd = open(path ? path : PMC_DEFAULT_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		return -ENOMEM;
	}
	s->fd = fd;
	s->inherit = true;
	s->cfg.size = sizeof(s->cfg);
	*out = s;
	return 0;
}

void pmc_session_close(struct pmc_session *s)
{
	if (!s)
		return;
	close(s->fd);
	free(s);
}

int pmc_session_fd(const struct pmc_session *s)
{
	return s->fd;
}

int pmc_session_adopt(int fd, struct pmc_session **out)
{
	struct pmc_session *s;
	struct pmcdrv_read r = { .size = sizeof(r) };
	unsigned int i;

	if (fd < 0 || ioctl(fd, PMCDRV_IOC_API_VERSION) < 0)
		return fd < 0 ? -EBADF : -errno;
	if (ioctl(fd, PMCDRV_IOC_READ, &r) < 0)
		return -errno;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = fd;
	s->inherit = true;
	s->configured = true;
	s->cfg.size = sizeof(s->cfg);
	s->cfg.nr_events = r.nr_events;
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++)
		s->cfg.events[i].counter = ~0U;	/* the configuring process knows them */
	*out = s;
	return 0;
}

int pmc_session_api_version(struct pmc_session *s)
{
	int v = ioctl(s->fd, PMCDRV_IOC_API_VERSION);

	return v < 0 ? -errno : v;
}

int pmc_session_info(struct pmc_session *s, struct pmcdrv_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	if (ioctl(s->fd, PMCDRV_IOC_INFO, info) < 0)
		return -errno;
	return 0;
}

int pmc_session_add(struct pmc_session *s, const struct pmcdrv_event *ev)
{
	if (s->configured)
		return -EALREADY;
	if (s->cfg.nr_events >= PMCDRV_MAX_EVENTS)
		return -E2BIG;
	s->cfg.events[s->cfg.nr_events] = *ev;
	return (int)s->cfg.nr_events++;
}

void pmc_session_set_inherit(struct pmc_session *s, bool inherit)
{
	s->inherit = inherit;
}

int pmc_session_config(struct pmc_session *s)
{
	if (s->configured)
		return -EALREADY;
	s->cfg.flags = s->inherit ? 0 : PMCDRV_CONFIG_NO_INHERIT;
	if (ioctl(s->fd, PMCDRV_IOC_CONFIG, &s->cfg) < 0)
		return -errno;
	s->configured = true;
	return 0;
}

uint32_t pmc_session_counter(const struct pmc_session *s, unsigned int i)
{
	return s->configured && i < s->cfg.nr_events ? s->cfg.events[i].counter : ~0U;
}

/* ATTACH, sending the events first when not done yet. */
static int attach(struct pmc_session *s, struct pmcdrv_attach *a)
{
	int err;

	if (!s->configured) {
		err = pmc_session_config(s);
		if (err)
			return err;
	}
	return ioctl(s->fd, PMCDRV_IOC_ATTACH, a) < 0 ? -errno : 0;
}

int pmc_session_attach(struct pmc_session *s, pid_t pid, uint32_t flags)
{
	struct pmcdrv_attach a = { .size = sizeof(a), .flags = flags, .pid = pid };

	return attach(s, &a);
}

int pmc_session_attach_cpu(struct pmc_session *s, unsigned int cpu)
{
	struct pmcdrv_attach a = { .size = sizeof(a), .flags = PMCDRV_ATTACH_CPU, .cpu = cpu };

	return attach(s, &a);
}

static int simple_ioctl(struct pmc_session *s, unsigned long cmd)
{
	return ioctl(s->fd, cmd, 0) < 0 ? -errno : 0;
}

int pmc_session_enable(struct pmc_session *s)
{
	return simple_ioctl(s, PMCDRV_IOC_ENABLE);
}

int pmc_session_disable(struct pmc_session *s)
{
	return simple_ioctl(s, PMCDRV_IOC_DISABLE);
}

int pmc_session_reset(struct pmc_session *s)
{
	return simple_ioctl(s, PMCDRV_IOC_RESET);
}

int pmc_session_read(struct pmc_session *s, struct pmcdrv_read *r)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	return ioctl(s->fd, PMCDRV_IOC_READ, r) < 0 ? -errno : 0;
}

int pmc_session_read_self(struct pmc_session *s, struct pmcdrv_read *r)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	return ioctl(s->fd, PMCDRV_IOC_READ_SELF, r) < 0 ? -errno : 0;
}
