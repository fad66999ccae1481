// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl: command-line front end of pmcdrv, in the style of perf's
 * builtin-*.c: this file only dispatches; each command is one
 * builtin-COMMAND.c.  Exit codes: pmcctl.h and docs/pmcctl.md.
 */
#include <stdio.h>
#include <string.h>

#include "libpmc.h"
#include "pmcctl.h"

#define PMCCTL_VERSION "0.1"

/* ---- top level -------------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "run", cmd_run, "count a command, or running tasks (-p, -t), like perf stat" },
	{ "stat", cmd_stat, "count whole CPUs: all (-a) or a list (-C), like perf stat -a" },
	{ "report", cmd_report, "merge saved JSON outputs (one per MPI rank): sum, min, max, mean, imbalance" },
	{ "plot", cmd_plot, "draw a saved interval run (stat -I MS -j) over time: counts, metrics, top-down" },
	{ "serve", cmd_serve, "a Prometheus exporter of whole-CPU (or cgroup) counts: GET /metrics" },
	{ "compare", cmd_compare, "count a command with pmcdrv and with perf_event, side by side" },
	{ "list", cmd_list, "list the events this CPU supports" },
	{ "info", cmd_info, "show the PMU, the module and the MSR fallback" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: pmcctl [-h|--help] [-V|--version] COMMAND [ARGS]\n\ncommands:\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'pmcctl COMMAND --help' describes each command.\n"
	      "exit codes: 0 ok, 1 failure, 2 usage error, 3 module or PMU unavailable, 4 counters busy;\n"
	      "'run' and 'stat' return the command's own status (126/127: cannot execute / not found)\n", f);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("pmcctl %s (pmcdrv API %d)\n", PMCCTL_VERSION, PMCDRV_API_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "pmcctl: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
