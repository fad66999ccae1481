#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pmcctl serve on the host (no module, no PMU needed): its argument errors,
# each with its message and exit code; promtool check metrics on the
# expositions the unit tests hold as golden files (tests/unit/golden/expo-*.prom,
# made by user/pmcctl/expo.c); OpenMetrics' golden files end in "# EOF";
# promtool check and test rules on the shipped recording rules
# (packaging/prometheus/).  The guest half, with real counts and HTTP, is
# tests/guest/74-serve.sh.  Prints PASS:/FAIL: lines and "serve: N passed,
# N failed".  Needs build/bin/pmcctl (make user) and prometheus (promtool;
# tests/deps.sh).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
pmcctl=$PWD/${PMCCTL:-build/bin/pmcctl}
check_label=serve
. tests/lib/host.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$pmcctl" ] || { fail "pmcctl built" "$pmcctl is missing: run 'make user' first"; finish; }
command -v promtool >/dev/null || { fail "promtool installed" "install prometheus (tests/deps.sh)"; finish; }

# refuse CODE WORDS -- ARGS...: pmcctl serve ARGS exits CODE and its message has WORDS.
refuse() {
	local code=$1 words=$2 out rc
	shift 3
	out=$("$pmcctl" serve "$@" 2>&1 </dev/null)
	rc=$?
	if [ "$rc" = "$code" ] && grep -qF -- "$words" <<<"$out"; then
		pass "serve $*: exit $code, '$words'"
	else
		fail "serve $*" "exit $rc (want $code): $out"
	fi
}
refuse 2 "give a numeric address and a port" -- --listen localhost:9465
refuse 2 "give a numeric address and a port" -- --listen 127.0.0.1
refuse 2 "give a numeric address and a port" -- --listen 127.0.0.1:0
refuse 2 "give a numeric address and a port" -- --listen 127.0.0.1:65536
refuse 2 "give a numeric address and a port" -- --listen ::1:9465
refuse 2 "give a numeric address and a port" -- --listen '[::1:9465'
refuse 2 "give seconds, more than 0" -- --duration 0
refuse 2 "give seconds, more than 0" -- --duration -1
refuse 2 "give seconds, more than 0" -- --duration 1x
refuse 2 "unrecognized option" -- --bogus
refuse 2 "unexpected argument 'extra'" -- extra
refuse 2 "is counted per task, not per CPU" -- --once -e context-switches
refuse 2 "unknown event 'bogus'" -- --once -e bogus
refuse 2 "is not online" -- --once -C 1000
refuse 2 "cgroup 'no-such-cgroup" -- --once -G no-such-cgroup
refuse 2 "is not an extended regular expression" -- --once --for-each-cgroup '('
refuse 2 "give metric or group names" -- -M ''
if [ "$(id -u)" = 0 ]; then
	refuse 2 "will not serve the network as root; fix: add --user NAME" -- -e instructions
	# The sessions come before the user: without the module, the device's error.
	refuse 3 "pmcdrv is not loaded" -- --user nobody -d "$tmp/no-device" -e instructions
	# --once prints to stdout only: root may run it (nothing listens).
	refuse 3 "pmcdrv is not loaded" -- --once -d "$tmp/no-device" -e instructions
else
	refuse 2 "only root can change its user" -- --user nobody -e instructions
fi
out=$("$pmcctl" serve --help 2>&1) && grep -q -- "--listen ADDR:PORT" <<<"$out" && grep -q "127.0.0.1:9465" <<<"$out" &&
	pass "serve --help: exit 0, --listen and its default" || fail "serve --help" "$out"
"$pmcctl" --help | grep -q "^  serve " && pass "pmcctl --help lists serve" || fail "pmcctl --help" "no serve"

# The formatter's expositions (held byte for byte by 'make unit').
n=0
for f in tests/unit/golden/expo-*.prom; do
	n=$((n + 1))
	if out=$(promtool check metrics <"$f" 2>&1); then
		pass "promtool check metrics ${f##*/}"
	else
		fail "promtool check metrics ${f##*/}" "$out"
	fi
done
[ "$n" -ge 3 ] && pass "$n text expositions checked" || fail "golden expositions" "found $n, want 3 or more"
for f in tests/unit/golden/expo-*.om.txt; do
	if [ "$(tail -n1 "$f")" = "# EOF" ] && [ "$(grep -c '^# EOF' "$f")" = 1 ] &&
	   ! grep -q '^# TYPE .*_total ' "$f" && grep -q '^# TYPE pmcdrv_scrape_errors counter' "$f" &&
	   grep -q '^# TYPE pmcdrv_build info' "$f"; then
		pass "OpenMetrics ${f##*/}: one # EOF at the end, counters' families without _total"
	else
		fail "OpenMetrics ${f##*/}" "$(cat "$f")"
	fi
done

# The recording rules.
out=$(promtool check rules packaging/prometheus/pmcdrv.rules.yml 2>&1) &&
	pass "promtool check rules pmcdrv.rules.yml" || fail "promtool check rules" "$out"
out=$(cd packaging/prometheus && promtool test rules pmcdrv.rules.test.yml 2>&1) &&
	pass "promtool test rules pmcdrv.rules.test.yml" || fail "promtool test rules" "$out"
finish
