/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sessions and per-task contexts: what a session counts, which tasks it
 * tracks, and the scheduler hooks that give each task its own counts.
 * See docs/design.md.
 */
#ifndef PMCDRV_SESSION_H
#define PMCDRV_SESSION_H

#include <linux/pmcdrv.h>

struct pmc_hw_caps;
struct pmc_session;

int pmc_sessions_init(const struct pmc_hw_caps *caps);
void pmc_sessions_exit(void);

/* Do pmcdrv's sessions hold the PMU (through the kernel's arbitration) now? */
bool pmc_sessions_hw_claimed(void);

/* One per open file.  NULL on allocation failure. */
struct pmc_session *pmc_session_create(void);
/* At file release: stop counting everywhere, untrack every task, free. */
void pmc_session_close(struct pmc_session *s);

/* Validated-struct operations; each returns 0 or -errno (docs/abi.md). */
int pmc_session_config(struct pmc_session *s, struct pmcdrv_config *cfg);
int pmc_session_attach(struct pmc_session *s, pid_t pid, bool enable_on_exec);
/* Count everything on @cpu instead of a task. */
int pmc_session_attach_cpu(struct pmc_session *s, unsigned int cpu);
int pmc_session_enable(struct pmc_session *s, bool on);
int pmc_session_reset(struct pmc_session *s);
int pmc_session_read(struct pmc_session *s, struct pmcdrv_read *r);

#endif /* PMCDRV_SESSION_H */
