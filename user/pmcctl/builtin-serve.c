// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl serve: a Prometheus exporter of whole-CPU (or per-cgroup) counts.
 * One CPU session per CPU, counting from the start; each GET /metrics reads
 * them (no reset) and answers in Prometheus text 0.0.4 or, when Accept asks,
 * OpenMetrics 1.0.0 (expo.c).  HTTP by libmicrohttpd, in its own thread,
 * with limits on connections, time and memory per connection.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <math.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cgroups.h"
#include "expo.h"
#include "libpmc.h"
#include "metrics.h"
#include "pmcctl.h"

#define SERVE_VERSION		"0.1"
#define DEFAULT_LISTEN		"127.0.0.1:9465"
/* The limits (docs/security.md): a scraper needs one connection and a few hundred bytes. */
#define MAX_CONNECTIONS		32
#define MAX_PER_IP		8
#define CONN_TIMEOUT_S		10
#define CONN_MEMORY		(16 * 1024)
#define MAX_DURATION_S		(365.0 * 24 * 3600)
/* MHD's log lines per minute at most: a flood of bad requests must not flood the log. */
#define LOG_PER_MINUTE		10

struct serve_opts {
	struct count_opts c;		/* -e, -d */
	char metric_list[1024];		/* -M */
	struct count_metrics *cm;
	const char *listen;		/* --listen */
	struct sockaddr_storage addr;
	bool cpus_given;		/* -C */
	cpu_set_t cpus;
	struct pmcctl_cgroups cg;	/* -G, --for-each-cgroup */
	const char *user;		/* --user */
	double duration;		/* --duration; 0: until a signal */
	bool once;			/* --once */
};

struct serve_cpu {
	unsigned int cpu;
	struct pmc_session *s;
};

/* What the HTTP thread reads; the main thread touches it only before start and after stop. */
struct serve {
	struct serve_opts *o;
	struct pmc_evlist events;	/* what each session counts */
	struct serve_cpu *cpus;
	unsigned int n;
	uint64_t scrape_errors;
	int last_err;			/* the last read error logged, to log each kind once */
	/* one scrape's series, sized at start */
	struct expo_event *ev;
	struct expo_metric *m;
	struct pmcdrv_read *reads;
};

static void serve_usage(FILE *f)
{
	fputs("usage: pmcctl serve [options]\n"
	      "\n"
	      "A Prometheus exporter: count whole CPUs (or cgroups on them) from the start and\n"
	      "answer GET /metrics with the counts since then, in the Prometheus text format\n"
	      "0.0.4, or OpenMetrics 1.0.0 when the Accept header asks for it. Runs until\n"
	      "SIGINT or SIGTERM (or --duration). Counting whole CPUs needs root or CAP_PERFMON\n"
	      "unless kernel.perf_event_paranoid <= 0: start it as root with --user, which opens\n"
	      "the sessions and then drops to that user before it listens.\n"
	      "\n"
	      "  -l, --listen ADDR:PORT  where to listen (default " DEFAULT_LISTEN "; IPv6 as\n"
	      "                       [::1]:9465); a numeric address, not a name\n"
	      "  -e, --event LIST     events as for 'pmcctl stat' (default: task-clock, cycles,\n"
	      "                       instructions, branches, branch-misses)\n"
	      "  -M, --metrics LIST   also these metrics (or groups) per CPU, from the counts since\n"
	      "                       the start ('pmcctl list --metrics')\n"
	      "  -C, --cpu LIST       these CPUs only (default: every online CPU)\n"
	      "  -G, --cgroup LIST    count only the tasks of these cgroup v2 cgroups (names\n"
	      "                       relative to the cgroup2 mount, as perf stat -G), one series\n"
	      "                       per cgroup and CPU\n"
	      "      --for-each-cgroup REGEX   as -G, every cgroup whose name matches (comma-\n"
	      "                       separated extended regular expressions)\n"
	      "  -u, --user NAME      started as root: drop to this user (its group alone) once the\n"
	      "                       sessions are open\n"
	      "  -t, --duration S     stop after S seconds (decimals allowed)\n"
	      "      --once           no server: print one exposition (text 0.0.4) to standard\n"
	      "                       output, after --duration if given, and exit\n"
	      "  -d, --device PATH    pmcdrv device (default " PMC_DEFAULT_DEVICE ")\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "Other paths answer 404, other methods than GET and HEAD 405. At most 32\n"
	      "connections (8 per address), 10 s of inactivity and 16 KiB of request each.\n"
	      "\n"
	      "Exit status: 0 stopped by SIGINT, SIGTERM or --duration; 1 failure (the address\n"
	      "in use, a read or privilege drop that failed), 2 usage, 3 module or PMU\n"
	      "unavailable, 4 counters busy.\n", f);
}

/* ADDR:PORT (IPv6: [ADDR]:PORT), numeric, into o->addr. */
static int parse_listen(struct serve_opts *o, const char *arg)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *res;
	char host[128];
	const char *port, *colon = strrchr(arg, ':');
	size_t hl;
	long p;

	if (!colon || colon == arg)
		goto bad;
	port = colon + 1;
	if (arg[0] == '[') {
		if (colon[-1] != ']')
			goto bad;
		hl = (size_t)(colon - 1 - (arg + 1));
		arg++;
	} else {
		hl = (size_t)(colon - arg);
		if (memchr(arg, ':', hl))
			goto bad;	/* an IPv6 address without brackets */
	}
	if (!hl || hl >= sizeof(host) || !parse_long(port, 1, 65535, &p))
		goto bad;
	memcpy(host, arg, hl);
	host[hl] = '\0';
	if (getaddrinfo(host, port, &hints, &res))
		goto bad;
	memcpy(&o->addr, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
bad:
	fprintf(stderr, "pmcctl serve: --listen '%s': give a numeric address and a port from 1 to "
		"65535: 127.0.0.1:9465, 0.0.0.0:9465 (every interface), [::1]:9465\n", o->listen);
	return -EINVAL;
}

static int parse_serve_opts(int argc, char **argv, struct serve_opts *o)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "for-each-cgroup", required_argument, NULL, 0x500 },
		{ "user", required_argument, NULL, 'u' },
		{ "duration", required_argument, NULL, 't' },
		{ "once", no_argument, NULL, 0x501 },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	int c, ex;

	o->listen = DEFAULT_LISTEN;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+l:e:M:C:G:u:t:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->listen = optarg;
			break;
		case 'e':
		case 'd':
			ex = count_opt(&o->c, c, optarg, "serve");
			if (ex)
				return ex;
			break;
		case 'M':
			ex = metric_list_add(o->metric_list, sizeof(o->metric_list), optarg, "serve");
			if (ex)
				return ex;
			break;
		case 'C':
			if (pmc_cpulist_parse(optarg, &o->cpus, err, sizeof(err))) {
				fprintf(stderr, "pmcctl serve: -C %s: %s\n", optarg, err);
				return -EINVAL;
			}
			o->cpus_given = true;
			break;
		case 'G':
		case 0x500:
			if ((c == 'G' ? pmcctl_cgroups_parse : pmcctl_cgroups_match)(optarg, &o->cg, err,
										   sizeof(err))) {
				if (c == 'G')
					fprintf(stderr, "pmcctl serve: -G %s: %s\n", optarg, err);
				else	/* the message names the option and the expression */
					fprintf(stderr, "pmcctl serve: %s\n", err);
				return -EINVAL;
			}
			break;
		case 'u':
			o->user = optarg;
			break;
		case 't':
			if (!parse_seconds(optarg, MAX_DURATION_S, &o->duration)) {
				fprintf(stderr, "pmcctl serve: --duration '%s': give seconds, more than 0 "
					"(e.g. 60 or 0.5)\n", optarg);
				return -EINVAL;
			}
			break;
		case 0x501:
			o->once = true;
			break;
		case 'h':
			serve_usage(stdout);
			o->c.help = true;
			return 0;
		default:
			serve_usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pmcctl serve: unexpected argument '%s' (serve counts whole CPUs; "
			"to count a command use 'pmcctl run')\n", argv[optind]);
		return -EINVAL;
	}
	if (parse_listen(o, o->listen))
		return -EINVAL;
	return 0;
}

/* Who serves: never root on the network; --user only from root. */
static int check_user(const struct serve_opts *o)
{
	if (o->user && geteuid() != 0) {
		fprintf(stderr, "pmcctl serve: --user %s: only root can change its user; "
			"start it as root, or leave --user out\n", o->user);
		return -EINVAL;
	}
	if (!o->user && geteuid() == 0 && !o->once) {
		fprintf(stderr, "pmcctl serve: will not serve the network as root; "
			"fix: add --user NAME (e.g. --user nobody): the sessions are opened as root, "
			"then it drops to NAME before it listens\n");
		return -EINVAL;
	}
	return 0;
}

static int attach_error(unsigned int cpu, int err)
{
	char what[48];

	snprintf(what, sizeof(what), "CPU %u: busy", cpu);
	switch (err) {
	case -EBUSY:
		return attach_busy_error("serve", what, "another 'pmcctl serve' or 'pmcctl stat' "
					 "counts this CPU");
	case -EACCES:
		fprintf(stderr, "pmcctl serve: counting whole CPUs sees every task: it needs root or "
			"CAP_PERFMON when kernel.perf_event_paranoid > 0\n"
			"  fix: start it as root with --user NAME, or give it CAP_PERFMON "
			"(AmbientCapabilities=CAP_PERFMON in its systemd unit)\n");
		return -EIO;
	case -ENXIO:
		fprintf(stderr, "pmcctl serve: CPU %u went offline; choose online CPUs with -C\n", cpu);
		return -EINVAL;
	case -EBADF:
		fprintf(stderr, "pmcctl serve: -G: the module did not take a cgroup as a cgroup v2 "
			"directory; give cgroups of the cgroup2 mount\n");
		return -EINVAL;
	default:
		snprintf(what, sizeof(what), "CPU %u", cpu);
		return session_error("serve", what, err);
	}
}

static void close_cpus(struct serve *sv)
{
	unsigned int i;

	for (i = 0; i < sv->n; i++)
		pmc_session_close(sv->cpus[i].s);
	free(sv->cpus);
	sv->cpus = NULL;
	sv->n = 0;
}

/* One session per CPU (one cgroup session with -G), configured, attached and enabled. */
static int open_cpus(struct serve *sv)
{
	const struct serve_opts *o = sv->o;
	unsigned int n = (unsigned int)CPU_COUNT(&o->cpus), i;
	int fds[PMCDRV_MAX_CGROUPS], cpu, err;

	sv->cpus = calloc(n, sizeof(*sv->cpus));
	if (!sv->cpus) {
		fprintf(stderr, "pmcctl serve: out of memory\n");
		return -ENOMEM;
	}
	for (i = 0; i < o->cg.nr; i++)
		fds[i] = o->cg.v[i].fd;
	for (cpu = 0; cpu < CPU_SETSIZE && sv->n < n; cpu++) {
		struct serve_cpu *c = &sv->cpus[sv->n];

		if (!CPU_ISSET(cpu, &o->cpus))
			continue;
		c->cpu = (unsigned int)cpu;
		err = pmc_session_open(o->c.device, &c->s);
		if (err)
			return device_error("serve", o->c.device, err);
		sv->n++;
		for (i = 0; i < sv->events.n; i++)
			pmc_session_add(c->s, &sv->events.ev[i].ev);
		err = pmc_session_config(c->s);
		if (!err)
			err = pmc_session_disable(c->s);
		if (err)
			return session_error("serve", "cannot configure the events", err);
		if (o->cg.nr)
			err = pmc_session_attach_cgroups(c->s, c->cpu, fds, o->cg.nr);
		else
			err = pmc_session_attach_cpu(c->s, c->cpu);
		if (err)
			return attach_error(c->cpu, err);
	}
	for (i = 0; i < sv->n; i++) {
		err = pmc_session_enable(sv->cpus[i].s);
		if (err)
			return session_error("serve", "starting the count", err);
	}
	return 0;
}

/* Drop root for @name: its group alone, its uid, and no way back. */
static int drop_privileges(const char *name)
{
	struct passwd *pw;
	gid_t gid;

	errno = 0;
	pw = getpwnam(name);
	if (!pw) {
		fprintf(stderr, "pmcctl serve: --user %s: %s\n", name,
			errno ? strerror(errno) : "no such user (getent passwd NAME lists one)");
		return -EINVAL;
	}
	if (pw->pw_uid == 0) {
		fprintf(stderr, "pmcctl serve: --user %s: that is root; give an unprivileged user "
			"(e.g. nobody, or a system user of its own)\n", name);
		return -EINVAL;
	}
	gid = pw->pw_gid;
	if (setgroups(1, &gid)) {
		fprintf(stderr, "pmcctl serve: setgroups: %s\n", strerror(errno));
		return -EIO;
	}
	if (setgid(gid)) {
		fprintf(stderr, "pmcctl serve: setgid %u: %s\n", (unsigned int)gid, strerror(errno));
		return -EIO;
	}
	if (setuid(pw->pw_uid)) {
		fprintf(stderr, "pmcctl serve: setuid %u: %s\n", (unsigned int)pw->pw_uid, strerror(errno));
		return -EIO;
	}
	if (setuid(0) == 0 || geteuid() != pw->pw_uid || getegid() != gid) {
		fprintf(stderr, "pmcctl serve: --user %s: root could be taken back; stopping\n", name);
		return -EIO;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "pmcctl serve: PR_SET_NO_NEW_PRIVS: %s\n", strerror(errno));
		return -EIO;
	}
	return 0;
}

/* One series per event of a read (@cgroup: its name, or NULL). */
static unsigned int add_series(struct serve *sv, unsigned int k, unsigned int cpu,
			       const char *cgroup, const struct pmcdrv_read *r)
{
	unsigned int i;

	for (i = 0; i < sv->events.n; i++) {
		sv->ev[k++] = (struct expo_event){
			.event = sv->events.ev[i].name,
			.hw = pmc_evsel_is_hw(&sv->events.ev[i]),
			.cpu = cpu,
			.cgroup = cgroup,
			.value = r->values[i],
			.enabled_ns = r->times[i].time_enabled,
			.running_ns = r->times[i].time_running,
		};
	}
	return k;
}

/* -M's values from one read: the counts scaled as pmcctl stat scales them. */
static unsigned int add_metrics(struct serve *sv, unsigned int k, unsigned int cpu,
				const char *cgroup, const struct pmcdrv_read *r)
{
	struct count_metrics *cm = sv->o->cm;
	struct report_row rows[PMCDRV_MAX_EVENTS];
	struct report rep = { .format = REPORT_TEXT };
	unsigned int i;

	if (!cm)
		return k;
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < sv->events.n; i++) {
		bool mux = r->flags & PMCDRV_READ_MULTIPLEXED;

		rows[i] = (struct report_row){ .ev = &sv->events.ev[i],
					       .value = count_value(&sv->o->c, r, i) };
		count_row_times(&rows[i], mux, (double)r->times[i].time_enabled,
				(double)r->times[i].time_running);
	}
	count_metrics_eval(cm, rows, sv->events.n, (double)r->time_enabled / 1e9, &rep, "serve");
	for (i = 0; i < cm->nr; i++)
		sv->m[k++] = (struct expo_metric){ .metric = cm->out[i].name, .cpu = cpu,
						   .cgroup = cgroup, .value = cm->out[i].value };
	return k;
}

/* Read every session into the series; *ok false when some read failed (left out). */
static void scrape(struct serve *sv, struct expo *e)
{
	const struct pmcctl_cgroups *cg = &sv->o->cg;
	unsigned int i, j, k = 0, km = 0, groups = cg->nr ? cg->nr : 1;
	bool failed = false;
	int err;

	for (i = 0; i < sv->n; i++) {
		for (j = 0; j < groups; j++) {
			struct pmcdrv_read *r = &sv->reads[i * groups + j];

			err = cg->nr ? pmc_session_read_cgroup(sv->cpus[i].s, j, r) :
				       pmc_session_read(sv->cpus[i].s, r);
			if (err) {
				failed = true;
				if (err != sv->last_err)
					fprintf(stderr, "pmcctl serve: reading CPU %u: %s (series left out; "
						"pmcdrv_scrape_errors_total counts such scrapes)\n",
						sv->cpus[i].cpu, strerror(-err));
				sv->last_err = err;
				continue;
			}
			k = add_series(sv, k, sv->cpus[i].cpu, cg->nr ? cg->v[j].name : NULL, r);
			km = add_metrics(sv, km, sv->cpus[i].cpu, cg->nr ? cg->v[j].name : NULL, r);
		}
	}
	if (failed)
		sv->scrape_errors++;
	*e = (struct expo){ .version = SERVE_VERSION, .ev = sv->ev, .nr_ev = k, .m = sv->m,
			    .nr_m = km, .scrape_errors = sv->scrape_errors };
}

static enum MHD_Result answer(struct MHD_Connection *conn, unsigned int status, const char *type,
			      char *body, size_t len, enum MHD_ResponseMemoryMode mode,
			      const char *allow)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!resp) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload_data,
				  size_t *upload_data_size, void **con_cls)
{
	static char not_found[] = "not found: the metrics are at /metrics\n";
	static char not_allowed[] = "method not allowed: use GET /metrics\n";
	static char no_memory[] = "out of memory\n";
	struct serve *sv = cls;
	struct expo e;
	size_t len;
	char *body;

	(void)version;
	(void)upload_data;
	(void)con_cls;
	/* A body is never wanted: drop it, answer on the first call. */
	*upload_data_size = 0;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return answer(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
			      not_allowed, sizeof(not_allowed) - 1, MHD_RESPMEM_PERSISTENT, "GET, HEAD");
	if (strcmp(url, "/metrics"))
		return answer(conn, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", not_found,
			      sizeof(not_found) - 1, MHD_RESPMEM_PERSISTENT, NULL);
	scrape(sv, &e);
	e.openmetrics = expo_wants_openmetrics(MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
									   MHD_HTTP_HEADER_ACCEPT));
	body = expo_format(&e, &len);
	if (!body)
		return answer(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
			      no_memory, sizeof(no_memory) - 1, MHD_RESPMEM_PERSISTENT, NULL);
	return answer(conn, MHD_HTTP_OK, e.openmetrics ? EXPO_CT_OPENMETRICS : EXPO_CT_TEXT, body,
		      len, MHD_RESPMEM_MUST_FREE, NULL);
}

/* libmicrohttpd's messages, at most LOG_PER_MINUTE a minute. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	static time_t window;
	static unsigned int lines;
	time_t now = time(NULL);

	(void)cls;
	if (now - window >= 60) {
		window = now;
		lines = 0;
	}
	if (++lines > LOG_PER_MINUTE)
		return;
	fputs("pmcctl serve: http: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (lines == LOG_PER_MINUTE)
		fputs("pmcctl serve: http: (more messages this minute left out)\n", stderr);
}

static struct MHD_Daemon *start_http(struct serve *sv)
{
	const struct sockaddr *sa = (const struct sockaddr *)&sv->o->addr;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	struct MHD_Daemon *d;

	if (sa->sa_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	errno = 0;
	d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, sv,
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
			     MHD_OPTION_SOCK_ADDR, sa,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)MAX_PER_IP,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONN_TIMEOUT_S,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
			     MHD_OPTION_END);
	if (!d)
		fprintf(stderr, "pmcctl serve: cannot listen on %s: %s\n  fix: %s\n", sv->o->listen,
			errno ? strerror(errno) : "libmicrohttpd refused",
			errno == EADDRINUSE ? "another program uses that port: give --listen ADDR:PORT" :
			errno == EACCES ? "ports below 1024 need root, which serve has given up: use a higher port" :
			"check the address is one of this machine's (ip -brief address)");
	return d;
}

/* Wait for SIGINT or SIGTERM (blocked in @set), or the end of --duration. */
static void wait_stop(const sigset_t *set, double duration)
{
	double end = duration > 0 ? now_s() + duration : INFINITY, left;
	struct timespec ts;

	for (;;) {
		left = fmin(end - now_s(), 3600.0);
		if (left <= 0)
			return;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		if (sigtimedwait(set, NULL, &ts) > 0)
			return;
	}
}

static int serve(int argc, char **argv)
{
	struct count_metrics metrics;
	struct serve_opts o;
	struct serve sv;
	struct MHD_Daemon *d;
	unsigned int groups, i;
	sigset_t set;
	bool defaults;
	int ex;

	memset(&o, 0, sizeof(o));
	memset(&sv, 0, sizeof(sv));
	sv.o = &o;
	ex = parse_serve_opts(argc, argv, &o);
	if (ex || o.c.help)
		goto out;
	ex = cpus_choose(&o.cpus, o.cpus_given, "serve");
	if (ex)
		goto out;
	if (o.metric_list[0]) {
		ex = count_metrics_setup(&metrics, &o.c, o.metric_list, true, "serve");
		if (ex)
			goto out;
		o.cm = &metrics;
	}
	defaults = !o.c.events.n;
	if (!defaults) {
		ex = cpu_events(&o.c.events, false, &sv.events, "serve");
		if (ex)
			goto out;
	}
	ex = check_user(&o);
	if (ex)
		goto out;
	ex = prepare_events(&o.c.events, o.c.device, "serve");
	if (ex)
		goto out;
	ex = cpu_events(&o.c.events, defaults, &sv.events, "serve");
	if (ex)
		goto out;

	/* Stop signals are taken by sigtimedwait(), in this thread alone (MHD's inherits the mask). */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	ex = open_cpus(&sv);
	if (ex)
		goto out_cpus;
	/* The sessions hold the cgroups: their directories are no longer needed. */
	for (i = 0; i < o.cg.nr; i++) {
		close(o.cg.v[i].fd);
		o.cg.v[i].fd = -1;
	}
	if (o.user) {
		ex = drop_privileges(o.user);
		if (ex)
			goto out_cpus;
	}
	groups = o.cg.nr ? o.cg.nr : 1;
	sv.ev = calloc((size_t)sv.n * groups * sv.events.n + 1, sizeof(*sv.ev));
	sv.m = calloc((size_t)sv.n * groups * (o.cm ? o.cm->nr : 0) + 1, sizeof(*sv.m));
	sv.reads = calloc((size_t)sv.n * groups, sizeof(*sv.reads));
	if (!sv.ev || !sv.m || !sv.reads) {
		fprintf(stderr, "pmcctl serve: out of memory\n");
		ex = -ENOMEM;
		goto out_cpus;
	}
	if (o.once) {
		struct expo e;
		size_t len;
		char *body;

		if (o.duration > 0)
			wait_stop(&set, o.duration);
		scrape(&sv, &e);
		body = expo_format(&e, &len);
		if (!body || fwrite(body, 1, len, stdout) != len || fflush(stdout))
			ex = -EIO;
		free(body);
		if (ex)
			fprintf(stderr, "pmcctl serve: --once: cannot write the exposition\n");
		else if (sv.scrape_errors)
			ex = -EIO;
		goto out_cpus;
	}
	d = start_http(&sv);
	if (!d) {
		ex = -EIO;
		goto out_cpus;
	}
	fprintf(stderr, "pmcctl serve: counting %u CPU%s%s, metrics at http://%s/metrics\n", sv.n,
		sv.n == 1 ? "" : "s", o.cg.nr ? " for the cgroups" : "", o.listen);
	wait_stop(&set, o.duration);
	MHD_stop_daemon(d);
out_cpus:
	close_cpus(&sv);
	free(sv.ev);
	free(sv.m);
	free(sv.reads);
out:
	if (o.cm)
		count_metrics_close(o.cm);
	pmcctl_cgroups_free(&o.cg);
	return ex;
}

int cmd_serve(int argc, char **argv)
{
	int err = serve(argc, argv);

	return err ? pmcctl_exit_code(err) : EXIT_OK;
}
