// SPDX-License-Identifier: GPL-2.0
/* pmcctl: top-down level 1 from general-purpose events (topdown.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libpmc.h"
#include "topdown.h"

/*
 * Linux 6.1's tools/perf/pmu-events/arch/x86/mapfile.csv, the models whose
 * metric files compute TopdownL1 from these events; all of them use the
 * same formulas and encodings (IDQ_UOPS_NOT_DELIVERED.CORE 0x9C/0x01,
 * UOPS_ISSUED.ANY 0x0E/0x01, UOPS_RETIRED.RETIRE_SLOTS 0xC2/0x02,
 * CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE 0x3C/0x02, REF_XCLK 0x3C/0x01) but
 * INT_MISC.RECOVERY_CYCLES: 0x0D/0x03 with CounterMask 1 up to Broadwell,
 * 0x0D/0x01 from Skylake on.  (skylakex and cascadelakex share model 0x55,
 * told apart by stepping there; their events are the same.)
 */
static const struct td_gp_model td_gp_models[] = {
	{ "sandybridge", (const unsigned char[]){ 0x2a, 0 }, 0x03, 1 },
	{ "jaketown", (const unsigned char[]){ 0x2d, 0 }, 0x03, 1 },
	{ "ivybridge", (const unsigned char[]){ 0x3a, 0 }, 0x03, 1 },
	{ "ivytown", (const unsigned char[]){ 0x3e, 0 }, 0x03, 1 },
	{ "haswell", (const unsigned char[]){ 0x3c, 0x45, 0x46, 0 }, 0x03, 1 },
	{ "haswellx", (const unsigned char[]){ 0x3f, 0 }, 0x03, 1 },
	{ "broadwell", (const unsigned char[]){ 0x3d, 0x47, 0 }, 0x03, 1 },
	{ "broadwellde", (const unsigned char[]){ 0x56, 0 }, 0x03, 1 },
	{ "broadwellx", (const unsigned char[]){ 0x4f, 0 }, 0x03, 1 },
	{ "skylake", (const unsigned char[]){ 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6, 0 }, 0x01, 0 },
	{ "skylakex", (const unsigned char[]){ 0x55, 0 }, 0x01, 0 },
};

const struct td_gp_model *td_gp_model(unsigned int family, unsigned int model)
{
	const unsigned char *p;
	size_t i;

	if (family != 6)
		return NULL;
	for (i = 0; i < sizeof(td_gp_models) / sizeof(td_gp_models[0]); i++)
		for (p = td_gp_models[i].models; *p; p++)
			if (*p == model)
				return &td_gp_models[i];
	return NULL;
}

/* The events, each with its encoding; the metrics find their rows by it. */
enum { TD_THREAD, TD_IDQ, TD_ISSUED, TD_RETIRED, TD_RECOVERY, TD_NR };

static const struct {
	unsigned int event, umask;
} td_gp_enc[TD_NR] = {
	[TD_THREAD] = { 0x3c, 0x00 },	/* CPU_CLK_UNHALTED.THREAD */
	[TD_IDQ] = { 0x9c, 0x01 },	/* IDQ_UOPS_NOT_DELIVERED.CORE */
	[TD_ISSUED] = { 0x0e, 0x01 },	/* UOPS_ISSUED.ANY */
	[TD_RETIRED] = { 0xc2, 0x02 },	/* UOPS_RETIRED.RETIRE_SLOTS */
	[TD_RECOVERY] = { 0x0d, 0 },	/* INT_MISC.RECOVERY_CYCLES: the model's umask */
};

int td_gp_events(const struct td_gp_model *m, char *buf, size_t len)
{
	int n;

	n = snprintf(buf, len, "{cycles,cpu/event=0x9c,umask=0x01/,cpu/event=0x0e,umask=0x01/,"
		     "cpu/event=0xc2,umask=0x02/,cpu/event=0x0d,umask=0x%02x%s/}",
		     m->recovery_umask, m->recovery_cmask ? ",cmask=1" : "");
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* Is @ev the level-1 event @k (the recovery event: either model's encoding)? */
static bool td_gp_is(const struct pmcdrv_event *ev, unsigned int k)
{
	if (ev->type != PMCDRV_EVENT_HW || ev->event != td_gp_enc[k].event ||
	    (ev->flags & (PMCDRV_EVF_EDGE | PMCDRV_EVF_INV)))
		return false;
	if (k == TD_RECOVERY)
		return (ev->umask == 0x01 && !ev->cmask) || (ev->umask == 0x03 && ev->cmask == 1);
	return ev->umask == td_gp_enc[k].umask && !ev->cmask;
}

int td_gp_level1(const struct report_row *rows, unsigned int n, struct td_value *out)
{
	double v[TD_NR], slots;
	bool have[TD_NR] = { false };
	unsigned int i, k;

	/* a row never on a counter (multiplexing) has no value: no metric, as perf */
	for (i = 0; i < n; i++)
		for (k = 0; k < TD_NR; k++)
			if (!have[k] && !rows[i].not_counted && td_gp_is(&rows[i].ev->ev, k)) {
				v[k] = rows[i].value;
				have[k] = true;
			}
	for (k = 0; k < TD_NR; k++)
		if (!have[k])
			return 0;
	/* SLOTS = 4 * CORE_CLKS, CORE_CLKS = THREAD with SMT off (topdown.h) */
	slots = 4 * v[TD_THREAD];
	if (!(slots > 0))
		return 0;
	out[0] = (struct td_value){ "Retiring", 100 * v[TD_RETIRED] / slots };
	out[1] = (struct td_value){ "Bad Speculation",
				    100 * (v[TD_ISSUED] - v[TD_RETIRED] + 4 * v[TD_RECOVERY]) / slots };
	out[2] = (struct td_value){ "Frontend Bound", 100 * v[TD_IDQ] / slots };
	out[3] = (struct td_value){ "Backend Bound",
				    100 * (1 - v[TD_IDQ] / slots -
					   (v[TD_ISSUED] + 4 * v[TD_RECOVERY]) / slots) };
	return 4;
}
