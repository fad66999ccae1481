// SPDX-License-Identifier: GPL-2.0
/* pmcctl info: the PMU, the module and the MSR fallback. */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hybrid.h"
#include "libpmc.h"
#include "output.h"
#include "pmcctl.h"
#include "sessions.h"

struct info_report {
	struct pmcdrv_info info;
	bool from_module;
	int module_err;			/* why the module could not be used */
	int module_api;
	const char *device;
	enum pmc_decode_err decode_err;	/* user-space CPUID path only */
	bool in_use_known;
	/* MSR device probe */
	int msr_err;
	char msr_path[256];
	bool msr_ok;
	/* the module's sessions (PMCDRV_IOC_SESSIONS) */
	struct pmcdrv_session_info *sessions;
	unsigned int nr_sessions;
	int sessions_err;		/* -ENOTTY: a module without the listing */
	/* a hybrid part's core types, each CPU's CPUID read on it */
	struct pmc_core_type_desc types[PMCDRV_MAX_CORE_TYPES];
	int nr_types;			/* or -errno */
};

/* Where a core type's counters came from. */
static const char *type_counters_from(enum pmc_type_counters_from from)
{
	switch (from) {
	case PMC_TYPE_COUNTERS_LEAF_23:
		return "CPUID leaf 0x23";
	case PMC_TYPE_COUNTERS_MODEL:
		return "the Alder Lake/Raptor Lake model table, as Linux";
	default:
		return "unknown: CPUID leaf 0xA's common subset";
	}
}

static const char *vendor_str(const struct pmcdrv_info *info, char *buf)
{
	memcpy(buf, info->vendor_id, 12);
	buf[12] = '\0';
	return buf;
}

static int msr_rd(void *m, uint32_t msr, uint64_t *val)
{
	return pmc_msr_read(m, msr, val);
}

static void probe_msr(struct info_report *r)
{
	struct pmc_msr *m;
	struct pmcdrv_info *info = &r->info;
	struct pmc_arch_perfmon pm;
	uint64_t v;
	long cpu;

	r->msr_err = pmc_msr_open(0, NULL, false, &m);
	if (r->msr_err) {
		snprintf(r->msr_path, sizeof(r->msr_path), "/dev/cpu/0/msr");
		return;
	}
	r->msr_ok = true;
	snprintf(r->msr_path, sizeof(r->msr_path), "%s", pmc_msr_path(m));
	pmc_msr_close(m);
	if (r->from_module || !(info->flags & PMCDRV_INFO_ARCH_PERFMON))
		return;

	/* No module: read what needs MSRs through the msr device, CPU by CPU. */
	pmc_perfmon_from_info(info, &pm);
	for (cpu = 0; cpu < (long)info->nr_cpus; cpu++) {
		bool inuse_read;

		if (pmc_msr_open((int)cpu, NULL, false, &m))
			continue;
		if (cpu == 0 && (info->flags & PMCDRV_INFO_PDCM)) {
			if (!pmc_msr_read(m, PMC_MSR_PERF_CAPABILITIES, &v)) {
				info->perf_capabilities = v;
				if (v & PMC_PERF_CAP_FW_WRITE)
					info->flags |= PMCDRV_INFO_FW_WRITE;
			}
		}
		info->in_use_hw |= pmc_scan_in_use(&pm, msr_rd, m, &inuse_read);
		if (inuse_read)
			info->flags |= PMCDRV_INFO_GLOBAL_INUSE;
		r->in_use_known = true;
		pmc_msr_close(m);
	}
}

static int gather_info(struct info_report *r, const char *device)
{
	struct pmc_session *dev;
	int err;

	memset(r, 0, sizeof(*r));
	r->device = device ? device : PMC_DEFAULT_DEVICE;
	err = pmc_session_open(device, &dev);
	if (!err) {
		r->module_api = pmc_session_api_version(dev);
		err = r->module_api < 0 ? r->module_api : pmc_session_info(dev, &r->info);
		if (!err)
			r->sessions_err = pmc_session_list(dev, &r->sessions, &r->nr_sessions);
		pmc_session_close(dev);
	}
	if (!err) {
		r->from_module = true;
		r->in_use_known = true;
	} else {
		r->module_err = err;
		pmc_cpuid_info(&r->info, &r->decode_err);
	}
	probe_msr(r);
	r->nr_types = pmc_cpuid_core_types(r->types, PMCDRV_MAX_CORE_TYPES);
	return 0;
}

/*
 * The PERF_METRICS fields of @r's core type @t, as pmcctl plans them
 * (hybrid_types_perfmon(), from the CPUID already read).
 */
static unsigned int type_td_metrics(const struct info_report *r, int t)
{
	struct pmc_arch_perfmon pm, tpm;

	pmc_perfmon_from_info(&r->info, &pm);
	hybrid_types_perfmon(&r->info, r->types, r->nr_types, &pm);
	pmc_type_perfmon(&pm, r->types[t].cpuid_1a >> 24, &tpm);
	return tpm.td_metrics;
}

static void print_events(FILE *f, const struct pmcdrv_info *info, bool avail, bool json)
{
	unsigned int i;
	bool first = true;

	for (i = 0; i < PMC_ARCH_NR_EVENTS && i < info->events_len; i++) {
		bool is_avail = info->events_avail & (1U << i);

		if (is_avail != avail)
			continue;
		if (json) {
			fputs(first ? "" : ", ", f);
			json_string(f, pmc_arch_event_name(i));
		} else {
			fprintf(f, "%s%s", first ? "" : " ", pmc_arch_event_name(i));
		}
		first = false;
	}
	if (first && !json)
		fputs("none", f);
}

/* The user name of @uid, else its number. */
static const char *user_name(uint32_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw && pw->pw_name)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%u", uid);
	return buf;
}

static void info_text(FILE *f, const struct info_report *r)
{
	const struct pmcdrv_info *in = &r->info;
	char vbuf[16], mbuf[128];

	if (r->from_module)
		fprintf(f, "pmcdrv module:     loaded (%s, API %u)\n", r->device, in->api_version);
	else
		fprintf(f, "pmcdrv module:     not available (%s: %s)\n"
			   "                   %s\n"
			   "                   showing what CPUID tells user space\n",
			r->device, strerror(-r->module_err), pmcctl_module_hint(r->module_err));
	fprintf(f, "CPU:               %s family %u model %u (0x%x) stepping %u%s, %u online\n",
		vendor_str(in, vbuf), in->family, in->model, in->model, in->stepping,
		(in->flags & PMCDRV_INFO_HYPERVISOR) ? " (virtual machine)" : "", in->nr_cpus);
	if (!(in->flags & PMCDRV_INFO_ARCH_PERFMON)) {
		if (in->vendor != PMCDRV_VENDOR_INTEL)
			fprintf(f, "Perfmon:           none: pmcdrv drives Intel architectural perfmon, this CPU is %s\n",
				vbuf);
		else
			fprintf(f, "Perfmon:           none: %s\n",
				r->from_module ? "the module found no architectural perfmon" :
						 pmc_decode_strerror(r->decode_err));
		fprintf(f, "                   only software events (task-clock, context-switches, cpu-migrations) can be counted\n");
	} else {
		fprintf(f, "Perfmon version:   %u\n", in->perfmon_version);
		if ((in->flags & PMCDRV_INFO_HYBRID) && r->from_module)
			fprintf(f, "Hybrid:            yes: the counters every core type has, architectural events only\n");
		else if (in->flags & PMCDRV_INFO_HYBRID)
			fprintf(f, "Hybrid:            yes: through the MSR device one CPU counts, on its own core type's counters\n");
		for (int t = 0; t < r->nr_types; t++) {
			const struct pmc_core_type_desc *ty = &r->types[t];
			char cpus[256];

			pmc_cpulist_format(&ty->cpus, cpus, sizeof(cpus));
			fprintf(f, "%s%s (%s) on CPUs %s: %u GP, %u fixed counters of its own, "
				"%u topdown metrics (%s)\n",
				t ? "                   " : "Core types:        ",
				pmc_core_type_name(ty->cpuid_1a >> 24),
				pmc_core_type_pmu(ty->cpuid_1a >> 24), cpus,
				(unsigned int)__builtin_popcountll(ty->gp_mask),
				(unsigned int)__builtin_popcountll(ty->fixed_mask),
				type_td_metrics(r, t), type_counters_from(ty->from));
		}
		fprintf(f, "GP counters:       %u x %u bits\n", in->num_gp, in->gp_width);
		fprintf(f, "Fixed counters:    %u x %u bits\n", in->num_fixed, in->fixed_width);
		fprintf(f, "Arch events:       ");
		print_events(f, in, true, false);
		fprintf(f, "\nUnavailable:       ");
		print_events(f, in, false, false);
		fputc('\n', f);
		if (in->flags & PMCDRV_INFO_PDCM) {
			if (r->from_module || r->msr_ok)
				fprintf(f, "PERF_CAPABILITIES: 0x%llx (full-width writes: %s)\n",
					(unsigned long long)in->perf_capabilities,
					(in->flags & PMCDRV_INFO_FW_WRITE) ? "yes" : "no");
			else
				fprintf(f, "PERF_CAPABILITIES: present, unreadable without pmcdrv or an MSR device\n");
		} else {
			fprintf(f, "PERF_CAPABILITIES: not present (no PDCM): legacy 32-bit counter writes only\n");
		}
		if (in->flags & PMCDRV_INFO_CLAIMED) {
			fprintf(f, "Counters:          held by pmcdrv sessions now (perf_events cannot use them)\n");
		} else if (r->in_use_known) {
			fprintf(f, "Enabled by others: %s\n",
				fmt_counter_mask(in->in_use_hw, mbuf, sizeof(mbuf)));
			if (r->from_module)
				fprintf(f, "Reserved by kernel:%s%s\n", " ",
					in->in_use_reserved ?
					"yes (perf_events or the NMI watchdog holds the counters; "
					"sysctl kernel.nmi_watchdog=0 or stop the perf user)" : "none");
		} else {
			fprintf(f, "Counters in use:   unknown (needs pmcdrv or an MSR device)\n");
		}
	}
	if (r->msr_ok)
		fprintf(f, "MSR device:        %s (usable by the fallback; counts include everything on that CPU)\n",
			r->msr_path);
	else
		fprintf(f, "MSR device:        %s: %s\n                   %s\n",
			r->msr_path, strerror(-r->msr_err), msr_hint(r->msr_err));
	if (r->from_module)
		sessions_text(f, r->sessions, r->nr_sessions, r->sessions_err, getpid(), user_name);
}

static void json_mask(FILE *f, const char *key, uint64_t mask, bool last)
{
	char buf[128];

	fprintf(f, "    \"%s\": ", key);
	json_string(f, fmt_counter_mask(mask, buf, sizeof(buf)));
	fprintf(f, ",\n    \"%s_mask\": %llu%s\n", key, (unsigned long long)mask, last ? "" : ",");
}

static void info_json(FILE *f, const struct info_report *r)
{
	const struct pmcdrv_info *in = &r->info;
	char vbuf[16];

	fprintf(f, "{\n  \"source\": \"%s\",\n", r->from_module ? "module" : "cpuid");
	fprintf(f, "  \"module\": {\n    \"loaded\": %s,\n    \"device\": ",
		r->from_module ? "true" : "false");
	json_string(f, r->device);
	if (r->from_module) {
		fprintf(f, ",\n    \"api_version\": %u\n  },\n", in->api_version);
	} else {
		fprintf(f, ",\n    \"error\": ");
		json_string(f, strerror(-r->module_err));
		fprintf(f, ",\n    \"hint\": ");
		json_string(f, pmcctl_module_hint(r->module_err));
		fprintf(f, "\n  },\n");
	}
	fprintf(f, "  \"cpu\": {\n    \"vendor\": ");
	json_string(f, vendor_str(in, vbuf));
	fprintf(f, ",\n    \"family\": %u,\n    \"model\": %u,\n    \"stepping\": %u,\n"
		   "    \"hypervisor\": %s,\n    \"online\": %u\n  },\n",
		in->family, in->model, in->stepping,
		(in->flags & PMCDRV_INFO_HYPERVISOR) ? "true" : "false", in->nr_cpus);
	fprintf(f, "  \"perfmon\": {\n    \"available\": %s,\n    \"version\": %u,\n",
		(in->flags & PMCDRV_INFO_ARCH_PERFMON) ? "true" : "false", in->perfmon_version);
	fprintf(f, "    \"gp_counters\": %u,\n    \"gp_width\": %u,\n"
		   "    \"fixed_counters\": %u,\n    \"fixed_width\": %u,\n",
		in->num_gp, in->gp_width, in->num_fixed, in->fixed_width);
	fprintf(f, "    \"events_available\": [");
	print_events(f, in, true, true);
	fprintf(f, "],\n    \"events_unavailable\": [");
	print_events(f, in, false, true);
	fprintf(f, "],\n    \"pdcm\": %s,\n", (in->flags & PMCDRV_INFO_PDCM) ? "true" : "false");
	if ((in->flags & PMCDRV_INFO_PDCM) && (r->from_module || r->msr_ok))
		fprintf(f, "    \"perf_capabilities\": %llu,\n",
			(unsigned long long)in->perf_capabilities);
	else
		fprintf(f, "    \"perf_capabilities\": null,\n");
	fprintf(f, "    \"full_width_write\": %s,\n    \"hybrid\": %s,\n    \"core_types\": [",
		(in->flags & PMCDRV_INFO_FW_WRITE) ? "true" : "false",
		(in->flags & PMCDRV_INFO_HYBRID) ? "true" : "false");
	for (int t = 0; t < r->nr_types; t++) {
		const struct pmc_core_type_desc *ty = &r->types[t];
		char cpus[256];

		pmc_cpulist_format(&ty->cpus, cpus, sizeof(cpus));
		fprintf(f, "%s\n      { \"pmu\": \"%s\", \"cpuid_1a\": %u, \"cpus\": ", t ? "," : "",
			pmc_core_type_pmu(ty->cpuid_1a >> 24), ty->cpuid_1a);
		json_string(f, cpus);
		fprintf(f, ", \"gp_counters\": %u, \"gp_mask\": %llu, \"fixed_counters\": %u, "
			   "\"fixed_mask\": %llu, \"topdown_metrics\": %u, \"from\": ",
			(unsigned int)__builtin_popcountll(ty->gp_mask),
			(unsigned long long)ty->gp_mask,
			(unsigned int)__builtin_popcountll(ty->fixed_mask),
			(unsigned long long)ty->fixed_mask, type_td_metrics(r, t));
		json_string(f, type_counters_from(ty->from));
		fputs(" }", f);
	}
	fprintf(f, "%s]\n  },\n", r->nr_types > 0 ? "\n    " : "");
	fprintf(f, "  \"counters\": {\n    \"in_use_known\": %s,\n    \"held_by_pmcdrv\": %s,\n",
		r->in_use_known ? "true" : "false",
		(in->flags & PMCDRV_INFO_CLAIMED) ? "true" : "false");
	json_mask(f, "available", in->avail_mask, false);
	json_mask(f, "enabled_by_others", in->in_use_hw, false);
	json_mask(f, "reserved_by_kernel", in->in_use_reserved, true);
	fprintf(f, "  },\n  \"msr_device\": {\n    \"usable\": %s,\n    \"path\": ",
		r->msr_ok ? "true" : "false");
	json_string(f, r->msr_path);
	if (!r->msr_ok) {
		fprintf(f, ",\n    \"error\": ");
		json_string(f, strerror(-r->msr_err));
		fprintf(f, ",\n    \"hint\": ");
		json_string(f, msr_hint(r->msr_err));
	}
	fprintf(f, "\n  }");
	if (r->from_module) {
		fprintf(f, ",\n");
		sessions_json(f, r->sessions, r->nr_sessions, r->sessions_err, getpid(), user_name);
	}
	fprintf(f, "\n}\n");
}

/* Revoke session @si->id (or @id when @si is NULL: not in the listing); the error to exit with. */
static int revoke_one(struct pmc_session *dev, uint64_t id, const struct pmcdrv_session_info *si)
{
	char user[64];
	int err = pmc_session_revoke(dev, id);

	switch (err) {
	case 0:
		if (si)
			printf("revoked session %llu (user %s, pid %d, %s)\n", (unsigned long long)id,
			       user_name(si->uid, user, sizeof(user)), (int)si->pid, si->comm);
		else
			printf("revoked session %llu\n", (unsigned long long)id);
		return 0;
	case -EALREADY:
		printf("session %llu: revoked already\n", (unsigned long long)id);
		return 0;
	case -EPERM:
		fprintf(stderr, "pmcctl info: --revoke %llu: revoking needs CAP_PERFMON (run as root)\n",
			(unsigned long long)id);
		return -EIO;
	case -ESRCH:
		fprintf(stderr, "pmcctl info: --revoke %llu: no session %llu (list them with pmcctl info)\n",
			(unsigned long long)id, (unsigned long long)id);
		return -EIO;
	case -ENOTTY:
		fprintf(stderr, "pmcctl info: --revoke: this pmcdrv module cannot revoke sessions (it predates "
			"PMCDRV_IOC_REVOKE)\n  fix: load the module of this pmcctl's version\n");
		return -ENODEV;
	default:
		fprintf(stderr, "pmcctl info: --revoke %llu: %s\n", (unsigned long long)id, strerror(-err));
		return -EIO;
	}
}

static const struct pmcdrv_session_info *find_session(const struct pmcdrv_session_info *list,
						      unsigned int n, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (list[i].id == id)
			return &list[i];
	}
	return NULL;
}

/*
 * --revoke: each ID in turn, then with 'all' every session not revoked yet
 * but pmcctl's own, from a listing taken after the IDs.  Every one is
 * tried; the first failure is what pmcctl exits with.
 */
static int revoke_sessions(const struct revoke_list *rl, const char *device)
{
	struct pmcdrv_session_info *list = NULL;
	struct pmc_session *dev;
	unsigned int n = 0, i, done = 0;
	int err, ex = 0, ret;

	err = pmc_session_open(device, &dev);
	if (err)
		return device_error("info", device, err);
	/* Only to name what is revoked: a module without the listing may still revoke. */
	err = pmc_session_list(dev, &list, &n);
	if (err)
		n = 0;
	for (i = 0; i < rl->n; i++) {
		ret = revoke_one(dev, rl->ids[i], find_session(list, n, rl->ids[i]));
		if (ret && !ex)
			ex = ret;
		if (ret == -ENODEV)
			goto out;
	}
	if (rl->all) {
		err = pmc_session_list(dev, &list, &n);
		if (err == -ENOTTY) {
			fprintf(stderr, "pmcctl info: --revoke all: this pmcdrv module cannot list its sessions "
				"(it predates PMCDRV_IOC_SESSIONS)\n  fix: load the module of this pmcctl's version\n");
			ex = ex ? ex : -ENODEV;
			goto out;
		} else if (err) {
			fprintf(stderr, "pmcctl info: --revoke all: listing the sessions: %s\n", strerror(-err));
			ex = ex ? ex : -EIO;
			goto out;
		}
		for (i = 0; i < n; i++) {
			if (!revoke_all_takes(&list[i], getpid()))
				continue;
			done++;
			ret = revoke_one(dev, list[i].id, &list[i]);
			if (ret && !ex)
				ex = ret;
			if (ret == -ENODEV || ret == -EIO)
				break;	/* the same answer for every other one */
		}
		if (!done)
			printf("no session to revoke\n");
	}
out:
	free(list);
	pmc_session_close(dev);
	return ex;
}

static void info_usage(FILE *f)
{
	fputs("usage: pmcctl info [-j|--json] [-d|--device PATH]\n"
	      "       pmcctl info [-d|--device PATH] --revoke ID|all [--revoke ID]...\n"
	      "\n"
	      "Show the CPU's performance-monitoring unit: counters, widths, events,\n"
	      "who is using the counters, and whether the MSR fallback is usable;\n"
	      "with pmcdrv loaded, also its sessions (who counts what) and who holds\n"
	      "the PMU claim.  Uses pmcdrv when loaded, CPUID from user space otherwise.\n"
	      "\n"
	      "  -j, --json          print one JSON object\n"
	      "  -d, --device PATH   pmcdrv device (default " PMC_DEFAULT_DEVICE ")\n"
	      "  -r, --revoke ID     end session ID for its owner (root or CAP_PERFMON); repeatable;\n"
	      "                      'all': every session but pmcctl's own.  Prints only what it did\n"
	      "  -h, --help          this help\n", f);
}

static int info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ "revoke", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct revoke_list rl = { .n = 0 };
	struct info_report r;
	const char *device = NULL;
	char msg[256];
	bool json = false;
	int c, ex;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+jd:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'd':
			device = optarg;
			break;
		case 'r':
			if (revoke_list_add(&rl, optarg, msg, sizeof(msg))) {
				fprintf(stderr, "pmcctl info: %s\n", msg);
				return -EINVAL;
			}
			break;
		case 'h':
			info_usage(stdout);
			return 0;
		default:
			info_usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pmcctl info: unexpected argument '%s'\n", argv[optind]);
		info_usage(stderr);
		return -EINVAL;
	}
	if (rl.n || rl.all) {
		if (json) {
			fprintf(stderr, "pmcctl info: --revoke prints what it did as lines of text, not JSON: drop -j\n");
			return -EINVAL;
		}
		ex = revoke_sessions(&rl, device);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "pmcctl info: write error: %s\n", strerror(errno));
			return ex ? ex : -EIO;
		}
		return ex;
	}
	gather_info(&r, device);
	if (json)
		info_json(stdout, &r);
	else
		info_text(stdout, &r);
	free(r.sessions);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pmcctl info: write error: %s\n", strerror(errno));
		return -EIO;
	}
	return 0;
}

int cmd_info(int argc, char **argv)
{
	return pmcctl_exit_code(info(argc, argv));
}
