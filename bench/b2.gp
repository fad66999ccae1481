# SPDX-License-Identifier: GPL-2.0
# B2 of bench/run: gnuplot -e "datafile='...'; outfile='...'" bench/b2.gp
# Columns of datafile (bench/report.sh --b2-data): events, guest ns above the
# untracked run per round trip (pmcdrv inherit, perf inherit, pmcdrv
# no-inherit, perf no-inherit), MSR accesses per switch (same order).
set terminal pngcairo size 1200,520 font "DejaVu Sans,10"
set output outfile
set multiplot layout 1,2 title "B2: ping-pong between two tasks on one CPU, emulated PMU (guest ns = instructions under -icount; MSR latency not modelled)"
set key top left
set grid ytics
set xtics ("1" 1, "2" 2, "4" 4, "7" 7)
set xrange [0.5:7.5]
set xlabel "events counted"
set style line 1 lc rgb "#1f77b4" lw 2 pt 7
set style line 2 lc rgb "#d62728" lw 2 pt 5
set style line 3 lc rgb "#1f77b4" lw 2 pt 6 dt 2
set style line 4 lc rgb "#d62728" lw 2 pt 4 dt 2
set ylabel "guest ns per round trip above untracked"
set yrange [0:*]
set title "cost per round trip (2 switches)"
plot datafile u 1:2 w lp ls 1 t "pmcdrv, inherit", \
     datafile u 1:3 w lp ls 2 t "perf, inherit", \
     datafile u 1:4 w lp ls 3 t "pmcdrv, --no-inherit", \
     datafile u 1:5 w lp ls 4 t "perf, --no-inherit"
set ylabel "PMU MSR accesses per context switch"
set title "MSR accesses per switch (msr:* tracepoints)"
plot datafile u 1:6 w lp ls 1 t "pmcdrv, inherit", \
     datafile u 1:7 w lp ls 2 t "perf, inherit", \
     datafile u 1:8 w lp ls 3 t "pmcdrv, --no-inherit", \
     datafile u 1:9 w lp ls 4 t "perf, --no-inherit"
unset multiplot
