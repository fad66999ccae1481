# SPDX-License-Identifier: GPL-2.0
# Cgroup sessions: pmcctl stat -G and --for-each-cgroup count the tasks of
# cgroups exactly, leave other cgroups out, split a task that moves, and
# keep the final count of a cgroup removed while counted; against perf -G.
. tests/lib/guest.sh
cgloop=build/tests/cgloop
cg=/sys/fs/cgroup

if ! have_pmu; then
	echo "SKIP: cgroup: no PMU in this guest"
	exit 0
fi
if ! grep -qw cgroup2 /proc/filesystems; then
	echo "SKIP: cgroup: this kernel has no cgroup v2"
	exit 0
fi
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none "$cg" ||
	{ fail "mount cgroup2 on $cg" "mount failed"; exit 0; }
# perf's cgroup events need the perf_event controller's state in the cgroup,
# which Linux 6.1 makes for an implicit controller only once some controller
# is enabled below the root (as on any systemd host); without, perf -G fails
# with ENOENT.  pids is the lightest.
grep -qw pids "$cg/cgroup.subtree_control" || echo +pids >"$cg/cgroup.subtree_control" ||
	fail "enable the pids controller below $cg" "write failed"
for d in pmcA pmcB pmcC pmcD; do
	rmdir "$cg/$d" 2>/dev/null
	mkdir "$cg/$d" || fail "mkdir $cg/$d" "failed"
done
mark=$(dmesg | wc -l)

# count CSV CGROUP: the instructions:u of CGROUP in stat -x, output CSV.
count() { csv_count instructions:u "$2" <<<"$1"; }

# Usage errors: exit 2 and a message naming the problem.
pmcctl stat -G pmcA -t 0.1 2>/tmp/err
expect_eq "stat -G without -a -> 2" "$?" 2
check "stat -G without -a: says -G counts on whole CPUs" grep -q -- "-G counts cgroups on whole CPUs" /tmp/err
pmcctl stat -a -G nosuch -t 0.1 2>/tmp/err
expect_eq "stat -G nosuch -> 2" "$?" 2
check "stat -G nosuch: names the cgroup and the mount" grep -q "cgroup 'nosuch'.*relative to $cg" /tmp/err
pmcctl stat -a -G pmcA,pmcA -t 0.1 2>/tmp/err
expect_eq "stat -G named twice -> 2" "$?" 2
pmcctl stat -a --for-each-cgroup 'nomatch.*' -t 0.1 2>/tmp/err
expect_eq "stat --for-each-cgroup without a match -> 2" "$?" 2
check "stat --for-each-cgroup without a match: says so" grep -q "no cgroup under $cg matches 'nomatch.\*'" /tmp/err
pmcctl stat -a -G pmcA --topdown -t 0.1 2>/tmp/err
expect_eq "stat -G with --topdown -> 2 (not there yet)" "$?" 2

# Two counted cgroups, each with its own loop, and a third left out with a
# much longer one.  Both counted children run the same code: each count is
# 2N plus one constant, the same for both, and small.
nA=3000000 nB=1000000 nC=20000000
out=$(pmcctl stat -a -x, -e instructions:u,cycles:u -G pmcA,pmcB -- \
	sh -c "$cgloop $cg/pmcA $nA & $cgloop $cg/pmcB $nB & $cgloop $cg/pmcC $nC & wait" 2>&1)
expect_eq "stat -G pmcA,pmcB: exit 0" "$?" 0
a=$(count "$out" pmcA) b=$(count "$out" pmcB)
cA=$((${a:-0} - 2 * nA)) cB=$((${b:-0} - 2 * nB))
check "pmcA counts its loop: 2N + c, 0 < c < 400 (got ${a:-none}, c $cA)" test "$cA" -gt 0 -a "$cA" -lt 400
expect_eq "pmcA and pmcB: the same constant over 2N (exact, pmcC's $nC loops left out)" "$cB" "$cA"
check "stat -G: cycles:u per cgroup too" test "$(grep -c ',cycles:u,pmc[AB],' <<<"$out")" = 2
c0=$cA

# The same through --for-each-cgroup, and JSON with the cgroup named.
out=$(pmcctl stat -a -j -e instructions:u --for-each-cgroup 'pmc[AB]' -- \
	sh -c "$cgloop $cg/pmcA $nB & $cgloop $cg/pmcB $nA & wait" 2>&1)
expect_eq "stat --for-each-cgroup 'pmc[AB]': exit 0" "$?" 0
a=$(jq -r 'select(.cgroup == "pmcA") | ."counter-value"' <<<"$out" | cut -d. -f1)
b=$(jq -r 'select(.cgroup == "pmcB") | ."counter-value"' <<<"$out" | cut -d. -f1)
expect_eq "--for-each-cgroup -j: pmcA exact" "${a:-none}" "$((2 * nB + c0))"
expect_eq "--for-each-cgroup -j: pmcB exact" "${b:-none}" "$((2 * nA + c0))"

# Metrics per cgroup (-M): each cgroup's from its own counts, beside its rows.
# On a hybrid part tma_info_thread_ipc is the P-cores' metric: both loops on CPU 0, one.
pin=()
hybrid_cpu && pin=(taskset -c 0)
out=$(pmcctl stat -a -j -M tma_info_thread_ipc -G pmcA,pmcB -- \
	"${pin[@]}" sh -c "$cgloop $cg/pmcA $nA & $cgloop $cg/pmcB $nB & wait" 2>&1)
expect_eq "stat -G -M: exit 0" "$?" 0
for g in pmcA pmcB; do
	# the data's events, cpu_core/EVENT/ on a hybrid part
	ev() { jq -r --arg g "$g" --arg e "$1" 'select(.cgroup == $g and (.event == $e or .event == "cpu_core/\($e)/")) | ."counter-value"' <<<"$out"; }
	ins=$(ev INST_RETIRED.ANY) cyc=$(ev CPU_CLK_UNHALTED.THREAD)
	ipc=$(jq -r "select(.cgroup == \"$g\" and .\"metric-unit\" == \"tma_info_thread_ipc\") | .\"metric-value\"" <<<"$out")
	want=$(awk -v i="$ins" -v c="$cyc" 'BEGIN { if (c > 0) printf "%.2f", i / c }')
	check "stat -G -M: $g's IPC is its instructions over its cycles ($ipc, want $want)" near "${ipc:-}" "$want" 0.01
done

# A task that moves itself from pmcA to pmcB: each side gets its part
# exactly (two runs with other loop counts give the same constants).
split() {
	local out
	out=$(pmcctl stat -a -x, -e instructions:u -G pmcA,pmcB -- $cgloop $cg/pmcA "$1" $cg/pmcB "$2" 2>&1)
	echo "$(($(count "$out" pmcA) - 2 * $1)) $(($(count "$out" pmcB) - 2 * $2))"
}
s1=$(split 2000000 500000) s2=$(split 700000 1500000)
expect_eq "a task moved mid-run: each cgroup's part exact (constants of two runs: $s1)" "$s2" "$s1"
read -r m1 m2 <<<"$s1"
# pmcA's part holds the first write()'s symbol binding by ld.so: some hundreds.
check "the move's constants are small ($m1 in pmcA, $m2 in pmcB)" \
	test "$m1" -gt 0 -a "$m1" -lt 2000 -a "$m2" -gt 0 -a "$m2" -lt 400

# A cgroup removed while counted: its final count stays, the log stays clean.
out=$(pmcctl stat -a -x, -e instructions:u -G pmcD -- sh -c "$cgloop $cg/pmcD $nB && rmdir $cg/pmcD && sleep 0.2" 2>&1)
expect_eq "stat -G pmcD, pmcD removed while counted: exit 0" "$?" 0
expect_eq "the removed cgroup's final count" "$(count "$out" pmcD)" "$((2 * nB + c0))"
check "stat says the cgroup was removed" grep -q "cgroup 'pmcD' was removed while counted" <<<"$out"

# Interval output: the cgroup's counts add up to the whole.
out=$(pmcctl stat -a -x, -I 100 -e instructions:u -G pmcA -- $cgloop $cg/pmcA 30000000 2>&1)
sum=$(awk -F, '$4 == "instructions:u" && $5 == "pmcA" { s += $2 } END { print s + 0 }' <<<"$out")
expect_eq "stat -G -I: the intervals add up to the loop" "$sum" "$((2 * 30000000 + c0))"

# perf's own count of the same cgroup (perf stat -a -G): the same number.
wait_unclaimed
out=$(perf stat -a -x, "${perf_raw[@]}" -e instructions:u -G pmcA -- $cgloop $cg/pmcA $nA 2>&1)
expect_eq "perf stat -a -G pmcA: the same count as pmcctl" "$(count "$out" pmcA)" "$((2 * nA + c0))"

rmdir "$cg/pmcA" "$cg/pmcB" "$cg/pmcC" 2>/dev/null
splat=$(klog_splats "$mark")
expect_eq "kernel log clean" "$splat" ""
