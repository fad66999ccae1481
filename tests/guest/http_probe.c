// SPDX-License-Identifier: GPL-2.0
/*
 * http_probe: a tiny HTTP client for tests/guest/74-serve.sh (pmcctl serve),
 * to fetch and to abuse, over IPv4.
 *
 *   http_probe get PORT METHOD PATH [ACCEPT]   one request; prints the status
 *                                   code, a line "--", the headers, "--",
 *                                   the body; exit 0 when a status came
 *   http_probe garbage PORT N       N connections, each sending one kind of
 *                                   malformed request (a seeded PRNG); prints
 *                                   how many got a 4xx/5xx, were closed (or
 *                                   unanswered after 0.5 s), or got a 2xx
 *                                   (some kinds are well-formed enough)
 *   http_probe slow PORT N SECONDS  N connections at once, each sending a
 *                                   request one byte a second and never
 *                                   ending it; after SECONDS prints how many
 *                                   the server accepted, closed, refused
 *   http_probe big PORT BYTES       one request with a header of BYTES bytes;
 *                                   prints the status (0: closed unanswered)
 *
 * Exit 2 on a usage error, 1 when the server cannot be reached (get).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port;

static int dial(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct timeval tv = { .tv_sec = 20 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read until the server closes (or the timeout): a malloc'd response, *len bytes. */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 65536;
	char *buf = malloc(cap + 1);
	ssize_t r;

	*len = 0;
	if (!buf)
		return NULL;
	while ((r = recv(fd, buf + *len, cap - *len, 0)) > 0) {
		*len += (size_t)r;
		if (*len == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	buf[*len] = '\0';
	return buf;
}

/* The status code of a response ("HTTP/1.1 200 OK"), 0 when none. */
static int status_of(const char *resp)
{
	int code;

	return sscanf(resp, "HTTP/1.%*d %d", &code) == 1 ? code : 0;
}

static int cmd_get(const char *method, const char *path, const char *accept)
{
	char req[1024];
	size_t len;
	char *resp, *body;
	int fd = dial();

	if (fd < 0) {
		fprintf(stderr, "http_probe: connect to 127.0.0.1:%d: %s\n", port, strerror(errno));
		return 1;
	}
	snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s%s\r\n",
		 method, path, accept ? "Accept: " : "", accept ? accept : "", accept ? "\r\n" : "");
	if (send_all(fd, req, strlen(req))) {
		close(fd);
		return 1;
	}
	resp = read_all(fd, &len);
	close(fd);
	if (!resp || !status_of(resp)) {
		free(resp);
		return 1;
	}
	body = strstr(resp, "\r\n\r\n");
	printf("%d\n--\n", status_of(resp));
	if (body) {
		*body = '\0';
		printf("%s\n--\n%s", strchr(resp, '\n') ? strchr(resp, '\n') + 1 : "", body + 4);
	}
	free(resp);
	return 0;
}

static int cmd_garbage(unsigned int n)
{
	static const char *const kinds[] = {
		"\r\n\r\n",
		"GET\r\n\r\n",
		"GET /metrics\r\n\r\n",
		"GET /metrics HTTP/9.9\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
		"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /metrics?%%%%%00 HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n",
		"GET /metrics HTTP/1.1\r\n\x01\x02\x03\xff\xfe\r\n\r\n",
		NULL,	/* random bytes */
	};
	unsigned int i, replied = 0, closed = 0, ok = 0, kinds_n = sizeof(kinds) / sizeof(kinds[0]);
	unsigned int seed = 74;

	for (i = 0; i < n; i++) {
		unsigned int k = (unsigned int)rand_r(&seed) % kinds_n;
		char junk[512];
		size_t len, j;
		char *resp;
		int fd = dial(), code;

		if (fd < 0) {
			closed++;
			continue;
		}
		/*
		 * A connection that sent no request line (only CRLFs, or nothing
		 * parseable yet) is kept by libmicrohttpd until its timeout even
		 * after EOF: stop waiting for it after 0.5 s (it counts as closed).
		 */
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &(struct timeval){ .tv_usec = 500000 },
			   sizeof(struct timeval));
		if (kinds[k]) {
			send_all(fd, kinds[k], strlen(kinds[k]));
		} else {
			len = 1 + (size_t)rand_r(&seed) % sizeof(junk);
			for (j = 0; j < len; j++)
				junk[j] = (char)rand_r(&seed);
			send_all(fd, junk, len);
		}
		/* Nothing more comes: the server answers or closes now, not at its timeout. */
		shutdown(fd, SHUT_WR);
		resp = read_all(fd, &len);
		close(fd);
		code = resp ? status_of(resp) : 0;
		/* A well-formed but odd GET of /metrics may be answered: only HTTP/9.9 and path games. */
		if (code >= 200 && code < 300)
			ok++;
		else if (code)
			replied++;
		else
			closed++;
		free(resp);
	}
	printf("garbage: %u sent, %u answered 4xx/5xx, %u closed unanswered, %u answered 2xx\n",
	       n, replied, closed, ok);
	return 0;
}

static int cmd_slow(unsigned int n, unsigned int seconds)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
	struct pollfd *p = calloc(n, sizeof(*p));
	unsigned int i, s, connected = 0, open_now = 0;

	if (!p)
		return 1;
	for (i = 0; i < n; i++) {
		p[i].fd = dial();
		p[i].events = POLLIN;
		if (p[i].fd >= 0)
			connected++;
	}
	for (s = 0; s < seconds; s++) {
		for (i = 0; i < n; i++) {
			char c = s < sizeof(req) - 1 ? req[s] : 'a';

			if (p[i].fd >= 0 && send(p[i].fd, &c, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
			    errno != EAGAIN) {
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
		/* A server that answers or closes a slow client frees its place. */
		poll(p, n, 0);
		for (i = 0; i < n; i++) {
			if (p[i].fd >= 0 && (p[i].revents & (POLLIN | POLLHUP | POLLERR))) {
				char buf[512];

				if (recv(p[i].fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0) {
					close(p[i].fd);
					p[i].fd = -1;
				}
			}
		}
		sleep(1);
	}
	for (i = 0; i < n; i++) {
		if (p[i].fd >= 0) {
			open_now++;
			close(p[i].fd);
		}
	}
	printf("slow: %u tried, %u connected, %u still open after %u s\n", n, connected, open_now, seconds);
	free(p);
	return 0;
}

static int cmd_big(size_t bytes)
{
	static const char head[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ";
	size_t len = sizeof(head) - 1 + bytes + 4, o;
	char *req = malloc(len), *resp;
	int fd = dial(), code;

	if (!req || fd < 0) {
		free(req);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	memcpy(req, head, sizeof(head) - 1);
	o = sizeof(head) - 1;
	memset(req + o, 'a', bytes);
	memcpy(req + o + bytes, "\r\n\r\n", 4);
	send_all(fd, req, len);	/* the server may close before it all went */
	resp = read_all(fd, &len);
	code = resp ? status_of(resp) : 0;
	printf("%d\n", code);
	free(resp);
	free(req);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		goto usage;
	port = atoi(argv[2]);
	if (port <= 0 || port > 65535)
		goto usage;
	if (!strcmp(argv[1], "get") && (argc == 5 || argc == 6))
		return cmd_get(argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	if (!strcmp(argv[1], "garbage") && argc == 4)
		return cmd_garbage((unsigned int)atoi(argv[3]));
	if (!strcmp(argv[1], "slow") && argc == 5)
		return cmd_slow((unsigned int)atoi(argv[3]), (unsigned int)atoi(argv[4]));
	if (!strcmp(argv[1], "big") && argc == 4)
		return cmd_big((size_t)atol(argv[3]));
usage:
	fprintf(stderr, "usage: http_probe get PORT METHOD PATH [ACCEPT] | garbage PORT N | "
		"slow PORT N SECONDS | big PORT BYTES\n");
	return 2;
}
