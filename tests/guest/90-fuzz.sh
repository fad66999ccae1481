# SPDX-License-Identifier: GPL-2.0
# The ioctl and self-read page (mmap, RDPMC) fuzzer: build/tests/pmcfuzz against /dev/pmcdrv, as
# root and as an unprivileged user (module loaded with devmode=0666), and as
# root with CPUs going offline and online.  Each run is seeded (a new seed
# per run unless PMCDRV_FUZZ_SEED is set) and every FAIL line names the
# seed and the command that replays it.  After each run: no file holds the
# module (refcnt 0), rmmod works, and the kernel log has no new splat.
# Leaves the module loaded with default parameters, as the next script expects.
#   PMCDRV_FUZZ_SECONDS  total seconds of fuzzing (default 30; make check gives 15 to two of its five lanes)
#   PMCDRV_FUZZ_SEED     seed of every run (default: random, printed)
#   PMCDRV_FUZZ_THREADS  fuzz threads per run (default 4)
. tests/lib/guest.sh

fuzz=$PWD/build/tests/pmcfuzz
total=${PMCDRV_FUZZ_SECONDS:-30}
threads=${PMCDRV_FUZZ_THREADS:-4}

if [ ! -x "$fuzz" ]; then
	fail "pmcfuzz" "build/tests/pmcfuzz not built (make tests)"
	exit 0
fi

new_seed() {
	if [ -n "${PMCDRV_FUZZ_SEED:-}" ]; then
		echo "$PMCDRV_FUZZ_SEED"
	else
		echo $(( $(od -An -N4 -tu4 /dev/urandom) % 1000000000 ))
	fi
}


# fuzz_run NAME SECONDS USER PMCFUZZ-ARGS...: one bounded run as USER (root or nobody).
fuzz_run() {
	local name=$1 secs=$2 user=$3 seed mark out rc splat cmd replay why
	shift 3
	seed=$(new_seed)
	mark=$(dmesg | wc -l)
	cmd=("$fuzz" --seed "$seed" --seconds "$secs" --threads "$threads" "$@")
	replay="build/tests/pmcfuzz --seed $seed --seconds $secs --threads $threads $*"
	echo "--- $name: $replay"
	if [ "$user" = root ]; then
		out=$(timeout -k 10 $((secs + 120)) "${cmd[@]}" 2>&1)
	else
		out=$(timeout -k 10 $((secs + 120)) su "$user" -s /bin/sh -c "$(printf '%q ' "${cmd[@]}")" 2>&1)
	fi
	rc=$?
	echo "$out" | grep -v '^pmcfuzz:   ' | head -n 40
	splat=$(klog_splats "$mark")
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "$name" "seed $seed: hung (killed after $((secs + 120)) s); replay: $replay"
	elif [ -n "$splat" ]; then
		fail "$name" "seed $seed: kernel log: $(tr '\n' ' ' <<<"$splat"); replay: $replay"
	elif [ "$rc" != 0 ]; then
		why=$(grep -m1 -E 'VIOLATION|HANG' <<<"$out" || tail -n 1 <<<"$out")
		fail "$name" "seed $seed: exit $rc: $(cut -c1-300 <<<"$why"); replay: $replay"
	else
		pass "$name (seed $seed, $secs s, $threads threads)"
	fi
}

# After a run: nothing holds the module, and it unloads.
module_released() {
	local what=$1 refs
	refs=$(cat /sys/module/pmcdrv/refcnt 2>/dev/null)
	expect_eq "$what: no open file holds the module (refcnt)" "$refs" 0
	if rmmod pmcdrv; then
		pass "$what: rmmod"
	else
		fail "$what: rmmod" "refused"
		return 1
	fi
}

hp=0
[ -w /sys/devices/system/cpu/cpu1/online ] && hp=1
share=$((total / (2 + hp)))
[ "$share" -ge 1 ] || share=1

# ---- root ------------------------------------------------------------------------------
fuzz_run "fuzz as root" "$share" root --exclusive
module_released "after root fuzz" && insmod "$PMCDRV_KO"

# ---- root, CPUs going offline and online ------------------------------------------------
if [ "$hp" = 1 ]; then
	fuzz_run "fuzz as root with CPU hotplug" "$share" root --exclusive --hotplug
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 >"$c"; done 2>/dev/null
	module_released "after hotplug fuzz" && insmod "$PMCDRV_KO"
fi

# ---- nobody, devmode=0666 ---------------------------------------------------------------
rmmod pmcdrv && insmod "$PMCDRV_KO" devmode=0666
chmod 755 /	# the initramfs root directory is 0700: let a user in
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
expect_eq "devmode=0666 for the unprivileged run" "$(stat -c %a /dev/pmcdrv)" 666
# At perf_event_paranoid 3 (Debian's default) nobody may not count at all
# (65-security.sh shows it); the fuzz runs at 2, where user-mode counting of
# one's own tasks is open, so the unprivileged paths are exercised.
paranoid_was=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 >/proc/sys/kernel/perf_event_paranoid
fuzz_run "fuzz as nobody (devmode=0666, perf_event_paranoid=2)" "$share" nobody --exclusive
echo "$paranoid_was" >/proc/sys/kernel/perf_event_paranoid
module_released "after nobody fuzz"

insmod "$PMCDRV_KO"
check "module loaded at the end" module_loaded
