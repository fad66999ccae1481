/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl run as one rank of an MPI job: the rank, local rank and sizes
 * from the launcher's environment, -o's %-expansions, --pin's choice of
 * CPUs and the identity object that leads the JSON output.  Pure: the
 * environment comes through a function, so tests/unit/ gives each
 * launcher's variables.
 */
#ifndef PMCDRV_PMCCTL_MPI_H
#define PMCDRV_PMCCTL_MPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What the launcher says about this process; -1 (NULL) where it says nothing. */
struct mpi_rank {
	int rank;			/* world rank; -1: not started by a known launcher */
	const char *rank_var;		/* "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID" */
	int local_rank;			/* rank among this host's ranks */
	const char *local_var;
	int local_size;			/* ranks on this host */
	int world_size;
	char host[256];			/* gethostname(): the caller fills it */
};

typedef const char *(*mpi_getenv_fn)(const char *name);

/*
 * Read the launcher's variables through @get (getenv): the rank from the
 * first of OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID that is
 * set, the local rank and the sizes from the same launcher's variables
 * (Slurm's when SLURM_PROCID is the same rank).  m->host is left alone.
 * -EINVAL with @err naming the variable whose value is not a number.
 */
int mpi_rank_detect(struct mpi_rank *m, mpi_getenv_fn get, char *err, size_t errlen);

/* The variables mpi_rank_detect() reads for the rank, in its order, NULL-terminated. */
extern const char *const mpi_rank_vars[];

/*
 * -o's file name from @pattern: %r the rank, %l the local rank, %h the
 * host, %p @pid, %% a '%'.  -EINVAL with @err saying what and the fix for
 * %r or %l without a launcher, an unknown %X or a lone '%' at the end;
 * -ENAMETOOLONG when @out (@len) is too small.
 */
int mpi_expand_path(const char *pattern, const struct mpi_rank *m, long pid, char *out, size_t len,
		    char *err, size_t errlen);

/*
 * --pin: the CPUs of local rank @local of @size among @n allowed ones:
 * *first (an index into the allowed CPUs in ascending order) and *count.
 * Each local rank gets its own contiguous share, the first n % size ranks
 * one CPU more; with more ranks than CPUs, rank l gets CPU l % n alone
 * (true: shared with other ranks).
 */
bool mpi_pin_share(unsigned int n, unsigned int local, unsigned int size, unsigned int *first,
		   unsigned int *count);

/*
 * The JSON object that leads run's JSON output under a launcher: host,
 * rank and the variable it came from, local rank and its variable, local
 * size, world size (null when unknown), pid, and @cpu_model
 * ("GenuineIntel-6-55", NULL to leave it out).
 */
void mpi_json_identity(FILE *f, const struct mpi_rank *m, long pid, const char *cpu_model);

#endif /* PMCDRV_PMCCTL_MPI_H */
