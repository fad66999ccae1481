// SPDX-License-Identifier: GPL-2.0
/* pmcctl list: the events this CPU supports. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "hybrid.h"
#include "libpmc.h"
#include "metrics.h"
#include "output.h"
#include "pmcctl.h"

/* ---- pmcctl list ------------------------------------------------------------- */

static const struct {
	const char *name, *alias, *desc;
} sw_events[] = {
	{ "task-clock", NULL, "ns on a CPU" },
	{ "context-switches", "cs", "times the task was switched out" },
	{ "cpu-migrations", "migrations", "times the task moved to another CPU" },
};

struct list_ctx {
	const char *word;	/* NULL: everything */
	bool json;
	unsigned int shown;
	char groups[4096];	/* --metrics: the groups seen, ";g1;g2;" */
	struct pmc_metric_env env;	/* --metrics: this machine's, to compile each metric */
	struct pmcdrv_info info;	/* ... and its PMU, to say which cannot be computed here */
	struct pmc_arch_perfmon pm;	/* ... as it plans events (hybrid_perfmon_from_info()) */
	bool have_info;
};

static bool has_word(const char *s, const char *word)
{
	return !word || (s && strcasestr(s, word));
}

static void list_usage(FILE *f)
{
	fputs("usage: pmcctl list [--json] [--metrics] [WORD]\n\n"
	      "List the events this CPU supports: the architectural and software events, the\n"
	      "model-specific events of the kernel's own data for this model (perf's names), and\n"
	      "those of the core PMU libpfm4 detects, with their unit masks; each under its source.\n"
	      "WORD keeps the events whose name or description contains it (any case).\n\n"
	      "  -j, --json   one JSON object: architectural, software, kernel (source, model,\n"
	      "               events), pmu, events (libpfm4's, with umasks)\n"
	      "  -m, --metrics  the model's metrics instead (perf's, for -M): name, groups,\n"
	      "               description and formula; WORD keeps those whose name, group or\n"
	      "               description contains it; with --json: source, model, metrics, groups;\n"
	      "               a metric run -M cannot compute here says why (\"refused\")\n"
	      "  -h, --help   this text\n\n"
	      "exit codes: 0 ok (also when nothing matches WORD), 2 usage error\n", f);
}

static void json_umask(const struct pmc_pfm_umask *u, bool first)
{
	printf("%s{\"name\":", first ? "" : ",");
	json_string(stdout, u->name);
	printf(",\"code\":\"0x%02x\",\"default\":%s,\"desc\":", u->code, u->dfl ? "true" : "false");
	json_string(stdout, u->desc);
	putchar('}');
}

static int show_pfm(const struct pmc_pfm_event *e, void *arg)
{
	struct list_ctx *c = arg;
	bool all = has_word(e->name, c->word) || has_word(e->desc, c->word);
	unsigned int i, n = 0;

	for (i = 0; !all && i < e->nr_umasks; i++)
		n += has_word(e->umasks[i].name, c->word) || has_word(e->umasks[i].desc, c->word);
	if (!all && !n)
		return 0;
	if (c->json) {
		printf("%s\n  {\"name\":", c->shown ? "," : "");
		json_string(stdout, e->name);
		printf(",\"code\":\"0x%02x\",\"desc\":", e->code);
		json_string(stdout, e->desc);
		printf(",\"umasks\":[");
		for (i = 0, n = 0; i < e->nr_umasks; i++) {
			if (all || has_word(e->umasks[i].name, c->word) ||
			    has_word(e->umasks[i].desc, c->word))
				json_umask(&e->umasks[i], !n++);
		}
		printf("]}");
	} else {
		printf("  %-28s 0x%02x  %s\n", e->name, e->code, e->desc);
		for (i = 0; i < e->nr_umasks; i++) {
			const struct pmc_pfm_umask *u = &e->umasks[i];

			if (!all && !has_word(u->name, c->word) && !has_word(u->desc, c->word))
				continue;
			printf("    :%-25s 0x%02x  %s%s\n", u->name, u->code, u->dfl ? "(default) " : "",
			       u->desc);
		}
	}
	c->shown++;
	return 0;
}

/* One event of the kernel's data: text "NAME CODE [cmask,inv,edge] DESC", or a JSON object. */
static int show_kernel(const struct pmc_kernel_event *e, void *arg)
{
	struct list_ctx *c = arg;
	char mods[48] = "";

	if (!has_word(e->name, c->word) && !has_word(e->desc, c->word))
		return 0;
	if (!e->err && (e->ev.cmask || e->ev.flags & (PMCDRV_EVF_INV | PMCDRV_EVF_EDGE))) {
		char cmask[24] = "";

		if (e->ev.cmask)
			snprintf(cmask, sizeof(cmask), ",cmask=%u", e->ev.cmask);
		/* " (cmask=1,inv,edge)": each field after a comma, the first comma dropped */
		snprintf(mods, sizeof(mods), " (%s%s%s)", cmask,
			 (e->ev.flags & PMCDRV_EVF_INV) ? ",inv" : "",
			 (e->ev.flags & PMCDRV_EVF_EDGE) ? ",edge" : "");
		memmove(mods + 2, mods + 3, strlen(mods + 3) + 1);
	}
	if (c->json) {
		printf("%s\n  {\"name\":", c->shown ? "," : "");
		json_string(stdout, e->name);
		printf(",\"pmu\":");
		json_string(stdout, e->pmu);
		if (e->err)
			printf(",\"supported\":false");
		else
			printf(",\"supported\":true,\"code\":\"0x%04x\",\"cmask\":%u,\"inv\":%s,"
			       "\"edge\":%s,\"extra\":\"0x%llx\"", e->ev.umask << 8 | e->ev.event,
			       e->ev.cmask, (e->ev.flags & PMCDRV_EVF_INV) ? "true" : "false",
			       (e->ev.flags & PMCDRV_EVF_EDGE) ? "true" : "false",
			       (unsigned long long)e->ev.extra);
		printf(",\"deprecated\":%s,\"desc\":", e->deprecated ? "true" : "false");
		json_string(stdout, e->desc);
		putchar('}');
	} else if (e->err) {
		printf("  %-44s -       %s (pmcdrv cannot program it: AnyThread or a PEBS register)\n",
		       e->name, e->desc);
	} else {
		printf("  %-44s 0x%04x%s  %s%s\n", e->name, e->ev.umask << 8 | e->ev.event, mods,
		       e->deprecated ? "(deprecated) " : "", e->desc);
	}
	c->shown++;
	return 0;
}

static bool arch_avail(const struct pmcdrv_info *info, unsigned int i)
{
	return (info->flags & PMCDRV_INFO_ARCH_PERFMON) && i < info->events_len &&
	       (info->events_avail & (1U << i));
}

/* The code its name stands for: topdown-slots is perf's slots, 0x0400 (fixed counter 3 only). */
static unsigned int list_code(unsigned int i)
{
	const struct pmc_arch_event_desc *d = &pmc_arch_events[i];

	if (i == PMC_ARCH_TOPDOWN_SLOTS)
		return (PMC_TD_SLOTS_FIXED + 1) << 8 | PMC_EVENT_FIXED_PSEUDO;
	return (unsigned int)d->umask << 8 | d->event;
}

static void list_text(const struct pmcdrv_info *info, struct list_ctx *c)
{
	const char *pmu, *pmu_desc, *source, *model;
	unsigned int i, kernel = 0;
	int fx, err;

	unsigned int nhw = 0, nsw = 0;

	/* With a WORD, a section none of whose rows match is left out. */
	for (i = 0; i < PMC_ARCH_NR_EVENTS; i++)
		nhw += has_word(pmc_arch_events[i].name, c->word);
	for (i = 0; i < ARRAY_SIZE(sw_events); i++)
		nsw += has_word(sw_events[i].name, c->word) || has_word(sw_events[i].alias, c->word);
	if (nhw) {
		printf("Hardware events (architectural; CPUID.0AH, %s):\n",
		       (info->flags & PMCDRV_INFO_ARCH_PERFMON) ? "available per this CPU" :
								  "this CPU has none");
		printf("  %-16s %-8s %-22s %s\n", "name", "code", "counters", "status");
	}
	for (i = 0; i < PMC_ARCH_NR_EVENTS; i++) {
		const struct pmc_arch_event_desc *d = &pmc_arch_events[i];
		char counters[32];

		if (!has_word(d->name, c->word))
			continue;
		fx = d->fixed;
		/* The name is perf's slots: fixed counter 3 only (0x01a4 is a GP event) */
		if (i == PMC_ARCH_TOPDOWN_SLOTS)
			snprintf(counters, sizeof(counters), "fixed %d only", fx);
		else if (d->event == PMC_EVENT_FIXED_PSEUDO)
			snprintf(counters, sizeof(counters), "fixed %d only", fx);
		else if (fx >= 0 && (info->avail_mask >> (PMC_GLOBAL_FIXED_SHIFT + fx)) & 1)
			snprintf(counters, sizeof(counters), "fixed %d, GP 0-%u", fx,
				 info->num_gp ? info->num_gp - 1 : 0);
		else
			snprintf(counters, sizeof(counters), "GP 0-%u", info->num_gp ? info->num_gp - 1 : 0);
		printf("  %-16s 0x%04x   %-22s %s\n", d->name, list_code(i),
		       info->num_gp ? counters : "-", arch_avail(info, i) ? "available" : "unavailable");
	}
	if (nsw)
		printf("%sSoftware events (no PMU needed):\n", nhw ? "\n" : "");
	for (i = 0; i < ARRAY_SIZE(sw_events); i++) {
		if (has_word(sw_events[i].name, c->word) || has_word(sw_events[i].alias, c->word))
			printf("  %-19s %s%s%s%s\n", sw_events[i].name, sw_events[i].desc,
			       sw_events[i].alias ? " (" : "", sw_events[i].alias ? sw_events[i].alias : "",
			       sw_events[i].alias ? ")" : "");
	}
	if (!pmc_kernel_model(&source, &model)) {
		printf("%sModel-specific events from the kernel's data (perf's '%s', %s),\nperf's EVENT.UMASK, code = umask<<8 | event:\n",
		       nhw || nsw ? "\n" : "", model, source);
		pmc_kernel_events(show_kernel, c);
		if (!c->shown)
			puts("  (none matches)");
		kernel = c->shown;
		c->shown = 0;
	} else {
		printf("%sModel-specific events: the kernel's data (%s) has no model for this CPU.\n",
		       nhw || nsw ? "\n" : "", source);
	}
	err = pmc_pfm_pmu(&pmu, &pmu_desc);
	if (err) {
		printf("\nModel-specific events: libpfm4 detects no core PMU on this CPU.\n");
	} else {
		printf("\nModel-specific events from libpfm4 (PMU %s: %s)%s, EVENT:UMASK, code = event select\n(of a unit mask: libpfm4's code, its bits above 7 carrying the cmask, inv or edge it implies):\n",
		       pmu, pmu_desc, kernel ? "; perf's spelling of a name above resolves there" : "");
		err = pmc_pfm_events(show_pfm, c);
		if (err)
			printf("  (libpfm4 could not list them: %s)\n", strerror(-err));
		else if (!c->shown)
			puts("  (none matches)");
	}
	puts("\nSyntax: NAME[:u|:k|:uk], 0xUUEE (umask<<8|event), rHEX (perf raw: event, umask,\n"
	     "edge bit 18, inv bit 23, cmask bits 31:24), cpu/event=E,umask=U,cmask=C,inv,edge/,\n"
	     "libpfm4 names [pmu::]EVENT[:UMASK][:u][:k][:e][:i][:c=N] (a unit mask marked (default)\n"
	     "is used when none is given), perf's event.umask spelling of them, and groups {a,b}[:u|:k].\n"
	     "Event 0 is fixed-counter-only: 0x0100..0x0400 = fixed counter 0..3 (ref-cycles = 0x0300;\n"
	     "0x013c is reference cycles at the bus clock, on a GP counter).");
}

/* "source":...,"model":... of the kernel's data; pmc_kernel_model()'s return. */
static int json_kernel_model(void)
{
	const char *source, *model;
	int err = pmc_kernel_model(&source, &model);

	printf("\"source\":");
	json_string(stdout, source);
	printf(",\"model\":");
	if (err)
		printf("null");
	else
		json_string(stdout, model);
	return err;
}

static void list_json(const struct pmcdrv_info *info, struct list_ctx *c)
{
	const char *pmu = NULL, *pmu_desc = NULL;
	unsigned int i, n = 0;
	int err;

	printf("{\"architectural\":[");
	for (i = 0; i < PMC_ARCH_NR_EVENTS; i++) {
		const struct pmc_arch_event_desc *d = &pmc_arch_events[i];

		if (!has_word(d->name, c->word))
			continue;
		printf("%s\n  {\"name\":", n++ ? "," : "");
		json_string(stdout, d->name);
		printf(",\"code\":\"0x%04x\",\"available\":%s}", list_code(i),
		       arch_avail(info, i) ? "true" : "false");
	}
	printf("],\n\"software\":[");
	for (i = 0, n = 0; i < ARRAY_SIZE(sw_events); i++) {
		if (!has_word(sw_events[i].name, c->word) && !has_word(sw_events[i].alias, c->word))
			continue;
		printf("%s{\"name\":", n++ ? "," : "");
		json_string(stdout, sw_events[i].name);
		printf(",\"desc\":");
		json_string(stdout, sw_events[i].desc);
		putchar('}');
	}
	printf("],\n\"kernel\":{");
	err = json_kernel_model();
	printf(",\"events\":[");
	c->shown = 0;
	if (!err)
		pmc_kernel_events(show_kernel, c);
	c->shown = 0;
	printf("\n]},\n\"pmu\":");
	err = pmc_pfm_pmu(&pmu, &pmu_desc);
	if (err) {
		printf("null,\"pmu_desc\":null,\"events\":[]}\n");
		return;
	}
	json_string(stdout, pmu);
	printf(",\"pmu_desc\":");
	json_string(stdout, pmu_desc);
	printf(",\n\"events\":[");
	pmc_pfm_events(show_pfm, c);
	printf("\n]}\n");
}

/* Note each group of @groups ("a;b") once in c->groups. */
static void note_groups(struct list_ctx *c, const char *groups)
{
	char g[256];

	while (*groups) {
		size_t n = strcspn(groups, ";"), len = strlen(c->groups);

		snprintf(g, sizeof(g), ";%.*s;", (int)n, groups);
		if (!strstr(c->groups, g) && len + strlen(g) < sizeof(c->groups))
			snprintf(c->groups + len, sizeof(c->groups) - len, "%s", len ? g + 1 : g);
		groups += n + (groups[n] == ';');
	}
}

/*
 * Why run -M cannot compute metric @mi here (into @buf), as count_metrics_setup()
 * refuses it, or NULL: the metric compiled alone for this model and PMU (of its
 * core type's, on a hybrid part).
 * *@threshold: its MetricThreshold, or NULL (the model's static strings).
 */
static const char *metric_refusal(struct list_ctx *c, const struct pmc_metric_info *mi, char *buf,
				  size_t len, const char **threshold)
{
	struct pmc_metrics *ms = NULL;
	struct pmc_metric_info one;
	const char *why = NULL;
	char err[256] = "";
	unsigned int i;

	*threshold = NULL;
	if (pmc_metrics_open(NULL, mi->name, &c->env, &ms, err, sizeof(err))) {
		snprintf(buf, len, "it does not compile: %s", err);
		return buf;
	}
	for (i = 0; i < pmc_metrics_nr(ms); i++) {
		/* a hybrid part's data has one of each name per core type: this one's */
		if (pmc_metrics_info(ms, i, &one) || strcmp(one.name, mi->name) ||
		    (one.pmu && mi->pmu && strcmp(one.pmu, mi->pmu)))
			continue;
		*threshold = pmc_metrics_threshold_expr(ms, i);
		why = metric_refused(ms, i, c->have_info ? &c->pm : NULL, buf, len);
		if (why && why != buf) {
			/* libpmc's text lives with @ms */
			snprintf(buf, len, "%s", why);
			why = buf;
		}
		break;
	}
	pmc_metrics_close(ms);
	return why;
}

static int show_metric(const struct pmc_metric_info *mi, void *arg)
{
	struct list_ctx *c = arg;
	const char *refused, *threshold;
	char why[512];

	if (!has_word(mi->name, c->word) && !has_word(mi->groups, c->word) &&
	    !has_word(mi->desc, c->word))
		return 0;
	note_groups(c, mi->groups);
	refused = metric_refusal(c, mi, why, sizeof(why), &threshold);
	if (c->json) {
		printf("%s\n  {\"name\":", c->shown++ ? "," : "");
		json_string(stdout, mi->name);
		printf(",\"pmu\":");
		json_string(stdout, mi->pmu);
		printf(",\"groups\":");
		json_string(stdout, mi->groups);
		printf(",\"scale\":%g,\"unit\":", mi->scale);
		json_string(stdout, mi->unit);
		printf(",\"desc\":");
		json_string(stdout, mi->desc);
		printf(",\"expr\":");
		json_string(stdout, mi->expr);
		printf(",\"threshold\":");
		if (threshold)
			json_string(stdout, threshold);
		else
			fputs("null", stdout);
		printf(",\"refused\":");
		if (refused)
			json_string(stdout, refused);
		else
			fputs("null", stdout);
		putchar('}');
		return 0;
	}
	c->shown++;
	printf("  %s", mi->name);
	if (strcmp(mi->pmu, "cpu"))
		printf(" (%s)", mi->pmu);
	putchar('\n');
	if (*mi->groups)
		printf("      groups: %s\n", mi->groups);
	if (*mi->desc)
		printf("      %s\n", mi->desc);
	printf("      = %s", mi->expr);
	if (*mi->unit)
		printf("  (x %g, in %s)", mi->scale, mi->unit);
	putchar('\n');
	if (threshold)
		printf("      beyond its threshold when %s\n", threshold);
	if (refused)
		printf("      cannot be computed here: %s\n", refused);
	return 0;
}

static void list_metrics(struct list_ctx *c)
{
	const char *source, *model;
	int err = pmc_kernel_model(&source, &model);

	pmc_metric_env_init(&c->env, false);
	c->have_info = metric_pmu_info(&c->info);
	if (c->have_info)
		hybrid_perfmon_from_info(&c->info, &c->pm);

	if (c->json) {
		putchar('{');
		json_kernel_model();
		printf(",\"metrics\":[");
		if (!err)
			pmc_metric_list(NULL, show_metric, c);
		printf("\n],\"groups\":");
		json_string(stdout, c->groups);
		printf("}\n");
		return;
	}
	if (err) {
		printf("Metrics: the kernel's data (%s) has no model for this CPU.\n", source);
		return;
	}
	printf("Metrics of the kernel's data (perf's '%s', %s); pmcctl run -M takes a name or a group:\n",
	       model, source);
	pmc_metric_list(NULL, show_metric, c);
	if (!c->shown)
		puts("  (none matches)");
	else
		printf("\nMetric groups: %s\n", c->groups);
}

static int list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "metrics", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct list_ctx ctx = { 0 };
	struct pmcdrv_info info;
	enum pmc_decode_err derr;
	bool metrics = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+jmh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctx.json = true;
			break;
		case 'm':
			metrics = true;
			break;
		case 'h':
			list_usage(stdout);
			return 0;
		default:
			list_usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc)
		ctx.word = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "pmcctl list: unexpected argument '%s' (one WORD filters)\n", argv[optind]);
		list_usage(stderr);
		return -EINVAL;
	}
	if (ctx.word && !*ctx.word) {
		fprintf(stderr, "pmcctl list: WORD is empty\n");
		return -EINVAL;
	}
	if (metrics) {
		list_metrics(&ctx);
		return 0;
	}
	pmc_cpuid_info(&info, &derr);
	if (ctx.json)
		list_json(&info, &ctx);
	else
		list_text(&info, &ctx);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	return pmcctl_exit_code(list(argc, argv));
}
