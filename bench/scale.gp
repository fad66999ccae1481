# SPDX-License-Identifier: GPL-2.0
# B10 and B14 of bench/run: gnuplot -e "datafile='...'; outfile='...'" bench/scale.gp
# datafile (bench/report.sh --scale-data), two blocks:
#   index 0 (B10): tracked tasks, ns per switch untracked, under one pmcctl run
#   index 1 (B14): sessions, ns per switch session to session (B7's
#   pmcdrv-ioctl ping-pong), untracked (B1's ping-pong), and each of the two
#   with no session at all
set terminal pngcairo size 1200,520 font "DejaVu Sans,10"
set output outfile
set multiplot layout 1,2 title "A context switch's cost as the work grows, emulated PMU (guest ns = instructions under -icount)"
set key bottom right
set grid ytics
set datafile missing "NaN"	# the untracked points at 1 and 1,000 sessions joined
set logscale x 10
set style line 1 lc rgb "#1f77b4" lw 2 pt 7
set style line 2 lc rgb "#7f7f7f" lw 2 pt 5
set style line 3 lc rgb "#1f77b4" lw 1 dt 2
set style line 4 lc rgb "#7f7f7f" lw 1 dt 2
set ylabel "guest ns per switch"
set yrange [0:*]
set xlabel "tasks tracked by the session (B2's ping-pong pair and sleeping threads)"
set xrange [5:20000]
set title "B10: many tasks in one session"
plot datafile index 0 u 1:3 w lp ls 1 t "pmcdrv (2 events, inherited)", \
     datafile index 0 u 1:2 w lp ls 2 t "untracked"
set xlabel "sessions that exist (each counting its own idle task)"
set xrange [0.7:1500]
set title "B14: many sessions"
plot datafile index 1 u 1:2 w lp ls 1 t "session to session (each side its own session)", \
     datafile index 1 u 1:3 w lp ls 2 t "untracked, while the sessions exist", \
     datafile index 1 u 1:4 w l ls 3 t "the first, counting nothing, no session", \
     datafile index 1 u 1:5 w l ls 4 t "the second, no session"
unset multiplot
