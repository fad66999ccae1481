# SPDX-License-Identifier: GPL-2.0
# Host-side check scripts (man-check, kbuild-check, pkg-check): PASS:/FAIL:
# lines, counted, and the closing "LABEL: N passed, N failed" that
# tests/check.sh adds up.  Set check_label before calling finish.
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1: $2"; }
# finish: the closing line, and exit 0 only when nothing failed.
finish() {
	echo "$check_label: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
