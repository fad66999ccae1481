// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pmcctl run under an MPI launcher (user/pmcctl/mpi.c): the
 * rank, local rank and sizes from each launcher's variables as Debian 12's
 * MPICH 4.0 hydra and Open MPI 4.1 set them (and Slurm's), bad values, -o's
 * %-expansions and their errors, --pin's shares of the CPUs, and the
 * identity object of the JSON output.
 *
 * Linked into the one unit binary; main() calls register_mpi_tests().
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "mpi.h"
#include "unit.h"

/* The fake environment: NAME=VALUE strings, NULL-terminated. */
static const char *const *fake_env;

static const char *fake_get(const char *name)
{
	size_t n = strlen(name);
	const char *const *e;

	for (e = fake_env; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static int detect(const char *const *env, struct mpi_rank *m, char *err, size_t len)
{
	fake_env = env;
	memset(m, 0, sizeof(*m));
	snprintf(m->host, sizeof(m->host), "n1");
	return mpi_rank_detect(m, fake_get, err, len);
}

static void expect_rank(const char *const *env, int rank, const char *var, int local, const char *lvar,
			int lsize, int size)
{
	struct mpi_rank m;
	char err[256] = "";

	CU_ASSERT_EQUAL_FATAL(detect(env, &m, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(m.rank, rank);
	CU_ASSERT_EQUAL(m.local_rank, local);
	CU_ASSERT_EQUAL(m.local_size, lsize);
	CU_ASSERT_EQUAL(m.world_size, size);
	CU_ASSERT((!var && !m.rank_var) || (var && m.rank_var && !strcmp(var, m.rank_var)));
	CU_ASSERT((!lvar && !m.local_var) || (lvar && m.local_var && !strcmp(lvar, m.local_var)));
}

static void test_launchers(void)
{
	/* What 'mpiexec.hydra -n 2 env' shows on Debian 12 (MPICH 4.0.2), rank 1. */
	static const char *const mpich[] = { "PMI_RANK=1", "PMI_SIZE=2", "PMI_FD=8", "MPI_LOCALRANKID=1",
					     "MPI_LOCALNRANKS=2", NULL };
	/* 'mpirun.openmpi -np 2 env' (Open MPI 4.1.4, PMIx 4.2.2), rank 1. */
	static const char *const ompi[] = { "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2",
					    "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=2",
					    "OMPI_COMM_WORLD_NODE_RANK=1", "PMIX_RANK=1", "PMIX_HOSTNAME=n1", NULL };
	/* srun -n 5 over two nodes, 3 and 2 tasks: task 4 is the second on node 1. */
	static const char *const slurm[] = { "SLURM_PROCID=4", "SLURM_LOCALID=1", "SLURM_NTASKS=5",
					     "SLURM_NODEID=1", "SLURM_TASKS_PER_NODE=3,2", NULL };
	static const char *const slurm_x[] = { "SLURM_PROCID=7", "SLURM_LOCALID=1", "SLURM_NTASKS=8",
					       "SLURM_NODEID=3", "SLURM_TASKS_PER_NODE=2(x3),2", NULL };
	/* srun --mpi=pmix: PMIX_RANK, and Slurm's own for the same task. */
	static const char *const pmix[] = { "PMIX_RANK=3", "SLURM_PROCID=3", "SLURM_LOCALID=0",
					    "SLURM_NTASKS=4", "SLURM_NODEID=1", "SLURM_TASKS_PER_NODE=3,1", NULL };
	/* mpirun inside an allocation: Slurm's variables are mpirun's step, not this rank. */
	static const char *const ompi_in_slurm[] = { "OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4",
						     "SLURM_PROCID=0", "SLURM_LOCALID=0", "SLURM_NTASKS=1", NULL };
	static const char *const pmix_alone[] = { "PMIX_RANK=5", NULL };
	static const char *const none[] = { "HOME=/root", NULL };

	expect_rank(mpich, 1, "PMI_RANK", 1, "MPI_LOCALRANKID", 2, 2);
	expect_rank(ompi, 1, "OMPI_COMM_WORLD_RANK", 1, "OMPI_COMM_WORLD_LOCAL_RANK", 2, 2);
	expect_rank(slurm, 4, "SLURM_PROCID", 1, "SLURM_LOCALID", 2, 5);
	expect_rank(slurm_x, 7, "SLURM_PROCID", 1, "SLURM_LOCALID", 2, 8);
	expect_rank(pmix, 3, "PMIX_RANK", 0, "SLURM_LOCALID", 1, 4);
	expect_rank(ompi_in_slurm, 2, "OMPI_COMM_WORLD_RANK", -1, NULL, -1, 4);
	expect_rank(pmix_alone, 5, "PMIX_RANK", -1, NULL, -1, -1);
	expect_rank(none, -1, NULL, -1, NULL, -1, -1);
}

static void test_bad_values(void)
{
	static const char *const bad_rank[] = { "PMI_RANK=one", NULL };
	static const char *const neg[] = { "OMPI_COMM_WORLD_RANK=-1", NULL };
	static const char *const bad_local[] = { "PMI_RANK=0", "MPI_LOCALRANKID=0x1", NULL };
	static const char *const empty[] = { "SLURM_PROCID=", NULL };
	struct mpi_rank m;
	char err[256];

	CU_ASSERT_EQUAL(detect(bad_rank, &m, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "PMI_RANK='one'"));
	CU_ASSERT_EQUAL(detect(neg, &m, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "OMPI_COMM_WORLD_RANK"));
	CU_ASSERT_EQUAL(detect(bad_local, &m, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "MPI_LOCALRANKID='0x1'"));
	CU_ASSERT_EQUAL(detect(empty, &m, err, sizeof(err)), -EINVAL);
}

static int expand(const char *const *env, const char *pat, char *out, size_t len, char *err)
{
	struct mpi_rank m;

	CU_ASSERT_EQUAL_FATAL(detect(env, &m, err, 256), 0);
	return mpi_expand_path(pat, &m, 4242, out, len, err, 256);
}

static void test_expand(void)
{
	static const char *const mpich[] = { "PMI_RANK=3", "MPI_LOCALRANKID=1", NULL };
	static const char *const no_local[] = { "PMIX_RANK=3", NULL };
	static const char *const none[] = { NULL };
	char out[64], err[256];

	CU_ASSERT_EQUAL(expand(mpich, "prof.%h.%r.%l.%p.%%.json", out, sizeof(out), err), 0);
	CU_ASSERT_STRING_EQUAL(out, "prof.n1.3.1.4242.%.json");
	CU_ASSERT_EQUAL(expand(mpich, "plain", out, sizeof(out), err), 0);
	CU_ASSERT_STRING_EQUAL(out, "plain");
	CU_ASSERT_EQUAL(expand(mpich, "", out, sizeof(out), err), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	/* Without a launcher: %h, %p and %% still work; %r and %l say why not and the fix. */
	CU_ASSERT_EQUAL(expand(none, "%h-%p%%", out, sizeof(out), err), 0);
	CU_ASSERT_STRING_EQUAL(out, "n1-4242%");
	CU_ASSERT_EQUAL(expand(none, "r.%r.json", out, sizeof(out), err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "%r needs the MPI rank"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "mpirun"));
	CU_ASSERT_EQUAL(expand(none, "r.%l.json", out, sizeof(out), err), -EINVAL);
	CU_ASSERT_EQUAL(expand(no_local, "r.%r.json", out, sizeof(out), err), 0);
	CU_ASSERT_STRING_EQUAL(out, "r.3.json");
	CU_ASSERT_EQUAL(expand(no_local, "r.%l.json", out, sizeof(out), err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "%l needs the local rank"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "MPI_LOCALRANKID"));
	CU_ASSERT_EQUAL(expand(mpich, "r.%x", out, sizeof(out), err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown '%x'"));
	CU_ASSERT_EQUAL(expand(mpich, "r.%", out, sizeof(out), err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "lone '%'"));
	/* Exactly full, and one too long. */
	CU_ASSERT_EQUAL(expand(mpich, "abcd%r", out, 6, err), 0);
	CU_ASSERT_STRING_EQUAL(out, "abcd3");
	CU_ASSERT_EQUAL(expand(mpich, "abcde%r", out, 6, err), -ENAMETOOLONG);
}

static void expect_share(unsigned int n, unsigned int l, unsigned int size, unsigned int first,
			 unsigned int count, bool shared)
{
	unsigned int f, c;

	CU_ASSERT_EQUAL(mpi_pin_share(n, l, size, &f, &c), shared);
	CU_ASSERT_EQUAL(f, first);
	CU_ASSERT_EQUAL(c, count);
}

static void test_pin_share(void)
{
	unsigned int n, size, l, f, c, next;

	expect_share(2, 0, 2, 0, 1, false);
	expect_share(2, 1, 2, 1, 1, false);
	expect_share(8, 1, 4, 2, 2, false);
	expect_share(7, 0, 3, 0, 3, false);	/* 3, 2, 2 */
	expect_share(7, 1, 3, 3, 2, false);
	expect_share(7, 2, 3, 5, 2, false);
	expect_share(2, 2, 3, 0, 1, true);	/* more ranks than CPUs */
	expect_share(2, 1, 3, 1, 1, true);
	expect_share(1, 0, 1, 0, 1, false);
	expect_share(0, 0, 1, 0, 0, false);
	/* Every split covers the CPUs once, in order. */
	for (n = 1; n <= 16; n++)
		for (size = 1; size <= n; size++) {
			for (l = 0, next = 0; l < size; l++) {
				mpi_pin_share(n, l, size, &f, &c);
				CU_ASSERT_EQUAL(f, next);
				CU_ASSERT(c >= 1);
				next = f + c;
			}
			CU_ASSERT_EQUAL(next, n);
		}
}

static void test_identity_json(void)
{
	static const char *const mpich[] = { "PMI_RANK=1", "PMI_SIZE=2", "MPI_LOCALRANKID=1", NULL };
	struct mpi_rank m;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(detect(mpich, &m, err, sizeof(err)), 0);
	snprintf(m.host, sizeof(m.host), "n\"1");
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	mpi_json_identity(f, &m, 4242, "GenuineIntel-6-55");
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "{\"host\": \"n\\\"1\", \"rank\": 1, \"rank-variable\": \"PMI_RANK\", "
			       "\"local-rank\": 1, \"local-rank-variable\": \"MPI_LOCALRANKID\", "
			       "\"local-size\": null, \"world-size\": 2, \"pid\": 4242, "
			       "\"cpu-model\": \"GenuineIntel-6-55\"}\n");
	CU_ASSERT(json_lines_ok_at(__FILE__, __LINE__, "identity", buf, len));
	free(buf);
}

void register_mpi_tests(void)
{
	static const struct unit_test tests[] = {
		{ "rank from each launcher's variables", test_launchers },
		{ "a rank variable that is not a number", test_bad_values },
		{ "-o expands %r %l %h %p %%, errors say the fix", test_expand },
		{ "--pin's shares cover the CPUs once", test_pin_share },
		{ "the JSON identity object", test_identity_json },
	};

	UNIT_ADD_SUITE("mpi", tests);
}
