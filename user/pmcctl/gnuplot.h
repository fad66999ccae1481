/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl's charts through gnuplot (report --plot, plot, stat --plot): its
 * quoting, whether it is installed, and running it on a script.
 */
#ifndef PMCDRV_PMCCTL_GNUPLOT_H
#define PMCDRV_PMCCTL_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

/* The hint printed when gnuplot is missing. */
#define GNUPLOT_INSTALL_HINT	"apt-get install gnuplot-nox"

/* @s as gnuplot's single-quoted string (a quote doubled). */
void gp_quote(FILE *f, const char *s);

/* Is a program named gnuplot on PATH? */
bool gp_available(void);

/*
 * Run gnuplot on @script: 0, -ENOENT when it is not installed, -EIO when
 * it failed (it said why on standard error), another -errno when it could
 * not be started.
 */
int gp_run(const char *script);

#endif /* PMCDRV_PMCCTL_GNUPLOT_H */
