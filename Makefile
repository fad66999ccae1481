# SPDX-License-Identifier: GPL-2.0
#
# pmcdrv: the kernel module (kmod/), the pure logic it shares with user space
# (common/), libpmc (user/libpmc/), pmcctl (user/pmcctl/), tests and the guest lane.
#
# Variables: KDIR (kernel build tree), PMCDRV_CACHE (slow builds, default
# /var/cache/pmcdrv), GUEST_FLAVOUR (Debian kernel flavour of the guest),
# CFLAGS (yours; default -O2), CPPFLAGS and LDFLAGS (yours, e.g. dpkg-buildflags'),
# WERROR=1 (warnings are errors; make check sets it), and for make install:
# PREFIX, DESTDIR, BINDIR, LIBDIR, INCLUDEDIR, MANDIR, DATADIR, UDEVRULESDIR;
# for make dkms-install: DKMS (the command), DKMS_KERNELS (default: every one with headers).

KDIR		?= /lib/modules/$(shell uname -r)/build
# One version for pmcctl --version, dkms.conf, debian/changelog (tests/pkg-check.sh
# checks that they agree) and the shared library's file name.
# SOVERSION: libpmc.so's; a change that breaks a caller of the exported API bumps it, and
# with it the package libpmcN (debian/) and the symbol version LIBPMC_N.
VERSION		:= 0.1
SOVERSION	:= 0
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
DATADIR		?= $(PREFIX)/share
MANDIR		?= $(DATADIR)/man
# udev reads /etc and /lib (/usr/lib), never PREFIX: a local install's rule goes to /etc.
UDEVRULESDIR	?= /etc/udev/rules.d
PMCDRV_CACHE	?= /var/cache/pmcdrv
GUEST_FLAVOUR	?= cloud-amd64
export PMCDRV_CACHE GUEST_FLAVOUR

CC		?= cc
WARNINGS	:= -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
CFLAGS_COMMON	:= -std=gnu11 -g $(WARNINGS) $(if $(filter 1,$(WERROR)),-Werror) \
		   -D_GNU_SOURCE -MMD -MP -Iinclude -Iinclude/uapi -Iuser/libpmc
CFLAGS		?= -O2
SANITIZE	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

B		:= build
COMMON_SRCS	:= common/pmu_logic.c
LIBPMC_SRCS	:= $(wildcard user/libpmc/*.c)
PMCCTL_SRCS	:= $(wildcard user/pmcctl/*.c)
# pmcctl's pure formatting and parsing, also held against golden files and tables by the unit tests.
REPORT_SRCS	:= user/pmcctl/output.c user/pmcctl/report.c user/pmcctl/regions.c user/pmcctl/sessions.c \
		   user/pmcctl/topdown.c user/pmcctl/mpi.c user/pmcctl/merge.c user/pmcctl/metrics.c \
		   user/pmcctl/jsonread.c user/pmcctl/gnuplot.c user/pmcctl/plot.c user/pmcctl/expo.c \
		   user/pmcctl/hybrid.c
# -I's intervals (interval.c), unit-tested too, and what it calls beyond the above: count.c
# (parse_long(), the scaling), builtin-plot.c (--plot's plot_draw()), errors.c (count.c's messages).
INTERVAL_SRCS	:= user/pmcctl/interval.c user/pmcctl/count.c user/pmcctl/builtin-plot.c \
		   user/pmcctl/errors.c
UNIT_SRCS	:= $(wildcard tests/unit/*.c tests/lib/*.c)
# tests/guest/rankloop.c is an MPI program: MPICH's compiler wrapper builds it (MPICC).
GUEST_C_SRCS	:= $(filter-out tests/guest/rankloop.c,$(wildcard tests/guest/*.c))
GUEST_BINS	:= $(patsubst tests/guest/%.c,$(B)/tests/%,$(GUEST_C_SRCS)) $(B)/tests/rankloop \
		   $(B)/tests/oldabi
MPICC		?= mpicc.mpich
PROG_SRCS	:= $(wildcard tests/progs/*.S)
PROG_BINS	:= $(patsubst tests/progs/%.S,$(B)/progs/%,$(PROG_SRCS))
EXAMPLE_SRCS	:= $(wildcard examples/*.c)
EXAMPLE_BINS	:= $(patsubst examples/%.c,$(B)/examples/%,$(EXAMPLE_SRCS))

# libpmc's event and metric tables, generated from the kernel's own data
# (user/libpmc/pmu_events.h; the files are cached by user/libpmc/pmu-events-src).
PE_GEN		:= $(B)/gen/pmu_events.c
LIBPMC_GEN_SRCS	:= $(PE_GEN)
obj		= $(patsubst %.c,$(B)/obj/%.o,$(1))
uobj		= $(patsubst %.c,$(B)/unit-obj/%.o,$(1))
LIBPMC_OBJS	:= $(call obj,$(LIBPMC_SRCS) $(COMMON_SRCS) $(LIBPMC_GEN_SRCS))
LIBPMC_PIC_OBJS	:= $(patsubst %.c,$(B)/pic-obj/%.o,$(LIBPMC_SRCS) $(COMMON_SRCS) $(LIBPMC_GEN_SRCS))
LIBPMC_SO	:= libpmc.so.$(SOVERSION)
# What libpmc itself links against: libpfm4 (the CPU models' event tables) and,
# for its one-time initialization, pthread_once.
LIBPMC_LIBS	:= -lpfm -lpthread
# What a program of its own needs to include libpmc.h: the library's header
# beside the shared logic's and the ABI's (installed as <linux/pmcdrv.h> under
# INCLUDEDIR/pmcdrv, not into the kernel headers' /usr/include/linux).
PUBLIC_HEADERS	:= user/libpmc/libpmc.h include/pmcdrv/pmu.h include/pmcdrv/shim.h
MAN_PAGES	:= docs/pmcctl.1 docs/pmcdrv.4 $(wildcard docs/libpmc.3)
PMCCTL_OBJS	:= $(call obj,$(PMCCTL_SRCS))
# What pmcctl links besides libpmc: json-c, to read the JSON files 'pmcctl report' merges,
# and libmicrohttpd, the HTTP server of 'pmcctl serve'.
PMCCTL_LIBS	:= -ljson-c -lmicrohttpd
UNIT_OBJS	:= $(call uobj,$(UNIT_SRCS) $(LIBPMC_SRCS) $(COMMON_SRCS) $(REPORT_SRCS) $(INTERVAL_SRCS) \
		   $(LIBPMC_GEN_SRCS))

.PHONY: FORCE all module user examples shared install uninstall install-udev uninstall-udev dkms-source dkms-install \
	dkms-uninstall tests deps check unit coverage-unit kbuild-check guest-check demo bench clean help

all: module user examples ## build kmod/pmcdrv.ko against KDIR, the user-space tools and examples/

help: ## this list
	@sed -n 's/^\([a-z-]*\):.*## \(.*\)/  make \1\t\2/p' $(MAKEFILE_LIST) | expand -t 22

# ---- kernel module -------------------------------------------------------
module: ## kmod/pmcdrv.ko only
	@if [ ! -d "$(KDIR)" ]; then \
	  echo "error: no kernel build tree at KDIR=$(KDIR)" >&2; \
	  echo "  install the headers of the running kernel (apt-get install linux-headers-$$(uname -r))," >&2; \
	  echo "  or build against another kernel with: make KDIR=/path/to/linux-headers" >&2; \
	  exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# ---- user space ----------------------------------------------------------
user: $(B)/bin/pmcctl $(B)/libpmc.a shared ## libpmc (static and shared) and pmcctl only

shared: $(B)/$(LIBPMC_SO) ## libpmc.so.N (soname) only

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS_COMMON) $(CFLAGS) -c -o $@ $<

$(B)/pic-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS_COMMON) $(CFLAGS) -fPIC -c -o $@ $<

# Which files, asked at every make (dpkg and apt, no download once cached); the
# stamp changes only when they do, so a new linux-source version regenerates.
$(B)/gen/pmu-events.src: user/libpmc/pmu-events-src FORCE
	@mkdir -p $(dir $@)
	@user/libpmc/pmu-events-src >$@.tmp && \
	  { if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi; }

$(PE_GEN): user/libpmc/gen-pmu-events.py $(B)/gen/pmu-events.src
	python3 user/libpmc/gen-pmu-events.py "$$(sed -n 1p $(B)/gen/pmu-events.src)" \
	  "$$(sed -n 2p $(B)/gen/pmu-events.src)" $@

FORCE:

$(B)/libpmc.a: $(LIBPMC_OBJS)
	$(AR) rcs $@ $^

# Export exactly libpmc's API: the functions and data its public headers name
# (libpmc.h and the shared logic's pmu.h), under one symbol version; every
# other symbol (pmc_error, ...) stays inside the library.
$(B)/libpmc.map: $(LIBPMC_PIC_OBJS) $(PUBLIC_HEADERS) include/uapi/linux/pmcdrv.h
	@grep -ohwE 'pmc_[a-z0-9_]+' $(PUBLIC_HEADERS) | sort -u >$@.names
	@{ printf 'LIBPMC_$(SOVERSION) {\nglobal:\n'; \
	   nm -g --defined-only $(LIBPMC_PIC_OBJS) | awk 'NF == 3 { print $$3 }' | sort -u | \
	   grep -xF -f $@.names | sed 's/.*/\t&;/'; \
	   printf 'local:\n\t*;\n};\n'; } >$@.tmp
	@rm -f $@.names
	@mv $@.tmp $@

$(B)/libpmc.so.$(VERSION): $(LIBPMC_PIC_OBJS) $(B)/libpmc.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(LIBPMC_SO) -Wl,--version-script,$(B)/libpmc.map \
		-Wl,-z,defs -o $@ $(LIBPMC_PIC_OBJS) $(LIBPMC_LIBS) -lc

$(B)/$(LIBPMC_SO): $(B)/libpmc.so.$(VERSION)
	ln -sf libpmc.so.$(VERSION) $@
	ln -sf $(LIBPMC_SO) $(B)/libpmc.so

# pmcctl carries the libpmc of its own source (static): no libpmc0 of another version under it.
$(B)/bin/pmcctl: $(PMCCTL_OBJS) $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBPMC_LIBS) $(PMCCTL_LIBS) -lm

# examples/: small programs that use libpmc as a user would (regions, self-read).
examples: $(EXAMPLE_BINS) ## the programs of examples/ (build/examples/)

$(B)/examples/%: examples/%.c $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $< $(B)/libpmc.a $(LIBPMC_LIBS)

# ---- install -------------------------------------------------------------
install: user ## pmcctl, libpmc (.so.N, .a, headers, pkg-config), man pages, bash completion
	install -D -m 0755 $(B)/bin/pmcctl $(DESTDIR)$(BINDIR)/pmcctl
	install -D -m 0644 $(B)/libpmc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpmc.so.$(VERSION)
	ln -sf libpmc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(LIBPMC_SO)
	ln -sf $(LIBPMC_SO) $(DESTDIR)$(LIBDIR)/libpmc.so
	install -D -m 0644 $(B)/libpmc.a $(DESTDIR)$(LIBDIR)/libpmc.a
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' packaging/libpmc.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/libpmc.pc
	install -D -m 0644 -t $(DESTDIR)$(INCLUDEDIR)/pmcdrv $(PUBLIC_HEADERS)
	install -D -m 0644 include/uapi/linux/pmcdrv.h $(DESTDIR)$(INCLUDEDIR)/pmcdrv/linux/pmcdrv.h
	for m in $(MAN_PAGES); do \
	  s=$${m##*.}; install -D -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/$${m##*/} || exit 1; done
	install -D -m 0644 packaging/bash-completion/pmcctl $(DESTDIR)$(DATADIR)/bash-completion/completions/pmcctl
	@[ -n "$(DESTDIR)" ] || [ "$$(id -u)" != 0 ] || ! command -v ldconfig >/dev/null || ldconfig

uninstall: ## remove what make install installed (same PREFIX and DESTDIR)
	rm -f $(DESTDIR)$(BINDIR)/pmcctl
	rm -f $(DESTDIR)$(LIBDIR)/libpmc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(LIBPMC_SO) \
	      $(DESTDIR)$(LIBDIR)/libpmc.so $(DESTDIR)$(LIBDIR)/libpmc.a $(DESTDIR)$(LIBDIR)/pkgconfig/libpmc.pc
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/pmcdrv/,$(notdir $(PUBLIC_HEADERS)) linux/pmcdrv.h)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/pmcdrv/linux $(DESTDIR)$(INCLUDEDIR)/pmcdrv 2>/dev/null
	rm -f $(DESTDIR)$(MANDIR)/man1/pmcctl.1 $(DESTDIR)$(MANDIR)/man3/libpmc.3 $(DESTDIR)$(MANDIR)/man4/pmcdrv.4
	rm -f $(DESTDIR)$(DATADIR)/bash-completion/completions/pmcctl

# Device access without root (docs/pmcdrv.4): /dev/pmcdrv 0660 root:pmc.
install-udev: ## the udev rule (UDEVRULESDIR) and the system group pmc: /dev/pmcdrv 0660 root:pmc
	install -D -m 0644 packaging/udev/60-pmcdrv.rules $(DESTDIR)$(UDEVRULESDIR)/60-pmcdrv.rules
	@if [ -z "$(DESTDIR)" ]; then \
	  getent group pmc >/dev/null || groupadd --system pmc || exit 1; \
	  if command -v udevadm >/dev/null; then udevadm control --reload || true; \
	    [ ! -e /sys/class/misc/pmcdrv ] || udevadm trigger --action=add /sys/class/misc/pmcdrv || true; fi; \
	  echo "/dev/pmcdrv is 0660 root:pmc from now on; add users with: usermod -aG pmc USER (they log in again)"; fi

uninstall-udev: ## remove the udev rule (the group pmc stays: files may belong to it)
	rm -f $(DESTDIR)$(UDEVRULESDIR)/60-pmcdrv.rules

# ---- DKMS ----------------------------------------------------------------
# The module's sources as dkms.conf expects them, in /usr/src/pmcdrv-VERSION.
DKMS_SRC	:= Kbuild dkms.conf kmod/Kbuild $(wildcard kmod/*.c kmod/*.h) $(COMMON_SRCS) \
		   include/pmcdrv/pmu.h include/pmcdrv/shim.h include/uapi/linux/pmcdrv.h
DKMS_DIR	?= /usr/src/pmcdrv-$(VERSION)

dkms-source: ## copy the module's sources to DESTDIR/usr/src/pmcdrv-VERSION (what dkms add takes)
	@for f in $(filter-out %.mod.c,$(DKMS_SRC)); do \
	  install -D -m 0644 $$f $(DESTDIR)$(DKMS_DIR)/$$f || exit 1; done

# dkms builds it again by itself for each kernel installed later (AUTOINSTALL).
# DKMS: the dkms command (tests/pkg-check.sh gives it private trees);
# DKMS_KERNELS: the kernels to build for, by default every one with headers.
DKMS		?= dkms
DKMS_KERNELS	?= $(notdir $(patsubst %/build,%,$(wildcard /lib/modules/*/build)))

dkms-install: dkms-source ## dkms add, build and install pmcdrv VERSION for every kernel with headers
	@command -v $(firstword $(DKMS)) >/dev/null || { echo "error: no dkms: apt-get install dkms" >&2; exit 1; }
	@[ -n "$(DKMS_KERNELS)" ] || { echo "error: no kernel headers under /lib/modules/*/build:" \
	  "apt-get install linux-headers-$$(uname -r), then make dkms-install again" >&2; exit 1; }
	$(DKMS) status -m pmcdrv -v $(VERSION) | grep -q . || $(DKMS) add -m pmcdrv -v $(VERSION)
	for k in $(DKMS_KERNELS); do $(DKMS) install -m pmcdrv -v $(VERSION) -k $$k || exit 1; done

dkms-uninstall: ## dkms remove pmcdrv VERSION from every kernel and delete its sources
	-$(DKMS) remove -m pmcdrv -v $(VERSION) --all
	rm -rf $(DESTDIR)$(DKMS_DIR)

# ---- tests ---------------------------------------------------------------
# Unit tests: the shared logic, libpmc and pmcctl's reports and intervals, again under ASan+UBSan.
$(B)/unit-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Wno-missing-field-initializers -O1 $(SANITIZE) -Itests/lib -Iuser/pmcctl -c -o $@ $<

$(B)/tests/unit: $(UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE) -o $@ $^ -lcunit $(LIBPMC_LIBS) $(PMCCTL_LIBS) -lm

# The unit tests' coverage of libpmc, pmcctl's reports and the shared logic
# (make coverage-unit, tests/coverage.sh --unit): the unit binary's sources
# again, with gcov and without the sanitizers, in objects of their own.
cobj		= $(patsubst %.c,$(B)/cov-obj/%.o,$(1))
COV_OBJS	:= $(call cobj,$(UNIT_SRCS) $(LIBPMC_SRCS) $(COMMON_SRCS) $(REPORT_SRCS) $(INTERVAL_SRCS) \
		   $(LIBPMC_GEN_SRCS))
$(B)/cov-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Wno-missing-field-initializers -O0 --coverage -Itests/lib -Iuser/pmcctl -c -o $@ $<

$(B)/tests/unit-cov: $(COV_OBJS)
	@mkdir -p $(dir $@)
	$(CC) --coverage -o $@ $^ -lcunit $(LIBPMC_LIBS) $(PMCCTL_LIBS) -lm

# Programs run inside the guest.
$(B)/tests/%: tests/guest/%.c $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -Itests/lib -o $@ $< $(B)/libpmc.a $(LIBPMC_LIBS)

# The MPI program of tests/guest/*-mpi.sh: linked against MPICH's libmpich.so.12,
# which the guest's base image carries (tests/vm/run).
# A binary of an older ABI: built against the copy of an older UAPI header
# alone (tests/abi/README.md), never include/uapi.
$(B)/tests/oldabi: tests/abi/oldabi.c tests/abi/pre-hybrid/linux/pmcdrv.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -g $(WARNINGS) $(if $(filter 1,$(WERROR)),-Werror) -D_GNU_SOURCE \
		-Itests/abi/pre-hybrid $(CFLAGS) -o $@ $<

$(B)/tests/rankloop: tests/guest/rankloop.c $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $< $(B)/libpmc.a $(LIBPMC_LIBS)

# Static, libc-free workloads with exactly known instruction counts.
$(B)/progs/%: tests/progs/%.S
	@mkdir -p $(dir $@)
	$(CC) -nostdlib -static -no-pie -o $@ $<

tests: user examples $(B)/tests/unit $(GUEST_BINS) $(PROG_BINS) ## tools, examples, unit tests and the guest's test programs

deps: ## install every Debian package the build, tests and guest need
	tests/deps.sh

unit: $(B)/tests/unit ## unit tests (CUnit, ASan+UBSan)
	$(B)/tests/unit

coverage-unit: $(B)/tests/unit-cov ## libpmc's, pmcctl's and common/'s line and branch coverage by the unit tests
	tests/coverage.sh --unit

kbuild-check: ## the module at W=1 and under sparse, checkpatch --strict
	tests/kbuild-check.sh

guest-check: tests ## the guest tests with the emulated PMU
	tests/vm/run -- tests/guest/run-all

check: ## every test: unit, kernel-code gates, in-guest; ends "N passed, N failed"
	tests/check.sh

demo: ## boot the guest, load pmcdrv, show it working
	tests/demo.sh

bench: ## pmcdrv against perf (and LIKWID) in one guest run: tables, JSON, docs/performance.md
	bench/run

clean: ## remove build/ and the module's build products
	rm -rf $(B)
	-[ -d "$(KDIR)" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null

# (build/pkg holds tests/pkg-check.sh's copy of the tree, with its own build.)
-include $(shell find $(B) -path $(B)/pkg -prune -o -name '*.d' -type f -print 2>/dev/null)
