// SPDX-License-Identifier: GPL-2.0
/* libpmc: the pmcdrv char device, and CPUID from user space. */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libpmc.h"
#include "libpmc_error.h"

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

static void cpuid_regs(uint32_t leaf, struct pmc_cpuid_regs *r)
{
	__cpuid_count(leaf, 0, r->eax, r->ebx, r->ecx, r->edx);
}

int pmc_cpuid_info(struct pmcdrv_info *info, enum pmc_decode_err *decode_err)
{
	struct pmc_cpuid_regs l0, l1, l0a = { 0 };
	struct pmc_cpu_desc d;
	long ncpu;

	cpuid_regs(0, &l0);
	cpuid_regs(1, &l1);
	if (l0.eax >= PMC_CPUID_LEAF_PERFMON)
		cpuid_regs(PMC_CPUID_LEAF_PERFMON, &l0a);

	pmc_describe_cpu(&l0, &l1, &l0a, &d);
	pmc_info_from_desc(&d, info);
	if (decode_err)
		*decode_err = d.decode_err;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	info->nr_cpus = ncpu > 0 ? (uint32_t)ncpu : 0;
	return 0;
}

const char *pmc_arch_event_name(unsigned int bit)
{
	return bit < PMC_ARCH_NR_EVENTS ? pmc_arch_events[bit].name : NULL;
}

int pmc_error(int ret, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return ret;
}
