# SPDX-License-Identifier: GPL-2.0
# Load/unload cycles, each with an INFO round trip, and the devmode parameter.
. tests/lib/guest.sh

cycles=${PMCDRV_LOAD_CYCLES:-20}
ok=0
for i in $(seq "$cycles"); do
	rmmod pmcdrv || { fail "load/unload cycle $i" "rmmod failed"; break; }
	[ -e /dev/pmcdrv ] && { fail "load/unload cycle $i" "/dev/pmcdrv left behind"; break; }
	insmod "$PMCDRV_KO" || { fail "load/unload cycle $i" "insmod failed"; break; }
	[ "$(pmcctl info --json | jq -r .source)" = module ] || { fail "load/unload cycle $i" "INFO failed"; break; }
	ok=$((ok + 1))
done
expect_eq "$cycles load/unload cycles with INFO" "$ok" "$cycles"

rmmod pmcdrv
insmod "$PMCDRV_KO" devmode=0660
expect_eq "devmode=0660 sets the device mode" "$(stat -c %a /dev/pmcdrv)" 660
rmmod pmcdrv
insmod "$PMCDRV_KO"
check "module loaded at the end" module_loaded
