// SPDX-License-Identifier: GPL-2.0
/* pmcctl's charts through gnuplot: quoting, presence, running it. */
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"

extern char **environ;

void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

bool gp_available(void)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];
	int n;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = end + 1) {
		end = strchrnul(p, ':');
		/* An empty entry is the current directory, as execvp() takes it. */
		if (end == p)
			n = snprintf(buf, sizeof(buf), "./gnuplot");
		else
			n = snprintf(buf, sizeof(buf), "%.*s/gnuplot", (int)(end - p), p);
		if (n > 0 && (size_t)n < sizeof(buf) && !access(buf, X_OK))
			return true;
		if (!*end)
			return false;
	}
}

int gp_run(const char *script)
{
	char *argv[] = { "gnuplot", (char *)script, NULL };
	pid_t pid;
	int st, err;

	err = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
	if (err)
		return -err;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}
