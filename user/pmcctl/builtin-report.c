// SPDX-License-Identifier: GPL-2.0
/* pmcctl report: merge saved JSON outputs of run and stat, one column per rank (merge.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gnuplot.h"
#include "merge.h"
#include "pmcctl.h"

static void report_usage(FILE *f)
{
	fputs("usage: pmcctl report [options] FILE...\n"
	      "\n"
	      "Merge saved JSON outputs of 'pmcctl run -j' and 'pmcctl stat -j' (with their regions and\n"
	      "metrics), e.g. one per MPI rank from 'mpirun pmcctl run -j -o r.%r.json -- APP': a table\n"
	      "per event, metric and region with one column per rank (host:rank, or the file name\n"
	      "outside MPI), then sum, min, max, mean and imbalance (max/mean).\n"
	      "\n"
	      "  -x, --field-separator SEP   CSV output with SEP between fields\n"
	      "  -j, --json           one JSON document\n"
	      "  -o, --output FILE    write the report to FILE (default: standard output)\n"
	      "      --strict         refuse files that count different events or come from different\n"
	      "                       CPU models (default: merge on the common events and say so)\n"
	      "      --plot PNG       also draw each rank's counts relative to the mean as a bar chart\n"
	      "                       into PNG (needs gnuplot: apt-get install gnuplot-nox)\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "Exit status: 0 ok; 1 a file unreadable, not pmcctl's JSON, refused by --strict, or the\n"
	      "plot failed; 2 usage.\n", f);
}

/* --plot: the bar chart of merge_plot_data() through gnuplot into @png. */
static int plot(const struct merge *m, const char *png)
{
	char dir[] = "/tmp/pmcctl-report.XXXXXX", data[64], script[64];
	bool gnuplot_ran = false;
	unsigned int cols;
	FILE *f;
	int err = 0;

	if (!mkdtemp(dir)) {
		fprintf(stderr, "pmcctl report: --plot: a temporary directory: %s\n", strerror(errno));
		return -EIO;
	}
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	f = fopen(data, "we");
	if (!f) {
		err = -EIO;
		goto out;
	}
	cols = merge_plot_data(f, m);
	if (fclose(f)) {
		err = -EIO;
		goto out;
	}
	if (!cols) {
		fprintf(stderr, "pmcctl report: --plot: no event has a mean above 0: nothing to draw\n");
		err = -EINVAL;
		goto out;
	}
	f = fopen(script, "we");
	if (!f) {
		err = -EIO;
		goto out;
	}
	fprintf(f, "set terminal pngcairo size %u,600 noenhanced font ',10'\nset output ",
		900 + 40 * m->n_in * (cols < 8 ? cols : 8));
	gp_quote(f, png);
	fprintf(f, "\nset datafile separator '\\t'\n"
		"set title \"pmcctl report: each rank's count relative to the mean over %u ranks "
		"(1 = balanced)\"\n"
		"set ylabel 'value / mean'\nset yrange [0:*]\nset offsets 0, 0, graph 0.05, 0\nset grid ytics\n"
		"set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\nset key outside right top\n"
		"set xtics rotate by -30\n"
		"plot for [i=2:%u] ", m->n_in, cols + 1);
	gp_quote(f, data);
	fputs(" using i:xtic(1) title columnhead(i), 1 with lines lc 'black' dt 2 notitle\n", f);
	if (fclose(f)) {
		err = -EIO;
		goto out;
	}
	err = gp_run(script);
	gnuplot_ran = true;
	if (err == -ENOENT)
		fprintf(stderr, "pmcctl report: --plot needs gnuplot, which is not installed: "
			GNUPLOT_INSTALL_HINT "\n");
	else if (err)
		fprintf(stderr, "pmcctl report: --plot: gnuplot failed to draw %s (%s)\n", png,
			err == -EIO ? "it said why above" : strerror(-err));
out:
	if (err == -EIO && !gnuplot_ran)
		fprintf(stderr, "pmcctl report: --plot: writing gnuplot's input in %s: %s\n", dir, strerror(errno));
	unlink(data);
	unlink(script);
	rmdir(dir);
	return err;
}

static int report(int argc, char **argv)
{
	enum { OPT_STRICT = 256, OPT_PLOT };
	static const struct option opts[] = {
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sep = NULL, *out_path = NULL, *png = NULL;
	bool json = false, strict = false;
	struct merge m;
	char err[1024];
	FILE *out;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+x:jo:h", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			if (!*optarg) {
				fprintf(stderr, "pmcctl report: -x needs a non-empty separator\n");
				return -EINVAL;
			}
			sep = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'o':
			out_path = optarg;
			break;
		case OPT_STRICT:
			strict = true;
			break;
		case OPT_PLOT:
			if (!*optarg) {
				fprintf(stderr, "pmcctl report: --plot needs a file name (chart.png)\n");
				return -EINVAL;
			}
			png = optarg;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		default:
			report_usage(stderr);
			return -EINVAL;
		}
	}
	if (json && sep) {
		fprintf(stderr, "pmcctl report: -x and --json exclude each other\n");
		return -EINVAL;
	}
	if (optind >= argc) {
		fprintf(stderr, "pmcctl report: give the JSON files to merge (pmcctl run -j -o FILE)\n");
		report_usage(stderr);
		return -EINVAL;
	}
	ret = merge_files(&m, argv + optind, (unsigned int)(argc - optind), strict, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "pmcctl report: %s\n", err);
		return -EIO;
	}
	out = out_path ? fopen(out_path, "we") : stdout;
	if (!out) {
		fprintf(stderr, "pmcctl report: -o %s: %s\n", out_path, strerror(errno));
		merge_free(&m);
		return -EIO;
	}
	merge_print(out, &m, json ? REPORT_JSON : sep ? REPORT_CSV : REPORT_TEXT, sep);
	if (out != stdout ? fclose(out) : fflush(out)) {
		fprintf(stderr, "pmcctl report: %s: %s\n", out_path ? out_path : "standard output", strerror(errno));
		ret = -EIO;
	}
	if (!ret && png)
		ret = plot(&m, png) ? -EIO : 0;
	merge_free(&m);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	return pmcctl_exit_code(report(argc, argv));
}
