# SPDX-License-Identifier: GPL-2.0
# pmcctl serve, the Prometheus exporter: started as root, it opens one CPU
# session per CPU, drops to nobody and serves GET /metrics on loopback.  The
# loop's exact instructions:u appear in the increase between two scrapes
# (summed over the CPUs); OpenMetrics when Accept asks; 404/405; abuse (1,000
# malformed requests, 100 slow clients at once, an oversized header) leaves
# it answering with as many fds and about the same RSS; SIGTERM and
# --duration stop it with its sessions closed.  The host half (argument
# errors, promtool on the formatter's output, the recording rules) is
# tests/serve-check.sh.
. tests/lib/guest.sh
probe=build/tests/http_probe
loop=build/progs/loop
port=19465
klog=$(dmesg | wc -l)
if [ ! -e /proc/net/tcp ]; then
	echo "SKIP: serve: this kernel has no TCP/IP (the debug lane's kernel is built from tinyconfig without CONFIG_INET)"
	exit 0
fi
# The guest has no network device; its loopback starts down (as for 72-mpi).
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
grep -q '^nogroup:' /etc/group || echo 'nogroup:x:65534:' >>/etc/group
if have_pmu; then events=instructions:u,cycles:u; else events=task-clock; fi

# metric OUT NAME EVENT: the sum over CPUs of NAME{event="EVENT",...} in the exposition OUT.
metric() {
	awk -v n="$2" -v e="event=\"$3\"" 'index($1, n "{") == 1 && index($1, e) { s += $2 } END { printf "%.0f\n", s }' <<<"$1"
}
# get METHOD PATH [ACCEPT]: the response (status, --, headers, --, body) on $port.
get() { "$probe" get "$port" "$@"; }
# serving [S]: true once the server answers (S seconds at most, default 10).
serving() {
	local i
	for i in $(seq $((${1:-10} * 10))); do
		[ "$(get GET /metrics 2>/dev/null | head -n1)" = 200 ] && return 0
		sleep 0.1
	done
	return 1
}
# body RESPONSE: what follows the second "--" line.
body() { awk 'f == 2 { print } /^--$/ && f < 2 { f++ }' <<<"$1"; }
headers() { awk '/^--$/ { f++; next } f == 1 { print }' <<<"$1"; }
fds() { ls "/proc/$1/fd" | wc -l; }
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }

# ---- refusals -------------------------------------------------------------------------
pmcctl serve -e "$events" 2>/tmp/serve.err
expect_eq "serve as root without --user -> 2" "$?" 2
check "serve as root: the message says --user" grep -q "will not serve the network as root; fix: add --user" /tmp/serve.err
pmcctl serve --user no-such-user -e "$events" 2>/tmp/serve.err
expect_eq "serve --user no-such-user -> 2" "$?" 2
check "serve --user no-such-user: no such user" grep -q "no such user" /tmp/serve.err
pmcctl serve --user root -e "$events" 2>/tmp/serve.err
expect_eq "serve --user root -> 2" "$?" 2

# ---- --once ---------------------------------------------------------------------------
out=$(pmcctl serve --once --duration 0.2 -e "$events" 2>/tmp/serve.err)
expect_eq "serve --once --duration 0.2: exit 0" "$?" 0
check "--once: one series per CPU and event" test "$(grep -c '^pmcdrv_events_total{' <<<"$out")" = $(($(nproc) * $(tr ',' '\n' <<<"$events" | wc -l)))
check "--once: HELP and TYPE of pmcdrv_events_total" grep -q '^# TYPE pmcdrv_events_total counter' <<<"$out"
check "--once: build info" grep -q '^pmcdrv_build_info{version="0.1"} 1' <<<"$out"
check "--once: no scrape errors" grep -qx 'pmcdrv_scrape_errors_total 0' <<<"$out"
if command -v promtool >/dev/null; then
	check "--once: promtool check metrics" promtool check metrics <<<"$out"
fi

# ---- serving ---------------------------------------------------------------------------
pmcctl serve --listen 127.0.0.1:$port -e "$events" --user nobody 2>/tmp/serve.err &
pid=$!
if ! serving; then
	fail "serve answers on 127.0.0.1:$port" "$(cat /tmp/serve.err; "$probe" get $port GET /metrics 2>&1 | head -n 20;
		grep -E '^(State|Uid|Threads)' /proc/$pid/status; cat /proc/net/tcp)"
	kill "$pid" 2>/dev/null
	wait "$pid"
	exit 1
fi
pass "serve answers on 127.0.0.1:$port"
check "serve: it says where it listens" grep -q "metrics at http://127.0.0.1:$port/metrics" /tmp/serve.err
check "serve: runs as nobody (uids)" grep -qE '^Uid:\s+65534\s+65534\s+65534\s+65534$' /proc/$pid/status
check "serve: runs as nobody's group alone" grep -qE '^Groups:\s+65534\s*$' /proc/$pid/status
check "serve: no capabilities left" grep -qE '^CapEff:\s+0+$' /proc/$pid/status
check "serve: no_new_privs" grep -qE '^NoNewPrivs:\s+1$' /proc/$pid/status

r=$(get GET /metrics)
check "GET /metrics: 200" test "$(head -n1 <<<"$r")" = 200
check "GET /metrics: Prometheus text 0.0.4" grep -qi '^Content-Type: text/plain; version=0.0.4; charset=utf-8' <<<"$(headers "$r")"
b=$(body "$r")
check "GET /metrics: one series per CPU and event, with type and cpu" \
	test "$(grep -c '^pmcdrv_events_total{event="[^"]*",type="[hs]w",cpu="[0-9]*"} [0-9]*$' <<<"$b")" = $(($(nproc) * $(tr ',' '\n' <<<"$events" | wc -l)))
check "GET /metrics: time enabled and running in seconds" grep -q '^pmcdrv_time_running_seconds_total{.*} [0-9]*\.[0-9]\{9\}$' <<<"$b"
check "GET /metrics: no # EOF in 0.0.4" sh -c "! grep -q '^# EOF' <<'EOF'
$b
EOF"
if command -v promtool >/dev/null; then
	check "GET /metrics: promtool check metrics" promtool check metrics <<<"$b"
fi
t1=$(metric "$b" pmcdrv_time_enabled_seconds_total "${events%%,*}")
sleep 0.3
t2=$(metric "$(body "$(get GET /metrics)")" pmcdrv_time_enabled_seconds_total "${events%%,*}")
check "a later scrape reads more time enabled (no reset; $t1 -> $t2 s)" test "$t2" -gt "$t1" -o "$t2" -ge 1
pmcctl stat -a -e task-clock -t 0.1 2>/tmp/stat.err
expect_eq "while serve counts, pmcctl stat is refused (counters busy) -> 4" "$?" 4

if have_pmu; then
	n=30000000
	want=$((2 * n + 103))
	s1=$(metric "$(body "$(get GET /metrics)")" pmcdrv_events_total instructions:u)
	$loop $n
	s2=$(metric "$(body "$(get GET /metrics)")" pmcdrv_events_total instructions:u)
	d=$((s2 - s1))
	check "the loop's $want instructions:u in the increase over the CPUs (got $d)" test "$d" -ge "$want"
	check "and not much more than that: the shell and the client around it (got $d, $((d - want)) more)" \
		test "$d" -le $((want + want / 10))
	c=$(metric "$(body "$(get GET /metrics)")" pmcdrv_events_total cycles:u)
	check "cycles:u counted ($c)" test "$c" -gt 0
fi

r=$(get GET /metrics 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1')
check "Accept: openmetrics-text (Prometheus' header): 200" test "$(head -n1 <<<"$r")" = 200
check "OpenMetrics: its content type" grep -qi '^Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8' <<<"$(headers "$r")"
b=$(body "$r")
check "OpenMetrics: ends with # EOF" test "$(tail -n1 <<<"$b")" = "# EOF"
check "OpenMetrics: the counter family without _total" grep -q '^# TYPE pmcdrv_events counter' <<<"$b"
check "OpenMetrics: its samples with _total" grep -q '^pmcdrv_events_total{' <<<"$b"
check "OpenMetrics: seconds have their UNIT" grep -q '^# UNIT pmcdrv_time_enabled_seconds seconds' <<<"$b"

expect_eq "GET / -> 404" "$(get GET / | head -n1)" 404
expect_eq "GET /metricsx -> 404" "$(get GET /metricsx | head -n1)" 404
expect_eq "GET /metrics/ -> 404" "$(get GET /metrics/ | head -n1)" 404
for m in POST PUT DELETE OPTIONS; do
	r=$(get $m /metrics)
	expect_eq "$m /metrics -> 405" "$(head -n1 <<<"$r")" 405
done
check "405 says Allow: GET, HEAD" grep -qi '^Allow: GET, HEAD' <<<"$(headers "$r")"
r=$(get HEAD /metrics)
expect_eq "HEAD /metrics -> 200" "$(head -n1 <<<"$r")" 200
check "HEAD /metrics: no body" test -z "$(body "$r")"

# ---- abuse ------------------------------------------------------------------------------
# The HTTP layer's abuse does not depend on the kernel: make check runs it in the
# PMU lane only (PMCDRV_SERVE_ABUSE=0 in the 6.12 and RT lanes); by hand, always.
if [ "${PMCDRV_SERVE_ABUSE:-1}" = 0 ]; then
	echo "SKIP: serve: abuse: run in make check's PMU lane (PMCDRV_SERVE_ABUSE=0 here)"
else
	fd0=$(fds $pid)
	rss0=$(rss_kb $pid)
	out=$("$probe" garbage $port 1000)
	check "1,000 malformed requests: each answered or closed ($out)" grep -q '^garbage: 1000 sent' <<<"$out"
	# Connections that sent only empty lines are held to the 10 s timeout, and 8 of them fill the
	# per-address limit: the next scrape from this address waits for them.
	check "after 1,000 malformed requests serve answers (within its 10 s timeout)" serving 15
	"$probe" slow $port 100 24 >/tmp/slow.out &
	slow=$!
	sleep 3
	code=$(get GET /metrics | head -n1)
	# Not a check: either answer is right while the per-address limit is full.
	echo "serve: during 100 slow clients, a scrape from the same address: ${code:-refused} (8 connections per address)"
	wait $slow
	out=$(cat /tmp/slow.out)
	# libmicrohttpd's timeout is one of inactivity: a client that trickles a byte a second keeps
	# its place (until the 16 KiB request limit); the per-address limit bounds how many.
	left=$(sed -n 's/.* connected, \([0-9]*\) still open.*/\1/p' <<<"$out")
	check "100 slow clients at a byte a second: at most 8 (the per-address limit) still served after 24 s ($out)" \
		test "${left:-99}" -le 8
	check "after 100 slow clients serve answers" test "$(get GET /metrics | head -n1)" = 200
	code=$("$probe" big $port 100000)
	check "a 100,000-byte header: refused with 413 or 431, or closed (got $code)" \
		sh -c "[ '$code' = 431 ] || [ '$code' = 413 ] || [ '$code' = 0 ]"
	check "after the oversized header serve answers" test "$(get GET /metrics | head -n1)" = 200
	for i in $(seq 200); do get GET /metrics >/dev/null; done
	fd1=$(fds $pid)
	rss1=$(rss_kb $pid)
	check "fds after the abuse and 200 scrapes: $fd0 -> $fd1" test "$fd1" -le $((fd0 + 1))
	check "RSS after the abuse and 200 scrapes: $rss0 -> $rss1 kB (less than 4 MB more)" test "$rss1" -le $((rss0 + 4096))
	check "still no scrape errors" grep -qx 'pmcdrv_scrape_errors_total 0' <<<"$(body "$(get GET /metrics)")"
fi

# ---- stop ------------------------------------------------------------------------------
kill -TERM $pid
wait $pid
expect_eq "SIGTERM: exit 0" "$?" 0
check "after SIGTERM the port is closed" sh -c "! $probe get $port GET /metrics"
check "after SIGTERM the sessions are closed (the PMU released)" wait_unclaimed
pmcctl stat -a -e task-clock -t 0.1 2>/dev/null
expect_eq "after SIGTERM pmcctl stat may count whole CPUs again" "$?" 0

pmcctl serve --listen 127.0.0.1:$port -e "$events" --user nobody --duration 1 2>/tmp/serve.err &
pid=$!
serving && pass "serve --duration 1 answers" || fail "serve --duration 1 answers" "$(cat /tmp/serve.err)"
wait $pid
expect_eq "serve --duration 1 stops by itself: exit 0" "$?" 0

# The default address, and SIGINT.
pmcctl serve -e "$events" --user nobody 2>/tmp/serve.err &
pid=$!
port=9465
serving && pass "serve without --listen answers on 127.0.0.1:9465" ||
	fail "serve without --listen answers on 127.0.0.1:9465" "$(cat /tmp/serve.err)"
kill -INT $pid
wait $pid
expect_eq "SIGINT: exit 0" "$?" 0

# A port already taken: the sessions are given back, exit 1 and the fix.
if command -v nc >/dev/null; then
	nc -l -p 19466 >/dev/null 2>&1 &
	nc_pid=$!
	sleep 0.3
	pmcctl serve --listen 127.0.0.1:19466 -e "$events" --user nobody --duration 2 2>/tmp/serve.err
	expect_eq "serve on a port in use -> 1" "$?" 1
	check "serve on a port in use: names the fix" grep -q "another program uses that port" /tmp/serve.err
	kill $nc_pid 2>/dev/null
	wait $nc_pid 2>/dev/null
fi

# ---- -M: a metric per CPU from the counts since the start ---------------------------------
if have_pmu; then
	out=$(pmcctl serve --once --duration 0.3 -M tma_info_thread_ipc 2>/tmp/serve.err)
	expect_eq "serve --once -M tma_info_thread_ipc: exit 0" "$?" 0
	check "-M: one pmcdrv_metric per CPU" \
		test "$(grep -c '^pmcdrv_metric{metric="tma_info_thread_ipc",cpu="[0-9]*"} ' <<<"$out")" = "$(nproc)"
	# CPU 0's value against its own instructions / cycles in the same exposition.
	ipc=$(awk '/^pmcdrv_metric\{metric="tma_info_thread_ipc",cpu="0"\}/ { print $2 }' <<<"$out")
	ins=$(awk '/^pmcdrv_events_total\{event="[^"]*INST_RETIRED\.ANY[^"]*".*cpu="0"/ { print $2 }' <<<"$out")
	cyc=$(awk '/^pmcdrv_events_total\{event="[^"]*CPU_CLK_UNHALTED\.THREAD[^"]*".*cpu="0"/ { print $2 }' <<<"$out")
	check "-M: CPU 0's IPC $ipc is its instructions / cycles ($ins / $cyc)" \
		awk -v i="$ins" -v c="$cyc" -v m="$ipc" 'BEGIN { d = m - i / c; exit !(c > 0 && d < 1e-9 * (i / c) + 1e-12 && d > -1e-9 * (i / c) - 1e-12) }'
fi

# ---- -G: one cgroup's counts ------------------------------------------------------------
grep -q ' - cgroup2 ' /proc/self/mountinfo || mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
cg=/sys/fs/cgroup/pmcdrv-serve-test
mkdir -p "$cg" 2>/dev/null
pmcctl serve --once --duration 0.2 -G pmcdrv-serve-test -e "$events" >/tmp/serve.out 2>/tmp/serve.err
rc=$?
if [ ! -d "$cg" ]; then
	echo "SKIP: serve -G: no cgroup v2 here ($(head -n1 /tmp/serve.err))"
else
	expect_eq "serve --once -G pmcdrv-serve-test: exit 0" "$rc" 0
	check "-G: one series per CPU and event, labelled with the cgroup" \
		test "$(grep -c '^pmcdrv_events_total{.*,cgroup="/\?pmcdrv-serve-test"} ' /tmp/serve.out)" = \
		$(($(nproc) * $(tr ',' '\n' <<<"$events" | wc -l)))
	if have_pmu; then
		n=30000000
		want=$((2 * n + 103))
		pmcctl serve --once --duration 3 -G pmcdrv-serve-test -e "$events" >/tmp/serve.out 2>/tmp/serve.err &
		pid=$!
		sleep 1
		(echo "$BASHPID" >"$cg/cgroup.procs" && exec $loop $n)
		wait $pid
		got=$(metric "$(cat /tmp/serve.out)" pmcdrv_events_total instructions:u)
		check "-G: the loop's $want instructions:u in its cgroup (got $got)" test "${got:-0}" -ge "$want"
		check "-G: and little else (the subshell before exec; got $got)" test "${got:-0}" -le $((want + want / 100))
	fi
fi
rmdir "$cg" 2>/dev/null

splats=$(klog_splats "$klog")
check "kernel log clean" test -z "$splats"
