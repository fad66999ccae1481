#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pmcdrv installed as a real driver (the Debian packages, DKMS, make install):
#   1. one version everywhere (Makefile, dkms.conf, debian/changelog, pmcctl);
#   2. pmcdrv(4) renders without warnings and documents every ioctl of the
#      ABI header, every errno of docs/abi.md and every module parameter;
#   3. make install / make uninstall under DESTDIR+PREFIX: the files, then none;
#   4. bash completion: commands, a command's options, event names;
#   5. dpkg-buildpackage builds pmcdrv-dkms, pmcctl, libpmc0, libpmc-dev from a
#      copy of the tree (build/pkg), and lintian reports no error (a broken
#      package shows that lintian does report errors here);
#   6. libpmc.so.0: its soname, exactly the functions and data the public
#      headers name exported;
#   7. the packages unpacked into a scratch root (dpkg -x): pmcctl runs from
#      there, a program builds against libpmc with only pkg-config;
#   8. pmcdrv-dkms's sources built by dkms against the guest kernel's headers;
#      make dkms-install / dkms-uninstall (private DKMS trees);
#   9. in the guest with that module (tests/pkg/guest.sh): the session tests,
#      the program, pmcctl from the scratch root, group pmc.
# Prints PASS:/FAIL: lines and "pkg: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
check_label=pkg
. tests/lib/host.sh
# check NAME COMMAND...: PASS when COMMAND succeeds, else FAIL with its last lines.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(tail -n 8 <<<"$out")"; fi
}
expect_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi; }

for t in dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms lintian:lintian dkms:dkms \
	 pkg-config:pkg-config groff:groff-base man:man-db; do
	command -v "${t%%:*}" >/dev/null || fail "${t%%:*} installed" "install ${t#*:} (tests/deps.sh)"
done
[ "$failed" = 0 ] || finish
eval "$(tests/vm/kernel)" || { fail "guest kernel" "tests/vm/kernel failed"; finish; }
make -s WERROR=1 tests >/dev/null || { fail "make tests" "the tree does not build"; finish; }

P=build/pkg
rm -rf "$P"
mkdir -p "$P"
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

# ---- 1. one version -----------------------------------------------------------------
v=$(sed -n 's/^VERSION[[:space:]]*:= *//p' Makefile)
expect_eq "dkms.conf PACKAGE_VERSION is the Makefile's VERSION" \
	"$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)" "$v"
expect_eq "debian/changelog's version is the Makefile's VERSION" \
	"$(dpkg-parsechangelog -S Version | sed 's/-[^-]*$//')" "$v"
expect_eq "pmcctl --version is the Makefile's VERSION" \
	"$(build/bin/pmcctl --version | awk '{ print $2 }')" "$v"

# ---- 2. pmcdrv(4) -------------------------------------------------------------------
page=docs/pmcdrv.4
for lint in "groff -man -ww -z $page" "man --warnings -l $page"; do
	err=$(LC_ALL=C.UTF-8 MANWIDTH=80 $lint 2>&1 >/dev/null)
	if [ -z "$err" ]; then pass "$lint: no warnings"; else fail "$lint" "$err"; fi
done
text=$(groff -man -Tascii -P-cbou -rLL=2000n "$page" 2>/dev/null)
section() { awk -v t="$1" '$0 == t { on = 1; next } on && /^[A-Z]/ { exit } on' <<<"$text"; }
ioctls=$(sed -nE 's/^#define (PMCDRV_IOC_[A-Z_]+)[[:space:]]+_IO.*/\1/p' include/uapi/linux/pmcdrv.h)
errnos=$(sed -n '/^## errno/,/^## /p' docs/abi.md | sed -nE 's/^\| `(E[A-Z0-9]+)` \|.*/\1/p')
params=$(sed -nE 's/^module_param(_named)?\(([a-z_0-9]+),.*/\2/p' kmod/*.c)
[ -n "$ioctls" ] && [ -n "$errnos" ] && [ -n "$params" ] ||
	fail "pmcdrv(4) sources" "found no ioctls, errnos or module parameters to check"
for w in $ioctls; do
	grep -qw -- "$w" <<<"$(section IOCTLS)" && pass "pmcdrv(4) IOCTLS: $w" ||
		fail "pmcdrv(4) IOCTLS: $w" "include/uapi/linux/pmcdrv.h defines it; describe it in $page"
done
for w in $errnos; do
	grep -qE "^ {7}$w( |\$)" <<<"$(section ERRORS)" && pass "pmcdrv(4) ERRORS: $w" ||
		fail "pmcdrv(4) ERRORS: $w" "docs/abi.md lists it; describe it under ERRORS in $page"
done
for w in $params; do
	grep -qE "^ {7}$w=" <<<"$(section 'MODULE PARAMETERS')" && pass "pmcdrv(4) MODULE PARAMETERS: $w" ||
		fail "pmcdrv(4) MODULE PARAMETERS: $w" "kmod/ declares it; describe it in $page"
done

# ---- 3. make install / uninstall ----------------------------------------------------
d=$PWD/$P/destdir
if make -s install install-udev DESTDIR="$d" PREFIX=/opt/pmc >"$P/install.log" 2>&1; then
	pass "make install install-udev DESTDIR PREFIX=/opt/pmc"
	want="opt/pmc/bin/pmcctl opt/pmc/lib/libpmc.so.$v opt/pmc/lib/libpmc.so.0 opt/pmc/lib/libpmc.so
	      opt/pmc/lib/libpmc.a opt/pmc/lib/pkgconfig/libpmc.pc opt/pmc/include/pmcdrv/libpmc.h
	      opt/pmc/include/pmcdrv/pmu.h opt/pmc/include/pmcdrv/shim.h opt/pmc/include/pmcdrv/linux/pmcdrv.h
	      opt/pmc/share/man/man1/pmcctl.1 opt/pmc/share/man/man4/pmcdrv.4
	      opt/pmc/share/bash-completion/completions/pmcctl etc/udev/rules.d/60-pmcdrv.rules"
	[ -e docs/libpmc.3 ] && want="$want opt/pmc/share/man/man3/libpmc.3"
	miss=""
	for f in $want; do [ -e "$d/$f" ] || miss="$miss $f"; done
	[ -z "$miss" ] && pass "make install: every file in place" || fail "make install" "missing:$miss"
	expect_eq "libpmc.pc: prefix is PREFIX" \
		"$(PKG_CONFIG_LIBDIR=$d/opt/pmc/lib/pkgconfig pkg-config --variable=prefix libpmc)" /opt/pmc
	make -s uninstall uninstall-udev DESTDIR="$d" PREFIX=/opt/pmc >>"$P/install.log" 2>&1
	left=$(find "$d" ! -type d)
	[ -z "$left" ] && pass "make uninstall: nothing left" || fail "make uninstall" "left: $left"
else
	fail "make install DESTDIR PREFIX" "$(tail -n 5 "$P/install.log")"
fi

# ---- 4. bash completion -------------------------------------------------------------
# complete LINE: what the completion offers for LINE (ending in the word completed).
complete_line() {
	bash -c '
		[ -r /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
		. packaging/bash-completion/pmcctl
		line=$1
		read -ra COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
		_pmcctl
		printf "%s\n" "${COMPREPLY[@]}"' _ "$1" 2>/dev/null
}
export PATH=$PWD/build/bin:$PATH
got=$(complete_line "pmcctl " | sort | tr '\n' ' ')
cmds=$(pmcctl --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
ok=1
for c in $cmds; do [[ " $got " == *" $c "* ]] || ok=0; done
[ "$ok" = 1 ] && [ -n "$cmds" ] && pass "completion: every command ($(echo $cmds))" ||
	fail "completion: commands" "offered '$got'"
got=$(complete_line "pmcctl stat --" | tr '\n' ' ')
[[ " $got " == *" --all-cpus "* && " $got " == *" --interval-print "* && " $got " != *" --msr "* ]] &&
	pass "completion: stat's options, not run's" || fail "completion: stat --" "offered '$got'"
got=$(complete_line "pmcctl run -e cycles,instr" | tr '\n' ' ')
[[ " $got " == *" cycles,instructions "* && " $got " == *" cycles,instructions:u "* ]] &&
	pass "completion: event names in an -e list" || fail "completion: -e cycles,instr" "offered '$got'"
got=$(complete_line "pmcctl run -e task-clock ech" | tr '\n' ' ')
[[ " $got " == *" echo "* ]] && pass "completion: the counted command" ||
	fail "completion: run -e task-clock ech" "offered '$got'"

# ---- 5. the packages, lintian -------------------------------------------------------
src=$P/pmcdrv-$v
mkdir -p "$src"
# The tree as git sees it (tracked and new files, not build products).
{ git ls-files -co --exclude-standard -z 2>/dev/null ||
  find . -path ./build -prune -o -path ./.git -prune -o -type f -printf '%P\0'; } |
	grep -zv '^build/' | xargs -0 cp --parents -t "$src"
start=$(date +%s)
if (cd "$src" && nice dpkg-buildpackage -us -uc) >"$P/dpkg-buildpackage.log" 2>&1; then
	pass "dpkg-buildpackage ($(($(date +%s) - start)) s)"
else
	fail "dpkg-buildpackage" "$(tail -n 15 "$P/dpkg-buildpackage.log")"
	finish
fi
for p in pmcdrv-dkms_${v}_all pmcctl_${v}_amd64 libpmc0_${v}_amd64 libpmc-dev_${v}_amd64; do
	[ -f "$P/$p.deb" ] && pass "package $p.deb" || fail "package $p.deb" "not built"
done
# Debian's shared-library rules: dpkg-gensymbols found no symbol missing from libpmc0.symbols.
grep -q 'dpkg-gensymbols: warning' "$P/dpkg-buildpackage.log" &&
	fail "dpkg-gensymbols" "$(grep -A5 'dpkg-gensymbols: warning' "$P/dpkg-buildpackage.log")" ||
	pass "dpkg-gensymbols: libpmc0.symbols matches the library"
lint=$(nice lintian --allow-root --tag-display-limit 0 -I --pedantic "$P/pmcdrv_${v}_amd64.changes" 2>&1)
lrc=$?
nerr=$(grep -c '^E: ' <<<"$lint")
nwarn=$(grep -c '^W: ' <<<"$lint")
echo "lintian: $nerr errors, $nwarn warnings, $(grep -c '^[IP]: ' <<<"$lint") info/pedantic"
[ -n "$lint" ] && sed 's/^/    /' <<<"$lint"
[ "$nerr" = 0 ] && [ "$lrc" = 0 ] && pass "lintian: no errors ($nwarn warnings)" ||
	fail "lintian" "$nerr errors (exit $lrc)"
# A package without copyright or description: lintian must report it, or the check above means nothing.
bad=$P/canary
mkdir -p "$bad/DEBIAN" "$bad/usr/bin"
cp build/bin/pmcctl "$bad/usr/bin/pmccanary"
printf 'Package: pmccanary\nVersion: 1\nArchitecture: amd64\nMaintainer: x <x@example.org>\nDescription: x\n' \
	>"$bad/DEBIAN/control"
dpkg-deb --root-owner-group -b "$bad" "$P/canary.deb" >/dev/null 2>&1
canary=$(lintian --allow-root "$P/canary.deb" 2>&1)
grep -q '^E: ' <<<"$canary" && pass "lintian reports errors (a broken canary)" ||
	fail "lintian canary" "lintian reports no error for a package without copyright"

# Every guest run carries the whole tree (tests/vm/run): keep build/pkg small.
rm -rf "$src" "$bad"

# ---- 6. libpmc.so.0 -----------------------------------------------------------------
root=$PWD/$P/root
mkdir -p "$root"
for f in "$P"/pmcdrv-dkms_${v}_all.deb "$P"/pmcctl_${v}_amd64.deb "$P"/libpmc0_${v}_amd64.deb \
	 "$P"/libpmc-dev_${v}_amd64.deb; do
	dpkg -x "$f" "$root" || fail "dpkg -x $f" "cannot unpack"
done
lib=$root/usr/lib/$ma/libpmc.so.0
expect_eq "libpmc0: soname" "$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" libpmc.so.0
exported=$(nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | grep -v '^LIBPMC_' | sort -u)
named=$(grep -ohwE 'pmc_[a-z0-9_]+' user/libpmc/libpmc.h include/pmcdrv/pmu.h | sort -u)
stray=$(comm -23 <(echo "$exported") <(echo "$named"))
[ -z "$stray" ] && pass "libpmc0: exports only names of its public headers ($(wc -l <<<"$exported") symbols)" ||
	fail "libpmc0: exports" "not in libpmc.h or pmu.h: $stray"
internal=$(nm -g --defined-only build/libpmc.a | awk 'NF == 3 { print $3 }' | sort -u | comm -23 - <(echo "$named"))
for s in $internal; do
	grep -qx "$s" <<<"$exported" && fail "libpmc0 hides $s" "internal symbol exported" ||
		pass "libpmc0 hides internal $s"
done
missing=$(comm -13 <(echo "$exported") <(nm -g --defined-only build/libpmc.a | awk 'NF == 3 { print $3 }' |
	sort -u | comm -12 - <(echo "$named")))
[ -z "$missing" ] && pass "libpmc0: every public function of libpmc.a exported" ||
	fail "libpmc0: exports" "missing: $missing"
dynsyms=$(nm -D "$lib")
grep -q ' pmc_session_open@@LIBPMC_0$' <<<"$dynsyms" && pass "libpmc0: symbols versioned LIBPMC_0" ||
	fail "libpmc0: symbol version" "pmc_session_open is not pmc_session_open@@LIBPMC_0"

# ---- 7. from the scratch root -------------------------------------------------------
expect_eq "pmcctl from the scratch root: --version" \
	"$("$root/usr/bin/pmcctl" --version | awk '{ print $2 }')" "$v"
check "pmcctl from the scratch root: list" "$root/usr/bin/pmcctl" list
check "pmcctl from the scratch root: info" "$root/usr/bin/pmcctl" info
pc() { PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$ma/pkgconfig pkg-config "$@"; }
echo "pkg-config --cflags --libs libpmc: $(pc --cflags --libs libpmc)"
prog=$P/libpmc-user
if gcc -Wall -Wextra -Werror -o "$prog" tests/pkg/libpmc-user.c $(pc --cflags --libs libpmc) \
	>"$P/prog.log" 2>&1; then
	pass "a program builds with only 'pkg-config --cflags --libs libpmc'"
else
	fail "program against the installed libpmc" "$(cat "$P/prog.log")"
fi
expect_eq "the program needs libpmc.so.0" \
	"$(readelf -d "$prog" 2>/dev/null | sed -n 's/.*NEEDED.*\[\(libpmc[^]]*\)\].*/\1/p')" libpmc.so.0
if gcc -Wall -Werror -static -o "$prog-static" tests/pkg/libpmc-user.c \
	$(pc --cflags --libs --static libpmc) >>"$P/prog.log" 2>&1; then
	pass "the same program links statically (libpmc.a)"
else
	fail "static link" "$(tail -n 5 "$P/prog.log")"
fi
# On this host (no module): the program runs from the scratch root's library and says why it cannot count.
out=$(LD_LIBRARY_PATH=$root/usr/lib/$ma "$prog" task-clock 1000 2>&1)
rc=$?
[ "$rc" = 3 ] && grep -q "cannot open /dev/pmcdrv" <<<"$out" &&
	pass "the program runs on the host with the scratch root's libpmc (no device: exit 3)" ||
	fail "the program on the host" "exit $rc: $out"

# ---- 8. DKMS against the guest kernel's headers -------------------------------------
dk=$PWD/$P/dkms
mkdir -p "$dk"
dkms_=(dkms --sourcetree "$root/usr/src" --dkmstree "$dk")
start=$(date +%s)
if "${dkms_[@]}" add -m pmcdrv -v "$v" >"$P/dkms.log" 2>&1 &&
   nice "${dkms_[@]}" build -m pmcdrv -v "$v" -k "$GUEST_RELEASE" --kernelsourcedir "$GUEST_KDIR" >>"$P/dkms.log" 2>&1; then
	pass "dkms add + build pmcdrv-dkms for $GUEST_RELEASE ($(($(date +%s) - start)) s)"
else
	fail "dkms build" "$(tail -n 20 "$P/dkms.log"; cat "$dk/pmcdrv/$v/build/make.log" 2>/dev/null | tail -n 20)"
	finish
fi
ko=$(find "$dk/pmcdrv/$v/$GUEST_RELEASE" -name 'pmcdrv.ko*' | head -n1)
case $ko in
*.xz) xz -dc "$ko" >"$P/pmcdrv.ko" ;;
*.zst) zstd -qdc "$ko" >"$P/pmcdrv.ko" ;;
*) cp "$ko" "$P/pmcdrv.ko" ;;
esac
readelf -n "$P/pmcdrv.ko" | sed -n 's/.*Build ID: *//p' >"$P/build-id"
[ -s "$P/build-id" ] || fail "the DKMS module's build ID" "readelf -n finds none in $P/pmcdrv.ko"
expect_eq "the DKMS module's vermagic names the guest kernel" \
	"$(modinfo -F vermagic "$P/pmcdrv.ko" | awk '{ print $1 }')" "$GUEST_RELEASE"
# DKMS signs with its MOK (/var/lib/dkms/mok.pub, README: Secure Boot) when it has sign-file.
if [ -n "$(modinfo -F signer "$P/pmcdrv.ko")" ] && [ -r /var/lib/dkms/mok.pub ]; then
	want=$(openssl x509 -inform DER -in /var/lib/dkms/mok.pub -noout -subject -nameopt multiline 2>/dev/null |
		sed -n 's/^ *commonName *= *//p')
	expect_eq "the DKMS module is signed with DKMS's MOK" "$(modinfo -F signer "$P/pmcdrv.ko")" "$want"
else
	echo "NOTE: the DKMS module is not signed (no sign-file or no /var/lib/dkms/mok.pub)"
fi

# Debian's 6.12 beside it, as on a machine with both kernels installed: the same
# DKMS tree builds the module for that kernel too.
k612=$(GUEST_FLAVOUR=6.12-cloud-amd64 tests/vm/kernel) || fail "the 6.12 kernel" "tests/vm/kernel failed"
K612_RELEASE=$(sed -n 's/^GUEST_RELEASE=//p' <<<"$k612")
K612_KDIR=$(sed -n 's/^GUEST_KDIR=//p' <<<"$k612")
if [ -n "$K612_RELEASE" ]; then
	start=$(date +%s)
	if nice "${dkms_[@]}" build -m pmcdrv -v "$v" -k "$K612_RELEASE" --kernelsourcedir "$K612_KDIR" \
		>>"$P/dkms.log" 2>&1; then
		pass "dkms build pmcdrv-dkms for $K612_RELEASE beside $GUEST_RELEASE ($(($(date +%s) - start)) s)"
	else
		fail "dkms build for $K612_RELEASE" "$(tail -n 20 "$P/dkms.log"; tail -n 20 "$dk/pmcdrv/$v/build/make.log" 2>/dev/null)"
	fi
	st=$("${dkms_[@]}" status -m pmcdrv -v "$v" 2>&1)
	echo "$st"
	grep -q "$GUEST_RELEASE.*built" <<<"$st" && grep -q "$K612_RELEASE.*built" <<<"$st" &&
		pass "dkms status: built for both kernels" || fail "dkms status: both kernels" "$st"
	ko=$(find "$dk/pmcdrv/$v/$K612_RELEASE" -name 'pmcdrv.ko*' 2>/dev/null | head -n1)
	case $ko in
	'') ;;
	*.xz) xz -dc "$ko" >"$P/pmcdrv-612.ko" ;;
	*.zst) zstd -qdc "$ko" >"$P/pmcdrv-612.ko" ;;
	*) cp "$ko" "$P/pmcdrv-612.ko" ;;
	esac
	readelf -n "$P/pmcdrv-612.ko" 2>/dev/null | sed -n 's/.*Build ID: *//p' >"$P/build-id-612"
	expect_eq "the 6.12 DKMS module's vermagic names $K612_RELEASE" \
		"$(modinfo -F vermagic "$P/pmcdrv-612.ko" 2>/dev/null | awk '{ print $1 }')" "$K612_RELEASE"
fi

# make dkms-install / dkms-uninstall as a user runs them, but with private DKMS trees.
mk=$PWD/$P/dkms-make
mkdir -p "$mk/tree" "$mk/lib/modules/$GUEST_RELEASE"
mdkms="dkms --sourcetree $mk/root/usr/src --dkmstree $mk/tree --installtree $mk/lib/modules --no-depmod"
if nice make -s dkms-install DESTDIR="$mk/root" DKMS="$mdkms" DKMS_KERNELS="$GUEST_RELEASE" >"$P/dkms-make.log" 2>&1 &&
   [ -f "$mk/lib/modules/$GUEST_RELEASE/updates/dkms/pmcdrv.ko" ]; then
	pass "make dkms-install: pmcdrv.ko in updates/dkms of $GUEST_RELEASE"
else
	fail "make dkms-install" "$(tail -n 15 "$P/dkms-make.log")"
fi
make -s dkms-uninstall DESTDIR="$mk/root" DKMS="$mdkms" >>"$P/dkms-make.log" 2>&1
left=$(find "$mk/root" "$mk/lib" -type f)
[ -z "$left" ] && [ -z "$($mdkms status 2>/dev/null)" ] && pass "make dkms-uninstall: module, sources and DKMS entry gone" ||
	fail "make dkms-uninstall" "left: $left $($mdkms status 2>&1)"

# ---- 9. the guest -------------------------------------------------------------------
start=$(date +%s)
out=$(nice tests/vm/run --module "$P/pmcdrv.ko" -- tests/pkg/guest.sh "$P" 2>&1)
rc=$?
echo "$out" | sed 's/^/    /'
gp=$(grep -c '^PASS: ' <<<"$out")
gf=$(grep -c '^FAIL: ' <<<"$out")
passed=$((passed + gp))
failed=$((failed + gf))
echo "guest ($(($(date +%s) - start)) s): $gp passed, $gf failed"
[ "$rc" = 0 ] || [ "$gf" != 0 ] || fail "guest run" "tests/vm/run exited $rc"

# The module DKMS built for 6.12, in a 6.12 guest: loads, counts the loop exactly.
if [ -s "$P/pmcdrv-612.ko" ]; then
	start=$(date +%s)
	out=$(GUEST_FLAVOUR=6.12-cloud-amd64 nice tests/vm/run --module "$P/pmcdrv-612.ko" -- \
		tests/pkg/guest.sh "$P" -612 2>&1)
	rc=$?
	echo "$out" | sed 's/^/    /'
	gp=$(grep -c '^PASS: ' <<<"$out")
	gf=$(grep -c '^FAIL: ' <<<"$out")
	passed=$((passed + gp))
	failed=$((failed + gf))
	echo "guest $K612_RELEASE ($(($(date +%s) - start)) s): $gp passed, $gf failed"
	[ "$rc" = 0 ] || [ "$gf" != 0 ] || fail "guest run on $K612_RELEASE" "tests/vm/run exited $rc"
	# With the project's QEMU the guest has a PMU, and the exact count must be there.
	if tests/qemu/build --print-path >/dev/null 2>&1; then
		grep -q "^PASS: pmcctl from the scratch root: the loop's exact count" <<<"$out" ||
			fail "the 6.12 DKMS module counts the loop exactly" "no such PASS line in the 6.12 guest"
	fi
else
	fail "the 6.12 DKMS module in the guest" "no $P/pmcdrv-612.ko"
fi
finish
