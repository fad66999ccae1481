#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Layers one way: no file uses a name defined in a file that uses one of its
# own back.  "Uses" is read off the built objects (nm): object A uses B when
# a symbol undefined in A is defined in B.  Checked for each group of objects
# that link together: the module's (kmod/*.o, and common/), libpmc's, and
# pmcctl's with libpmc under it.  Then the layers themselves, as
# docs/architecture.md draws them: pmcctl -> libpmc -> include/uapi, and the
# module's files in their order (main, session, cpu_session, cgroup, selfmap, sched,
# selfread, track, perm, hw, then common/): no lower file uses a higher one.
#
# Usage: tests/layers-check.sh [KMOD_OBJ_DIR]  (default kmod/; run after a
# build of the module and of build/obj/).  Ends "layers: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
kdir=${1:-kmod}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }

# edges FILE...: "A B" for every object A that uses a symbol defined in B (A != B).
edges() {
	local o
	for o in "$@"; do
		nm --defined-only "$o" | awk -v f="$o" 'NF == 3 && $2 ~ /[TDBRCV]/ { print $3, f }'
	done | sort -u >"$tmp/defs"
	for o in "$@"; do
		nm --undefined-only "$o" | awk -v f="$o" '{ print $NF, f }'
	done | sort -u >"$tmp/uses"
	join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u
}

# circles NAME FILE...: every pair of objects that use each other.
circles() {
	local name=$1 found=0 a b
	shift
	edges "$@" >"$tmp/edges"
	while read -r a b; do
		if grep -qxF "$b $a" "$tmp/edges" && [[ $a < $b ]]; then
			bad "$name: no two files use each other" "$a <-> $b ($(cause "$a" "$b"); $(cause "$b" "$a"))"
			found=1
		fi
	done <"$tmp/edges"
	[ "$found" = 0 ] && ok "$name: no two files use each other ($# objects, $(wc -l <"$tmp/edges") uses)"
}

# cause A B: the names A takes from B.
cause() {
	join <(nm --undefined-only "$1" | awk '{ print $NF }' | sort -u) \
	     <(nm --defined-only "$2" | awk 'NF == 3 && $2 ~ /[TDBRCV]/ { print $3 }' | sort -u) |
		head -n3 | paste -sd, | sed "s|^|$(basename "$1") uses |"
}

# order NAME FILE...: files listed top down; none uses one listed above it.
order() {
	local name=$1 i j found=0
	shift
	local f=("$@")
	edges "$@" >"$tmp/edges"
	for ((i = 0; i < ${#f[@]}; i++)); do
		for ((j = 0; j < i; j++)); do
			if grep -qxF "${f[i]} ${f[j]}" "$tmp/edges"; then
				bad "$name: $(basename "${f[i]}") stays below $(basename "${f[j]}")" "$(cause "${f[i]}" "${f[j]}")"
				found=1
			fi
		done
	done
	[ "$found" = 0 ] && ok "$name: each file uses only those below it"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kfiles=(main session cpu_session cgroup selfmap sched selfread track perm hw)
kobjs=()
for f in "${kfiles[@]}"; do
	[ -f "$kdir/$f.o" ] && kobjs+=("$kdir/$f.o") || bad "module object $kdir/$f.o" "missing: build the module first"
done
[ -f "$kdir/../common/pmu_logic.o" ] && kcommon=("$kdir/../common/pmu_logic.o") || kcommon=()
if [ ${#kobjs[@]} = ${#kfiles[@]} ]; then
	circles "kmod" "${kobjs[@]}" "${kcommon[@]}"
	order "kmod" "${kobjs[@]}" "${kcommon[@]}"
fi

lib=(build/obj/user/libpmc/*.o)
cmd=(build/obj/user/pmcctl/*.o)
common=(build/obj/common/*.o)
if [ -e "${lib[0]}" ] && [ -e "${cmd[0]}" ] && [ -e "${common[0]}" ]; then
	circles "libpmc" "${lib[@]}" "${common[@]}"
	circles "pmcctl" "${cmd[@]}"
	# pmcctl over libpmc over common/: nothing below uses anything above.
	edges "${cmd[@]}" "${lib[@]}" "${common[@]}" >"$tmp/edges"
	up=$(grep -E '^build/obj/(user/libpmc|common)/[^ ]+ build/obj/user/pmcctl/' "$tmp/edges")
	[ -z "$up" ] && ok "libpmc and common/ use nothing of pmcctl" || bad "libpmc uses pmcctl" "$up"
	up=$(grep -E '^build/obj/common/[^ ]+ build/obj/user/' "$tmp/edges")
	[ -z "$up" ] && ok "common/ uses nothing of libpmc" || bad "common/ uses libpmc" "$up"
else
	bad "user-space objects" "build/obj/user/{libpmc,pmcctl} missing: run make user first"
fi

# Headers: none includes one that includes it back (two-file include circles).
for h in $(git ls-files '*.h' '*.c'); do
	grep -oE '^#include "[^"]+"' "$h" | sed -E 's/#include "(.*)"/\1/' | while read -r inc; do
		echo "$h $(dirname "$h")/$inc"
	done
done | sed 's|/\./|/|g' | sort -u >"$tmp/incs"
inc_found=0
while read -r a b; do
	if grep -qxF "$b $a" "$tmp/incs"; then
		bad "includes: no two files include each other" "$a <-> $b"
		inc_found=1
	fi
done <"$tmp/incs"
[ "$inc_found" = 0 ] && ok "includes: no two files include each other"

echo "layers: $pass passed, $fail failed"
[ "$fail" = 0 ]
