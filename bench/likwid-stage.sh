#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/likwid-stage.sh [DIR]: stage Debian's LIKWID (package likwid) under DIR
# (default build/likwid) for the guest, whose initramfs carries this tree at
# its host path (tests/vm/run) but not LIKWID.  Staged: likwid-perfctr (a
# Lua 5.3 script) and likwid.lua, the Lua interpreter, liblikwid and
# liblikwidpin and every library ldd names for them but glibc's, the
# Skylake client's performance groups (the guest's CPU), and the daemons
# (not used: bench/guest.sh runs likwid-perfctr -M 0, direct MSR access).  LIKWID's Lua files name their paths (/usr/share/lua,
# /usr/lib/x86_64-linux-gnu, /usr/share/likwid/perfgroups) literally: the
# staged copies name DIR's instead, so the guest needs only
#   PATH=DIR/bin:$PATH LD_LIBRARY_PATH=DIR/lib
# DIR/version holds the package's version; a stage whose key (that version,
# DIR and this script) is unchanged is kept.  Exit 0 staged (or kept), 3 when
# the likwid package is not installed (nothing staged).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/likwid}
mkdir -p "$(dirname "$dir")"
dir=$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")

ver=$(dpkg-query -W -f '${Version}' likwid 2>/dev/null) &&
	[ "$(dpkg-query -W -f '${Status}' likwid 2>/dev/null)" = "install ok installed" ] || {
	echo "bench/likwid-stage.sh: the likwid package is not installed" >&2
	exit 3
}
key="$ver $dir $(sha256sum bench/likwid-stage.sh | cut -c1-16)"
[ "$(cat "$dir/key" 2>/dev/null)" = "$key" ] && exit 0

rm -rf "$dir"
mkdir -p "$dir"/{bin,lib,share/lua,share/likwid/perfgroups}
# path PATTERN: the one file of the package whose path matches PATTERN
path() { dpkg -L likwid | grep -E "$1" | head -n1; }
libdir=$(dirname "$(path '/liblikwid\.so\.[0-9.]+$')")
# Libraries: liblikwid's and the interpreter's, by ldd, but not the C library's
# own (the guest's base image has glibc; its loader must match it).
libs() {
	ldd "$@" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | grep -vE '/(ld-linux[^/]*|libc|libm|libpthread|libdl|librt)\.so' | sort -u
}
lua=$(readlink -f "$(head -n1 "$(path '/bin/likwid-perfctr$')" | sed 's/^#! *//; s/ .*//')")
cp -L "$lua" "$dir/bin/lua5.3"
for f in "$libdir"/liblikwid*.so.[0-9]*; do cp -a "$f" "$dir/lib/"; done
for l in $(libs "$lua" "$libdir"/liblikwid.so.[0-9]* "$libdir"/liblikwidpin.so.[0-9]*); do
	cp -L "$l" "$dir/lib/"
done
cp -a "$libdir"/liblikwid.so "$libdir"/liblikwidpin.so "$dir/lib/" 2>/dev/null || true
# Lua: the script's interpreter and LIKWID's paths, rewritten to the staged ones.
rewrite() {	# SRC DST
	sed -e "1s|^#!.*|#!$dir/bin/lua5.3|" \
		-e "s|/usr/share/lua/|$dir/share/lua/|g" \
		-e "s|$libdir/|$dir/lib/|g" \
		-e "s|/usr/share/likwid/perfgroups|$dir/share/likwid/perfgroups|g" "$1" >"$2"
}
rewrite "$(path '/likwid\.lua$')" "$dir/share/lua/likwid.lua"
# liblikwid has its own compiled-in group path (for -a and group names): set it to the stage's.
sed -i 's|^likwid.groupfolder = .*|&\nlikwid_setGroupPath(likwid.groupfolder)|' "$dir/share/lua/likwid.lua"
for b in likwid-perfctr likwid-topology likwid-features likwid-pin; do
	rewrite "$(path "/bin/$b\$")" "$dir/bin/$b"
	chmod 755 "$dir/bin/$b"
done
for d in likwid-accessD likwid-setFreq; do cp "$(path "/sbin/$d\$")" "$dir/bin/"; done
# The performance groups of the Skylake client, the guest's CPU (likwid-perfctr -a).
cp -a "$(dirname "$(path '/perfgroups/skylake/CLOCK\.txt$')")" "$dir/share/likwid/perfgroups/"
echo "$ver" >"$dir/version"
echo "$key" >"$dir/key"
echo "bench/likwid-stage.sh: staged likwid $ver in $dir" >&2
