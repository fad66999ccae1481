#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deps: install every Debian package the build, the tests and the guest
# lane need.  Idempotent: installs only what is missing; runs apt-get update
# only when something must be installed.  Needs root (Debian 12).
set -euo pipefail
flavour=${GUEST_FLAVOUR:-cloud-amd64}
pkgs=(
	# build and unit tests; libpmc's event tables are generated from the kernel's
	# own event files in linux-source-6.12 (user/libpmc/pmu-events-src)
	gcc make libc6-dev libcunit1-dev libpfm4-dev linux-source-6.12 python3
	# pmcctl report reads JSON with json-c and draws --plot with gnuplot; the host
	# MPI test runs pmcctl under both MPIs Debian ships (tests/mpi-check.sh); the
	# guest's MPI program is built with MPICH's mpicc, whose mpi.h is in libmpich-dev
	# (only a Recommends of mpich), and MPICH goes into the guest image (tests/vm/run)
	libjson-c-dev gnuplot-nox mpich libmpich-dev openmpi-bin
	# pmcctl serve's HTTP server (libmicrohttpd12 goes into the guest image, tests/vm/run);
	# promtool checks its expositions and recording rules (tests/serve-check.sh); a real
	# Prometheus scrapes the guest through passt's user networking (tests/prom-check.sh)
	libmicrohttpd-dev prometheus passt curl
	# kernel module build and its quality gates (sparse; checkpatch is fetched by tests/kbuild-check.sh)
	"linux-headers-$flavour" linux-headers-rt-amd64 kmod sparse libelf-dev perl
	# the guest lane: Debian's QEMU and firmware, busybox, perf, msr-tools, jq
	qemu-system-x86 qemu-system-data seabios busybox-static cpio gzip msr-tools linux-perf jq file
	# building the project's QEMU with the emulated PMU (tests/qemu/build)
	dpkg-dev libfdt-dev libglib2.0-dev libpixman-1-dev ninja-build meson flex bison pkg-config python3
	ca-certificates
	# the module's coverage over the debug lane (tests/coverage.sh: lcov, genhtml)
	lcov
	# the man page lint (tests/man-check.sh)
	groff-base man-db
	# the Debian packages, DKMS and bash completion (tests/pkg-check.sh)
	debhelper dh-dkms dkms lintian openssl bash-completion
	# make bench's third tool beside pmcdrv and perf: LIKWID, staged into the guest
	# (bench/likwid-stage.sh; its marker-API header and liblikwid are in the same package)
	likwid
	# make bench's B16 (a build): the C compiler staged into the guest with make (bench/build-stage.sh)
	tcc
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "make deps: all ${#pkgs[@]} packages present"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "make deps: missing ${missing[*]}; run as root (sudo make deps)" >&2
	exit 1
fi
echo "make deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "make deps: done"
