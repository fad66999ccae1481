// SPDX-License-Identifier: GPL-2.0
/* pmcctl run under an MPI launcher: rank detection, -o's expansions, --pin's shares. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "output.h"

/*
 * Each launcher's variables, as they set them (checked with Debian 12's
 * MPICH 4.0 hydra and Open MPI 4.1: 'mpiexec -n 2 env'):
 *   Open MPI: OMPI_COMM_WORLD_RANK, _LOCAL_RANK, _LOCAL_SIZE, _SIZE (and PMIX_RANK);
 *   MPICH's hydra: PMI_RANK, MPI_LOCALRANKID, MPI_LOCALNRANKS, PMI_SIZE;
 *   PMIx launchers (srun --mpi=pmix, prterun): PMIX_RANK alone;
 *   Slurm's srun: SLURM_PROCID, SLURM_LOCALID, SLURM_NTASKS, and the local
 *   size from SLURM_TASKS_PER_NODE at SLURM_NODEID.
 */
static const struct launcher {
	const char *rank, *local, *local_size, *size;
} launchers[] = {
	{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE",
	  "OMPI_COMM_WORLD_SIZE" },
	{ "PMI_RANK", "MPI_LOCALRANKID", "MPI_LOCALNRANKS", "PMI_SIZE" },
	{ "PMIX_RANK", NULL, NULL, NULL },
	{ "SLURM_PROCID", "SLURM_LOCALID", NULL, "SLURM_NTASKS" },
};

const char *const mpi_rank_vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", NULL };

/* @name's value as a number from 0 to INT_MAX into *v; -1 when unset; -EINVAL when not a number. */
static int env_int(mpi_getenv_fn get, const char *name, int *v, char *err, size_t errlen)
{
	const char *s = name ? get(name) : NULL;
	char *end;
	long n;

	*v = -1;
	if (!s)
		return 0;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 0 || n > INT_MAX) {
		snprintf(err, errlen, "%s='%s' is not a rank or size (a number from 0)", name, s);
		return -EINVAL;
	}
	*v = (int)n;
	return 0;
}

/*
 * Slurm's tasks on node @node from SLURM_TASKS_PER_NODE ("2(x3),1": two
 * tasks on each of the first three nodes, one on the fourth); -1 if unknown.
 */
static int slurm_tasks_on_node(const char *s, int node)
{
	long n, rep;
	char *end;

	while (s && *s && node >= 0) {
		n = strtol(s, &end, 10);
		if (end == s || n < 0)
			return -1;
		rep = 1;
		if (!strncmp(end, "(x", 2)) {
			rep = strtol(end + 2, &end, 10);
			if (rep < 1 || *end != ')')
				return -1;
			end++;
		}
		if (node < rep)
			return n > INT_MAX ? -1 : (int)n;
		node -= (int)rep;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
	return -1;
}

int mpi_rank_detect(struct mpi_rank *m, mpi_getenv_fn get, char *err, size_t errlen)
{
	const struct launcher *l = NULL;
	int slurm_rank, node, ret;
	unsigned int i;

	m->rank = m->local_rank = m->local_size = m->world_size = -1;
	m->rank_var = m->local_var = NULL;
	for (i = 0; i < sizeof(launchers) / sizeof(launchers[0]) && !l; i++) {
		ret = env_int(get, launchers[i].rank, &m->rank, err, errlen);
		if (ret)
			return ret;
		if (m->rank >= 0)
			l = &launchers[i];
	}
	if (!l)
		return 0;
	m->rank_var = l->rank;
	if ((ret = env_int(get, l->local, &m->local_rank, err, errlen)) ||
	    (ret = env_int(get, l->local_size, &m->local_size, err, errlen)) ||
	    (ret = env_int(get, l->size, &m->world_size, err, errlen)))
		return ret;
	if (m->local_rank >= 0)
		m->local_var = l->local;
	/* What the launcher left out, from Slurm's own when its task is this rank. */
	ret = env_int(get, "SLURM_PROCID", &slurm_rank, err, errlen);
	if (ret || slurm_rank != m->rank)
		return ret;
	if (m->local_rank < 0) {
		ret = env_int(get, "SLURM_LOCALID", &m->local_rank, err, errlen);
		if (ret)
			return ret;
		if (m->local_rank >= 0)
			m->local_var = "SLURM_LOCALID";
	}
	if (m->world_size < 0 && (ret = env_int(get, "SLURM_NTASKS", &m->world_size, err, errlen)))
		return ret;
	if (m->local_size < 0) {
		ret = env_int(get, "SLURM_NODEID", &node, err, errlen);
		if (ret)
			return ret;
		if (node >= 0)
			m->local_size = slurm_tasks_on_node(get("SLURM_TASKS_PER_NODE"), node);
	}
	return 0;
}

int mpi_expand_path(const char *pattern, const struct mpi_rank *m, long pid, char *out, size_t len,
		    char *err, size_t errlen)
{
	const char *p;
	size_t o = 0;
	char num[32];
	const char *add;
	size_t k;

	for (p = pattern; *p; p++) {
		add = num;
		if (*p != '%') {
			num[0] = *p;
			num[1] = '\0';
		} else {
			switch (*++p) {
			case '%':
				add = "%";
				break;
			case 'p':
				snprintf(num, sizeof(num), "%ld", pid);
				break;
			case 'h':
				add = m->host;
				break;
			case 'r':
			case 'l':
				if ((*p == 'r' ? m->rank : m->local_rank) < 0) {
					snprintf(err, errlen, "%%%c needs the %s, and %s: start pmcctl under the "
						 "launcher (mpirun/mpiexec/srun -n N pmcctl run ...), or write %%p "
						 "(the pid) or %%%% (a '%%') instead",
						 *p, *p == 'r' ? "MPI rank" : "local rank",
						 m->rank < 0 ? "none of OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, "
							       "SLURM_PROCID is set" :
							       "the launcher sets none (OMPI_COMM_WORLD_LOCAL_RANK, "
							       "MPI_LOCALRANKID, SLURM_LOCALID)");
					return -EINVAL;
				}
				snprintf(num, sizeof(num), "%d", *p == 'r' ? m->rank : m->local_rank);
				break;
			case '\0':
				snprintf(err, errlen, "a lone '%%' at the end; write %%%% for a '%%'");
				return -EINVAL;
			default:
				snprintf(err, errlen, "unknown '%%%c': -o knows %%r (rank), %%l (local rank), "
					 "%%h (host), %%p (pid) and %%%% (a '%%')", *p);
				return -EINVAL;
			}
		}
		k = strlen(add);
		if (o + k >= len) {
			snprintf(err, errlen, "the file name is longer than %zu characters", len ? len - 1 : 0);
			return -ENAMETOOLONG;
		}
		memcpy(out + o, add, k);
		o += k;
	}
	if (!len) {
		snprintf(err, errlen, "no room for the file name");
		return -ENAMETOOLONG;
	}
	out[o] = '\0';
	return 0;
}

bool mpi_pin_share(unsigned int n, unsigned int local, unsigned int size, unsigned int *first,
		   unsigned int *count)
{
	unsigned int base, extra;

	if (!n || !size) {
		*first = *count = 0;
		return false;
	}
	if (size > n) {
		*first = local % n;
		*count = 1;
		return true;
	}
	local %= size;
	base = n / size;
	extra = n % size;
	*first = local * base + (local < extra ? local : extra);
	*count = base + (local < extra);
	return false;
}

static void json_int_or_null(FILE *f, const char *key, int v)
{
	if (v >= 0)
		fprintf(f, ", \"%s\": %d", key, v);
	else
		fprintf(f, ", \"%s\": null", key);
}

static void json_str_or_null(FILE *f, const char *key, const char *s)
{
	fprintf(f, ", \"%s\": ", key);
	if (s)
		json_string(f, s);
	else
		fputs("null", f);
}

void mpi_json_identity(FILE *f, const struct mpi_rank *m, long pid, const char *cpu_model)
{
	fputs("{\"host\": ", f);
	json_string(f, m->host);
	json_int_or_null(f, "rank", m->rank);
	json_str_or_null(f, "rank-variable", m->rank_var);
	json_int_or_null(f, "local-rank", m->local_rank);
	json_str_or_null(f, "local-rank-variable", m->local_var);
	json_int_or_null(f, "local-size", m->local_size);
	json_int_or_null(f, "world-size", m->world_size);
	fprintf(f, ", \"pid\": %ld", pid);
	if (cpu_model) {
		fputs(", \"cpu-model\": ", f);
		json_string(f, cpu_model);
	}
	fputs("}\n", f);
}
