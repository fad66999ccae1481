// SPDX-License-Identifier: GPL-2.0
/*
 * -I MS: printing each interval's counts while counting, and --plot's
 * drawing of them after the count; shared by stat and run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gnuplot.h"
#include "interval.h"
#include "metrics.h"
#include "pmcctl.h"
#include "report.h"

int interval_parse(const char *arg, long *ms, const char *cmd)
{
	if (!parse_long(arg, INTERVAL_MIN_MS, INTERVAL_MAX_MS, ms)) {
		fprintf(stderr, "pmcctl %s: -I '%s': give milliseconds from %d to %ld\n",
			cmd, arg, INTERVAL_MIN_MS, INTERVAL_MAX_MS);
		return -EINVAL;
	}
	return 0;
}

int interval_plot_check(const char *plot, long interval_ms, const char *cmd)
{
	if (plot && !interval_ms) {
		fprintf(stderr, "pmcctl %s: --plot draws the counts over time: give -I MS too "
			"(e.g. -I 100)\n", cmd);
		return -EINVAL;
	}
	if (plot && !gp_available()) {
		fprintf(stderr, "pmcctl %s: --plot needs gnuplot, which is not installed: "
			GNUPLOT_INSTALL_HINT "\n", cmd);
		return -EIO;
	}
	return 0;
}

int interval_open(struct interval_out *io)
{
	int fd;

	if (io->plot) {

		snprintf(io->plot_path, sizeof(io->plot_path), "/tmp/pmcctl-%s-plot.XXXXXX", io->cmd);
		fd = mkstemp(io->plot_path);
		io->plot_json = fd >= 0 ? fdopen(fd, "w+") : NULL;
		if (!io->plot_json) {
			fprintf(stderr, "pmcctl %s: --plot: a temporary file: %s\n", io->cmd, strerror(errno));
			if (fd >= 0) {
				close(fd);
				unlink(io->plot_path);
			}
			return -EIO;
		}
	}
	return 0;
}

void interval_begin(struct interval_out *io, double t0, bool per_cpu)
{
	io->t0 = t0;
	io->t_last = t0;
	io->next = t0 + io->interval;
	memset(&io->prev, 0, sizeof(io->prev));
	/* --topdown's header names its metrics: printed with the first interval. */
	if (!io->topdown) {
		struct report hr = { .format = count_format(io->c) };

		report_interval_header(io->f, &hr, per_cpu);
	}
}

double interval_next_due(double next, double interval, double t)
{
	if (!(interval > 0))
		return next;
	while (next <= t)
		next += interval;
	return next;
}

struct report interval_report(const struct interval_out *io, double t)
{
	return (struct report){
		.format = count_format(io->c),
		.sep = io->c->csv_sep,
		.target = io->target,
		.runs = 1,
		.interval = t - io->t0,
		/* Rates such as CPUs utilized are per interval. */
		.elapsed = t - io->t_last,
	};
}

void interval_print_rows(struct interval_out *io, struct report *r,
			 const struct report_row *rows, unsigned int n, bool first)
{
	if (io->topdown)
		report_print_topdown(io->f, r, rows, n, io->td_level, io->c->td, first);
	else
		report_print(io->f, r, rows, n);
	fflush(io->f);
	if (io->plot_json) {	/* the same interval once more, as JSON for the plot */
		enum report_format fmt = r->format;

		r->format = REPORT_JSON;
		if (io->topdown)
			report_print_topdown(io->plot_json, r, rows, n, io->td_level, io->c->td, first);
		else
			report_print(io->plot_json, r, rows, n);
		r->format = fmt;
	}
}

void interval_delta(const struct pmcdrv_read *now, const struct pmcdrv_read *prev,
		    unsigned int e, struct pmcdrv_read *d)
{
	memset(d, 0, sizeof(*d));
	d->nr_events = 1;
	d->values[0] = now->values[e] - prev->values[e];
	d->times[0].time_enabled = now->times[e].time_enabled - prev->times[e].time_enabled;
	d->times[0].time_running = now->times[e].time_running - prev->times[e].time_running;
	d->flags = now->flags & PMCDRV_READ_MULTIPLEXED;
}

void interval_print_read(struct interval_out *io, const struct pmcdrv_read *now, double t,
			 bool last)
{
	struct report_row rows[PMCDRV_MAX_EVENTS];
	struct report r = interval_report(io, t);
	unsigned int n = io->c->events.n, e;
	struct pmcdrv_read d;
	bool empty = true;

	for (e = 0; e < n && e < PMCDRV_MAX_EVENTS; e++) {
		interval_delta(now, &io->prev, e, &d);
		rows[e] = (struct report_row){ .ev = &io->c->events.ev[e],
					       .value = count_value(io->c, &d, 0) };
		count_row_times(&rows[e], d.flags & PMCDRV_READ_MULTIPLEXED,
				(double)d.times[0].time_enabled, (double)d.times[0].time_running);
		if (d.values[0] || d.times[0].time_enabled)
			empty = false;
	}
	/* The last, partial interval, unless it is empty (as stat). */
	if (!(last && empty)) {
		r.time_running = (double)(now->time_running - io->prev.time_running);
		if (io->cm)
			count_metrics_eval(io->cm, rows, n, r.elapsed, &r, io->cmd);
		interval_print_rows(io, &r, rows, n, io->t_last == io->t0);
	}
	io->prev = *now;
	io->t_last = t;
	io->next = interval_next_due(io->next, io->interval, t);
}

int interval_finish(struct interval_out *io, int ex, int *code)
{
	char what[32];

	if (!io->plot_json)
		return ex;
	if (fclose(io->plot_json) && !ex) {
		fprintf(stderr, "pmcctl %s: --plot: %s: %s\n", io->cmd, io->plot_path, strerror(errno));
		ex = -EIO;
	}
	io->plot_json = NULL;
	snprintf(what, sizeof(what), "%s --plot", io->cmd);
	/* Drawn after a count that ended well; a failed drawing fails only a run that did not. */
	if (!ex && plot_draw(io->plot_path, io->plot, NULL, NULL, what))
		*code = *code ? *code : EXIT_FAIL;
	else if (!ex)
		fprintf(stderr, "pmcctl %s: wrote %s\n", io->cmd, io->plot);
	unlink(io->plot_path);
	return ex;
}
