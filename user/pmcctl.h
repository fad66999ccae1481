/* SPDX-License-Identifier: GPL-2.0 */
/* pmcctl internals shared by its command files. */
#ifndef PMCDRV_PMCCTL_H
#define PMCDRV_PMCCTL_H

/* Exit codes: docs/pmcctl.md. */
enum pmcctl_exit {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_UNAVAILABLE = 3,	/* module or PMU unavailable */
	EXIT_BUSY = 4,		/* counters held by someone else */
	EXIT_NOT_EXEC = 126,	/* command found but not executable */
	EXIT_NOT_FOUND = 127,	/* command not found */
};

/* What to do when the device could not be opened with -errno @err. */
const char *pmcctl_module_hint(int err);

/* Shared by the counting commands (cmd_run.c). */
#include <signal.h>
#include "libpmc.h"

/* The command being counted, for forwarded signals; 0 when none. */
extern volatile sig_atomic_t child_pid;
/* Ignore Ctrl-C/Ctrl-\ (they reach the child); forward TERM, HUP, USR1, USR2. */
void setup_signals(void);
/* Shell-style exit code of a waited child's status. */
int child_exit_code(int status);
/* Print what a session call's -errno means and its fix; returns the exit code. */
int session_error(const char *cmd, const char *what, int err);
/*
 * Fill in the default events when @events is empty and check them against
 * what the PMU offers, naming an offending event.  -1 to go on, or an exit code.
 */
int prepare_events(struct pmc_evlist *events, const char *device, const char *cmd);

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif /* PMCDRV_PMCCTL_H */
