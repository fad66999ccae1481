// SPDX-License-Identifier: GPL-2.0
/* libpmc: the pmcdrv char device, and CPUID from user space. */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libpmc.h"

struct pmc_dev {
	int fd;
};

int pmc_dev_open(const char *path, struct pmc_dev **out)
{
	struct pmc_dev *dev;
	int fd;

	fd = open(path ? path : PMC_DEFAULT_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		close(fd);
		return -ENOMEM;
	}
	dev->fd = fd;
	*out = dev;
	return 0;
}

void pmc_dev_close(struct pmc_dev *dev)
{
	if (!dev)
		return;
	close(dev->fd);
	free(dev);
}

int pmc_dev_api_version(struct pmc_dev *dev)
{
	int v = ioctl(dev->fd, PMCDRV_IOC_API_VERSION);

	return v < 0 ? -errno : v;
}

int pmc_dev_info(struct pmc_dev *dev, struct pmcdrv_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	if (ioctl(dev->fd, PMCDRV_IOC_INFO, info) < 0)
		return -errno;
	return 0;
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
