// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl: the cgroups of -G and --for-each-cgroup, as perf stat takes them
 * (tools/perf/util/cgroup.c: names relative to the cgroup file system's
 * mount, regular expressions matched against every cgroup found under it).
 * Only the unified (v2) hierarchy: what PMCDRV_ATTACH_CGROUP counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <linux/pmcdrv.h>

#include "cgroups.h"

int pmcctl_cgroup2_mount(char *buf, size_t len)
{
	char line[4096], *f[10], *save, *sep;
	FILE *mi = fopen("/proc/self/mountinfo", "re");
	int n, ret = -ENOENT;

	if (!mi)
		return -errno;
	/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER" */
	while (ret && fgets(line, sizeof(line), mi)) {
		sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		for (n = 0, f[0] = strtok_r(line, " ", &save); f[n] && n < 4;)
			f[++n] = strtok_r(NULL, " ", &save);
		if (n < 4 || !f[4] || strcmp(f[3], "/"))
			continue;
		if ((size_t)snprintf(buf, len, "%s", f[4]) >= len)
			ret = -ENAMETOOLONG;
		else
			ret = 0;
	}
	fclose(mi);
	return ret;
}

/* @name relative to the mount, without leading or trailing slashes ("" for the root). */
static const char *trim(const char *name, char *buf, size_t len)
{
	size_t n;

	while (*name == '/')
		name++;
	n = strlen(name);
	while (n && name[n - 1] == '/')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return buf;
}

static bool has(const struct pmcctl_cgroups *cg, const char *shown)
{
	unsigned int i;

	for (i = 0; i < cg->nr; i++) {
		if (!strcmp(cg->v[i].name, shown))
			return true;
	}
	return false;
}

static int add(struct pmcctl_cgroups *cg, const char *mnt, const char *rel, char *err,
	       size_t errlen)
{
	char path[PATH_MAX];
	struct pmcctl_cgroup *v;
	struct statfs sf;
	const char *shown = *rel ? rel : "/";
	int fd;

	if (has(cg, shown)) {
		snprintf(err, errlen, "cgroup '%s' is named twice", shown);
		return -EINVAL;
	}
	if (cg->nr >= PMCDRV_MAX_CGROUPS) {
		snprintf(err, errlen, "more than %d cgroups: count fewer at a time", PMCDRV_MAX_CGROUPS);
		return -E2BIG;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", mnt, rel) >= sizeof(path)) {
		snprintf(err, errlen, "cgroup '%s': name too long", shown);
		return -ENAMETOOLONG;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "cgroup '%s': %s: %s (names are relative to %s)", shown, path,
			 strerror(e), mnt);
		return -e;
	}
	if (fstatfs(fd, &sf) || sf.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(err, errlen, "cgroup '%s': %s is not a cgroup v2 directory", shown, path);
		close(fd);
		return -ENOTDIR;
	}
	v = realloc(cg->v, (cg->nr + 1) * sizeof(*v));
	if (!v || !(v[cg->nr].name = strdup(shown))) {
		if (v)
			cg->v = v;
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	cg->v = v;
	v[cg->nr++].fd = fd;
	return 0;
}

static int mount_of(char *mnt, size_t len, char *err, size_t errlen)
{
	int ret = pmcctl_cgroup2_mount(mnt, len);

	if (ret)
		snprintf(err, errlen, "no cgroup v2 file system is mounted (%s): mount -t cgroup2 none "
			 "/sys/fs/cgroup", strerror(-ret));
	return ret;
}

int pmcctl_cgroups_parse(const char *list, struct pmcctl_cgroups *cg, char *err, size_t errlen)
{
	char mnt[PATH_MAX], rel[PATH_MAX], *dup, *item, *save;
	int ret;

	ret = mount_of(mnt, sizeof(mnt), err, errlen);
	if (ret)
		return ret;
	dup = strdup(list);
	if (!dup)
		return -ENOMEM;
	for (item = strtok_r(dup, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save))
		ret = add(cg, mnt, trim(item, rel, sizeof(rel)), err, errlen);
	if (!ret && !cg->nr) {
		snprintf(err, errlen, "no cgroup named in '%s'", list);
		ret = -EINVAL;
	}
	free(dup);
	return ret;
}

/* nftw() has no argument for its callback: the walk's state, one walk at a time. */
static struct walk {
	size_t prefix;
	char **names;
	unsigned int nr;
	int err;
} *walk_now;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct walk *w = walk_now;
	char **n;

	(void)st;
	(void)ftw;
	if (type != FTW_D)
		return 0;
	n = realloc(w->names, (w->nr + 1) * sizeof(*n));
	if (!n || !(n[w->nr] = strdup(path[w->prefix] ? path + w->prefix + 1 : "/"))) {
		if (n)
			w->names = n;
		w->err = -ENOMEM;
		return 1;
	}
	w->names = n;
	w->nr++;
	return 0;
}

int pmcctl_cgroups_match(const char *regex, struct pmcctl_cgroups *cg, char *err, size_t errlen)
{
	char mnt[PATH_MAX], *dup, *item, *save, *anchored;
	struct walk w = { 0 };
	unsigned int i, found;
	regex_t re;
	int ret;

	ret = mount_of(mnt, sizeof(mnt), err, errlen);
	if (ret)
		return ret;
	w.prefix = strlen(mnt);
	walk_now = &w;
	if (nftw(mnt, walk_one, 16, FTW_PHYS) < 0 && !w.err)
		w.err = -errno;
	walk_now = NULL;
	if (w.err) {
		snprintf(err, errlen, "cannot list the cgroups under %s: %s", mnt, strerror(-w.err));
		ret = w.err;
		goto out_names;
	}
	dup = strdup(regex);
	if (!dup) {
		ret = -ENOMEM;
		goto out_names;
	}
	for (item = strtok_r(dup, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		if (asprintf(&anchored, "^(%s)$", item) < 0) {
			ret = -ENOMEM;
			break;
		}
		ret = regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB);
		free(anchored);
		if (ret) {
			snprintf(err, errlen, "--for-each-cgroup: '%s' is not an extended regular "
				 "expression", item);
			ret = -EINVAL;
			break;
		}
		for (i = found = 0; i < w.nr && !ret; i++) {
			if (regexec(&re, w.names[i], 0, NULL, 0))
				continue;
			found++;
			/* An earlier item took it: perf's list has it once too. */
			if (!has(cg, w.names[i]))
				ret = add(cg, mnt, strcmp(w.names[i], "/") ? w.names[i] : "", err,
					  errlen);
		}
		regfree(&re);
		if (!ret && !found) {
			snprintf(err, errlen, "--for-each-cgroup: no cgroup under %s matches '%s'", mnt,
				 item);
			ret = -ENOENT;
		}
	}
	free(dup);
out_names:
	for (i = 0; i < w.nr; i++)
		free(w.names[i]);
	free(w.names);
	return ret;
}

void pmcctl_cgroups_free(struct pmcctl_cgroups *cg)
{
	unsigned int i;

	for (i = 0; i < cg->nr; i++) {
		free(cg->v[i].name);
		close(cg->v[i].fd);
	}
	free(cg->v);
	cg->v = NULL;
	cg->nr = 0;
}
