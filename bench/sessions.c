// SPDX-License-Identifier: GPL-2.0
/*
 * sessions K CMD [ARGS...]: B14 of bench/, CMD run while K other pmcdrv
 * sessions exist.
 *
 * Forks K idle children, each blocked in read() of one pipe, then opens K
 * libpmc sessions (not inherited), each counting instructions:u on its own
 * child: K sessions, each tracking one task that never runs.  Then it runs
 * CMD (execvp, the sessions' fds and the pipe closed on exec) and waits for
 * it, reads every session once (each must still answer READ), closes them,
 * closes the pipe's write end (every child reads EOF and exits) and reaps
 * the children.  Prints nothing but errors; exits with CMD's status (128 +
 * the signal when a signal ended it), 1 when its own set-up fails, 2 on a
 * usage error.  K may be 0 (CMD alone).  Raises RLIMIT_NOFILE as far as
 * it needs (K session fds).  Only the set-up and the tear-down cost more
 * with K: CMD runs between them, untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libpmc.h"

#define EVENT "instructions:u"

struct idle {
	pid_t pid;
	struct pmc_session *s;
};

static struct idle *idle;
static long nidle;			/* children forked so far */
static int wake[2] = { -1, -1 };	/* the children read [0] until [1] is closed */

/*
 * Closing a session waits for an RCU grace period (pmcdrv's release), and
 * an idle guest waits for it in real time: closed one after the other,
 * 1,000 sessions take many seconds.  CLOSERS threads close them side by
 * side, so that their grace periods overlap.
 */
#define CLOSERS 64

static void *closer(void *arg)
{
	long i;

	for (i = (long)arg; i < nidle; i += CLOSERS)
		if (idle[i].s) {
			pmc_session_close(idle[i].s);
			idle[i].s = NULL;
		}
	return NULL;
}

/* Close every session, let every child go and reap it; returns @rc. */
static int cleanup(int rc)
{
	pthread_t th[CLOSERS];
	bool started[CLOSERS];
	long i;

	for (i = 0; i < CLOSERS; i++)
		started[i] = i < nidle && !pthread_create(&th[i], NULL, closer, (void *)i);
	for (i = 0; i < CLOSERS; i++)
		if (started[i])
			pthread_join(th[i], NULL);
		else
			closer((void *)i);	/* no thread: here */
	if (wake[1] >= 0)
		close(wake[1]);
	for (i = 0; i < nidle; i++)
		if (waitpid(idle[i].pid, NULL, 0) != idle[i].pid) {
			fprintf(stderr, "sessions: waitpid %d: %s\n", idle[i].pid, strerror(errno));
			rc = rc ? rc : 1;
		}
	free(idle);
	return rc;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "sessions: %s: %s\n", what, strerror(err));
	return cleanup(1);
}

/* Room for @fds more file descriptors than the usual few. */
static int nofile(long fds)
{
	struct rlimit rl;
	rlim_t want = fds + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return errno;
	if (rl.rlim_cur >= want)
		return 0;
	rl.rlim_cur = want;
	if (rl.rlim_max < want)
		rl.rlim_max = want;	/* root may raise it */
	return setrlimit(RLIMIT_NOFILE, &rl) ? errno : 0;
}

int main(int argc, char **argv)
{
	struct pmcdrv_read r;
	struct pmc_evlist l;
	char msg[256], *end;
	int err, status;
	long k, i;
	pid_t pid;
	char c;

	if (argc < 3 || (k = strtol(argv[1], &end, 10)) < 0 || *end || end == argv[1]) {
		fprintf(stderr, "usage: sessions K CMD [ARGS...]\n");
		return 2;
	}
	err = nofile(k);
	if (err) {
		fprintf(stderr, "sessions: RLIMIT_NOFILE for %ld sessions: %s\n", k, strerror(err));
		return 1;
	}
	idle = calloc(k ? k : 1, sizeof(*idle));
	if (!idle || pipe2(wake, O_CLOEXEC))
		return fail("set-up", errno);
	/* The children first: forked after the sessions, they would hold their fds. */
	fflush(NULL);
	for (nidle = 0; nidle < k; nidle++) {
		pid = fork();
		if (pid < 0)
			return fail("fork", errno);
		if (pid == 0) {
			close(wake[1]);
			while (read(wake[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		idle[nidle].pid = pid;
	}
	memset(&l, 0, sizeof(l));
	if (pmc_evlist_parse(&l, EVENT, msg, sizeof(msg))) {
		fprintf(stderr, "sessions: %s\n", msg);
		return cleanup(1);
	}
	for (i = 0; i < k; i++) {
		err = pmc_session_open(NULL, &idle[i].s);
		if (err) {
			idle[i].s = NULL;
			return fail("open /dev/pmcdrv", -err);
		}
		pmc_session_set_inherit(idle[i].s, false);
		err = pmc_session_add(idle[i].s, &l.ev[0].ev);
		if (err < 0)
			return fail(EVENT, -err);
		err = pmc_session_attach(idle[i].s, idle[i].pid, 0);
		if (err)
			return fail("attach", -err);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fail("fork", errno);
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "sessions: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return fail("waitpid", errno);
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	for (i = 0; i < k; i++) {
		memset(&r, 0, sizeof(r));
		err = pmc_session_read(idle[i].s, &r);
		if (err)
			return fail("read a session", -err);
	}
	return cleanup(status);
}
