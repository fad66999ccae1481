#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The man pages docs/pmcctl.1 and docs/libpmc.3:
#   1. groff -man -ww -z and man --warnings print no warning, for both;
#   2. libpmc(3): every function and PMC_REGION_* constant user/libpmc/libpmc.h
#      declares, and every PMCDRV_* environment variable user/libpmc/*.c reads,
#      appears in the page (functions in a prototype line of its own);
#   3. every option that 'pmcctl --help' and 'pmcctl COMMAND --help' print
#      (long --options and short -o alike) appears in pmcctl(1)'s subsection
#      for it: "Global options", "run options", "stat options", ...
# Data-driven: the functions come from the header, the commands from the
# top-level help and the options from each command's help, so new ones are
# checked as they appear.
# Prints PASS:/FAIL: lines and "man-check: N passed, N failed"; exits 1 when
# anything failed.  Needs groff-base and man-db (tests/deps.sh) and
# build/bin/pmcctl (make user; PMCCTL=path for another binary).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
page=docs/pmcctl.1
libpage=docs/libpmc.3
pmcctl=${PMCCTL:-build/bin/pmcctl}
check_label=man-check
. tests/lib/host.sh

# lint NAME COMMAND...: passes when COMMAND succeeds and prints nothing on stderr.
lint() {
	local name=$1 err rc
	shift
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 0 ] && [ -z "$err" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc${err:+, warnings:}"
		[ -n "$err" ] && printf "    %s\n" "${err//$'\n'/$'\n'    }"
	fi
}

for tool in groff:groff-base man:man-db; do
	if ! command -v "${tool%%:*}" >/dev/null; then
		fail "${tool%%:*} installed" "install ${tool#*:} (tests/deps.sh)"
	fi
done
[ "$failed" = 0 ] || finish

for p in "$page" "$libpage"; do
	lint "groff -man -ww -z $p" groff -man -ww -z "$p"
	lint "man --warnings -l $p (80 columns)" env LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$p"
done

# libpmc(3): the whole public API, as the header declares it.
libtext=$(groff -man -Tascii -P-cbou -rLL=2000n "$libpage" 2>/dev/null)
n=0
while read -r fn; do
	n=$((n + 1))
	if grep -qE "^ +[a-z].*[ *]${fn}\(" <<<"$libtext"; then
		pass "libpmc(3): $fn() has its prototype"
	else
		fail "libpmc(3): $fn()" "user/libpmc/libpmc.h declares it; give its prototype and describe it in $libpage"
	fi
done < <(grep -oE '^[a-z].*[ *](pmc_[a-z0-9_]+)\(' user/libpmc/libpmc.h | grep -oE 'pmc_[a-z0-9_]+\($' | tr -d '(' | sort -u)
echo "     (libpmc.h: $n functions)"
[ "$n" -gt 40 ] || fail "libpmc.h functions found" "only $n: has the header's layout changed?"
while read -r name; do
	if grep -qw -- "$name" <<<"$libtext"; then
		pass "libpmc(3): $name"
	else
		fail "libpmc(3): $name" "libpmc reads or defines it; document it in $libpage"
	fi
done < <({ grep -ohE 'getenv\("PMCDRV_[A-Z_]+"\)' user/libpmc/*.c | grep -oE 'PMCDRV_[A-Z_]+'
	   grep -oE '^#define (PMC_REGION_[A-Z_]+)' user/libpmc/libpmc.h | cut -d' ' -f2; } | sort -u)

if [ ! -x "$pmcctl" ]; then
	fail "pmcctl built" "$pmcctl is missing: run 'make user' first"
	finish
fi

# The page as plain text, unbroken lines: headings at column 0 (.SH) and 3 (.SS).
text=$(groff -man -Tascii -P-cbou -rLL=2000n "$page" 2>/dev/null)

# The lines of subsection TITLE, up to the next heading.
subsection() {
	awk -v t="   $1" '
		$0 == t { inside = 1; next }
		inside && /^ {0,3}[^ ]/ { exit }
		inside { print }' <<<"$text"
}

# Options named in a help text: --long, and -x after a blank, "[", "(", "|" or ",".
options_of() {
	grep -oE -- '(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*' <<<"$1" | sed -E 's/^[^-]+//'
	grep -oE -- '(^|[][ (|,])-[A-Za-z]([^A-Za-z0-9-]|$)' <<<"$1" | grep -oE -- '-[A-Za-z]'
}

# check_options WHAT SUBSECTION HELP: each option of HELP is in SUBSECTION.
check_options() {
	local what=$1 title=$2 help=$3 body opt n=0
	body=$(subsection "$title")
	if [ -z "$body" ]; then
		fail "$what: subsection '$title'" "docs/pmcctl.1 has no subsection '$title' under OPTIONS"
		return
	fi
	pass "$what: subsection '$title'"
	while read -r opt; do
		[ -n "$opt" ] || continue
		n=$((n + 1))
		if grep -qE -- "(^|[^A-Za-z0-9-])${opt}([^A-Za-z0-9-]|$)" <<<"$body"; then
			pass "$what: $opt in '$title'"
		else
			fail "$what: $opt in '$title'" "'$what --help' prints $opt; document it in docs/pmcctl.1"
		fi
	done < <(options_of "$help" | sort -u)
	echo "     ($what: $n options in its --help)"
}

top=$("$pmcctl" --help 2>&1)
rc=$?
if [ "$rc" != 0 ]; then
	fail "pmcctl --help" "exit $rc"
	finish
fi
check_options "pmcctl" "Global options" "$top"

# Commands: the "  NAME  summary" lines under "commands:".
commands=$(sed -n '/^commands:/,/^$/p' <<<"$top" | sed -nE 's/^  ([a-z][a-z-]*) .*/\1/p')
if [ -z "$commands" ]; then
	fail "pmcctl --help lists commands" "no 'commands:' list in the top-level help"
fi
for cmd in $commands; do
	if ! grep -qE "^       $cmd( |$)" <<<"$(sed -n '/^COMMANDS$/,/^[A-Z]/p' <<<"$text")"; then
		fail "$cmd in COMMANDS" "docs/pmcctl.1 does not describe '$cmd' under COMMANDS"
	else
		pass "$cmd in COMMANDS"
	fi
	help=$("$pmcctl" "$cmd" --help 2>&1)
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "pmcctl $cmd --help" "exit $rc"
		continue
	fi
	check_options "pmcctl $cmd" "$cmd options" "$help"
done
finish
