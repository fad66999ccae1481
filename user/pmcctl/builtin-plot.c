// SPDX-License-Identifier: GPL-2.0
/* pmcctl plot: a saved interval run (stat -I MS -j) over time, through gnuplot (plot.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gnuplot.h"
#include "plot.h"
#include "pmcctl.h"

static void plot_usage(FILE *f)
{
	fputs("usage: pmcctl plot [options] JSONFILE\n"
	      "\n"
	      "Draw a saved interval run, the output of 'pmcctl stat -I MS -j' (also with metrics or\n"
	      "top-down), over time: a panel per event (its count per second in each interval) and\n"
	      "per metric, and the top-down level 1 (tma_retiring, tma_bad_speculation,\n"
	      "tma_frontend_bound, tma_backend_bound, or Retiring, Bad Speculation, Frontend Bound,\n"
	      "Backend Bound) as one stacked-area panel. Needs gnuplot (apt-get install gnuplot-nox).\n"
	      "\n"
	      "  -o, --output FILE    the picture: FILE.png or FILE.svg (default: JSONFILE's name\n"
	      "                       with .png)\n"
	      "  -e, --events LIST    draw only these events (comma-separated names as in the file)\n"
	      "  -M, --metrics LIST   draw only these metrics ('topdown': the level-1 four)\n"
	      "  -D, --data FILE      also write the data drawn to FILE: a line per interval, its\n"
	      "                       end (s), its length (s), each series' value (NaN: none)\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "With --events or --metrics, only what they name is drawn.\n"
	      "\n"
	      "Exit status: 0 ok; 1 the file unreadable, not pmcctl's interval JSON, gnuplot missing\n"
	      "or failed; 2 usage, or an event or metric the file does not have.\n", f);
}

/* plot_data() into the file @path: 0, or -errno of the open or the close. */
static int data_file(const struct plot *p, const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	plot_data(f, p);
	return fclose(f) ? -errno : 0;
}

int plot_draw(const char *json, const char *out, const char *events, const char *metrics,
	      const char *cmd)
{
	char dir[] = "/tmp/pmcctl-plot.XXXXXX", data[64], script[64], err[2048];
	struct plot p;
	unsigned int i;
	FILE *f = NULL;
	int ret;

	ret = plot_read(&p, json, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "pmcctl %s: %s\n", cmd, err);
		return -EIO;	/* a file it cannot draw */
	}
	ret = plot_select(&p, events, metrics, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "pmcctl %s: %s\n", cmd, err);
		plot_free(&p);
		return ret == -EINVAL ? -EINVAL : -EIO;	/* an unknown name is a usage error */
	}
	for (i = 0; i < p.n_notes; i++)
		fprintf(stderr, "pmcctl %s: note: %s\n", cmd, p.notes[i]);
	if (!gp_available()) {
		fprintf(stderr, "pmcctl %s: drawing needs gnuplot, which is not installed: "
			GNUPLOT_INSTALL_HINT "\n", cmd);
		plot_free(&p);
		return -EIO;
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "pmcctl %s: a temporary directory: %s\n", cmd, strerror(errno));
		plot_free(&p);
		return -EIO;
	}
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	ret = data_file(&p, data) ? -EIO : 0;
	if (!ret) {
		f = fopen(script, "we");
		ret = f ? plot_script(f, &p, data, out, err, sizeof(err)) : -EIO;
		if (f && fclose(f) && !ret)
			ret = -EIO;
		if (ret == -EINVAL)
			fprintf(stderr, "pmcctl %s: %s\n", cmd, err);
	}
	if (ret == -EIO)
		fprintf(stderr, "pmcctl %s: writing gnuplot's input in %s: %s\n", cmd, dir, strerror(errno));
	if (!ret) {
		ret = gp_run(script);
		if (ret == -ENOENT)
			fprintf(stderr, "pmcctl %s: drawing needs gnuplot, which is not installed: "
				GNUPLOT_INSTALL_HINT "\n", cmd);
		else if (ret)
			fprintf(stderr, "pmcctl %s: gnuplot failed to draw %s (%s)\n", cmd, out,
				ret == -EIO ? "it said why above" : strerror(-ret));
		if (ret)
			ret = -EIO;
	}
	unlink(data);
	unlink(script);
	rmdir(dir);
	plot_free(&p);
	return ret;
}

/* --data FILE: the data gnuplot drew, as plot_data() writes it. */
static int write_data(const char *json, const char *events, const char *metrics, const char *path)
{
	char err[2048];
	struct plot p;
	int ret;

	ret = plot_read(&p, json, err, sizeof(err));
	if (!ret)
		ret = plot_select(&p, events, metrics, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "pmcctl plot: %s\n", err);
		plot_free(&p);
		return -EIO;
	}
	ret = data_file(&p, path);
	if (ret)
		fprintf(stderr, "pmcctl plot: --data %s: %s\n", path, strerror(-ret));
	plot_free(&p);
	return ret ? -EIO : 0;
}

/* -o's default: JSONFILE with .png for its ending (after the last '.' of its name, if any). */
static char *default_output(const char *json)
{
	const char *slash = strrchr(json, '/'), *dot = strrchr(json, '.');
	char *out;

	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : json))
		dot = json + strlen(json);
	if (asprintf(&out, "%.*s.png", (int)(dot - json), json) < 0)
		return NULL;
	return out;
}

static int plot_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "data", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *events = NULL, *metrics = NULL, *data = NULL;
	char *def = NULL;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:e:M:D:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'e':
			events = optarg;
			break;
		case 'M':
			metrics = optarg;
			break;
		case 'D':
			data = optarg;
			break;
		case 'h':
			plot_usage(stdout);
			return 0;
		default:
			plot_usage(stderr);
			return -EINVAL;
		}
	}
	if ((events && !*events) || (metrics && !*metrics)) {
		fprintf(stderr, "pmcctl plot: --events and --metrics need a list of names\n");
		return -EINVAL;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmcctl plot: give one JSON file (pmcctl stat -a -I 100 -j -o FILE ...)\n");
		plot_usage(stderr);
		return -EINVAL;
	}
	if (!out) {
		def = default_output(argv[optind]);
		if (!def) {
			fprintf(stderr, "pmcctl plot: out of memory\n");
			return -EIO;
		}
		out = def;
	}
	if (!plot_output_ok(out, "plot")) {
		free(def);
		return -EINVAL;
	}
	ret = plot_draw(argv[optind], out, events, metrics, "plot");
	if (!ret)
		fprintf(stderr, "pmcctl plot: wrote %s\n", out);
	if (!ret && data)
		ret = write_data(argv[optind], events, metrics, data);
	free(def);
	return ret;
}

bool plot_output_ok(const char *out, const char *cmd)
{
	const char *dot = strrchr(out, '.');

	if (dot && (!strcmp(dot, ".png") || !strcmp(dot, ".svg")))
		return true;
	fprintf(stderr, "pmcctl %s: %s: give a file name ending in .png or .svg\n", cmd, out);
	return false;
}

int cmd_plot(int argc, char **argv)
{
	return pmcctl_exit_code(plot_cmd(argc, argv));
}
