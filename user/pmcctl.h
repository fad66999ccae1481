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

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif /* PMCDRV_PMCCTL_H */
