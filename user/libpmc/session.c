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
	unsigned int nr_read;		/* events READ reported (0: none yet) */
	bool mux;			/* READ said PMCDRV_READ_MULTIPLEXED */
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

int pmc_session_set_mux_interval(struct pmc_session *s, uint64_t ns)
{
	if (s->configured)
		return -EALREADY;
	s->cfg.mux_interval_ns = ns;
	return 0;
}

void pmc_session_set_inherit(struct pmc_session *s, bool inherit)
{
	s->inherit = inherit;
}

/* The first layout: 16 events of PMCDRV_EVENT_SIZE_VER0 bytes, event_size 0. */
struct config_ver0 {
	uint32_t size, flags, nr_events, event_size;
	uint64_t reserved[2];
	unsigned char events[PMCDRV_MAX_EVENTS_VER0][PMCDRV_EVENT_SIZE_VER0];
};

_Static_assert(sizeof(struct config_ver0) == PMCDRV_CONFIG_SIZE_VER0, "VER0 config layout");
_Static_assert(sizeof(struct pmcdrv_config) == PMCDRV_CONFIG_SIZE_VER1, "VER1 config layout");

/*
 * A module older than the VER1 layout refuses event_size (its reserved0):
 * EINVAL, or E2BIG for bytes past its struct.  Events that need nothing
 * of VER1 go again in the first layout.
 */
static int config_ver0(struct pmc_session *s)
{
	static const unsigned char zero[PMCDRV_EVENT_SIZE_VER1 - PMCDRV_EVENT_SIZE_VER0];
	struct config_ver0 c = { .size = sizeof(c), .flags = s->cfg.flags,
				 .nr_events = s->cfg.nr_events };
	unsigned int i;

	if (s->cfg.nr_events > PMCDRV_MAX_EVENTS_VER0)
		return -E2BIG;
	for (i = 0; i < s->cfg.nr_events; i++) {
		/* extra, group, reserved1: a VER1 field in use cannot go as VER0. */
		if (memcmp((const unsigned char *)&s->cfg.events[i] + PMCDRV_EVENT_SIZE_VER0,
			   zero, sizeof(zero)))
			return -EINVAL;
		memcpy(c.events[i], &s->cfg.events[i], PMCDRV_EVENT_SIZE_VER0);
	}
	if (ioctl(s->fd, PMCDRV_IOC_CONFIG, &c) < 0)
		return -errno;
	for (i = 0; i < s->cfg.nr_events; i++)
		memcpy(&s->cfg.events[i], c.events[i], PMCDRV_EVENT_SIZE_VER0);
	return 0;
}

int pmc_session_config(struct pmc_session *s)
{
	int err = 0;

	if (s->configured)
		return -EALREADY;
	s->cfg.size = sizeof(s->cfg);
	s->cfg.event_size = sizeof(struct pmcdrv_event);
	s->cfg.flags = s->inherit ? 0 : PMCDRV_CONFIG_NO_INHERIT;
	if (ioctl(s->fd, PMCDRV_IOC_CONFIG, &s->cfg) < 0) {
		err = -errno;
		/* Only a module without VER1 answers this to a valid request. */
		if ((err == -EINVAL || err == -E2BIG) && config_ver0(s) == 0)
			err = 0;
	}
	if (err)
		return err;
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

int pmc_session_attach_cgroups(struct pmc_session *s, unsigned int cpu, const int *fds,
			       unsigned int nr)
{
	int32_t v[PMCDRV_MAX_CGROUPS];
	struct pmcdrv_attach a = { .size = sizeof(a), .flags = PMCDRV_ATTACH_CPU | PMCDRV_ATTACH_CGROUP,
				   .cpu = cpu, .cgroup_fds = (uintptr_t)v, .nr_cgroups = nr };
	unsigned int i;

	if (!nr || nr > PMCDRV_MAX_CGROUPS)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		v[i] = fds[i];
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

/*
 * READ, READ_SELF or READ_CGROUP (of cgroup number @cgroup) in the VER1 layout.  A module older than it writes the
 * first layout (its size in r->size) and no times[]: without multiplexing
 * every event's times are the session's.
 */
static int read_ioctl(struct pmc_session *s, unsigned long cmd, uint64_t cgroup,
		      struct pmcdrv_read *r)
{
	unsigned int i, n = s->configured ? s->cfg.nr_events : s->nr_read;
	/*
	 * Ask for what carries news: without multiplexing each event's times
	 * are the session's, so a session of up to 16 events asks the first
	 * layout (192 bytes to copy each way instead of 832) and its times are
	 * filled here.  A multiplexing session (READ's flag MULTIPLEXED, seen
	 * once) asks VER1: its events' times differ.  An adopted session's
	 * number of events is learnt from its first READ.
	 */
	uint32_t asked = n && n <= PMCDRV_MAX_EVENTS_VER0 && !s->mux ? PMCDRV_READ_SIZE_VER0 :
									PMCDRV_READ_SIZE_VER1;

	/*
	 * Only the header goes in (size, cgroup, reserved: the rest is output),
	 * and the module writes back all it was asked for: values[] and times[]
	 * past nr_events are not cleared here (libpmc.3).
	 */
	memset(r, 0, offsetof(struct pmcdrv_read, values));
	r->size = asked;
	r->cgroup = cgroup;
	if (ioctl(s->fd, cmd, r) < 0)
		return -errno;
	s->nr_read = r->nr_events;
	if (asked == PMCDRV_READ_SIZE_VER1 && r->size >= PMCDRV_READ_SIZE_VER1)
		return 0;
	if (__builtin_expect(r->flags & PMCDRV_READ_MULTIPLEXED, 0) && asked < PMCDRV_READ_SIZE_VER1) {
		/* Seen once: from now on this asks VER1 (above). */
		s->mux = true;
		return read_ioctl(s, cmd, cgroup, r);
	}
	for (i = 0; i < r->nr_events && i < PMCDRV_MAX_EVENTS; i++) {
		r->times[i].time_enabled = r->time_enabled;
		r->times[i].time_running = r->time_running;
	}
	return 0;
}

int pmc_scale_count(uint64_t val, uint64_t enabled, uint64_t running, uint64_t *out)
{
	double v;

	if (!running) {
		*out = 0;
		return -1;
	}
	if (running >= enabled) {
		*out = val;
		return 0;
	}
	v = (double)val * (double)enabled / (double)running;
	*out = v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
	return 1;
}

int pmc_session_read(struct pmc_session *s, struct pmcdrv_read *r)
{
	return read_ioctl(s, PMCDRV_IOC_READ, 0, r);
}

int pmc_session_read_types(struct pmc_session *s, struct pmcdrv_read_types *rt)
{
	memset(rt, 0, sizeof(*rt));
	rt->read.size = sizeof(*rt);
	if (ioctl(s->fd, PMCDRV_IOC_READ, rt) < 0)
		return -errno;
	s->nr_read = rt->read.nr_events;
	if (rt->read.flags & PMCDRV_READ_MULTIPLEXED)
		s->mux = true;
	/* A module older than the split answers VER1, or VER0 before that. */
	if (rt->read.size < PMCDRV_READ_SIZE_VER2)
		rt->nr_types = 0;
	/*
	 * One of the split without its running times (VER2) split only what
	 * did not take turns: every event ran all of its type's time.
	 */
	if (rt->read.size < PMCDRV_READ_SIZE_VER3) {
		for (unsigned int t = 0; t < rt->nr_types && t < PMCDRV_MAX_CORE_TYPES; t++)
			for (unsigned int i = 0; i < PMCDRV_MAX_EVENTS; i++)
				rt->time_running[t][i] = rt->types[t].time_enabled;
	}
	/* As read_ioctl(), whose loop stays its own: its instructions are the region cost's. */
	if (rt->read.size < PMCDRV_READ_SIZE_VER1) {
		for (unsigned int i = 0; i < rt->read.nr_events && i < PMCDRV_MAX_EVENTS; i++) {
			rt->read.times[i].time_enabled = rt->read.time_enabled;
			rt->read.times[i].time_running = rt->read.time_running;
		}
	}
	return 0;
}

int pmc_session_read_self(struct pmc_session *s, struct pmcdrv_read *r)
{
	return read_ioctl(s, PMCDRV_IOC_READ_SELF, 0, r);
}

int pmc_session_read_cgroup(struct pmc_session *s, unsigned int i, struct pmcdrv_read *r)
{
	return read_ioctl(s, PMCDRV_IOC_READ_CGROUP, i, r);
}

_Static_assert(sizeof(struct pmcdrv_session_info) == PMCDRV_SESSION_INFO_SIZE_VER0, "session info layout");
_Static_assert(sizeof(struct pmcdrv_sessions) == PMCDRV_SESSIONS_SIZE_VER0, "sessions layout");
_Static_assert(sizeof(struct pmcdrv_revoke) == PMCDRV_REVOKE_SIZE_VER0, "revoke layout");

/* Sessions come and go between the count and the copy: how often to grow and ask again. */
#define LIST_TRIES	8
#define LIST_SLACK	8

int pmc_session_list(struct pmc_session *s, struct pmcdrv_session_info **entries, unsigned int *nr)
{
	struct pmcdrv_sessions q;
	struct pmcdrv_session_info *e;
	unsigned int cap = *entries ? *nr : 0, i;

	for (i = 0; i < LIST_TRIES; i++) {
		memset(&q, 0, sizeof(q));
		q.size = sizeof(q);
		q.entry_size = sizeof(**entries);
		q.nr_entries = cap;
		q.entries = cap ? (uintptr_t)*entries : 0;
		if (ioctl(s->fd, PMCDRV_IOC_SESSIONS, &q) < 0)
			return -errno;
		if (cap && q.nr_sessions <= cap) {
			*nr = q.nr_sessions;
			return 0;
		}
		/* Room for a few more than now, so that one arriving meanwhile fits. */
		cap = q.nr_sessions + LIST_SLACK;
		e = realloc(*entries, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		memset(e, 0, cap * sizeof(*e));
		*entries = e;
	}
	return -EAGAIN;
}

int pmc_session_revoke(struct pmc_session *s, uint64_t id)
{
	struct pmcdrv_revoke r = { .size = sizeof(r), .id = id };

	return ioctl(s->fd, PMCDRV_IOC_REVOKE, &r) < 0 ? -errno : 0;
}
