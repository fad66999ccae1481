// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl run -p PID[,PID...] / -t TID[,TID...]: count tasks that already
 * run.  ATTACH takes one task per session, so there is one session per
 * thread, summed; with -p every thread of the process (/proc/PID/task,
 * rescanned until no new one appears, so that none created meanwhile is
 * missed), with -t only the threads given.  Unless -i, each session also
 * follows the threads and children its task creates after the attach.  The
 * count ends when the tasks given are gone (as perf stat -p), --duration or
 * SIGINT/SIGTERM.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "hybrid.h"
#include "interval.h"
#include "libpmc.h"
#include "metrics.h"
#include "pmcctl.h"
#include "report.h"
#include "run.h"

/* PF_KTHREAD of include/linux/sched.h, as /proc/PID/stat's flags field shows it. */
#define PROC_PF_KTHREAD		0x00200000u
/* How often the sessions are read for EXITED while counting. */
#define POLL_NS			(10 * 1000 * 1000L)

static const char *mode_name(int mode)
{
	return mode == ATTACH_PID ? "process" : "thread";
}

static bool have_id(const pid_t *ids, unsigned int n, pid_t id)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

int attach_parse_list(struct run_opts *o, int mode, const char *opt, const char *arg)
{
	const char *p = arg, *comma;
	char item[32];
	size_t len;
	long n;

	if (o->attach) {
		fprintf(stderr, "pmcctl run: %s: give -p or -t once, with every id in one comma-separated list "
			"(e.g. %s 1234,5678)\n", opt, opt);
		return -EINVAL;
	}
	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len || len >= sizeof(item)) {
			fprintf(stderr, "pmcctl run: %s '%s': %s; give %s ids separated by commas, e.g. %s 1234,5678\n",
				opt, arg, len ? "an item is too long" : "an empty item", mode_name(mode), opt);
			goto bad;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (!parse_long(item, 1, INT_MAX, &n)) {
			fprintf(stderr, "pmcctl run: %s '%s': '%s' is not a %s id (a number from 1); "
				"'pidof NAME' or 'ps -eLf' finds them\n", opt, arg, item, mode_name(mode));
			goto bad;
		}
		if (!have_id(o->ids, o->nr_ids, (pid_t)n)) {
			pid_t *ids = realloc(o->ids, (o->nr_ids + 1) * sizeof(*ids));

			if (!ids) {
				fprintf(stderr, "pmcctl run: out of memory\n");
				goto bad;
			}
			o->ids = ids;
			o->ids[o->nr_ids++] = (pid_t)n;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	o->attach = mode;
	o->attach_arg = arg;
	return 0;
bad:
	free(o->ids);
	o->ids = NULL;
	o->nr_ids = 0;
	return -EINVAL;
}

/* What /proc says of a task: enough to explain a refused attach. */
struct task_info {
	char name[64];
	unsigned int flags;	/* PF_* */
	long uid[3], gid[3];	/* real, effective, saved; -1 unknown */
};

static bool task_info(pid_t id, struct task_info *ti)
{
	char path[64], line[256], *p;
	bool found = false;
	FILE *f;

	memset(ti, 0, sizeof(*ti));
	ti->uid[0] = ti->gid[0] = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)id);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:", 5)) {
			p = line + 5 + strspn(line + 5, " \t");
			p[strcspn(p, "\n")] = '\0';
			snprintf(ti->name, sizeof(ti->name), "%s", p);
			found = true;
		} else if (sscanf(line, "Uid: %ld %ld %ld", &ti->uid[0], &ti->uid[1], &ti->uid[2]) == 3) {
			continue;
		} else if (sscanf(line, "Gid: %ld %ld %ld", &ti->gid[0], &ti->gid[1], &ti->gid[2]) == 3) {
			continue;
		}
	}
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)id);
	f = fopen(path, "re");
	if (f) {
		/* "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": comm may hold anything. */
		if (fgets(line, sizeof(line), f)) {
			p = strrchr(line, ')');
			if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %u", &ti->flags) != 1)
				ti->flags = 0;
		}
		fclose(f);
	}
	return found;
}

/* ATTACH said EPERM: why, in the terms of kmod/perm.c's rule, and what would allow it. */
static int explain_eperm(int mode, pid_t id, pid_t tid)
{
	struct task_info ti;
	long ruid = (long)getuid(), rgid = (long)getgid();
	char what[96];

	snprintf(what, sizeof(what), "%s %d", mode_name(mode), (int)id);
	if (tid != id)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " (its thread %d)", (int)tid);
	if (!task_info(tid, &ti) || ti.uid[0] < 0 || ti.gid[0] < 0) {
		fprintf(stderr, "pmcctl run: may not count %s: permission denied (the ptrace rule)\n"
			"  fix: run pmcctl as the task's owner, or with CAP_SYS_PTRACE (e.g. as root)\n", what);
		return -EIO;
	}
	if (ti.flags & PROC_PF_KTHREAD) {
		fprintf(stderr, "pmcctl run: %s (%s) is a kernel thread: pmcdrv counts user tasks only\n"
			"  fix: count the CPUs it runs on with 'pmcctl stat -C N' (kernel mode: :k events)\n",
			what, ti.name);
		return -EIO;
	}
	if (ti.uid[0] != ruid) {
		fprintf(stderr, "pmcctl run: may not count %s (%s): it belongs to another user (uid %ld; yours is %ld)\n"
			"  fix: run pmcctl as its owner, or with CAP_SYS_PTRACE (e.g. as root)\n",
			what, ti.name, ti.uid[0], ruid);
		return -EIO;
	}
	if (ti.uid[1] != ruid || ti.uid[2] != ruid || ti.gid[0] != rgid || ti.gid[1] != rgid ||
	    ti.gid[2] != rgid) {
		fprintf(stderr, "pmcctl run: may not count %s (%s): it runs with ids other than yours "
			"(uid %ld/%ld/%ld, gid %ld/%ld/%ld real/effective/saved; yours %ld, %ld): a setuid or "
			"setgid program, or one that changed its ids\n"
			"  fix: only CAP_SYS_PTRACE allows it (e.g. run pmcctl as root)\n",
			what, ti.name, ti.uid[0], ti.uid[1], ti.uid[2], ti.gid[0], ti.gid[1], ti.gid[2],
			ruid, rgid);
		return -EIO;
	}
	fprintf(stderr, "pmcctl run: may not count %s (%s): it is not dumpable (it was started from a setuid "
		"or setgid program, or called prctl(PR_SET_DUMPABLE, 0))\n"
		"  fix: only CAP_SYS_PTRACE allows it (e.g. run pmcctl as root)\n", what, ti.name);
	return -EIO;
}

/* Is @tid alive: in /proc and neither a zombie nor dead (its counts are then final)? */
static bool task_alive(pid_t tid)
{
	char path[64], line[256], *p;
	bool alive = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f)) {
		p = strrchr(line, ')');
		alive = p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
	}
	fclose(f);
	return alive;
}

/*
 * Does any task given still run: a -t thread, or a thread of a -p process?
 * As perf stat -p, the count ends with them, also when children they created
 * run on (their counts so far are in the sessions').
 */
static bool targets_alive(const struct run_opts *o)
{
	struct dirent *de;
	char path[64];
	unsigned int i;
	bool alive;
	long t;
	DIR *d;

	for (i = 0; i < o->nr_ids; i++) {
		if (o->attach == ATTACH_TID) {
			if (task_alive(o->ids[i]))
				return true;
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/task", (int)o->ids[i]);
		d = opendir(path);
		if (!d)
			continue;
		alive = false;
		while (!alive && (de = readdir(d)))
			alive = parse_long(de->d_name, 1, INT_MAX, &t) && task_alive((pid_t)t);
		closedir(d);
		if (alive)
			return true;
	}
	return false;
}

static int no_such_task(int mode, pid_t id)
{
	fprintf(stderr, "pmcctl run: no %s %d (it does not exist, or has exited)\n"
		"  fix: check the id with 'ps -eLf' or 'pidof NAME'\n", mode_name(mode), (int)id);
	return -EIO;
}

/* The sessions, one per attached thread, and every thread known to be counted by one of them. */
struct attach_state {
	const struct run_opts *o;
	struct pmc_session **s;
	unsigned int nr_s;
	pid_t *known;
	unsigned int nr_known;
};

static int add_known(struct attach_state *st, pid_t tid)
{
	pid_t *k = realloc(st->known, (st->nr_known + 1) * sizeof(*k));

	if (!k) {
		fprintf(stderr, "pmcctl run: out of memory\n");
		return -ENOMEM;
	}
	st->known = k;
	st->known[st->nr_known++] = tid;
	return 0;
}

/*
 * A session on thread @tid of id @id.  @found_early: @tid was in a scan made
 * before any of our attaches, so no session of ours can have inherited it.
 * Returns 0 when @tid is counted (by a new session or, inherited, by one of
 * ours) or gone (a thread of -p that exited meanwhile), else the error to
 * exit with, explained.
 */
static int attach_one(struct attach_state *st, pid_t id, pid_t tid, bool found_early)
{
	const struct run_opts *o = st->o;
	struct pmc_session *s, **ss;
	int err;

	err = task_session_open(o, &s);
	if (err)
		return err;
	err = pmc_session_attach(s, tid, 0);
	if (!err) {
		ss = realloc(st->s, (st->nr_s + 1) * sizeof(*ss));
		if (!ss) {
			pmc_session_close(s);
			fprintf(stderr, "pmcctl run: out of memory\n");
			return -ENOMEM;
		}
		st->s = ss;
		st->s[st->nr_s++] = s;
		return add_known(st, tid);
	}
	pmc_session_close(s);
	switch (err) {
	case -ESRCH:
		/* The id given is gone; one of its other threads may exit at any time. */
		if (tid == id)
			return no_such_task(o->attach, id);
		return 0;
	case -EEXIST:
		/* Created after one of our attaches by a thread we count: inherited. */
		if (!found_early && o->inherit)
			return add_known(st, tid);
		fprintf(stderr, "pmcctl run: %s %d", mode_name(o->attach), (int)id);
		if (tid != id)
			fprintf(stderr, " (its thread %d)", (int)tid);
		fprintf(stderr, " is already counted by another pmcdrv session (another pmcctl run, or a "
			"program using libpmc); a task is counted by one session at a time\n"
			"  fix: wait for that count to end, then retry\n");
		return -EBUSY;
	case -EAGAIN:
		fprintf(stderr, "pmcctl run: %s %d", mode_name(o->attach), (int)id);
		if (tid != id)
			fprintf(stderr, " (its thread %d)", (int)tid);
		fprintf(stderr, " is still being created: its fork has not finished after a second\n"
			"  fix: retry; a fork that long is stopped (a debugger, SIGSTOP) or the system is overloaded\n");
		return -EBUSY;
	case -EPERM:
		return explain_eperm(o->attach, id, tid);
	case -EBUSY:
		return attach_busy_error("run", "cannot attach", NULL);
	default:
		return session_error("run", "cannot attach", err);
	}
}

/* The threads of -p @id now (/proc/@id/task), those not known yet appended to *@tids. */
static int scan_threads(struct attach_state *st, pid_t id, pid_t **tids, unsigned int *n)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	long t;
	pid_t *nt;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)id);
	d = opendir(path);
	if (!d)
		return errno == ENOENT || errno == ESRCH ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		if (!parse_long(de->d_name, 1, INT_MAX, &t))
			continue;
		if (have_id(st->known, st->nr_known, (pid_t)t) || have_id(*tids, *n, (pid_t)t))
			continue;
		nt = realloc(*tids, (*n + 1) * sizeof(*nt));
		if (!nt) {
			closedir(d);
			return -ENOMEM;
		}
		*tids = nt;
		(*tids)[(*n)++] = (pid_t)t;
	}
	closedir(d);
	return 0;
}

/* The new threads of every -p id, or the -t ids (once): *tids, *owner (the id each belongs to). */
static int collect(struct attach_state *st, bool first, pid_t **tids, pid_t **owner, unsigned int *n)
{
	const struct run_opts *o = st->o;
	unsigned int i, before, j;
	pid_t *no;
	int err;

	*n = 0;
	for (i = 0; i < o->nr_ids; i++) {
		before = *n;
		if (o->attach == ATTACH_TID) {
			if (!first)
				return 0;
			if (!task_info(o->ids[i], &(struct task_info){ 0 }))
				return no_such_task(o->attach, o->ids[i]);
			err = -ENOMEM;
			no = realloc(*tids, (*n + 1) * sizeof(*no));
			if (no) {
				*tids = no;
				(*tids)[(*n)++] = o->ids[i];
				err = 0;
			}
		} else {
			err = scan_threads(st, o->ids[i], tids, n);
		}
		if (err == -ESRCH && first)
			return no_such_task(o->attach, o->ids[i]);
		if (err == -ESRCH)
			continue;	/* exited meanwhile: its sessions say EXITED */
		if (err) {
			fprintf(stderr, "pmcctl run: reading /proc/%d/task: %s\n", (int)o->ids[i], strerror(-err));
			return -EIO;
		}
		no = realloc(*owner, (*n ? *n : 1) * sizeof(*no));
		if (!no) {
			fprintf(stderr, "pmcctl run: out of memory\n");
			return -ENOMEM;
		}
		*owner = no;
		for (j = before; j < *n; j++)
			(*owner)[j] = o->ids[i];
	}
	return 0;
}

/*
 * Attach to every thread: one pass over what the first scan found, then
 * rescans until no new thread appears.
 */
static int attach_all(struct attach_state *st)
{
	pid_t *tids = NULL, *owner = NULL;
	unsigned int n, i;
	bool first = true;
	struct task_info ti;
	int err;

	do {
		err = collect(st, first, &tids, &owner, &n);
		for (i = 0; !err && i < n; i++) {
			/* A kernel thread: say so before ATTACH's bare EPERM. */
			if (first && task_info(tids[i], &ti) && (ti.flags & PROC_PF_KTHREAD))
				err = explain_eperm(st->o->attach, owner[i], tids[i]);
			else
				err = attach_one(st, owner[i], tids[i], first);
		}
		first = false;
	} while (!err && n);
	free(tids);
	free(owner);
	if (!err && !st->nr_s) {
		/* Every thread exited between the scan and its attach. */
		err = no_such_task(st->o->attach, st->o->ids[0]);
	}
	return err;
}

static volatile sig_atomic_t stop_sig;

static void stop_counting(int sig)
{
	stop_sig = sig;
}

/* Add one session's split by core type to @res's, type by type (CPUID.1AH's value). */
static void add_types(struct run_result *res, const struct pmcdrv_read_types *rt, unsigned int n)
{
	unsigned int t, e;
	int k;

	for (t = 0; t < rt->nr_types && t < PMCDRV_MAX_CORE_TYPES; t++) {
		k = type_slot(res, rt->types[t].cpuid_1a);
		if (k < 0)
			continue;
		res->types[k].time_enabled += rt->types[t].time_enabled;
		for (e = 0; e < n; e++) {
			res->types[k].values[e] += rt->types[t].values[e];
			res->type_running[k][e] += rt->time_running[t][e];
		}
	}
}

/*
 * Sum of every session's counts; *all_exited: none of them tracks a task
 * any more.  @types (or NULL): the sum's split by core type on a hybrid CPU.
 */
static int read_all(const struct attach_state *st, struct pmcdrv_read *sum, bool *all_exited,
		    struct run_result *types)
{
	struct pmcdrv_read_types rt;
	struct pmcdrv_read r;
	unsigned int i, e;
	int err;

	memset(sum, 0, sizeof(*sum));
	if (types)
		memset(types, 0, sizeof(*types));
	*all_exited = true;
	for (i = 0; i < st->nr_s; i++) {
		if (types) {
			err = pmc_session_read_types(st->s[i], &rt);
			r = rt.read;
			if (!err)
				add_types(types, &rt, st->o->c.events.n);
		} else {
			err = pmc_session_read(st->s[i], &r);
		}
		if (err)
			return session_error("run", "reading the counts", err);
		for (e = 0; e < st->o->c.events.n; e++) {
			sum->values[e] += r.values[e];
			sum->times[e].time_enabled += r.times[e].time_enabled;
			sum->times[e].time_running += r.times[e].time_running;
		}
		sum->time_enabled += r.time_enabled;
		sum->time_running += r.time_running;
		sum->lost_tasks += r.lost_tasks;
		sum->hw_faults += r.hw_faults;
		sum->nr_tasks += r.nr_tasks;
		sum->flags |= r.flags & (PMCDRV_READ_LOST_TASKS | PMCDRV_READ_SECURE_EXEC |
					 PMCDRV_READ_HW_FAULTS | PMCDRV_READ_MULTIPLEXED);
		if (!(r.flags & PMCDRV_READ_EXITED))
			*all_exited = false;
	}
	return 0;
}

static void print_attached(FILE *f, const struct run_opts *o, struct count_metrics *cm,
			   const struct pmcdrv_read *sum, const struct run_result *types,
			   double elapsed)
{
	struct report_row rows[PMCDRV_MAX_EVENTS];
	struct report_row trows[PMCDRV_MAX_EVENTS * (PMCDRV_MAX_CORE_TYPES + 1)];
	struct pmc_evsel tev[PMCDRV_MAX_EVENTS * PMCDRV_MAX_CORE_TYPES];
	const struct report_row *shown;
	struct type_acc *ta = NULL;
	char target[600];
	struct report r = {
		.format = count_format(&o->c),
		.sep = o->c.csv_sep,
		.target = target,
		.runs = 1,
		.interval = -1,
		.time_running = (double)sum->time_running,
		.elapsed = elapsed,
	};
	unsigned int i, nr;

	/* perf stat's words for -p and -t. */
	snprintf(target, sizeof(target), "%s id '%s'", mode_name(o->attach), o->attach_arg);
	/* perf: the sums of counts and times, scaled. */
	for (i = 0; i < o->c.events.n; i++) {
		rows[i] = (struct report_row){ .ev = &o->c.events.ev[i],
					       .value = count_value(&o->c, sum, i) };
		count_row_times(&rows[i], sum->flags & PMCDRV_READ_MULTIPLEXED,
				(double)sum->times[i].time_enabled,
				(double)sum->times[i].time_running);
	}
	if (cm)
		count_metrics_eval(cm, rows, o->c.events.n, elapsed, &r, "run");
	/* A hybrid CPU: rows by core type, as run of a command prints them. */
	if (types->nr_types)
		ta = calloc(1, sizeof(*ta));
	if (ta)
		type_acc_add(ta, types, o->c.events.n,
			     !o->c.no_scale && (sum->flags & PMCDRV_READ_MULTIPLEXED));
	shown = type_rows_shown(o->cputype, o->hybrid_merge, cm != NULL, ta, rows, o->c.events.n,
				trows, tev, &nr);
	report_print(f, &r, shown, nr);
	free(ta);
}

int run_attached(const struct run_opts *o, FILE *out, struct count_metrics *cm, int *sig)
{
	struct attach_state st = { .o = o };
	struct sigaction sa, old_int, old_term;
	struct pmcdrv_read sum;
	struct run_result types;
	struct rlimit rl;
	struct timespec ts;
	bool all_exited = false;
	double t0, t, end, left;
	unsigned int i;
	int ex;

	*sig = 0;
	/*
	 * As perf stat -p: Ctrl-C ends the count (also when the shell had it
	 * ignored, as for a background job); SIGTERM too.  No SA_RESTART: the
	 * wait below ends at once.
	 */
	stop_sig = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stop_counting;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	/*
	 * One session, one open file, per thread: a process with many threads
	 * needs more than the usual soft limit (perf raises it on EMFILE).
	 */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	t0 = now_s();
	ex = attach_all(&st);
	if (ex)
		goto out_close;
	end = o->duration > 0 ? t0 + o->duration : INFINITY;
	if (o->io)
		interval_begin(o->io, now_s(), false);
	while (!stop_sig) {
		ex = read_all(&st, &sum, &all_exited, NULL);
		if (ex || all_exited || !targets_alive(o))
			break;
		t = now_s();
		left = end - t;
		if (left <= 0)
			break;
		/* -I: the read just made, when an interval is due; the polls wake up in time. */
		if (o->io && t >= o->io->next)
			interval_print_read(o->io, &sum, t, false);
		if (o->io && o->io->next - t < left)
			left = o->io->next - t;
		ts.tv_sec = 0;
		ts.tv_nsec = left * 1e9 < POLL_NS ? (long)(left * 1e9) : POLL_NS;
		nanosleep(&ts, NULL);
	}
	/*
	 * The final counts (the given tasks' no longer change once they are
	 * gone), with their split by core type for the summary.
	 */
	if (!ex && (!all_exited || !o->io))
		ex = read_all(&st, &sum, &all_exited, o->io ? NULL : &types);
	if (!ex) {
		/* -I: the last, partial interval; no summary, as perf stat -I. */
		if (o->io)
			interval_print_read(o->io, &sum, now_s(), true);
		else
			print_attached(out, o, cm, &sum, &types, now_s() - t0);
		report_read_warnings("run", &sum);
		*sig = stop_sig;
	}
out_close:
	for (i = 0; i < st.nr_s; i++)
		pmc_session_close(st.s[i]);
	free(st.s);
	free(st.known);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return ex;
}
