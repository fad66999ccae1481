// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: regions.  Named, nestable begin/end markers; per thread, each
 * pair adds what pmc_self_read() counted between its two ends.
 *
 * State (the one exception to libpmc's "no global state", libpmc.h):
 * - tab: the process-wide table, set up once under tab.lock: the names
 *   (append-only: a name's slot never changes once published), the
 *   session and its event names, every thread's record block, the report
 *   wanted at exit;
 * - cur, last_err: per-thread: the thread's block and its last message.
 * A thread's block is linked into tab.threads under the lock and written
 * afterwards only by its thread (relaxed atomic stores, so that a report
 * read under the lock from another thread is well defined); begin and end
 * take no lock once the thread's name cache knows the name.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmc.h"
#include "region-internal.h"

#define NAME_CACHE	64	/* per-thread cache of name pointers, a power of two */
#define MSG_LEN		256

/* What one region counted in one thread. */
struct region_rec {
	uint64_t calls;
	uint64_t time_ns;
	uint64_t vals[PMCDRV_MAX_EVENTS];
};

/* An open region: the counts at its begin. */
struct frame {
	unsigned int id;
	uint64_t time_ns;
	uint64_t vals[PMCDRV_MAX_EVENTS];
};

struct name_slot {
	const char *name;	/* the caller's pointer, checked with strcmp on each hit */
	unsigned int id;
};

/* One thread's block: its self-reader, open regions and records. */
struct thread_regions {
	struct thread_regions *next;	/* tab.threads, under tab.lock */
	pid_t tid;
	void *reader;			/* NULL once the thread exited */
	unsigned int depth;
	struct frame stack[PMC_REGION_DEPTH_MAX];
	struct name_slot cache[NAME_CACHE];
	unsigned char open[PMC_REGION_MAX];
	struct region_rec *rec[PMC_REGION_MAX];	/* set under tab.lock, then fixed */
};

static struct {
	pthread_mutex_t lock;
	bool ready;			/* set up: be, ctx, events */
	int setup_err;			/* the automatic set-up failed with it (sticky) */
	char setup_msg[MSG_LEN];
	const struct pmc_region_backend *be;
	void *ctx;
	struct pmc_session *s;		/* ours to close, or NULL (a test's backend) */
	unsigned int nr_events;
	char ev_names[PMCDRV_MAX_EVENTS][PMC_EVENT_NAME_MAX];
	unsigned int nr_regions;
	char names[PMC_REGION_MAX][PMC_REGION_NAME_MAX];
	struct thread_regions *threads;
	/* The metrics asked for (NULL: none) and, per event of theirs, its index among the session's. */
	struct pmc_metrics *ms;
	unsigned int mev[PMCDRV_MAX_EVENTS];
	/* The report at exit: the machine form to report_fd, or text to report_path. */
	int report_fd;
	char *report_path;
	bool report_registered;		/* atexit() done (once per process) */
	bool key_made;
	pthread_key_t key;		/* its destructor closes an exiting thread's reader */
} tab = { .lock = PTHREAD_MUTEX_INITIALIZER, .report_fd = -1 };

static __thread struct thread_regions *cur;
static __thread char last_err[MSG_LEN];

static int fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Keep a message for pmc_region_error() and return @err. */
static int fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
	return err;
}

const char *pmc_region_error(void)
{
	return last_err;
}

static inline uint64_t ld64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void add64(uint64_t *p, uint64_t d)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + d, __ATOMIC_RELAXED);
}

/* ---- the session backend: pmc_self_* ------------------------------------- */
static int self_open(void *ctx, void **reader)
{
	return pmc_self_open(ctx, (struct pmc_self **)reader);
}

static int self_read(void *reader, uint64_t *vals, unsigned int n, uint64_t *time_ns)
{
	return pmc_self_read(reader, vals, n, time_ns, NULL);
}

static void self_close(void *reader)
{
	pmc_self_close(reader);
}

static bool self_fast(const void *reader)
{
	return pmc_self_fast(reader);
}

static const struct pmc_region_backend session_backend = {
	.open = self_open,
	.read = self_read,
	.close = self_close,
	.fast = self_fast,
};

/* ---- threads ------------------------------------------------------------- */
static void free_thread(struct thread_regions *t)
{
	unsigned int i;

	if (t->reader)
		tab.be->close(t->reader);
	for (i = 0; i < PMC_REGION_MAX; i++)
		free(t->rec[i]);
	free(t);
}

/* pthread key destructor: the thread exits; its records stay for the report. */
static void thread_exit(void *p)
{
	struct thread_regions *t = p;

	pthread_mutex_lock(&tab.lock);
	if (t->reader)
		tab.be->close(t->reader);
	t->reader = NULL;
	pthread_mutex_unlock(&tab.lock);
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&tab.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&tab.lock);
}

/* Free every thread's block, under tab.lock; the calling thread starts anew at its next begin. */
static void drop_threads_locked(void)
{
	struct thread_regions *t, *next;

	for (t = tab.threads; t; t = next) {
		next = t->next;
		free_thread(t);
	}
	tab.threads = NULL;
	if (cur && tab.key_made)
		pthread_setspecific(tab.key, NULL);
	cur = NULL;
}

/* A child of fork() starts empty: its parent's counts are its parent's to report. */
static void atfork_child(void)
{
	drop_threads_locked();
	pthread_mutex_unlock(&tab.lock);
}

/* ---- set-up -------------------------------------------------------------- */
static bool parse_fd(const char *s, int *fd)
{
	char *end;
	long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > 1 << 20)
		return false;
	*fd = (int)v;
	return true;
}

static void report_at_exit(void);

/* Where the table goes at exit ($PMCDRV_REGIONS syntax); NULL or "": nowhere. */
static int report_setup(const char *report)
{
	int fd, fl;

	/* A set-up tried again after a failure starts from no report. */
	free(tab.report_path);
	tab.report_path = NULL;
	tab.report_fd = -1;
	if (!report || !*report)
		return 0;
	if (parse_fd(report, &fd)) {
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
			return fail(-EBADF, "PMCDRV_REGIONS=%s: file descriptor %d is not open for writing; "
				    "give a writable descriptor or a path", report, fd);
		tab.report_fd = fd;
	} else {
		tab.report_path = strdup(report);
		if (!tab.report_path)
			return fail(-ENOMEM, "regions: out of memory");
	}
	if (!tab.report_registered && atexit(report_at_exit))
		return fail(-ENOMEM, "regions: atexit() failed");
	tab.report_registered = true;
	return 0;
}

/*
 * Events named in @events (-e syntax) or, with none, the default set of the
 * session's PMU (none when metrics are asked for: theirs are added after).
 */
static int event_list(struct pmc_evlist *l, const char *events, struct pmc_session *s)
{
	struct pmcdrv_info info;
	char msg[MSG_LEN];
	int err;

	memset(l, 0, sizeof(*l));
	if (events) {
		err = pmc_evlist_parse(l, events, msg, sizeof(msg));
		if (err)
			return fail(err, "PMCDRV_REGIONS_EVENTS / events: %s", msg);
		return 0;
	}
	if (!s || tab.ms)
		return 0;
	err = pmc_session_info(s, &info);
	if (err)
		return fail(err, "regions: pmcdrv INFO: %s", strerror(-err));
	pmc_evlist_default(l, &info);
	return 0;
}

/* ---- metrics: computed from a region's counts ----------------------------- */
/* Do @a and @b count the same, whatever their :u/:k and counter? */
static bool same_count(const struct pmcdrv_event *a, const struct pmcdrv_event *b)
{
	const uint32_t modes = PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL | PMCDRV_EVF_NO_FIXED;

	return a->type == b->type && (a->flags & ~modes) == (b->flags & ~modes) && a->event == b->event &&
	       a->umask == b->umask && a->cmask == b->cmask && a->sw_id == b->sw_id && a->extra == b->extra;
}

/* One event in the -e syntax into @ev; false when it does not parse as one event. */
static bool parse_one(const char *name, struct pmcdrv_event *ev)
{
	struct pmc_evlist l;
	char msg[MSG_LEN];

	memset(&l, 0, sizeof(l));
	if (pmc_evlist_parse(&l, name, msg, sizeof(msg)) || l.n != 1)
		return false;
	*ev = l.ev[0].ev;
	return true;
}

/* Compile @list (pmcctl's -M syntax) for this CPU's model into tab.ms. */
static int metrics_open(const char *list)
{
	struct pmc_metric_env env;
	char msg[MSG_LEN] = "";
	int err;

	pmc_metric_env_init(&env, false);
	err = pmc_metrics_open(NULL, list, &env, &tab.ms, msg, sizeof(msg));
	if (err)
		return fail(err, "PMCDRV_REGIONS_METRICS / metrics '%s': %s", list, msg);
	if (pmc_metrics_nr_events(tab.ms) > PMCDRV_MAX_EVENTS)
		return fail(-E2BIG, "PMCDRV_REGIONS_METRICS / metrics '%s': they need %u events, more than "
			    "the %d a session counts; ask for fewer metrics", list,
			    pmc_metrics_nr_events(tab.ms), PMCDRV_MAX_EVENTS);
	return 0;
}

/* Append the metrics' events that @l does not count yet (a session of our own). */
static int metrics_add_events(struct pmc_evlist *l)
{
	struct pmcdrv_event ev;
	unsigned int i, j;
	const char *name;

	for (i = 0; tab.ms && i < pmc_metrics_nr_events(tab.ms); i++) {
		name = pmc_metrics_event(tab.ms, i);
		if (!parse_one(name, &ev))
			return fail(-EINVAL, "regions: the metric event '%s' does not parse", name);
		for (j = 0; j < l->n && !same_count(&l->ev[j].ev, &ev); j++)
			;
		if (j < l->n)
			continue;
		if (l->n == PMCDRV_MAX_EVENTS)
			return fail(-E2BIG, "regions: the events and the metrics' events are more than %d; "
				    "ask for fewer", PMCDRV_MAX_EVENTS);
		snprintf(l->ev[l->n].name, sizeof(l->ev[l->n].name), "%s", name);
		l->ev[l->n].ev = ev;
		l->ev[l->n].ev.group = 0;
		l->n++;
	}
	return 0;
}

/* Each metric event's index among the session's events (tab.ev_names), into tab.mev. */
static int metrics_map(void)
{
	struct pmcdrv_event ev, sev[PMCDRV_MAX_EVENTS];
	bool ok[PMCDRV_MAX_EVENTS];
	unsigned int i, j;
	const char *name;

	if (!tab.ms)
		return 0;
	for (j = 0; j < tab.nr_events; j++)
		ok[j] = parse_one(tab.ev_names[j], &sev[j]);
	for (i = 0; i < pmc_metrics_nr_events(tab.ms); i++) {
		name = pmc_metrics_event(tab.ms, i);
		if (!parse_one(name, &ev))
			return fail(-EINVAL, "regions: the metric event '%s' does not parse", name);
		for (j = 0; j < tab.nr_events && !(ok[j] && same_count(&sev[j], &ev)); j++)
			;
		if (j == tab.nr_events)
			return fail(-EINVAL, "regions: the metrics need the event %s, which the session does "
				    "not count; add it to the session's events (pmcctl run -M adds it)", name);
		tab.mev[i] = j;
	}
	return 0;
}

/* pmcctl's session, inherited as file descriptor @fdstr. */
static int adopt_session(const char *fdstr, const char *events)
{
	struct pmc_evlist l;
	struct pmcdrv_read rd;
	unsigned int i;
	int fd, err;

	if (!parse_fd(fdstr, &fd))
		return fail(-EINVAL, "PMCDRV_REGIONS_SESSION='%s' is not a file descriptor number", fdstr);
	err = pmc_session_adopt(fd, &tab.s);
	if (err)
		return fail(err, "PMCDRV_REGIONS_SESSION=%d is not an open pmcdrv session (%s); "
			    "run the program under 'pmcctl run --regions', or unset it", fd, strerror(-err));
	err = pmc_session_read(tab.s, &rd);
	if (err)
		return fail(err, "regions: reading pmcctl's session: %s", strerror(-err));
	tab.nr_events = rd.nr_events;
	err = event_list(&l, events, NULL);
	if (err)
		return err;
	/* The names pmcctl passed, when they are the session's; else event0, event1, ... */
	for (i = 0; i < tab.nr_events; i++) {
		if (l.n == tab.nr_events)
			snprintf(tab.ev_names[i], sizeof(tab.ev_names[i]), "%s", l.ev[i].name);
		else
			snprintf(tab.ev_names[i], sizeof(tab.ev_names[i]), "event%u", i);
	}
	return 0;
}

static const char *open_hint(int err, bool at_open)
{
	if (at_open && (err == -EACCES || err == -EPERM))
		return "; the device's mode does not let this user open it (pmcdrv's devmode parameter, "
		       "docs/security.md)";
	switch (err) {
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		return "; load pmcdrv (sudo insmod kmod/pmcdrv.ko)";
	case -EACCES:
	case -EPERM:
		return "; kernel.perf_event_paranoid forbids it: lower it, or get CAP_PERFMON "
		       "(docs/security.md)";
	case -EEXIST:
		return "; this thread is counted by another session already: under pmcctl use "
		       "'pmcctl run --regions', which shares its session";
	case -EBUSY:
		return "; the counters are held by perf_events or the NMI watchdog";
	default:
		return "";
	}
}

/* A session of our own on the calling thread (and the tasks it creates). */
static int open_session(const char *device, const char *events)
{
	const char *path = device ? device : PMC_DEFAULT_DEVICE;
	struct pmc_evlist l;
	unsigned int i;
	int err;

	err = pmc_session_open(path, &tab.s);
	if (err)
		return fail(err, "regions: cannot open %s: %s%s", path, strerror(-err), open_hint(err, true));
	err = event_list(&l, events, tab.s);
	if (!err)
		err = metrics_add_events(&l);
	if (err)
		return err;
	/* top-down metrics' PERF_METRICS events count only beside topdown-slots */
	if (pmc_evlist_topdown_groups(&l))
		return fail(-E2BIG, "regions: the events and the metrics' events, with the topdown-slots "
			    "their top-down events need, are more than %d; ask for fewer", PMCDRV_MAX_EVENTS);
	if (!l.n)
		return fail(-EINVAL, "regions: no events to count");
	for (i = 0; i < l.n; i++) {
		pmc_session_add(tab.s, &l.ev[i].ev);
		snprintf(tab.ev_names[i], sizeof(tab.ev_names[i]), "%s", l.ev[i].name);
	}
	tab.nr_events = l.n;
	pmc_session_set_inherit(tab.s, true);
	err = pmc_session_config(tab.s);
	if (err)
		return fail(err, "regions: cannot configure the events: %s%s", strerror(-err),
			    open_hint(err, false));
	err = pmc_session_attach(tab.s, 0, 0);
	if (err)
		return fail(err, "regions: cannot count this thread: %s%s", strerror(-err),
			    open_hint(err, false));
	return 0;
}

static int make_key(void)
{
	if (tab.key_made)
		return 0;
	if (pthread_key_create(&tab.key, thread_exit))
		return fail(-EAGAIN, "regions: no pthread key left");
	if (pthread_atfork(atfork_prepare, atfork_parent, atfork_child)) {
		pthread_key_delete(tab.key);
		return fail(-ENOMEM, "regions: pthread_atfork() failed");
	}
	tab.key_made = true;
	return 0;
}

/* Under tab.lock. */
static int setup_locked(const struct pmc_region_config *cfg)
{
	const char *report = cfg && cfg->report ? cfg->report : secure_getenv("PMCDRV_REGIONS");
	const char *events = cfg && cfg->events ? cfg->events : secure_getenv("PMCDRV_REGIONS_EVENTS");
	const char *device = cfg && cfg->device ? cfg->device : secure_getenv("PMCDRV_REGIONS_DEVICE");
	const char *metrics = cfg && cfg->metrics ? cfg->metrics : secure_getenv("PMCDRV_REGIONS_METRICS");
	const char *session = secure_getenv("PMCDRV_REGIONS_SESSION");
	int err;

	err = make_key();
	if (!err)
		err = report_setup(report);
	if (!err && metrics && *metrics)
		err = metrics_open(metrics);
	if (!err)
		err = session && *session ? adopt_session(session, events) : open_session(device, events);
	if (!err)
		err = metrics_map();
	if (err) {
		pmc_metrics_close(tab.ms);
		tab.ms = NULL;
		pmc_session_close(tab.s);
		tab.s = NULL;
		tab.nr_events = 0;
		tab.setup_err = err;
		snprintf(tab.setup_msg, sizeof(tab.setup_msg), "%s", last_err);
		return err;
	}
	tab.be = &session_backend;
	tab.ctx = tab.s;
	tab.setup_err = 0;
	tab.ready = true;
	return 0;
}

int pmc_region_init(const struct pmc_region_config *cfg)
{
	int err;

	pthread_mutex_lock(&tab.lock);
	if (tab.ready)
		err = fail(-EALREADY, "regions: already set up (by PMCDRV_REGIONS in the environment, "
			   "an earlier pmc_region_init() or the first pmc_region_begin())");
	else
		err = setup_locked(cfg);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

int pmc_region_init_backend(const struct pmc_region_backend *be, void *ctx, unsigned int n,
			    const char *const *names, const char *metrics)
{
	unsigned int i;
	int err = 0;

	if (n > PMCDRV_MAX_EVENTS)
		return -E2BIG;
	pthread_mutex_lock(&tab.lock);
	if (tab.ready)
		err = -EALREADY;
	else
		err = make_key();
	if (!err) {
		tab.be = be;
		tab.ctx = ctx;
		tab.nr_events = n;
		for (i = 0; i < n; i++)
			snprintf(tab.ev_names[i], sizeof(tab.ev_names[i]), "%s", names[i]);
		if (metrics)
			err = metrics_open(metrics);
		if (!err)
			err = metrics_map();
		if (err) {
			pmc_metrics_close(tab.ms);
			tab.ms = NULL;
			tab.nr_events = 0;
		}
		tab.ready = !err;
	}
	pthread_mutex_unlock(&tab.lock);
	return err;
}

/* At program start when the environment asks for regions: before any thread is created. */
__attribute__((constructor)) static void region_env_setup(void)
{
	if (secure_getenv("PMCDRV_REGIONS"))
		pmc_region_init(NULL);	/* a failure is kept for the report and the first begin */
}

/* The set-up the first begin in a process does; a failure stays (each thread gets its message). */
static int ensure_setup(void)
{
	int err = 0;

	pthread_mutex_lock(&tab.lock);
	if (!tab.ready) {
		if (tab.setup_err)
			err = fail(tab.setup_err, "%s", tab.setup_msg);
		else
			err = setup_locked(NULL);
	}
	pthread_mutex_unlock(&tab.lock);
	return err;
}

/* The calling thread's block, made on its first region call. */
static int thread_setup(struct thread_regions **out)
{
	struct thread_regions *t;
	int err;

	err = ensure_setup();
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return fail(-ENOMEM, "regions: out of memory");
	t->tid = gettid();
	err = tab.be->open(tab.ctx, &t->reader);
	if (err) {
		free(t);
		return fail(err, "regions: this thread cannot read its counts: %s (a thread created "
			    "before the session was set up is not counted)", strerror(-err));
	}
	pthread_mutex_lock(&tab.lock);
	t->next = tab.threads;
	tab.threads = t;
	pthread_mutex_unlock(&tab.lock);
	pthread_setspecific(tab.key, t);
	cur = t;
	*out = t;
	return 0;
}

/* ---- names --------------------------------------------------------------- */
static int check_name(const char *name)
{
	size_t len, i;

	if (!name)
		return fail(-EINVAL, "region name is NULL");
	len = strnlen(name, PMC_REGION_NAME_MAX);
	if (!len)
		return fail(-EINVAL, "region name is empty");
	if (len == PMC_REGION_NAME_MAX)
		return fail(-ENAMETOOLONG, "region name '%.20s...' is too long: at most %d characters",
			    name, PMC_REGION_NAME_MAX - 1);
	for (i = 0; i < len; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			return fail(-EINVAL, "region name '%s' has a character that is not printable ASCII "
				    "(byte %zu, 0x%02x)", name, i, (unsigned char)name[i]);
	return 0;
}

/* Find @name (@create: add it) in the table and give this thread a record for it. */
static int lookup_slow(struct thread_regions *t, const char *name, bool create, unsigned int *id,
		       unsigned int slot)
{
	struct region_rec *rec = NULL;
	unsigned int i;
	int err;

	err = check_name(name);
	if (err)
		return err;
	pthread_mutex_lock(&tab.lock);
	for (i = 0; i < tab.nr_regions; i++)
		if (!strcmp(tab.names[i], name))
			break;
	if (i == tab.nr_regions) {
		if (!create) {
			err = fail(-ENOENT, "cannot end region '%s': it is not open in this thread "
				   "(no region of that name was begun)", name);
		} else if (tab.nr_regions == PMC_REGION_MAX) {
			err = fail(-ENOSPC, "cannot begin region '%s': the table holds %d regions, all taken; "
				   "use fewer distinct names", name, PMC_REGION_MAX);
		} else {
			snprintf(tab.names[i], sizeof(tab.names[i]), "%s", name);
			tab.nr_regions++;
		}
	}
	if (!err && !t->rec[i]) {
		rec = calloc(1, sizeof(*rec));
		if (rec)
			t->rec[i] = rec;
		else
			err = fail(-ENOMEM, "regions: out of memory");
	}
	pthread_mutex_unlock(&tab.lock);
	if (err)
		return err;
	t->cache[slot].name = name;
	t->cache[slot].id = i;
	*id = i;
	return 0;
}

static inline int lookup(struct thread_regions *t, const char *name, bool create, unsigned int *id)
{
	unsigned int slot = ((uintptr_t)name >> 3) & (NAME_CACHE - 1);
	const struct name_slot *c = &t->cache[slot];

	if (c->name == name && name && !strcmp(tab.names[c->id], name)) {
		*id = c->id;
		return 0;
	}
	return lookup_slow(t, name, create, id, slot);
}

/*
 * The calling thread's reader answered -ECHILD: this is a child of a fork
 * that ran no pthread_atfork handlers (syscall(SYS_fork), clone()), still
 * holding its parent's blocks.  Start empty as atfork_child() would; the
 * next begin opens this process's own reader.
 */
static void forked_without_atfork(void)
{
	pthread_mutex_lock(&tab.lock);
	drop_threads_locked();
	pthread_mutex_unlock(&tab.lock);
}

/* ---- begin and end -------------------------------------------------------- */
int pmc_region_begin(const char *name)
{
	struct thread_regions *t = cur;
	struct frame *f;
	unsigned int id;
	int err;

	if (!t) {
again:
		err = thread_setup(&t);
		if (err)
			return err;
	}
	err = lookup(t, name, true, &id);
	if (err)
		return err;
	if (t->open[id])
		return fail(-EALREADY, "cannot begin region '%s': it is open in this thread already "
			    "(regions do not recurse)", name);
	if (t->depth == PMC_REGION_DEPTH_MAX)
		return fail(-EOVERFLOW, "cannot begin region '%s': %d regions are open in this thread, "
			    "the most that nest", name, PMC_REGION_DEPTH_MAX);
	f = &t->stack[t->depth];
	err = tab.be->read(t->reader, f->vals, tab.nr_events, &f->time_ns);
	if (err == -ECHILD) {
		forked_without_atfork();
		goto again;
	}
	if (err)
		return fail(err, "cannot begin region '%s': reading the counters: %s", name,
			    pmc_session_strerror(err, PMCDRV_IOC_READ_SELF));
	f->id = id;
	t->open[id] = 1;
	t->depth++;
	return 0;
}

int pmc_region_end(const char *name)
{
	struct thread_regions *t = cur;
	uint64_t now[PMCDRV_MAX_EVENTS], time_ns;
	struct region_rec *r;
	struct frame *f;
	unsigned int id, i;
	int err;

	if (!t) {
		err = check_name(name);
		if (err)
			return err;
		return fail(-ENOENT, "cannot end region '%s': it is not open in this thread "
			    "(this thread began no region)", name);
	}
	err = lookup(t, name, false, &id);
	if (err)
		return err;
	if (!t->open[id])
		return fail(-ENOENT, "cannot end region '%s': it is not open in this thread", name);
	f = &t->stack[t->depth - 1];
	if (f->id != id)
		return fail(-EPROTO, "cannot end region '%s': region '%s', begun inside it, is still open; "
			    "end '%s' first", name, tab.names[f->id], tab.names[f->id]);
	err = tab.be->read(t->reader, now, tab.nr_events, &time_ns);
	t->open[id] = 0;
	t->depth--;
	if (err == -ECHILD) {
		forked_without_atfork();
		return fail(-ENOENT, "cannot end region '%s': it was begun in the parent process "
			    "(this child of fork() starts with no open region)", name);
	}
	if (err)
		return fail(err, "region '%s' ended without counting: reading the counters: %s", name,
			    pmc_session_strerror(err, PMCDRV_IOC_READ_SELF));
	r = t->rec[id];
	add64(&r->calls, 1);
	add64(&r->time_ns, time_ns - f->time_ns);
	for (i = 0; i < tab.nr_events; i++)
		add64(&r->vals[i], now[i] - f->vals[i]);
	return 0;
}

int pmc_region_fast(void)
{
	const struct thread_regions *t = cur;

	if (!t)
		return fail(-ENODEV, "regions: this thread began no region yet");
	return tab.be->fast && tab.be->fast(t->reader) ? 1 : 0;
}

/* ---- results ------------------------------------------------------------- */
/* Totals of region @id over the threads, under tab.lock. */
static void sum_locked(unsigned int id, struct pmc_region_stats *st)
{
	const struct thread_regions *t;
	const struct region_rec *r;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	st->nr_events = tab.nr_events;
	for (t = tab.threads; t; t = t->next) {
		r = t->rec[id];
		if (!r || !ld64(&r->calls))
			continue;
		st->threads++;
		st->calls += ld64(&r->calls);
		st->time_ns += ld64(&r->time_ns);
		for (i = 0; i < tab.nr_events; i++)
			st->values[i] += ld64(&r->vals[i]);
	}
}

/* The totals of region @name into @st, under tab.lock. */
static int get_locked(const char *name, struct pmc_region_stats *st)
{
	unsigned int i;

	if (!tab.ready)
		return fail(-ENODEV, "regions: not set up (no region was begun)");
	for (i = 0; i < tab.nr_regions; i++)
		if (name && !strcmp(tab.names[i], name))
			break;
	if (i == tab.nr_regions)
		return fail(-ENOENT, "no region '%s'", name ? name : "(null)");
	sum_locked(i, st);
	return 0;
}

int pmc_region_get(const char *name, struct pmc_region_stats *st)
{
	int err;

	pthread_mutex_lock(&tab.lock);
	err = get_locked(name, st);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

unsigned int pmc_region_nr_metrics(void)
{
	unsigned int n;

	pthread_mutex_lock(&tab.lock);
	n = tab.ready && tab.ms ? pmc_metrics_nr(tab.ms) : 0;
	pthread_mutex_unlock(&tab.lock);
	return n;
}

int pmc_region_metric_info(unsigned int i, struct pmc_metric_info *info)
{
	int err;

	pthread_mutex_lock(&tab.lock);
	if (!tab.ready)
		err = fail(-ENODEV, "regions: not set up (no region was begun)");
	else if (!tab.ms || i >= pmc_metrics_nr(tab.ms))
		err = fail(-ERANGE, "regions: no metric %u (%u asked for)", i, tab.ms ? pmc_metrics_nr(tab.ms) : 0);
	else
		err = pmc_metrics_info(tab.ms, i, info);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

/* Metric @i of totals @st, ScaleUnit applied, under tab.lock. */
static int metric_locked(unsigned int i, const struct pmc_region_stats *st, double *value)
{
	double counts[PMCDRV_MAX_EVENTS];
	struct pmc_metric_info mi;
	unsigned int k;
	int err;

	if (!tab.ms || i >= pmc_metrics_nr(tab.ms))
		return fail(-ERANGE, "regions: no metric %u (%u asked for)", i, tab.ms ? pmc_metrics_nr(tab.ms) : 0);
	pmc_metrics_info(tab.ms, i, &mi);
	if (mi.refused)
		return fail(-EOPNOTSUPP, "regions: metric '%s' cannot be computed: %s", mi.name, mi.refused);
	for (k = 0; k < pmc_metrics_nr_events(tab.ms); k++)
		counts[k] = (double)st->values[tab.mev[k]];
	err = pmc_metrics_eval(tab.ms, i, counts, (double)st->time_ns / 1e9, value);
	if (err == -EDOM)
		return fail(err, "regions: metric '%s' has no value: a '%%' by zero", mi.name);
	if (err)
		return fail(err, "regions: metric '%s': %s", mi.name, strerror(-err));
	*value *= mi.scale;
	return 0;
}

int pmc_region_metric(const char *name, unsigned int i, double *value)
{
	struct pmc_region_stats st;
	int err;

	pthread_mutex_lock(&tab.lock);
	err = get_locked(name, &st);
	if (!err)
		err = metric_locked(i, &st, value);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

unsigned int pmc_region_nr_events(void)
{
	unsigned int n;

	pthread_mutex_lock(&tab.lock);
	n = tab.ready ? tab.nr_events : 0;
	pthread_mutex_unlock(&tab.lock);
	return n;
}

const char *pmc_region_event_name(unsigned int i)
{
	const char *name;

	pthread_mutex_lock(&tab.lock);
	name = tab.ready && i < tab.nr_events ? tab.ev_names[i] : NULL;
	pthread_mutex_unlock(&tab.lock);
	return name;
}

int pmc_region_reset(void)
{
	struct thread_regions *t;
	unsigned int id, i;
	int err = 0;

	pthread_mutex_lock(&tab.lock);
	if (!tab.ready)
		err = fail(-ENODEV, "regions: not set up (no region was begun)");
	for (t = tab.threads; t && !err; t = t->next) {
		for (id = 0; id < tab.nr_regions; id++) {
			struct region_rec *r = t->rec[id];

			if (!r)
				continue;
			__atomic_store_n(&r->calls, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&r->time_ns, 0, __ATOMIC_RELAXED);
			for (i = 0; i < PMCDRV_MAX_EVENTS; i++)
				__atomic_store_n(&r->vals[i], 0, __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_unlock(&tab.lock);
	return err;
}

static int print_locked(FILE *f)
{
	struct pmc_region_stats st;
	struct pmc_metric_info mi;
	int namew = (int)strlen("region"), w[PMCDRV_MAX_EVENTS], mw[PMCDRV_MAX_EVENTS];
	unsigned int id, i, nm = tab.ms ? pmc_metrics_nr(tab.ms) : 0;
	double v;

	for (id = 0; id < tab.nr_regions; id++)
		if ((int)strlen(tab.names[id]) > namew)
			namew = (int)strlen(tab.names[id]);
	fprintf(f, "%-*s %7s %12s %14s", namew, "region", "threads", "calls", "msec");
	for (i = 0; i < tab.nr_events; i++) {
		w[i] = (int)strlen(tab.ev_names[i]);
		w[i] = w[i] < 16 ? 16 : w[i];
		fprintf(f, " %*s", w[i], tab.ev_names[i]);
	}
	/* then each metric that can be computed: its value with ScaleUnit, "n/a" when it has none */
	for (i = 0; i < nm && i < PMCDRV_MAX_EVENTS; i++) {
		pmc_metrics_info(tab.ms, i, &mi);
		mw[i] = mi.refused ? 0 : (int)strlen(mi.name) < 10 ? 10 : (int)strlen(mi.name);
		if (!mi.refused)
			fprintf(f, " %*s", mw[i], mi.name);
	}
	fputc('\n', f);
	for (id = 0; id < tab.nr_regions; id++) {
		sum_locked(id, &st);
		fprintf(f, "%-*s %7u %12llu %14.6f", namew, tab.names[id], st.threads,
			(unsigned long long)st.calls, (double)st.time_ns / 1e6);
		for (i = 0; i < tab.nr_events; i++)
			fprintf(f, " %*llu", w[i], (unsigned long long)st.values[i]);
		for (i = 0; i < nm && i < PMCDRV_MAX_EVENTS; i++) {
			if (!mw[i])
				continue;
			if (metric_locked(i, &st, &v) || isnan(v) || isinf(v))
				fprintf(f, " %*s", mw[i], "n/a");
			else
				fprintf(f, " %*.2f", mw[i], v);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int pmc_region_print(FILE *f)
{
	int err;

	pthread_mutex_lock(&tab.lock);
	if (!tab.ready)
		err = fail(-ENODEV, "regions: not set up (no region was begun)");
	else
		err = print_locked(f);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

/* The machine form (libpmc.h), under tab.lock; 0 or -errno. */
static int write_table_locked(int fd)
{
	const struct thread_regions *t;
	const struct region_rec *r;
	unsigned int id, i;
	pid_t pid = getpid();
	size_t len = 0, off;
	char *buf = NULL;
	ssize_t n;
	FILE *m;

	m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	fprintf(m, "pmcdrv-regions 1 %d %u\n", (int)pid, tab.ready ? tab.nr_events : 0);
	if (!tab.ready)
		fprintf(m, "e %d %s\n", (int)pid, tab.setup_err ? tab.setup_msg : "regions were not set up");
	for (t = tab.threads; t && tab.ready; t = t->next) {
		for (id = 0; id < tab.nr_regions; id++) {
			r = t->rec[id];
			if (!r || !ld64(&r->calls))
				continue;
			fprintf(m, "r %d %d %llu %llu", (int)pid, (int)t->tid,
				(unsigned long long)ld64(&r->calls), (unsigned long long)ld64(&r->time_ns));
			for (i = 0; i < tab.nr_events; i++)
				fprintf(m, " %llu", (unsigned long long)ld64(&r->vals[i]));
			fprintf(m, " %s\n", tab.names[id]);
		}
	}
	if (fclose(m)) {
		free(buf);
		return -ENOMEM;
	}
	/* One write where the file allows it: processes sharing the descriptor append whole tables. */
	for (off = 0; off < len; off += (size_t)n) {
		n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			free(buf);
			return n < 0 ? -errno : -EIO;
		}
	}
	free(buf);
	return 0;
}

int pmc_region_write_table(int fd)
{
	int err;

	pthread_mutex_lock(&tab.lock);
	err = write_table_locked(fd);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

/* atexit(): the report the environment or pmc_region_init() asked for. */
static void report_at_exit(void)
{
	FILE *f;

	pthread_mutex_lock(&tab.lock);
	if (tab.report_fd >= 0) {
		write_table_locked(tab.report_fd);
	} else if (tab.report_path) {
		f = strcmp(tab.report_path, "-") ? fopen(tab.report_path, "ae") : stderr;
		if (f) {
			if (tab.ready)
				print_locked(f);
			else
				fprintf(f, "pmcdrv regions: %s\n", tab.setup_err ? tab.setup_msg : "not set up");
			if (f != stderr)
				fclose(f);
			else
				fflush(f);
		}
	}
	pthread_mutex_unlock(&tab.lock);
}

void pmc_region_teardown(void)
{
	pthread_mutex_lock(&tab.lock);
	drop_threads_locked();
	pmc_session_close(tab.s);
	tab.s = NULL;
	pmc_metrics_close(tab.ms);
	tab.ms = NULL;
	free(tab.report_path);
	tab.report_path = NULL;
	tab.report_fd = -1;
	tab.ready = false;
	tab.setup_err = 0;
	tab.be = NULL;
	tab.nr_events = 0;
	tab.nr_regions = 0;
	memset(tab.names, 0, sizeof(tab.names));
	pthread_mutex_unlock(&tab.lock);
}
