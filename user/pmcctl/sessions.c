// SPDX-License-Identifier: GPL-2.0
/* pmcctl info: the module's sessions and --revoke's arguments (pure, unit-tested). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "sessions.h"

#define EVENTS_LEN	(PMCDRV_MAX_EVENTS * (PMC_EVENT_NAME_MAX + 4))

const char *session_state_word(uint32_t flags)
{
	if (flags & PMCDRV_SESSION_REVOKED)
		return "revoked";
	if (flags & PMCDRV_SESSION_COUNTING)
		return "counting";
	if (flags & PMCDRV_SESSION_ATTACHED)
		return (flags & PMCDRV_SESSION_ENABLED) ? "enabled" : "attached";
	if (flags & PMCDRV_SESSION_CONFIGURED)
		return "configured";
	return "open";
}

char *session_state(const struct pmcdrv_session_info *si, char *buf, size_t len)
{
	const char *word = session_state_word(si->flags);

	if (si->flags & PMCDRV_SESSION_REVOKED)
		snprintf(buf, len, "%s", word);
	else if (si->flags & PMCDRV_SESSION_CPU)
		snprintf(buf, len, "%s, CPU %u", word, si->cpu);
	else if (si->flags & PMCDRV_SESSION_ATTACHED)
		snprintf(buf, len, "%s, %u task%s", word, si->nr_tasks, si->nr_tasks == 1 ? "" : "s");
	else
		snprintf(buf, len, "%s", word);
	return buf;
}

char *session_events(const struct pmcdrv_session_info *si, char *buf, size_t len)
{
	unsigned int i, n = si->nr_events < PMCDRV_MAX_EVENTS ? si->nr_events : PMCDRV_MAX_EVENTS;
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (si->flags & PMCDRV_SESSION_EVENTS_HIDDEN) {
		snprintf(buf, len, "hidden (%u event%s)", si->nr_events, si->nr_events == 1 ? "" : "s");
		return buf;
	}
	if (!n) {
		snprintf(buf, len, "none");
		return buf;
	}
	for (i = 0; i < n && off < len; i++) {
		const struct pmcdrv_event *ev = &si->events[i];
		uint32_t g = ev->group;
		bool open = g && (!i || si->events[i - 1].group != g);
		bool close = g && (i + 1 == n || si->events[i + 1].group != g);
		char name[PMC_EVENT_NAME_MAX + 32];

		if (pmc_event_format(ev, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "?");
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s", i ? "," : "", open ? "{" : "",
					name, close ? "}" : "");
	}
	return buf;
}

static bool listed(const struct pmcdrv_session_info *si, pid_t self)
{
	return si->pid != self;
}

void sessions_text(FILE *f, const struct pmcdrv_session_info *list, unsigned int n, int err,
		   pid_t self, user_name_fn user_name)
{
	char user[64], state[64], events[EVENTS_LEN];
	unsigned int i, shown = 0, counting = 0;

	if (err == -ENOTTY) {
		fprintf(f, "Sessions:          not available from this module\n");
		return;
	}
	if (err) {
		fprintf(f, "Sessions:          unknown (listing them failed: %s)\n", strerror(-err));
		return;
	}
	for (i = 0; i < n; i++)
		shown += listed(&list[i], self);
	if (!shown) {
		fprintf(f, "Sessions:          none\n");
	} else {
		fprintf(f, "Sessions:          %u\n", shown);
		fprintf(f, "  %-6s %-10s %-7s %-16s %-20s %s\n", "ID", "USER", "PID", "COMM", "STATE",
			"EVENTS");
	}
	for (i = 0; i < n; i++) {
		const struct pmcdrv_session_info *si = &list[i];

		if (!listed(si, self))
			continue;
		fprintf(f, "  %-6llu %-10s %-7d %-16.16s %-20s %s\n", (unsigned long long)si->id,
			user_name(si->uid, user, sizeof(user)), (int)si->pid, si->comm,
			session_state(si, state, sizeof(state)),
			session_events(si, events, sizeof(events)));
	}
	fprintf(f, "PMU claim:         ");
	for (i = 0; i < n; i++) {
		if (!(list[i].flags & PMCDRV_SESSION_COUNTING))
			continue;
		fprintf(f, "%s%llu", counting++ ? ", " : "held by session ",
			(unsigned long long)list[i].id);
	}
	fprintf(f, "%s\n", counting ? " (counting)" : "nobody: no session counts");
}

void sessions_json(FILE *f, const struct pmcdrv_session_info *list, unsigned int n, int err,
		   pid_t self, user_name_fn user_name)
{
	char user[64], events[EVENTS_LEN];
	unsigned int i, e, shown = 0, counting = 0;

	if (err) {
		fprintf(f, "  \"sessions\": null,\n  \"sessions_error\": ");
		json_string(f, err == -ENOTTY ? "not available from this module" : strerror(-err));
		fprintf(f, ",\n  \"pmu_claim\": null");
		return;
	}
	fprintf(f, "  \"sessions\": [");
	for (i = 0; i < n; i++) {
		const struct pmcdrv_session_info *si = &list[i];
		uint32_t fl = si->flags;
		bool hidden = fl & PMCDRV_SESSION_EVENTS_HIDDEN;

		if (!listed(si, self))
			continue;
		fprintf(f, "%s\n    {\"id\": %llu, \"user\": ", shown++ ? "," : "",
			(unsigned long long)si->id);
		json_string(f, user_name(si->uid, user, sizeof(user)));
		fprintf(f, ", \"uid\": %u, \"pid\": %d, \"comm\": ", si->uid, (int)si->pid);
		json_string(f, si->comm);
		fprintf(f, ", \"state\": \"%s\", \"flags\": %u, \"configured\": %s, \"attached\": %s, "
			   "\"enabled\": %s, \"counting\": %s, \"revoked\": %s, ",
			session_state_word(fl), fl, (fl & PMCDRV_SESSION_CONFIGURED) ? "true" : "false",
			(fl & PMCDRV_SESSION_ATTACHED) ? "true" : "false",
			(fl & PMCDRV_SESSION_ENABLED) ? "true" : "false",
			(fl & PMCDRV_SESSION_COUNTING) ? "true" : "false",
			(fl & PMCDRV_SESSION_REVOKED) ? "true" : "false");
		if (fl & PMCDRV_SESSION_CPU)
			fprintf(f, "\"cpu\": %u, ", si->cpu);
		else
			fprintf(f, "\"cpu\": null, ");
		fprintf(f, "\"nr_tasks\": %u, \"nr_events\": %u, \"events_hidden\": %s, \"events\": ",
			si->nr_tasks, si->nr_events, hidden ? "true" : "false");
		if (hidden) {
			fprintf(f, "null}");
			continue;
		}
		fputc('[', f);
		for (e = 0; e < si->nr_events && e < PMCDRV_MAX_EVENTS; e++) {
			if (pmc_event_format(&si->events[e], events, sizeof(events)) < 0)
				snprintf(events, sizeof(events), "?");
			fputs(e ? ", " : "", f);
			json_string(f, events);
		}
		fprintf(f, "], \"events_text\": ");
		json_string(f, session_events(si, events, sizeof(events)));
		fputc('}', f);
	}
	fprintf(f, "%s],\n  \"pmu_claim\": [", shown ? "\n  " : "");
	for (i = 0; i < n; i++) {
		if (list[i].flags & PMCDRV_SESSION_COUNTING)
			fprintf(f, "%s%llu", counting++ ? ", " : "", (unsigned long long)list[i].id);
	}
	fputc(']', f);
}

int revoke_list_add(struct revoke_list *l, const char *arg, char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	if (!strcmp(arg, "all")) {
		l->all = true;
		return 0;
	}
	errno = 0;
	v = isdigit((unsigned char)*arg) ? strtoull(arg, &end, 10) : 0;
	if (!isdigit((unsigned char)*arg) || errno || *end) {
		snprintf(err, errlen, "--revoke '%s': give a session ID as 'pmcctl info' lists them, or all",
			 arg);
		return -EINVAL;
	}
	if (l->n >= REVOKE_MAX) {
		snprintf(err, errlen, "--revoke: at most %d IDs at once (or --revoke all)", REVOKE_MAX);
		return -EINVAL;
	}
	l->ids[l->n++] = v;
	return 0;
}

bool revoke_all_takes(const struct pmcdrv_session_info *si, pid_t self)
{
	return !(si->flags & PMCDRV_SESSION_REVOKED) && si->pid != self;
}
