# SPDX-License-Identifier: GPL-2.0
# pmcctl info without the module: CPUID from user space, and the MSR device
# status with the fix named.
. tests/lib/guest.sh

rmmod pmcdrv
json=$(pmcctl info --json)
check "no module: valid JSON" jq -e . <<<"$json"
expect_eq "no module: source is cpuid" "$(jq -r .source <<<"$json")" cpuid
check "no module: hint names insmod" grep -q 'insmod' <<<"$(jq -r .module.hint <<<"$json")"
expect_eq "no msr driver: MSR device unusable" "$(jq -r .msr_device.usable <<<"$json")" false
check "no msr driver: hint names modprobe msr" grep -q 'modprobe msr' <<<"$(pmcctl info)"

modprobe msr
json=$(pmcctl info --json)
expect_eq "msr driver: MSR device usable" "$(jq -r .msr_device.usable <<<"$json")" true
expect_eq "msr driver: counter usage known" "$(jq -r .counters.in_use_known <<<"$json")" \
	"$(jq -r .perfmon.available <<<"$json")"
if [ "$(jq -r .perfmon.pdcm <<<"$json")" = true ]; then
	check "msr driver: PERF_CAPABILITIES read" jq -e '.perfmon.perf_capabilities != null' <<<"$json"
fi
rmmod msr
insmod "$PMCDRV_KO"
check "module reloaded" module_loaded
