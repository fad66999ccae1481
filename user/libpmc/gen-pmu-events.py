#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate libpmc's event and metric tables from Linux perf's x86 files.

Usage: gen-pmu-events.py SRC_DIR SOURCE_NAME OUT.c

SRC_DIR is tools/perf/pmu-events/arch/x86 of a Linux source tree (Debian's
linux-source-6.12, through user/libpmc/pmu-events-src); SOURCE_NAME names
it in the output ("linux-source-6.12 6.12.117-1~deb12u1").  OUT.c gets:

  pmc_pe_source       SOURCE_NAME
  pmc_pe_strings      one pool of NUL-terminated strings, each once
  pmc_pe_models[]     mapfile.csv's Intel core rows, in its order: the
                      CPUID regular expression, perf's directory name, and
                      the model's events and metrics (ranges of the tables)
  pmc_pe_events[]     each model's core events (Unit absent, cpu_core or
                      cpu_atom; uncore units are left out), sorted by name:
                      encoded as perf's jevents.py encodes them (its table of
                      fixed events, EventCode, UMask, CounterMask, EdgeDetect,
                      Invert, AnyThread, MSRIndex/MSRValue)
  pmc_pe_metrics[]    each model's metrics: name, expression, groups, scale
                      unit, unit (PMU), brief description, MetricConstraint
                      (whether perf counts the metric's events as a group),
                      MetricThreshold (the expression perf colours it by)

Only what this script reads from the files is in the tables; nothing is
written by hand.  The output depends on the input and this script only
(sorted, no time stamps): the same files give the same tables.  make runs
it again when this script, or the package version pmu-events-src names,
changes.
"""
import csv
import json
import os
import sys

# perf's jevents.py (Linux 6.12), real_event(): well-known names it encodes
# itself, whatever the file says (the fixed counters' events).
FIXED = {
    'inst_retired.any': (0xc0, 0x00),
    'inst_retired.any_p': (0xc0, 0x00),
    'cpu_clk_unhalted.ref': (0x00, 0x03),
    'cpu_clk_unhalted.thread': (0x3c, 0x00),
    'cpu_clk_unhalted.core': (0x3c, 0x00),
    'cpu_clk_unhalted.thread_any': (0x3c, 0x00),  # any=1 below
}
# jevents.py lookup_msr(): the extra registers perf knows by MSRIndex (PEBS
# load latency, the two off-core response registers, the front-end filter).
MSRS = {0x3F6, 0x1A6, 0x1A7, 0x3F7}
UNITS = {None: 0, 'cpu_core': 1, 'cpu_atom': 2}
# MetricConstraint as jevents.py reads it into event_grouping (libpmc.h:
# enum pmc_metric_grouping): none, NO_GROUP_EVENTS, _NMI, _SMT.
CONSTRAINTS = {None: 0, 'NO_GROUP_EVENTS': 1, 'NO_GROUP_EVENTS_NMI': 2, 'NO_GROUP_EVENTS_SMT': 3}

# Flags of an event (user/libpmc/pmu_events.h: PMC_PE_*).
F_EDGE, F_INV, F_ANY, F_DEPRECATED = 1, 2, 4, 8


def num(val):
    """A JSON number field: "0x1f", "31" or "0x1,0x2" (the first)."""
    val = str(val).split(',', 1)[0].strip()
    return int(val, 0)


def is_zero(val):
    try:
        return num(val) == 0
    except ValueError:
        return False


class Pool:
    """Strings, each once, at offsets into one NUL-separated pool."""

    def __init__(self):
        self.off = {}
        self.parts = []
        self.size = 0

    def add(self, s):
        if s is None:
            s = ''
        if s not in self.off:
            self.off[s] = self.size
            self.parts.append(s)
            self.size += len(s.encode()) + 1
        return self.off[s]


def c_string(s):
    out = []
    for ch in s.encode():
        if ch in (0x22, 0x5c):
            out.append('\\' + chr(ch))
        elif 0x20 <= ch < 0x7f:
            out.append(chr(ch))
        else:
            out.append('\\%03o' % ch)
    return ''.join(out)


def event_row(jd):
    """(name, unit, event, umask, cmask, flags, msr, msrval, desc) or None."""
    name = jd.get('EventName')
    unit = jd.get('Unit')
    if not name or unit not in UNITS:
        return None
    lname = name.lower()
    event = num(jd['EventCode']) if 'EventCode' in jd else 0
    if 'ExtSel' in jd:
        event |= num(jd['ExtSel']) << 8
    umask = num(jd['UMask']) if 'UMask' in jd else 0
    flags = 0
    if lname in FIXED:
        event, umask = FIXED[lname]
        if lname.endswith('_any'):
            flags |= F_ANY
    cmask = num(jd['CounterMask']) if 'CounterMask' in jd else 0
    if 'EdgeDetect' in jd and not is_zero(jd['EdgeDetect']):
        flags |= F_EDGE
    if 'Invert' in jd and not is_zero(jd['Invert']):
        flags |= F_INV
    if 'AnyThread' in jd and not is_zero(jd['AnyThread']):
        flags |= F_ANY
    if jd.get('Deprecated') == '1':
        flags |= F_DEPRECATED
    msr = msrval = 0
    if jd.get('MSRIndex') and not is_zero(jd['MSRIndex']):
        msr = num(jd['MSRIndex'])
        if msr not in MSRS:
            raise SystemExit(f'{name}: unknown MSRIndex {jd["MSRIndex"]}')
        msrval = num(jd.get('MSRValue', '0'))
    return (name, UNITS[unit], event, umask, cmask, flags, msr, msrval,
            jd.get('BriefDescription', ''))


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    src, source_name, out = sys.argv[1:]
    pool = Pool()
    models, events, metrics = [], [], []
    with open(os.path.join(src, 'mapfile.csv'), newline='') as f:
        rows = list(csv.reader(f))
    for row in rows[1:]:
        if len(row) < 4 or not row[0].startswith('GenuineIntel') or row[3] != 'core':
            continue
        cpuid, _, directory = row[0], row[1], row[2]
        evs, mets = {}, []
        for fn in sorted(os.listdir(os.path.join(src, directory))):
            if not fn.endswith('.json'):
                continue
            with open(os.path.join(src, directory, fn)) as f:
                data = json.load(f)
            if not isinstance(data, list):   # metricgroups.json: descriptions of groups
                continue
            for jd in data:
                if 'MetricName' in jd:
                    if jd.get('Unit') not in UNITS:
                        continue
                    if jd.get('MetricConstraint') not in CONSTRAINTS:
                        sys.exit(f'{fn}: {jd["MetricName"]}: unknown MetricConstraint '
                                 f'{jd["MetricConstraint"]!r}: teach this script its meaning')
                    mets.append((jd['MetricName'], jd.get('MetricExpr', ''),
                                 jd.get('MetricGroup', ''), jd.get('ScaleUnit', ''),
                                 UNITS[jd.get('Unit')], jd.get('BriefDescription', ''),
                                 CONSTRAINTS[jd.get('MetricConstraint')],
                                 jd.get('MetricThreshold', '')))
                    continue
                r = event_row(jd)
                if r:
                    # one event per name and unit, as perf keys them
                    evs.setdefault((r[0].lower(), r[1]), r)
        first_e, first_m = len(events), len(metrics)
        events.extend(sorted(evs.values(), key=lambda r: (r[0].lower(), r[1])))
        metrics.extend(sorted(mets, key=lambda m: (m[0].lower(), m[4])))
        models.append((cpuid, directory, first_e, len(events) - first_e,
                       first_m, len(metrics) - first_m))

    lines = ['/* SPDX-License-Identifier: GPL-2.0 */',
             '/*',
             ' * Generated by user/libpmc/gen-pmu-events.py from Linux perf\'s x86',
             f' * event and metric files ({source_name}): do not edit.',
             ' */',
             '#include "pmu_events.h"',
             '',
             f'const char pmc_pe_source[] = "{c_string(source_name)}";',
             '']
    body = []
    body.append('const struct pmc_pe_model pmc_pe_models[] = {')
    for cpuid, directory, fe, ne, fm, nm in models:
        body.append(f'\t{{ {pool.add(cpuid)}, {pool.add(directory)}, {fe}, {ne}, {fm}, {nm} }},')
    body.append('};')
    body.append(f'const unsigned int pmc_pe_nr_models = {len(models)};')
    body.append('')
    body.append('const struct pmc_pe_event pmc_pe_events[] = {')
    for name, unit, event, umask, cmask, flags, msr, msrval, desc in events:
        body.append(f'\t{{ {pool.add(name)}, {pool.add(desc)}, 0x{event:x}, 0x{umask:x}, '
                    f'{cmask}, {flags}, {unit}, 0x{msr:x}, 0x{msrval:x} }},')
    body.append('};')
    body.append(f'const unsigned int pmc_pe_nr_events = {len(events)};')
    body.append('')
    body.append('const struct pmc_pe_metric pmc_pe_metrics[] = {')
    for name, expr, groups, scale, unit, desc, constraint, threshold in metrics:
        body.append(f'\t{{ {pool.add(name)}, {pool.add(expr)}, {pool.add(groups)}, '
                    f'{pool.add(scale)}, {pool.add(desc)}, {pool.add(threshold)}, {unit}, '
                    f'{constraint} }},')
    body.append('};')
    body.append(f'const unsigned int pmc_pe_nr_metrics = {len(metrics)};')
    body.append('')
    # The pool last: every string above is in it now.
    strings = ['const char pmc_pe_strings[] =']
    for s in pool.parts:
        strings.append(f'\t"{c_string(s)}\\0"')
    strings[-1] += ';'
    strings.append(f'const unsigned int pmc_pe_strings_size = {pool.size};')
    tmp = out + '.tmp'
    with open(tmp, 'w') as f:
        f.write('\n'.join(lines + strings + [''] + body) + '\n')
    os.replace(tmp, out)


if __name__ == '__main__':
    main()
