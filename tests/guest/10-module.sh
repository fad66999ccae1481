# SPDX-License-Identifier: GPL-2.0
# pmcdrv loads, creates /dev/pmcdrv, answers INFO and API_VERSION, refuses
# bad requests with the documented errno, and cannot be removed while open.
. tests/lib/guest.sh

check "module loaded" module_loaded
expect_eq "device is a 0600 char device" "$(stat -c '%F %a' /dev/pmcdrv 2>&1)" "character special file 600"
if [ -x build/tests/ioctl_info ]; then
	build/tests/ioctl_info /dev/pmcdrv
else
	fail "ioctl_info" "build/tests/ioctl_info not built (make tests)"
fi

json=$(pmcctl info --json)
check "info --json is valid JSON" jq -e . <<<"$json"
expect_eq "info --json comes from the module" "$(jq -r .source <<<"$json")" module
expect_eq "info --json api_version" "$(jq -r .module.api_version <<<"$json")" 1
check "info text names the module" grep -q 'pmcdrv module: *loaded' <<<"$(pmcctl info)"

if [ "$(jq -r .perfmon.available <<<"$json")" = true ]; then
	check "dmesg names the counters" grep -q 'pmcdrv: architectural perfmon v' <<<"$(dmesg)"
else
	expect_eq "no-PMU load message printed exactly once" \
		"$(dmesg | grep -c 'pmcdrv: .*only software events are available')" 1
	expect_eq "no-PMU: info reports 0 GP counters" "$(jq -r .perfmon.gp_counters <<<"$json")" 0
fi

# An open file pins the module (file_operations.owner).
exec 3</dev/pmcdrv
if rmmod pmcdrv 2>/dev/null; then
	fail "rmmod with the device open is refused" "rmmod succeeded"
	insmod "$PMCDRV_KO"
else
	pass "rmmod with the device open is refused"
fi
exec 3<&-
check "module still loaded after refused rmmod" module_loaded
