// SPDX-License-Identifier: GPL-2.0
/*
 * build/tests/pingpong-rdpmc: bench/pingpong-rdpmc.c, built with the guest
 * programs so that tests/guest/55-msr-switch.sh (bench/msr-guard.sh) has it
 * in make check.  The task name must stay "pingpong-rdpmc"
 * (bench/lib/msrtrace.sh).
 */
#include "../../bench/pingpong-rdpmc.c"
