# SPDX-License-Identifier: GPL-2.0
#
# pmcdrv: kernel module (kmod/), libpmc + pmcctl (user/), tests, guest lane.
#
#   make            build kmod/pmcdrv.ko against KDIR and the user-space tools
#   make deps       install every Debian package the build, tests and guest need
#   make check      all tests: unit (ASan+UBSan), kbuild W=1/sparse, in-guest
#   make demo       boot the guest, load pmcdrv, show it working
#
# Variables: KDIR (kernel build tree), PMCDRV_CACHE (slow builds, default
# /var/cache/pmcdrv), GUEST_FLAVOUR (Debian kernel flavour of the guest).

KDIR		?= /lib/modules/$(shell uname -r)/build
PMCDRV_CACHE	?= /var/cache/pmcdrv
GUEST_FLAVOUR	?= cloud-amd64
export PMCDRV_CACHE GUEST_FLAVOUR

CC		?= cc
CFLAGS_COMMON	:= -std=gnu11 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
		   -Wmissing-prototypes -Wformat=2 -D_GNU_SOURCE \
		   -Iinclude -Iinclude/uapi -Iuser
CFLAGS		?= -O2
SANITIZE	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

B		:= build
LIBPMC_SRCS	:= user/libpmc.c user/msr.c user/events.c user/cpulist.c kmod/pmu_logic.c
LIBPMC_HDRS	:= user/libpmc.h user/libpmc_error.h include/pmcdrv/pmu.h include/pmcdrv/shim.h include/uapi/linux/pmcdrv.h
PMCCTL_SRCS	:= user/pmcctl.c user/cmd_run.c user/cmd_stat.c user/msr_run.c user/output.c user/report.c
UNIT_SRCS	:= $(wildcard tests/unit/*.c)
GUEST_C_SRCS	:= $(wildcard tests/guest/*.c)
GUEST_BINS	:= $(patsubst tests/guest/%.c,$(B)/tests/%,$(GUEST_C_SRCS))
PROG_SRCS	:= $(wildcard tests/progs/*.S)
PROG_BINS	:= $(patsubst tests/progs/%.S,$(B)/progs/%,$(PROG_SRCS))

.PHONY: all module user tests deps check unit kbuild-check guest-check demo clean help

all: module user

help:
	@sed -n '3,13p' Makefile

# ---- kernel module -------------------------------------------------------
module:
	@if [ ! -d "$(KDIR)" ]; then \
	  echo "error: no kernel build tree at KDIR=$(KDIR)" >&2; \
	  echo "  install the headers of the running kernel (apt-get install linux-headers-$$(uname -r))," >&2; \
	  echo "  or build against another kernel with: make KDIR=/path/to/linux-headers" >&2; \
	  exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# ---- user space ----------------------------------------------------------
user: $(B)/bin/pmcctl $(B)/libpmc.a

$(B)/user/%.o: user/%.c $(LIBPMC_HDRS) user/output.h user/pmcctl.h user/report.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -c -o $@ $<

$(B)/user/pmu_logic.o: kmod/pmu_logic.c $(LIBPMC_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -c -o $@ $<

$(B)/libpmc.a: $(B)/user/libpmc.o $(B)/user/msr.o $(B)/user/events.o $(B)/user/cpulist.o $(B)/user/pmu_logic.o
	$(AR) rcs $@ $^

$(B)/bin/pmcctl: $(patsubst user/%.c,$(B)/user/%.o,$(PMCCTL_SRCS)) $(B)/libpmc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm

# ---- tests ---------------------------------------------------------------
# Unit tests: the shared logic and libpmc, compiled again under ASan+UBSan.
$(B)/tests/unit: $(UNIT_SRCS) $(LIBPMC_SRCS) user/output.c user/report.c $(LIBPMC_HDRS) user/output.h user/report.h tests/lib/check.h tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Wno-missing-field-initializers -O1 $(SANITIZE) -Itests/lib -o $@ $(UNIT_SRCS) $(LIBPMC_SRCS) user/output.c user/report.c -lcunit -lm

# Programs run inside the guest.
$(B)/tests/%: tests/guest/%.c $(B)/libpmc.a tests/lib/check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -Itests/lib -o $@ $< $(B)/libpmc.a

# Static, libc-free workloads with exactly known instruction counts.
$(B)/progs/%: tests/progs/%.S
	@mkdir -p $(dir $@)
	$(CC) -nostdlib -static -no-pie -o $@ $<

tests: user $(B)/tests/unit $(GUEST_BINS) $(PROG_BINS)

deps:
	tests/deps.sh

unit: $(B)/tests/unit
	$(B)/tests/unit

# The module must build without warnings at W=1 and under sparse (C=1).
kbuild-check:
	tests/kbuild-check.sh

guest-check: tests
	tests/vm/run -- tests/guest/run-all

check:
	tests/check.sh

demo:
	tests/demo.sh

clean:
	rm -rf $(B)
	-[ -d "$(KDIR)" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null
	rm -f kmod/*.o kmod/*.ko kmod/*.mod kmod/*.mod.c kmod/.*.cmd kmod/modules.order \
	      modules.order Module.symvers .*.cmd kmod/Module.symvers
