/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpmc internal: the metric compiler over any table of definitions, so
 * the unit tests can give it their own (a cycle, a division by zero)
 * beside the model's tables (user/libpmc/metric.c).
 */
#ifndef PMCDRV_METRIC_INTERNAL_H
#define PMCDRV_METRIC_INTERNAL_H

#include "libpmc.h"

struct pmc_pe_model;

/* One metric as the files give it; the strings outlive the set. */
struct pmc_metric_def {
	const char *name, *expr, *groups, *scale_unit, *desc;
	unsigned int unit;	/* enum pmc_pe_unit */
	unsigned int grouping;	/* enum pmc_metric_grouping */
	const char *threshold;	/* MetricThreshold; NULL or "" when none */
};

/*
 * pmc_metrics_open() over @defs (@n of them) instead of @m's metrics;
 * events are still looked up in @m's tables (NULL: none are known).
 */
int pmc_metrics_open_defs(const struct pmc_pe_model *m, const struct pmc_metric_def *defs,
			  unsigned int n, const char *list, const struct pmc_metric_env *env,
			  struct pmc_metrics **out, char *err, size_t errlen);

/* pmc_metrics_open() for model @m; @env->cpuid as given. */
int pmc_metrics_open_model(const struct pmc_pe_model *m, const char *list,
			   const struct pmc_metric_env *env, struct pmc_metrics **out, char *err,
			   size_t errlen);

#endif /* PMCDRV_METRIC_INTERNAL_H */
