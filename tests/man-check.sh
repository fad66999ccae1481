#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The man page docs/pmcctl.1:
#   1. groff -man -ww -z and man --warnings print no warning;
#   2. every option that 'pmcctl --help' and 'pmcctl COMMAND --help' print
#      (long --options and short -o alike) appears in the page's subsection
#      for it: "Global options", "run options", "stat options", ...
# Data-driven: the commands come from the top-level help and the options from
# each command's help, so new commands and options are checked as they appear.
# Prints PASS:/FAIL: lines and "man-check: N passed, N failed"; exits 1 when
# anything failed.  Needs groff-base and man-db (tests/deps.sh) and
# build/bin/pmcctl (make user; PMCCTL=path for another binary).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
page=docs/pmcctl.1
pmcctl=${PMCCTL:-build/bin/pmcctl}
passed=0 failed=0

pass() { passed=$((passed + 1)); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1: $2"; }

finish() {
	echo "man-check: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

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

lint "groff -man -ww -z $page" groff -man -ww -z "$page"
lint "man --warnings -l $page (80 columns)" env LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page"

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
