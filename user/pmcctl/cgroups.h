/* SPDX-License-Identifier: GPL-2.0 */
/* pmcctl: the cgroups that -G and --for-each-cgroup name (cgroups.c). */
#ifndef PMCCTL_CGROUPS_H
#define PMCCTL_CGROUPS_H

#include <stddef.h>

/* One cgroup v2 directory: its name as shown (relative to the mount, "/" for the root). */
struct pmcctl_cgroup {
	char *name;
	int fd;				/* O_RDONLY | O_DIRECTORY, for PMCDRV_ATTACH_CGROUP */
};

struct pmcctl_cgroups {
	unsigned int nr;
	struct pmcctl_cgroup *v;
};

/*
 * perf stat -G: a comma-separated list of cgroup names, each relative to
 * the cgroup v2 mount (a leading '/' is allowed; "/" alone is the root).
 * Appends to @cg.  -errno with a message in @err: no cgroup2 mount, no such
 * cgroup, too many (PMCDRV_MAX_CGROUPS), a name given twice.
 */
int pmcctl_cgroups_parse(const char *list, struct pmcctl_cgroups *cg, char *err, size_t errlen);
/*
 * perf stat --for-each-cgroup: a comma-separated list, each item an
 * extended regular expression matched against whole names (as -G names
 * them) of every cgroup under the mount, in the order a depth-first walk
 * finds them; an item without a match is an error.
 */
int pmcctl_cgroups_match(const char *regex, struct pmcctl_cgroups *cg, char *err, size_t errlen);
void pmcctl_cgroups_free(struct pmcctl_cgroups *cg);
/* Where the cgroup v2 hierarchy is mounted: 0 and its path in @buf, or -errno. */
int pmcctl_cgroup2_mount(char *buf, size_t len);

#endif
