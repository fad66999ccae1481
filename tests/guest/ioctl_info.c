// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest test of /dev/pmcdrv's INFO and API_VERSION ioctls: the round
 * trip, every malformed request with its documented errno (docs/abi.md),
 * and agreement with what CPUID tells user space.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "libpmc.h"

static struct check_state st;

/* Issue INFO with @buf; returns 0 or errno. */
static int info_ioctl(int fd, unsigned long cmd, void *buf)
{
	return ioctl(fd, cmd, buf) < 0 ? errno : 0;
}

/* A buffer of @total bytes whose first @fill bytes are a valid request. */
static unsigned char *request(size_t total, uint32_t size)
{
	unsigned char *b = calloc(1, total);

	if (!b)
		abort();
	memcpy(b, &size, sizeof(size));
	return b;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : PMC_DEFAULT_DEVICE;
	struct pmcdrv_info info, cpu;
	enum pmc_decode_err derr;
	unsigned char *b;
	long page = sysconf(_SC_PAGESIZE);
	void *unmapped;
	int fd, e, v;

	fd = open(path, O_RDWR);
	CHECK(&st, fd >= 0, "open device", "open %s: %s", path, strerror(errno));
	if (fd < 0)
		return check_summary(&st, "ioctl_info");

	v = ioctl(fd, PMCDRV_IOC_API_VERSION);
	CHECK(&st, v == PMCDRV_API_VERSION, "api version", "got %d, want %d", v, PMCDRV_API_VERSION);

	/* The valid round trip. */
	memset(&info, 0xa5, sizeof(info));
	memset(&info.reserved0, 0, sizeof(info.reserved0));
	memset(info.reserved, 0, sizeof(info.reserved));
	info.size = sizeof(info);
	e = info_ioctl(fd, PMCDRV_IOC_INFO, &info);
	CHECK(&st, e == 0, "info ok", "errno %d (%s)", e, strerror(e));
	CHECK(&st, info.size == PMCDRV_INFO_SIZE_VER0, "info size written back", "size %u", info.size);
	CHECK(&st, info.api_version == PMCDRV_API_VERSION, "info api_version", "%u", info.api_version);
	CHECK(&st, info.reserved0 == 0 && !info.reserved[0] && !info.reserved[1],
	      "info reserved zeroed", "reserved fields not zeroed on output");
	CHECK(&st, info.nr_cpus >= 1, "info nr_cpus", "%u", info.nr_cpus);

	/* Agreement with user-space CPUID: the same shared decoder on both sides. */
	pmc_cpuid_info(&cpu, &derr);
	CHECK(&st, !memcmp(info.vendor_id, cpu.vendor_id, sizeof(cpu.vendor_id)) &&
	      info.family == cpu.family && info.model == cpu.model &&
	      info.stepping == cpu.stepping, "info matches cpuid: vendor/fms",
	      "module %u/%u/%u, cpuid %u/%u/%u", info.family, info.model, info.stepping,
	      cpu.family, cpu.model, cpu.stepping);
	CHECK(&st, info.perfmon_version == cpu.perfmon_version && info.num_gp == cpu.num_gp &&
	      info.gp_width == cpu.gp_width && info.num_fixed == cpu.num_fixed &&
	      info.fixed_width == cpu.fixed_width && info.events_avail == cpu.events_avail &&
	      info.avail_mask == cpu.avail_mask, "info matches cpuid: counters",
	      "module v%u %ux%u %ux%u, cpuid v%u %ux%u %ux%u", info.perfmon_version, info.num_gp,
	      info.gp_width, info.num_fixed, info.fixed_width, cpu.perfmon_version, cpu.num_gp,
	      cpu.gp_width, cpu.num_fixed, cpu.fixed_width);
	CHECK(&st, (info.flags & PMCDRV_INFO_ARCH_PERFMON) == (cpu.flags & PMCDRV_INFO_ARCH_PERFMON),
	      "info matches cpuid: arch perfmon flag", "module flags 0x%x, cpuid 0x%x",
	      info.flags, cpu.flags);

	/* Sizes. */
	memset(&info, 0, sizeof(info));
	info.size = 0;
	e = info_ioctl(fd, PMCDRV_IOC_INFO, &info);
	CHECK(&st, e == EINVAL, "size 0 -> EINVAL", "errno %d", e);
	info.size = PMCDRV_INFO_SIZE_VER0 - 4;
	e = info_ioctl(fd, PMCDRV_IOC_INFO, &info);
	CHECK(&st, e == EINVAL, "size below VER0 -> EINVAL", "errno %d", e);

	b = request(PMCDRV_INFO_SIZE_VER0 + 64, PMCDRV_INFO_SIZE_VER0 + 64);
	e = info_ioctl(fd, PMCDRV_IOC_INFO, b);
	CHECK(&st, e == 0, "larger size, zero tail -> ok", "errno %d", e);
	memcpy(&info, b, sizeof(info));
	CHECK(&st, info.size == PMCDRV_INFO_SIZE_VER0 && b[PMCDRV_INFO_SIZE_VER0] == 0,
	      "larger size: kernel size returned, tail untouched", "size %u", info.size);
	/* The call above wrote the kernel's size back: claim the larger size again. */
	{
		uint32_t big = PMCDRV_INFO_SIZE_VER0 + 64;

		memcpy(b, &big, sizeof(big));
	}
	b[PMCDRV_INFO_SIZE_VER0 + 63] = 1;
	e = info_ioctl(fd, PMCDRV_IOC_INFO, b);
	CHECK(&st, e == E2BIG, "larger size, non-zero tail -> E2BIG", "errno %d", e);
	free(b);

	b = request((size_t)page * 2, (uint32_t)page + 8);
	e = info_ioctl(fd, PMCDRV_IOC_INFO, b);
	CHECK(&st, e == E2BIG, "size over a page -> E2BIG", "errno %d", e);
	free(b);

	/* Reserved fields. */
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.reserved0 = 1;
	e = info_ioctl(fd, PMCDRV_IOC_INFO, &info);
	CHECK(&st, e == EINVAL, "reserved0 set -> EINVAL", "errno %d", e);
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.reserved[1] = 1ULL << 63;
	e = info_ioctl(fd, PMCDRV_IOC_INFO, &info);
	CHECK(&st, e == EINVAL, "reserved[1] set -> EINVAL", "errno %d", e);

	/* Bad pointers. */
	e = info_ioctl(fd, PMCDRV_IOC_INFO, NULL);
	CHECK(&st, e == EFAULT, "NULL pointer -> EFAULT", "errno %d", e);
	unmapped = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	e = info_ioctl(fd, PMCDRV_IOC_INFO, unmapped);
	CHECK(&st, e == EFAULT, "unreadable pointer -> EFAULT", "errno %d", e);
	munmap(unmapped, (size_t)page);
	/* A struct that ends past the mapping: readable size, unreadable rest. */
	b = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(b + page, (size_t)page, PROT_NONE);
	memset(b, 0, (size_t)page);
	{
		uint32_t sz = PMCDRV_INFO_SIZE_VER0;
		unsigned char *p = b + page - 16;

		memcpy(p, &sz, sizeof(sz));
		e = info_ioctl(fd, PMCDRV_IOC_INFO, p);
		CHECK(&st, e == EFAULT, "struct crossing into unmapped page -> EFAULT", "errno %d", e);
	}
	munmap(b, (size_t)page * 2);

	/* Commands. */
	e = info_ioctl(fd, _IO(PMCDRV_IOC_MAGIC, 0x7f), &info);
	CHECK(&st, e == ENOTTY, "unknown command -> ENOTTY", "errno %d", e);
	e = info_ioctl(fd, _IOWR(PMCDRV_IOC_MAGIC ^ 1, 0x01, struct pmcdrv_info), &info);
	CHECK(&st, e == ENOTTY, "wrong type byte -> ENOTTY", "errno %d", e);
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	e = info_ioctl(fd, _IOWR(PMCDRV_IOC_MAGIC, 0x01, char[200]), &info);
	CHECK(&st, e == 0, "size bits of the command are ignored", "errno %d", e);

	close(fd);
	return check_summary(&st, "ioctl_info");
}
