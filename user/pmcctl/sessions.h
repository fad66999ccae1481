/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl info: the module's sessions (PMCDRV_IOC_SESSIONS) in text and JSON,
 * and the arguments of --revoke.  Pure formatting and parsing (unit-tested).
 */
#ifndef PMCDRV_PMCCTL_SESSIONS_H
#define PMCDRV_PMCCTL_SESSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "libpmc.h"

/* The name of user @uid into @buf (its number when it has none); returns @buf. */
typedef const char *(*user_name_fn)(uint32_t uid, char *buf, size_t len);

/*
 * The session's state: "revoked", "counting", "enabled" (attached and
 * enabled, not counting hardware events now), "attached" (attached,
 * disabled), "configured" or "open", and unless revoked what it counts:
 * ", CPU 3" or ", 2 tasks".  Returns @buf.
 */
char *session_state(const struct pmcdrv_session_info *si, char *buf, size_t len);
/* The first word of session_state(). */
const char *session_state_word(uint32_t flags);
/*
 * The session's events in the -e syntax (pmc_event_format()), comma
 * separated, a group {a,b}; "hidden (N events)" when the caller may not
 * see them; "none" before CONFIG.  Returns @buf.
 */
char *session_events(const struct pmcdrv_session_info *si, char *buf, size_t len);

/*
 * The sessions section of 'pmcctl info' after its other lines: a table of
 * @list's @n sessions but those opened by process @self (pmcctl's own),
 * and the line "PMU claim:" naming the counting sessions, or nobody.
 * @err: the -errno of the listing (-ENOTTY: a module without it), 0 when
 * @list is valid.
 */
void sessions_text(FILE *f, const struct pmcdrv_session_info *list, unsigned int n, int err,
		   pid_t self, user_name_fn user_name);
/*
 * The same as JSON members "sessions" (an array of objects, null when
 * unavailable, with "sessions_error") and "pmu_claim" (the counting
 * sessions' ids), each line indented by two blanks, the last one without
 * its comma or newline.
 */
void sessions_json(FILE *f, const struct pmcdrv_session_info *list, unsigned int n, int err,
		   pid_t self, user_name_fn user_name);

/* --revoke ID (repeatable) or --revoke all. */
#define REVOKE_MAX	64

struct revoke_list {
	uint64_t ids[REVOKE_MAX];
	unsigned int n;
	bool all;
};

/*
 * Add one --revoke argument: a session id (decimal, as 'pmcctl info'
 * lists them) or "all".  -EINVAL with the reason in @err: not a number,
 * or more than REVOKE_MAX ids.
 */
int revoke_list_add(struct revoke_list *l, const char *arg, char *err, size_t errlen);
/* Does '--revoke all' end @si: not revoked yet, and not opened by pmcctl itself (@self)? */
bool revoke_all_takes(const struct pmcdrv_session_info *si, pid_t self);

#endif /* PMCDRV_PMCCTL_SESSIONS_H */
