// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: the CPU model's events and metrics from the kernel's own data
 * (pmu_events.h: tables generated from Linux perf's x86 files).  The model
 * is chosen as perf chooses it, by the CPUID string against mapfile.csv's
 * regular expressions.  Read-only tables; nothing here prints or keeps state.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libpmc.h"
#include "internal.h"
#include "pmu_events.h"

int pmc_pe_cpuid_str(const struct pmcdrv_info *info, char *buf, size_t len)
{
	char vendor[sizeof(info->vendor_id) + 1];
	int n;

	memcpy(vendor, info->vendor_id, sizeof(info->vendor_id));
	vendor[sizeof(info->vendor_id)] = '\0';
	/* perf's get_cpuid_str() (tools/perf/arch/x86/util/header.c): "%s-%u-%X-%X" */
	n = snprintf(buf, len, "%s-%u-%X-%X", vendor, info->family, info->model, info->stepping);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* "vendor-family-model-stepping": three dashes (perf's is_full_cpuid()). */
static bool full_cpuid(const char *id)
{
	unsigned int dashes = 0;

	for (; *id; id++)
		dashes += *id == '-';
	return dashes == 3;
}

/*
 * Does mapfile.csv's @mapcpuid match @id?  perf's strcmp_cpuid_str()
 * (Linux 6.12, tools/perf/arch/x86/util/header.c), line by line, as a
 * predicate: an entry of four fields needs a full @id; the expression
 * must match the whole @id, or the whole @id but its stepping when the
 * entry has none.
 */
bool pmc_pe_cpuid_matches(const char *mapcpuid, const char *id)
{
	bool full_mapcpuid = full_cpuid(mapcpuid);
	bool is_full = full_cpuid(id);
	regmatch_t pmatch[1];
	regex_t re;
	bool match;

	if (full_mapcpuid && !is_full)
		return false;
	if (regcomp(&re, mapcpuid, REG_EXTENDED) != 0)
		return false;
	match = !regexec(&re, id, 1, pmatch, 0);
	regfree(&re);
	if (match) {
		size_t match_len = (size_t)(pmatch[0].rm_eo - pmatch[0].rm_so);
		size_t cpuid_len;

		if (!full_mapcpuid && is_full)
			cpuid_len = (size_t)(strrchr(id, '-') - id);
		else
			cpuid_len = strlen(id);
		if (match_len == cpuid_len)
			return true;
	}
	return false;
}

const struct pmc_pe_model *pmc_pe_this_model(void)
{
	const char *forced = secure_getenv("PMCDRV_FORCE_CPUID");
	struct pmcdrv_info info;
	char id[64];

	if (forced && *forced)
		return pmc_pe_model_find(forced);
	if (pmc_cpuid_info(&info, NULL) || pmc_pe_cpuid_str(&info, id, sizeof(id)))
		return NULL;
	return pmc_pe_model_find(id);
}

const struct pmc_pe_model *pmc_pe_model_find(const char *cpuid)
{
	unsigned int i;

	for (i = 0; i < pmc_pe_nr_models; i++)
		if (pmc_pe_cpuid_matches(pmc_pe_str(pmc_pe_models[i].cpuid), cpuid))
			return &pmc_pe_models[i];
	return NULL;
}

/*
 * The event of @m named @name (perf's spelling, any case) counted by
 * @unit's PMU; on a part with one core PMU, @unit is PMC_PE_CPU.  NULL when
 * the model has none.  Binary search: the generator sorts each model's
 * events by lower-case name, then unit.
 */
const struct pmc_pe_event *pmc_pe_event_find(const struct pmc_pe_model *m, const char *name,
					     enum pmc_pe_unit unit)
{
	const struct pmc_pe_event *ev = &pmc_pe_events[m->first_event];
	unsigned int lo = 0, hi = m->nr_events;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcasecmp(pmc_pe_str(ev[mid].name), name);

		if (!c)
			c = (int)ev[mid].unit - (int)unit;
		if (!c)
			return &ev[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int pmc_pe_event_encode(const struct pmc_pe_event *pe, struct pmcdrv_event *ev)
{
	if (pe->flags & PMC_PE_ANY)
		return -EOPNOTSUPP;	/* AnyThread: pmcdrv does not program it */
	if (pe->msr && pe->msr != 0x1a6 && pe->msr != 0x1a7)
		return -EOPNOTSUPP;	/* PEBS load latency or front-end: not counting events */
	if (pe->event > 0xff)
		return -EOPNOTSUPP;
	memset(ev, 0, sizeof(*ev));
	ev->type = PMCDRV_EVENT_HW;
	ev->event = pe->event;
	ev->umask = pe->umask;
	ev->cmask = pe->cmask;
	if (pe->flags & PMC_PE_EDGE)
		ev->flags |= PMCDRV_EVF_EDGE;
	if (pe->flags & PMC_PE_INV)
		ev->flags |= PMCDRV_EVF_INV;
	ev->extra = pe->msr ? pe->msr_value : 0;
	return 0;
}

static const char *const pmc_pe_pmu_names[] = {
	[PMC_PE_CPU] = "cpu", [PMC_PE_CPU_CORE] = "cpu_core", [PMC_PE_CPU_ATOM] = "cpu_atom",
};

int pmc_kernel_model(const char **source, const char **model)
{
	const struct pmc_pe_model *m = pmc_pe_this_model();

	if (source)
		*source = pmc_pe_source;
	if (model)
		*model = m ? pmc_pe_str(m->name) : NULL;
	return m ? 0 : -ENODEV;
}

int pmc_kernel_events(pmc_kernel_event_fn fn, void *arg)
{
	const struct pmc_pe_model *m = pmc_pe_this_model();
	struct pmc_kernel_event ke;
	unsigned int i;
	int ret;

	if (!m)
		return -ENODEV;
	for (i = 0; i < m->nr_events; i++) {
		const struct pmc_pe_event *pe = &pmc_pe_events[m->first_event + i];

		memset(&ke, 0, sizeof(ke));
		ke.name = pmc_pe_str(pe->name);
		ke.desc = pmc_pe_str(pe->desc);
		ke.pmu = pe->unit < ARRAY_SIZE(pmc_pe_pmu_names) ? pmc_pe_pmu_names[pe->unit] : "?";
		ke.err = pmc_pe_event_encode(pe, &ke.ev);
		ke.deprecated = pe->flags & PMC_PE_DEPRECATED;
		ret = fn(&ke, arg);
		if (ret)
			return ret;
	}
	return 0;
}
