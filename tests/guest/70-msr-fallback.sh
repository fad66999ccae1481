# SPDX-License-Identifier: GPL-2.0
# pmcctl run without the module: the /dev/cpu/N/msr fallback.  It counts
# the whole CPU CMD is pinned to, warns that it does, refuses counters
# others enabled unless --force, explains every refusal with its fix, and
# leaves every PMU register of that CPU as it found it (checked with
# rdmsr), also when CMD fails or is killed and when pmcctl gets SIGTERM.
. tests/lib/guest.sh

if ! have_pmu; then
	echo "SKIP: MSR fallback tests: no PMU in this guest"
	exit 0
fi

loop=build/progs/loop
N=1000000
EXACT=$((2 * N + 103))		# user instructions of loop N (tests/guest/40-emulated-pmu.sh)
SLACK=200000			# the pinned CPU runs a little else in user mode too
CPU=1
[ "$(nproc)" -ge 2 ] || CPU=0
pm() { pmcctl run -C $CPU "$@"; }

had_module=0 had_msr=0
module_loaded && had_module=1 && rmmod pmcdrv
grep -q '^msr ' /proc/modules && had_msr=1 && rmmod msr

# ---- no msr driver -----------------------------------------------------------------
pm -e 0x00c0:u -- $loop 000000001 2>/tmp/err
expect_eq "no msr driver: hardware events -> 3" "$?" 3
check "no msr driver: names modprobe msr" grep -q 'modprobe msr' /tmp/err
check "no module: says it falls back and how to count per task" \
	grep -q 'pmcdrv is not loaded.*MSR device instead.*insmod' /tmp/err
out=$(pmcctl run -e task-clock,cs,migrations -- true 2>&1)
expect_eq "software events alone need no MSR device" "$?" 0
check "software events: the note says they come from rusage" grep -q 'from its rusage' <<<"$out"

modprobe msr

# ---- the registers, before and after ---------------------------------------------------
MSRS="0x38f 0x38d 0x38e 0x186 0x187 0x188 0x189 0xc1 0xc2 0xc3 0xc4 0x4c1 0x4c2 0x4c3 0x4c4 0x309 0x30a 0x30b"
snapshot() {
	local m
	for m in $MSRS; do printf '%s=%s ' "$m" "$(rdmsr -p $CPU -c "$m" 2>/dev/null)"; done
}
# expect_restored NAME: every MSR as in $before.
expect_restored() {
	local after
	after=$(snapshot)
	if [ "$after" = "$before" ]; then
		pass "$1: every PMU MSR of CPU $CPU restored"
	else
		fail "$1: every PMU MSR of CPU $CPU restored" "before: $before after: $after"
	fi
}
saved=$(snapshot)
# Recognisable values: disabled counters holding counts, a configured but
# disabled EVTSEL, a FIXED_CTR_CTRL field with only PMI set, GLOBAL_CTRL
# without PMC3.
wrmsr -p $CPU 0x4c1 0x123456789ab
wrmsr -p $CPU 0xc2 0x1234
wrmsr -p $CPU 0x187 0x1003c
wrmsr -p $CPU 0x309 0x555555555
wrmsr -p $CPU 0x30a 0xabcdef
wrmsr -p $CPU 0x38d 0x800
wrmsr -p $CPU 0x38f 0x700000007
before=$(snapshot)
echo "info: CPU $CPU before: $before"

is_count() { [[ "$1" =~ ^[0-9]+$ ]]; }
# in_range NAME VALUE: EXACT <= VALUE < EXACT + SLACK
in_range() {
	if is_count "$2" && [ "$2" -ge $EXACT ] && [ "$2" -lt $((EXACT + SLACK)) ]; then
		pass "$1 ($2, exact $EXACT)"
	else
		fail "$1" "got '$2', want $EXACT..$((EXACT + SLACK - 1))"
	fi
}
csv_value() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

# ---- counting: fixed and GP counter ------------------------------------------------------
pm -x, -o /tmp/csv -e instructions:u,0x00c0:u -- $loop "$(printf '%09d' $N)" 2>/tmp/err
expect_eq "run: exit 0" "$?" 0
in_range "instructions:u (fixed counter 0) counts the loop" "$(csv_value instructions:u /tmp/csv)"
in_range "0x00c0:u (a GP counter) counts the loop" "$(csv_value 0x00c0:u /tmp/csv)"
check "CSV: every line valid" awk -F, 'NF != 5 || $1 !~ /^[0-9]+$/ || $5 != "100.00" { exit 1 }' /tmp/csv
check "CSV: the warning is on stderr, naming the CPU and user mode" \
	grep -q "include everything else that ran on.*CPU $CPU in user mode" <<<"$(tr '\n' ' ' </tmp/err)"
expect_restored "after counting"

out=$(pm -e instructions:u -- $loop "$(printf '%09d' $N)" 2>&1)
check "text: the warning is in the report" grep -q 'include everything else that ran on' <<<"$out"
check "text: the header names the CPU" grep -q "Performance counter stats for CPU $CPU while '$loop" <<<"$out"

pm -j -o /tmp/json -e instructions:u -- $loop "$(printf '%09d' $N)" 2>/tmp/err
check "JSON: valid" jq -e -s 'length == 1 and .[0].event == "instructions:u"' /tmp/json
in_range "JSON: instructions:u counts the loop" "$(jq -r '."counter-value" | floor' /tmp/json)"
check "JSON: the warning is on stderr" grep -q 'include everything else that ran on' /tmp/err

pm -x, -o /tmp/csv -- $loop "$(printf '%09d' $N)" 2>/dev/null
expect_eq "default events: exit 0" "$?" 0
check "default events: task-clock, cs, migrations, cycles, instructions" \
	grep -q '^task-clock context-switches cpu-migrations cycles instructions' <<<"$(cut -d, -f3 /tmp/csv | tr '\n' ' ')"
expect_eq "default events: cpu-migrations is 0 (pinned)" "$(csv_value cpu-migrations /tmp/csv)" 0
check "default events: instructions (user+kernel) at least the loop's" \
	test "$(csv_value instructions /tmp/csv)" -ge $EXACT
pm -r 2 -e instructions:u -- $loop 000000001 2>/dev/null
expect_eq "-r 2: exit 0" "$?" 0
out=$(pmcctl run -e instructions:u -- true 2>&1)
check "no -C: the report names the CPU it picked" grep -q 'stats for CPU [0-9]* while' <<<"$out"
expect_restored "after default events, -r 2, no -C"

# ---- CMD fails or is killed; pmcctl gets signals -------------------------------------------------
pm -e instructions:u -- sh -c 'exit 7' 2>/dev/null
expect_eq "CMD exits 7 -> 7" "$?" 7
pm -e instructions:u -- /nonexistent/cmd 2>/dev/null
expect_eq "CMD not found -> 127" "$?" 127
pm -e instructions:u -- sh -c 'kill -KILL $$' 2>/dev/null
expect_eq "CMD killed by SIGKILL -> 137" "$?" 137
expect_restored "after CMD failed, not found, killed"
# sig_pmcctl SIG RC: signal pmcctl itself while CMD runs.
sig_pmcctl() {
	local pid rc i
	rm -f /tmp/ready
	pmcctl run -C $CPU -e instructions:u -- sh -c 'touch /tmp/ready; exec sleep 3' 2>/dev/null &
	pid=$!
	for i in $(seq 100); do [ -e /tmp/ready ] && break; sleep 0.1; done
	kill -"$1" $pid
	{ wait $pid; } 2>/dev/null	# no "Alarm clock" from bash
	rc=$?
	expect_eq "SIG$1 to pmcctl -> $2" "$rc" "$2"
	expect_restored "after SIG$1 to pmcctl"
}
sig_pmcctl TERM 143	# forwarded to CMD
sig_pmcctl HUP 129	# forwarded to CMD
sig_pmcctl ALRM 142	# held until the registers are back

# ---- counters someone else enabled ----------------------------------------------------------
# EVTSEL0 enabled, its GLOBAL_CTRL bit clear: "in use", yet PMC0 stays put.
wrmsr -p $CPU 0x38f 0x700000006
wrmsr -p $CPU 0x186 0x4100c0
before=$(snapshot)
pm -e instructions:u -- $loop 000000001 2>/tmp/err
expect_eq "a counter enabled by someone else -> 4" "$?" 4
check "busy: names PMC0" grep -q 'counters PMC0 are enabled' /tmp/err
check "busy: names --force" grep -q -- '--force' /tmp/err
expect_restored "after the refusal"
# Five events need all four GP counters, PMC0 included.
pm -f -x, -o /tmp/csv -e instructions:u,0x00c0:u,0x00c0:u,0x00c0:u,0x00c0:u -- \
	$loop "$(printf '%09d' $N)" 2>/dev/null
expect_eq "--force: exit 0" "$?" 0
check "--force: all five counters count the loop" \
	awk -F, -v lo=$EXACT -v hi=$((EXACT + SLACK)) '$1 < lo || $1 >= hi { exit 1 } END { exit NR != 5 }' /tmp/csv
expect_restored "--force: the foreign EVTSEL0, PMC0 and GLOBAL_CTRL"
wrmsr -p $CPU 0x186 0x0
wrmsr -p $CPU 0x38f 0x700000007
before=$(snapshot)

# ---- refusals with their fix -----------------------------------------------------------------
if echo off >/sys/module/msr/parameters/allow_writes 2>/dev/null; then
	pm -e instructions:u -- true 2>/tmp/err
	expect_eq "allow_writes=off -> 1" "$?" 1
	check "allow_writes=off: names msr.allow_writes=on" grep -q 'msr.allow_writes=on' /tmp/err
	echo default >/sys/module/msr/parameters/allow_writes
	expect_restored "after the refused write"
else
	fail "allow_writes=off" "/sys/module/msr/parameters/allow_writes is not writable"
fi

# Root without CAP_SYS_RAWIO (a user namespace), and a user that is not root.
unshare -r "$PWD/build/bin/pmcctl" run -C $CPU -e instructions:u -- true 2>/tmp/err
expect_eq "root without CAP_SYS_RAWIO -> 1" "$?" 1
check "root without CAP_SYS_RAWIO: names CAP_SYS_RAWIO" grep -q 'CAP_SYS_RAWIO' /tmp/err
# The initramfs root directory is 0700: let a user in.
chmod 755 /
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
su nobody -s /bin/sh -c "$PWD/build/bin/pmcctl run -C $CPU -e instructions:u -- true" 2>/tmp/err
expect_eq "not root -> 1" "$?" 1
check "not root: names root and CAP_SYS_RAWIO" grep -q 'root or CAP_SYS_RAWIO' /tmp/err
expect_restored "after the permission refusals"

# ---- the module loaded ----------------------------------------------------------------------
insmod "$PMCDRV_KO"
pmcctl run -C $CPU -e instructions:u -- true 2>/dev/null
expect_eq "module loaded: -C without --msr -> 2" "$?" 2
pmcctl run --msr -C $CPU -x, -o /tmp/csv -e instructions:u -- $loop "$(printf '%09d' $N)" 2>/dev/null
expect_eq "module loaded: --msr counts through the MSR device" "$?" 0
in_range "--msr: instructions:u counts the loop" "$(csv_value instructions:u /tmp/csv)"
pmcctl run --msr-device "/dev/cpu/%d/msr" -C $CPU -x, -o /tmp/csv -e instructions:u -- \
	$loop "$(printf '%09d' $N)" 2>/dev/null
in_range "--msr-device /dev/cpu/%d/msr: counts the loop" "$(csv_value instructions:u /tmp/csv)"
pmcctl compare --msr -e instructions:u -- true 2>/dev/null
expect_eq "compare --msr -> 2" "$?" 2
expect_restored "after --msr with the module loaded"
[ $had_module = 1 ] || rmmod pmcdrv

# The values found at the start.
for m in 0x4c1 0xc2 0x187 0x309 0x30a 0x38d 0x38f; do
	wrmsr -p $CPU $m "$(awk -v m=$m 'BEGIN { RS = " " } { split($0, kv, "="); if (kv[1] == m) print kv[2] }' <<<"$saved")"
done
[ $had_msr = 1 ] || rmmod msr
if [ $had_module = 1 ]; then
	module_loaded || insmod "$PMCDRV_KO"
	check "module reloaded" module_loaded
fi
