// SPDX-License-Identifier: GPL-2.0
/*
 * A program of a libpmc user, built by tests/pkg-check.sh against the
 * installed libpmc-dev with nothing but 'pkg-config --cflags --libs libpmc'.
 *
 * libpmc-user EVENTS N: count EVENTS (pmcctl's -e syntax) on this thread
 * over a loop of N iterations of two instructions, and print "NAME VALUE"
 * for each.  Exit 0, 2 for bad arguments, 3 when /dev/pmcdrv cannot be
 * opened, 1 for any other failure; messages on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmcdrv/libpmc.h>

int main(int argc, char **argv)
{
	struct pmc_evlist list = { 0 };
	struct pmc_session *s;
	struct pmcdrv_read r;
	char err[256] = "";
	unsigned long n;
	unsigned int i;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s EVENTS N\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[2], NULL, 0);
	ret = pmc_evlist_parse(&list, argv[1], err, sizeof(err));
	if (ret < 0 || n == 0) {
		fprintf(stderr, "%s: bad events or N: %s\n", argv[0], err);
		return 2;
	}
	ret = pmc_session_open(NULL, &s);
	if (ret < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", argv[0], PMC_DEFAULT_DEVICE, strerror(-ret));
		return 3;
	}
	for (i = 0; i < list.n && ret >= 0; i++)
		ret = pmc_session_add(s, &list.ev[i].ev);
	if (ret >= 0)
		ret = pmc_session_attach(s, 0, 0);
	if (ret >= 0) {
		__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
		ret = pmc_session_disable(s);
	}
	if (ret >= 0)
		ret = pmc_session_read(s, &r);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", argv[0], strerror(-ret));
		pmc_session_close(s);
		return 1;
	}
	for (i = 0; i < list.n; i++)
		printf("%s %llu\n", list.ev[i].name, (unsigned long long)r.values[i]);
	pmc_session_close(s);
	return 0;
}
