# SPDX-License-Identifier: GPL-2.0
# The guest half of tests/prom-check.sh, which runs it through
# tests/vm/run --forward HOSTPORT:9465 while a Prometheus on the host scrapes
# the guest's port 9465 every second.  Two cgroups counted (pmcA, pmcB) and
# one left out (pmcC), each running its own known loop:
#   - first pmcctl stat -a -G gives the exact count of the two loops
#     (PROM-EXPECT lines, which the host compares Prometheus's answers with);
#   - then pmcctl serve -G pmcA,pmcB counts the same loops again, with pmcC's
#     longer loop beside them, and serves on long enough for several scrapes.
# Not one of run-all's scripts (it needs the host's half): it sits in its own
# directory.
. tests/lib/guest.sh
cgloop=build/tests/cgloop
cg=/sys/fs/cgroup
nA=3000000 nB=1000000 nC=20000000

grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none "$cg" || { fail "mount cgroup2" "failed"; exit 1; }
# As 76-cgroup: a controller below the root, as on any systemd host.
grep -qw pids "$cg/cgroup.subtree_control" || echo +pids >"$cg/cgroup.subtree_control"
for d in pmcA pmcB pmcC; do
	rmdir "$cg/$d" 2>/dev/null
	mkdir "$cg/$d" || { fail "mkdir $cg/$d" "failed"; exit 1; }
done
loops="$cgloop $cg/pmcA $nA & $cgloop $cg/pmcB $nB & $cgloop $cg/pmcC $nC & wait"

out=$(pmcctl stat -a -x, -e instructions:u -G pmcA,pmcB -- sh -c "$loops" 2>&1)
for g in pmcA pmcB; do
	echo "PROM-EXPECT $g $(awk -F, -v g="$g" '$3 == "instructions:u" && $4 == g { print $1 }' <<<"$out")"
done
echo "PROM-EXPECT nA $nA"
echo "PROM-EXPECT nB $nB"

grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
chmod 755 /
# Counted in user mode for exact counts, and all modes under the names the
# shipped recording rules read (instructions, cycles).
pmcctl serve --listen 0.0.0.0:9465 --user nobody -G pmcA,pmcB \
	-e instructions:u,cycles:u,instructions,cycles --duration "${PROM_SERVE_S:-40}" >/tmp/serve.log 2>&1 &
serve=$!
sleep 5		# a few scrapes of the counts before the loops
sh -c "$loops"
echo "PROM-LOOPS-DONE"
wait "$serve"
expect_eq "pmcctl serve -G pmcA,pmcB ran its --duration and exited 0" "$?" 0
rmdir "$cg/pmcA" "$cg/pmcB" "$cg/pmcC"
