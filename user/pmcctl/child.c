// SPDX-License-Identifier: GPL-2.0
/* pmcctl: the counted command as a child: fork, signals, status, time. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpmc.h"
#include "pmcctl.h"

volatile sig_atomic_t child_pid;

/* Sent to pmcctl while it counts a command: passed on to the command. */
static const int forwarded[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };

static void forward_signal(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

pid_t fork_command(void)
{
	struct sigaction cur;
	sigset_t set, old;
	unsigned int i;
	pid_t pid;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		for (i = 0; i < ARRAY_SIZE(forwarded); i++) {
			sigaction(forwarded[i], NULL, &cur);
			if (cur.sa_handler == forward_signal)
				signal(forwarded[i], SIG_DFL);
		}
	} else if (pid > 0) {
		child_pid = pid;
	}
	/* A signal held meanwhile now reaches the child: forwarded, or its own. */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

/* The terminal's Ctrl-C and Ctrl-\ reach the child; we wait, then report. */
void setup_signals(void)
{
	struct sigaction sa, old;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = forward_signal;
	for (i = 0; i < ARRAY_SIZE(forwarded); i++) {
		/* An inherited SIG_IGN (nohup) stays, for pmcctl and for the command. */
		sigaction(forwarded[i], NULL, &old);
		if (old.sa_handler != SIG_IGN)
			sigaction(forwarded[i], &sa, NULL);
	}
}

void child_report_fail(int fd, int stage, int err)
{
	int msg[2] = { stage, err };

	if (write(fd, msg, sizeof(msg)) < 0)
		_exit(127);
	_exit(127);
}

int child_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_FAIL;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
