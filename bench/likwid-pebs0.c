// SPDX-License-Identifier: GPL-2.0
/*
 * likwid-pebs0.so: an LD_PRELOAD shim for LIKWID in the bench guest (bench/guest.sh, B13 and
 * B6's LIKWID row).  LIKWID 5.2.2's Skylake set-up (perfmon_setupCounterThread_skylake())
 * writes 0 to IA32_PEBS_ENABLE (MSR 0x3F1) through /dev/cpu/N/msr before it programs any
 * counter, and gives up on the whole event set when that write fails.  The emulated PMU
 * has no PEBS (IA32_MISC_ENABLE bit 12, "PEBS unavailable", is set; LIKWID's own init
 * checks that bit and skips the same write) and raises #GP on the MSR, which the msr
 * driver returns as EIO.  Zeroing PEBS_ENABLE on a CPU without PEBS changes nothing, so
 * this shim reports success for exactly that write when the real one fails with EIO:
 * pwrite() of the 8 bytes 0 at offset 0x3F1 of an msr device (character major 202).
 * Every other pwrite() goes to glibc's unchanged (one comparison more).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MSR_PEBS_ENABLE 0x3F1
#define MSR_MAJOR 202

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset);

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	struct stat st;
	uint64_t v;
	ssize_t r;

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	r = real(fd, buf, count, offset);
	if (r >= 0 || errno != EIO || offset != MSR_PEBS_ENABLE || count != sizeof(v))
		return r;
	memcpy(&v, buf, sizeof(v));
	if (v || fstat(fd, &st) || !S_ISCHR(st.st_mode) || major(st.st_rdev) != MSR_MAJOR) {
		errno = EIO;
		return r;
	}
	return (ssize_t)count;
}
