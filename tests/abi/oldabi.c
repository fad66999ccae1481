// SPDX-License-Identifier: GPL-2.0
/*
 * oldabi: a program built against an older pmcdrv UAPI header (the copy in
 * tests/abi/pre-hybrid/, see tests/abi/README.md), as a binary of that time
 * was: it counts COMMAND's instructions:u and cycles:u with the raw ioctls
 * (CONFIG, ATTACH with ENABLE_ON_EXEC, READ), no libpmc, and prints
 *	instructions:u N
 *	cycles:u N
 *	read-size N	(the size READ answered: the old struct's)
 * Exit 0, or 1 with the failing call named.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/pmcdrv.h>

static int die(const char *what)
{
	fprintf(stderr, "oldabi: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct pmcdrv_config c;
	struct pmcdrv_attach a;
	struct pmcdrv_read r;
	int fd, go[2], status;
	char x = 0;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: oldabi COMMAND [ARG...]\n");
		return 2;
	}
	fd = open("/dev/" PMCDRV_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return die("open /dev/pmcdrv");
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.nr_events = 2;
	c.event_size = sizeof(c.events[0]);
	c.events[0].type = c.events[1].type = PMCDRV_EVENT_HW;
	c.events[0].flags = c.events[1].flags = PMCDRV_EVF_USER;
	c.events[0].event = 0xc0;	/* instructions */
	c.events[1].event = 0x3c;	/* core cycles */
	if (ioctl(fd, PMCDRV_IOC_CONFIG, &c))
		return die("CONFIG");
	if (pipe2(go, O_CLOEXEC))
		return die("pipe");
	pid = fork();
	if (pid < 0)
		return die("fork");
	if (!pid) {
		/* wait until attached, then exec: counting starts there */
		if (read(go[0], &x, 1) != 1)
			_exit(126);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.pid = pid;
	a.flags = PMCDRV_ATTACH_ENABLE_ON_EXEC;
	if (ioctl(fd, PMCDRV_IOC_ATTACH, &a))
		return die("ATTACH");
	if (write(go[1], &x, 1) != 1)
		return die("write");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return die("the command");
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	if (ioctl(fd, PMCDRV_IOC_READ, &r))
		return die("READ");
	printf("instructions:u %llu\ncycles:u %llu\nread-size %u\n",
	       (unsigned long long)r.values[0], (unsigned long long)r.values[1], r.size);
	close(fd);
	return 0;
}
