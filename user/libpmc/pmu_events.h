/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpmc's event and metric tables, generated at build time from Linux
 * perf's x86 event and metric files (user/libpmc/gen-pmu-events.py, into
 * build/gen/pmu_events.c; the files come from Debian's linux-source
 * package through user/libpmc/pmu-events-src).  Every string is an offset
 * into pmc_pe_strings.  Internal to libpmc.
 */
#ifndef PMC_PMU_EVENTS_H
#define PMC_PMU_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* pmc_pe_event.flags */
#define PMC_PE_EDGE		1U	/* EdgeDetect */
#define PMC_PE_INV		2U	/* Invert */
#define PMC_PE_ANY		4U	/* AnyThread (pmcdrv does not program it) */
#define PMC_PE_DEPRECATED	8U

/* pmc_pe_event.unit, pmc_pe_metric.unit: the PMU (perf's Unit) */
enum pmc_pe_unit { PMC_PE_CPU = 0, PMC_PE_CPU_CORE = 1, PMC_PE_CPU_ATOM = 2 };

/* A row of mapfile.csv (Intel, core) and its ranges of the tables. */
struct pmc_pe_model {
	uint32_t cpuid;		/* regular expression of "GenuineIntel-F-M[-S]" */
	uint32_t name;		/* perf's directory: "skylake" */
	uint32_t first_event, nr_events;	/* sorted by name, then unit */
	uint32_t first_metric, nr_metrics;	/* sorted by name, then unit */
};

struct pmc_pe_event {
	uint32_t name;		/* "INST_RETIRED.ANY" */
	uint32_t desc;		/* BriefDescription */
	uint16_t event;		/* event select (ExtSel above bit 8) */
	uint8_t umask, cmask;
	uint8_t flags;		/* PMC_PE_* */
	uint8_t unit;		/* enum pmc_pe_unit */
	uint16_t msr;		/* extra register (MSRIndex), 0 for none */
	uint64_t msr_value;	/* MSRValue */
};

struct pmc_pe_metric {
	uint32_t name, expr, groups, scale_unit, desc;
	uint32_t threshold;	/* MetricThreshold: "" when none */
	uint8_t unit;		/* enum pmc_pe_unit */
	uint8_t grouping;	/* enum pmc_metric_grouping: its MetricConstraint */
};

extern const char pmc_pe_source[];
extern const char pmc_pe_strings[];
extern const unsigned int pmc_pe_strings_size;
extern const struct pmc_pe_model pmc_pe_models[];
extern const unsigned int pmc_pe_nr_models;
extern const struct pmc_pe_event pmc_pe_events[];
extern const unsigned int pmc_pe_nr_events;
extern const struct pmc_pe_metric pmc_pe_metrics[];
extern const unsigned int pmc_pe_nr_metrics;

static inline const char *pmc_pe_str(uint32_t off)
{
	return &pmc_pe_strings[off];
}

struct pmcdrv_info;
struct pmcdrv_event;

/* perf's CPUID string of @info, "GenuineIntel-6-5E-3"; 0 or -ENOSPC. */
int pmc_pe_cpuid_str(const struct pmcdrv_info *info, char *buf, size_t len);
/*
 * The model of the CPU this runs on (its CPUID; PMCDRV_FORCE_CPUID in the
 * environment, "GenuineIntel-6-5E-3", names another, as LIBPFM_FORCE_PMU
 * does for libpfm4), or NULL.
 */
const struct pmc_pe_model *pmc_pe_this_model(void);
/*
 * Does mapfile.csv's expression @mapcpuid match CPUID string @id, as perf's
 * strcmp_cpuid_str() decides (also the metrics' strcmp_cpuid_str())?
 */
bool pmc_pe_cpuid_matches(const char *mapcpuid, const char *id);
/* The model whose mapfile.csv expression matches @cpuid as perf matches it, or NULL. */
const struct pmc_pe_model *pmc_pe_model_find(const char *cpuid);
/* @m's event @name (any case) of @unit's PMU, or NULL. */
const struct pmc_pe_event *pmc_pe_event_find(const struct pmc_pe_model *m, const char *name,
					     enum pmc_pe_unit unit);
/*
 * @pe as a pmcdrv hardware event (no mode flags: the caller's); -EOPNOTSUPP
 * when pmcdrv cannot program it (AnyThread, PEBS load latency or
 * front-end extra registers, an extended event select).
 */
int pmc_pe_event_encode(const struct pmc_pe_event *pe, struct pmcdrv_event *ev);

#endif
