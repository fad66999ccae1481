# SPDX-License-Identifier: GPL-2.0
# B9 of bench/run: gnuplot -e "datafile='...'; outfile='...'" bench/b9.gp
# Columns of datafile (bench/report.sh --b9-data): tasks, busy guest ms above
# the untracked run less the tool's start-up (pmcdrv 2 events, perf 2,
# pmcdrv 7, perf 7), the same in % of the untracked run's busy time, then the
# size's noise band in ms and in % (bench/report.sh: a goal row is judged only
# where perf's overhead stands out of it; the grey band).
set terminal pngcairo size 1200,520 font "DejaVu Sans,10"
set output outfile
set multiplot layout 1,2 title "B9: perf bench sched messaging (hackbench), the same messages at every size, emulated PMU (guest ns = instructions under -icount)"
set key top left
set grid ytics
set logscale x 2
set xtics ("40" 40, "160" 160, "640" 640)
set xrange [30:850]
set xlabel "tasks (groups x 40)"
set style line 1 lc rgb "#1f77b4" lw 2 pt 7
set style line 2 lc rgb "#d62728" lw 2 pt 5
set style line 3 lc rgb "#1f77b4" lw 2 pt 6 dt 2
set style line 4 lc rgb "#d62728" lw 2 pt 4 dt 2
set xzeroaxis lt -1
set ylabel "busy guest ms above untracked (less the tool's start-up)"
set title "overhead of counting every task"
plot datafile u 1:(-$10):10 w filledcurves fc rgb "#e0e0e0" fs solid t "noise band (2 standard errors)", \
     datafile u 1:2 w lp ls 1 t "pmcdrv, 2 events", \
     datafile u 1:3 w lp ls 2 t "perf, 2 events", \
     datafile u 1:4 w lp ls 3 t "pmcdrv, 7 events", \
     datafile u 1:5 w lp ls 4 t "perf, 7 events"
set key bottom right
set ylabel "% of the untracked run's busy time"
set title "the same, relative"
plot datafile u 1:(-$11):11 w filledcurves fc rgb "#e0e0e0" fs solid t "noise band (2 standard errors)", \
     datafile u 1:6 w lp ls 1 t "pmcdrv, 2 events", \
     datafile u 1:7 w lp ls 2 t "perf, 2 events", \
     datafile u 1:8 w lp ls 3 t "pmcdrv, 7 events", \
     datafile u 1:9 w lp ls 4 t "perf, 7 events"
unset multiplot
