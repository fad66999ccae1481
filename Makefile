# SPDX-License-Identifier: GPL-2.0
#
# pmcdrv: the kernel module (kmod/), the pure logic it shares with user space
# (common/), libpmc (libpmc/), pmcctl (pmcctl/), tests and the guest lane.
#
# Variables: KDIR (kernel build tree), PMCDRV_CACHE (slow builds, default
# /var/cache/pmcdrv), GUEST_FLAVOUR (Debian kernel flavour of the guest),
# CFLAGS (yours; default -O2), WERROR=1 (warnings are errors; make check sets it),
# PREFIX and DESTDIR (make install).

KDIR		?= /lib/modules/$(shell uname -r)/build
PREFIX		?= /usr/local
PMCDRV_CACHE	?= /var/cache/pmcdrv
GUEST_FLAVOUR	?= cloud-amd64
export PMCDRV_CACHE GUEST_FLAVOUR

CC		?= cc
WARNINGS	:= -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
CFLAGS_COMMON	:= -std=gnu11 -g $(WARNINGS) $(if $(filter 1,$(WERROR)),-Werror) \
		   -D_GNU_SOURCE -MMD -MP -Iinclude -Iinclude/uapi -Ilibpmc
CFLAGS		?= -O2
SANITIZE	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

B		:= build
COMMON_SRCS	:= common/pmu_logic.c
LIBPMC_SRCS	:= $(wildcard libpmc/*.c)
PMCCTL_SRCS	:= $(wildcard pmcctl/*.c)
# pmcctl's pure formatting and parsing, also held against golden files and tables by the unit tests.
REPORT_SRCS	:= pmcctl/output.c pmcctl/report.c pmcctl/regions.c
UNIT_SRCS	:= $(wildcard tests/unit/*.c tests/lib/*.c)
GUEST_C_SRCS	:= $(wildcard tests/guest/*.c)
GUEST_BINS	:= $(patsubst tests/guest/%.c,$(B)/tests/%,$(GUEST_C_SRCS))
PROG_SRCS	:= $(wildcard tests/progs/*.S)
PROG_BINS	:= $(patsubst tests/progs/%.S,$(B)/progs/%,$(PROG_SRCS))
EXAMPLE_SRCS	:= $(wildcard examples/*.c)
EXAMPLE_BINS	:= $(patsubst examples/%.c,$(B)/examples/%,$(EXAMPLE_SRCS))

obj		= $(patsubst %.c,$(B)/obj/%.o,$(1))
uobj		= $(patsubst %.c,$(B)/unit-obj/%.o,$(1))
LIBPMC_OBJS	:= $(call obj,$(LIBPMC_SRCS) $(COMMON_SRCS))
PMCCTL_OBJS	:= $(call obj,$(PMCCTL_SRCS))
UNIT_OBJS	:= $(call uobj,$(UNIT_SRCS) $(LIBPMC_SRCS) $(COMMON_SRCS) $(REPORT_SRCS))

.PHONY: all module user examples install tests deps check unit kbuild-check guest-check demo bench clean help

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
user: $(B)/bin/pmcctl $(B)/libpmc.a ## libpmc and pmcctl only

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -c -o $@ $<

$(B)/libpmc.a: $(LIBPMC_OBJS)
	$(AR) rcs $@ $^

$(B)/bin/pmcctl: $(PMCCTL_OBJS) $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm

# examples/: small programs that use libpmc as a user would (regions, self-read).
examples: $(EXAMPLE_BINS) ## the programs of examples/ (build/examples/)

$(B)/examples/%: examples/%.c $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $< $(B)/libpmc.a -lpthread

# libpmc's public header needs the shared logic's and the ABI's beside it.
install: user ## pmcctl, libpmc.a and its headers under DESTDIR/PREFIX
	install -D -m 0755 $(B)/bin/pmcctl $(DESTDIR)$(PREFIX)/bin/pmcctl
	install -D -m 0644 $(B)/libpmc.a $(DESTDIR)$(PREFIX)/lib/libpmc.a
	install -D -m 0644 libpmc/libpmc.h $(DESTDIR)$(PREFIX)/include/libpmc.h
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/include/pmcdrv include/pmcdrv/pmu.h include/pmcdrv/shim.h
	install -D -m 0644 include/uapi/linux/pmcdrv.h $(DESTDIR)$(PREFIX)/include/linux/pmcdrv.h

# ---- tests ---------------------------------------------------------------
# Unit tests: the shared logic, libpmc and pmcctl's reports, again under ASan+UBSan.
$(B)/unit-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Wno-missing-field-initializers -O1 $(SANITIZE) -Itests/lib -Ipmcctl -c -o $@ $<

$(B)/tests/unit: $(UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE) -o $@ $^ -lcunit -lm

# Programs run inside the guest.
$(B)/tests/%: tests/guest/%.c $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -Itests/lib -o $@ $< $(B)/libpmc.a

# Static, libc-free workloads with exactly known instruction counts.
$(B)/progs/%: tests/progs/%.S
	@mkdir -p $(dir $@)
	$(CC) -nostdlib -static -no-pie -o $@ $<

tests: user examples $(B)/tests/unit $(GUEST_BINS) $(PROG_BINS) ## tools, examples, unit tests and the guest's test programs

deps: ## install every Debian package the build, tests and guest need
	tests/deps.sh

unit: $(B)/tests/unit ## unit tests (CUnit, ASan+UBSan)
	$(B)/tests/unit

kbuild-check: ## the module at W=1 and under sparse, checkpatch --strict
	tests/kbuild-check.sh

guest-check: tests ## the guest tests with the emulated PMU
	tests/vm/run -- tests/guest/run-all

check: ## every test: unit, kernel-code gates, in-guest; ends "N passed, N failed"
	tests/check.sh

demo: ## boot the guest, load pmcdrv, show it working
	tests/demo.sh

bench: ## pmcdrv against perf in one guest run: tables, JSON, docs/performance.md
	bench/run

clean: ## remove build/ and the module's build products
	rm -rf $(B)
	-[ -d "$(KDIR)" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null

-include $(shell find $(B) -name '*.d' 2>/dev/null)
