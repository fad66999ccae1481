// SPDX-License-Identifier: GPL-2.0
/* pmcctl: what a failure means and its fix, said once for every command. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmc.h"
#include "pmcctl.h"

bool lockdown_active(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "[integrity]") || strstr(buf, "[confidentiality]");
}

const char *pmcctl_module_hint(int err)
{
	switch (err) {
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		return "pmcdrv is not loaded: sudo insmod kmod/pmcdrv.ko (or modprobe pmcdrv)";
	case -EACCES:
	case -EPERM:
		return "no permission on the device: join the group that owns it (group pmc under the packages' udev rule: sudo usermod -aG pmc $USER, then log in again), or run as root";
	case -EMFILE:
		return "too many open files: 'pmcctl run -p/-t' opens one session per thread; raise the limit (ulimit -n) or count fewer threads (-t)";
	default:
		return "the pmcdrv device could not be opened";
	}
}

const char *msr_hint(int err)
{
	switch (err) {
	case -ENOENT:
	case -ENODEV:
		return "no MSR device: load the msr driver with 'modprobe msr'";
	case -EACCES:
	case -EPERM:
		if (lockdown_active())
			return "kernel lockdown forbids raw MSR access (/sys/kernel/security/lockdown); boot without lockdown or use pmcdrv";
		if (geteuid() != 0)
			return "MSR devices need root or CAP_SYS_RAWIO: run with sudo";
		return "MSR access denied although root: check CAP_SYS_RAWIO and kernel lockdown";
	case -ENXIO:
		return "CPU 0 is offline";
	default:
		return "the MSR device could not be opened";
	}
}

int pmcctl_exit_code(int err)
{
	switch (err) {
	case 0:
		return EXIT_OK;
	case -EINVAL:
		return EXIT_USAGE;
	case -ENODEV:
		return EXIT_UNAVAILABLE;
	case -EBUSY:
		return EXIT_BUSY;
	case -ENOEXEC:
		return EXIT_NOT_EXEC;
	case -ENOENT:
		return EXIT_NOT_FOUND;
	default:
		return EXIT_FAIL;
	}
}

int device_error(const char *cmd, const char *device, int err)
{
	fprintf(stderr, "pmcctl %s: %s: %s\n  fix: %s\n", cmd, device ? device : PMC_DEFAULT_DEVICE,
		strerror(-err), pmcctl_module_hint(err));
	return -ENODEV;
}

/* Does process @pid have a perf_event file open (as far as /proc lets the caller see)? */
static bool has_perf_fd(const char *pid)
{
	char path[PATH_MAX], link[64];
	struct dirent *d;
	bool found = false;
	DIR *dir;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while (!found && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, d->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		found = !strcmp(link, "anon_inode:[perf_event]");
	}
	closedir(dir);
	return found;
}

/*
 * Who may hold the PMU against pmcdrv, into @buf: the NMI watchdog when it
 * is on, and the processes with perf_event files open that /proc shows the
 * caller (all of them for root), up to a few.  Empty when none is seen.
 */
void pmu_holders(char *buf, size_t len)
{
	unsigned int shown = 0, more = 0;
	char comm[32], path[PATH_MAX], wd[8] = "";
	struct dirent *d;
	size_t off = 0;
	DIR *proc;
	FILE *f;

	buf[0] = '\0';
	f = fopen("/proc/sys/kernel/nmi_watchdog", "re");
	if (f) {
		if (fgets(wd, sizeof(wd), f) && atoi(wd) > 0)
			off += snprintf(buf + off, len - off, "the NMI watchdog (kernel.nmi_watchdog=1)");
		fclose(f);
	}
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		if (!isdigit((unsigned char)d->d_name[0]) || !has_perf_fd(d->d_name))
			continue;
		if (shown == 4) {
			more++;
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		comm[0] = '\0';
		f = fopen(path, "re");
		if (f) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		if (off < len)
			off += snprintf(buf + off, len - off, "%spid %s (%s)", off ? ", " : "",
					d->d_name, comm);
		shown++;
	}
	if (proc)
		closedir(proc);
	if (more && off < len)
		snprintf(buf + off, len - off, " and %u more", more);
}

int session_error(const char *cmd, const char *what, int err)
{
	char holders[256];

	switch (err) {
	case -EBUSY:
		pmu_holders(holders, sizeof(holders));
		fprintf(stderr, "pmcctl %s: %s: the counters are busy: perf_events or the NMI watchdog holds the PMU\n",
			cmd, what);
		if (holders[0])
			fprintf(stderr, "  perf_events users seen: %s\n", holders);
		fprintf(stderr, "  fix: sudo sysctl kernel.nmi_watchdog=0, or stop the perf user, then retry\n");
		return -EBUSY;
	case -EACCES:
		fprintf(stderr, "pmcctl %s: %s: this needs CAP_PERFMON (or root) under kernel.perf_event_paranoid: "
			"counting kernel mode when it is > 1, any counting when it is > 2 unless you are "
			"in /dev/pmcdrv's group; use :u events or run as root\n", cmd, what);
		return -EIO;
	case -ENODEV:
		fprintf(stderr, "pmcctl %s: %s: this CPU has no architectural performance counters; "
			"only task-clock, context-switches and cpu-migrations can be counted\n", cmd, what);
		return -ENODEV;
	case -EOWNERDEAD:
		fprintf(stderr, "pmcctl %s: %s: %s; counting stopped there and its counts are lost\n",
			cmd, what, pmc_session_strerror(err, 0));
		return -EIO;
	case -ENOSPC:
		fprintf(stderr, "pmcctl %s: %s: the events do not fit the hardware: a {group} larger than "
			"the counters ('pmcctl info' lists them), or two events of one {group} that need "
			"different values in one extra register (OFFCORE_RESPONSE_0/1); split the group "
			"(events outside groups take turns on the counters)\n", cmd, what);
		return -EINVAL;
	default:
		fprintf(stderr, "pmcctl %s: %s: %s\n", cmd, what, strerror(-err));
		return -EIO;
	}
}

int attach_busy_error(const char *cmd, const char *what, const char *excluder)
{
	char holders[256];

	pmu_holders(holders, sizeof(holders));
	if (excluder)
		fprintf(stderr, "pmcctl %s: %s: %s; or %s\n", cmd, what, excluder,
			pmc_session_strerror(-EBUSY, PMCDRV_IOC_ENABLE));
	else
		fprintf(stderr, "pmcctl %s: %s: %s\n", cmd, what,
			pmc_session_strerror(-EBUSY, PMCDRV_IOC_ENABLE));
	if (holders[0])
		fprintf(stderr, "  perf_events users seen: %s\n", holders);
	fprintf(stderr, "  fix: wait for that count to end; or free the PMU (sudo sysctl kernel.nmi_watchdog=0, "
		"or stop the perf user); then retry\n");
	return -EBUSY;
}
