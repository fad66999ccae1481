#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A real Prometheus (Debian's, on the host, bound to loopback) scrapes
# pmcctl serve in the test guest through tests/vm/run --forward (passt user
# networking, the host's 127.0.0.1:H to the guest's 9465), every second,
# with the shipped recording rules (packaging/prometheus/pmcdrv.rules.yml).
# The guest half is tests/guest/prom/serve.sh: two counted cgroups and one
# left out, each running a known loop; it prints the exact counts pmcctl
# stat -G gives for the same loops (PROM-EXPECT lines).  Once the guest is
# done, Prometheus's HTTP API must answer:
#   - each counted cgroup's instructions:u, the last scraped value summed
#     over the CPUs (last_over_time of the raw counter: increase()
#     extrapolates and is not exact), equal to stat -G's count;
#   - no series for the cgroup left out;
#   - the target up; the series labelled cpu, cgroup, event, type;
#   - the recording rule cgroup:pmcdrv_ipc:rate1m at the emulator's 0.5;
# and promtool check metrics is clean on a scrape of the guest taken while
# it serves.  Everything binds to loopback and stops by itself (the guest
# serves for PROM_SERVE_S seconds; Prometheus is killed on exit).  On a
# failure the guest's console and Prometheus's log are kept under
# build/vm-failures/.  Prints PASS:/FAIL: lines and "prom: N passed, N
# failed".  Needs build/bin/pmcctl, build/tests/cgloop, the module
# (kmod/pmcdrv.ko), the project's QEMU, prometheus, promtool, passt, curl
# and jq (tests/deps.sh).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
check_label=prom
. tests/lib/host.sh
tmp=$(mktemp -d)
prom_pid=""
cleanup() {
	[ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

for t in prometheus promtool passt curl jq python3; do
	command -v "$t" >/dev/null || { fail "$t installed" "install it (tests/deps.sh)"; finish; }
done
for f in build/bin/pmcctl build/tests/cgloop; do
	[ -x "$f" ] || { fail "$f built" "run 'make user tests' first"; finish; }
done

# Two free loopback ports: the forward to the guest's exporter, and Prometheus's web.
read -r host_port web_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

cat >"$tmp/prometheus.yml" <<EOT
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
  evaluation_interval: 1s
rule_files:
  - $PWD/packaging/prometheus/pmcdrv.rules.yml
scrape_configs:
  - job_name: pmcdrv
    static_configs:
      - targets: ['127.0.0.1:$host_port']
EOT
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$web_port" --log.level=warn >"$tmp/prometheus.log" 2>&1 &
prom_pid=$!
api="http://127.0.0.1:$web_port"
for _ in $(seq 100); do curl -sf "$api/-/ready" >/dev/null && break; sleep 0.2; done
if curl -sf "$api/-/ready" >/dev/null; then
	pass "prometheus $(prometheus --version 2>&1 | awk 'NR == 1 { print $3 }') ready on 127.0.0.1:$web_port"
else
	fail "prometheus ready" "$(tail -n 5 "$tmp/prometheus.log")"
	finish
fi

# The guest, in the background; a scrape of it while it serves, for promtool.
tests/vm/run --timeout 600 --forward "$host_port:9465" --keep "$tmp/vm" -- \
	bash tests/guest/prom/serve.sh >"$tmp/guest.out" 2>&1 &
vm=$!
scraped=0
while kill -0 "$vm" 2>/dev/null; do
	if curl -sf -m 2 "http://127.0.0.1:$host_port/metrics" >"$tmp/scrape.txt" 2>/dev/null &&
		grep -q '^pmcdrv_events_total{' "$tmp/scrape.txt"; then
		scraped=1
		break
	fi
	sleep 0.5
done
wait "$vm"
vm_rc=$?
if [ "$vm_rc" = 0 ]; then
	pass "the guest served and ended cleanly (tests/vm/run exit 0)"
else
	fail "the guest served and ended cleanly" "tests/vm/run exit $vm_rc: $(tail -n 5 "$tmp/guest.out")"
fi
# The guest's own checks (its serve exited 0 after its --duration).
while IFS= read -r l; do
	case $l in
	"PASS: "*) pass "guest: ${l#PASS: }" ;;
	"FAIL: "*) fail "guest: ${l#FAIL: }" "(above)" ;;
	esac
done < <(tr -d '\r' <"$tmp/guest.out")
if [ "$scraped" = 1 ] && out=$(promtool check metrics <"$tmp/scrape.txt" 2>&1); then
	pass "promtool check metrics: a scrape of the guest's exporter through the forward is clean"
else
	fail "promtool check metrics on a scrape of the guest" "${out:-no scrape while the guest served}"
fi

# q PROMQL: the instant query's result vector, as JSON.
q() { curl -sf "$api/api/v1/query" --data-urlencode "query=$1" | jq -c '.data.result'; }
expect() { sed -n "s/^PROM-EXPECT $1 \([0-9]*\).*/\1/p" "$tmp/guest.out" | tr -d '\r' | head -n1; }
nA=$(expect nA) nB=$(expect nB)

up=$(q 'max_over_time(up{job="pmcdrv"}[10m])' | jq -r '.[0].value[1] // empty')
[ "$up" = 1 ] && pass "up{job=\"pmcdrv\"}: Prometheus scraped the guest" ||
	fail "up{job=\"pmcdrv\"}" "got '${up:-no sample}'; Prometheus's log: $(tail -n 3 "$tmp/prometheus.log")"
n=$(q 'count(count_over_time(pmcdrv_events_total{event="instructions:u"}[10m]))' | jq -r '.[0].value[1] // 0')
labels=$(q 'last_over_time(pmcdrv_events_total{event="instructions:u"}[10m])' |
	jq -r '[.[].metric | keys | join(",")] | unique | join(" ")')
check_labels=__name__,cgroup,cpu,event,instance,job,type
[ "$labels" = "$check_labels" ] && pass "instructions:u: $n series, each labelled $check_labels" ||
	fail "the series' labels" "got '$labels', want '$check_labels'"
c=()
for g in pmcA pmcB; do
	want=$(expect "$g")
	got=$(q "sum(last_over_time(pmcdrv_events_total{event=\"instructions:u\",cgroup=~\"/?$g\"}[10m]))" |
		jq -r '.[0].value[1] // empty')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "$g's instructions:u through Prometheus's query API: $got, exactly stat -G's count"
	else
		fail "$g's instructions:u through Prometheus" "got '${got:-no series}', stat -G counted '${want:-nothing}'"
	fi
	loops=$nA
	[ "$g" = pmcB ] && loops=$nB
	c+=("$((${got:-0} - 2 * ${loops:-0}))")
done
# Both cgroups run the same code: the same constant over 2N (76-cgroup's check).
[ "${c[0]}" = "${c[1]}" ] && [ "${c[0]}" -gt 0 ] && [ "${c[0]}" -lt 400 ] &&
	pass "pmcA and pmcB: 2N plus the same small constant (${c[0]})" ||
	fail "pmcA and pmcB: 2N plus one constant" "constants ${c[*]}"
none=$(q 'count(count_over_time(pmcdrv_events_total{cgroup=~"/?pmcC"}[10m]))' | jq -r 'length')
[ "$none" = 0 ] && pass "pmcC, not counted: no series" || fail "pmcC has no series" "$none result(s)"
ipc=$(q 'max_over_time(cgroup:pmcdrv_ipc:rate1m{cgroup=~"/?pmcA"}[10m])' | jq -r '.[0].value[1] // empty')
if awk -v v="${ipc:-x}" 'BEGIN { exit !(v + 0 == v && v > 0.4999 && v < 0.5001) }'; then
	pass "recording rule cgroup:pmcdrv_ipc:rate1m for pmcA: $ipc (the emulator's IPC, 0.5)"
else
	fail "recording rule cgroup:pmcdrv_ipc:rate1m for pmcA" "got '${ipc:-no sample}', want 0.5"
fi

if [ "$failed" != 0 ]; then
	keep=build/vm-failures/$(date -u +%Y%m%d-%H%M%S)-prom
	mkdir -p "$keep"
	cp -r "$tmp/vm" "$keep/" 2>/dev/null
	cp "$tmp/prometheus.yml" "$tmp/prometheus.log" "$tmp/guest.out" "$keep/" 2>/dev/null
	echo "prom: logs of this run kept in $keep"
fi
finish
