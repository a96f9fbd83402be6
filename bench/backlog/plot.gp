# The backlog benchmark's plot, from the medians.tsv files run.sh writes
# (one per backend and number of finished jobs):
#
#   gnuplot -e "files='a/medians.tsv b/medians.tsv'" \
#           -e "titles='SQLite PostgreSQL'" -e "png='backlog.png'" plot.gp
#
# admission throughput against the empty ledger's (left) and the claim's
# p99 (right) against the number of queued jobs; 4 KiB bodies solid,
# 256 KiB dashed; the empty ledger is drawn at 100.

set terminal pngcairo size 1000,560 font "DejaVu Sans,10"
set output png
set datafile separator "\t"
set multiplot layout 1,2 title "Backlog: admission and claims beside queued jobs (medians; 2 claimers, 16 connections)"
set logscale x
set grid
set key bottom left box opaque font ",8"
set xlabel "queued jobs"
set xtics ("0" 100, "10^3" 1000, "10^4" 10000, "10^5" 100000, "10^6" 1000000)
set xrange [70:1500000]
q(n) = (n == 0 ? 100 : n)
# a title is one word of titles, "_" for its spaces
sp(s) = strstrt(s, "_") ? s[1:strstrt(s, "_") - 1]." ".sp(s[strstrt(s, "_") + 1:]) : s

set ylabel "admissions per second, ratio to 0 queued"
set yrange [0:1.6]
plot for [i=1:words(files)] word(files, i) using (q($2)):($1 == 4096 ? $4 : 1/0) skip 1 \
         with linespoints lw 2 pt 7 lc i title sp(word(titles, i))." 4 KiB" noenhanced, \
     for [i=1:words(files)] word(files, i) using (q($2)):($1 == 262144 ? $4 : 1/0) skip 1 \
         with linespoints lw 1 dt 2 pt 5 lc i title sp(word(titles, i))." 256 KiB" noenhanced, \
     0.9 with lines lc rgb "#888888" dt 3 title "target 0.9"

set ylabel "claim p99 (ms, BEGIN to COMMIT)"
set key top right
set logscale y
set yrange [*:*]
plot for [i=1:words(files)] word(files, i) using (q($2)):($1 == 4096 ? $6 : 1/0) skip 1 \
         with linespoints lw 2 pt 7 lc i title sp(word(titles, i))." 4 KiB" noenhanced, \
     for [i=1:words(files)] word(files, i) using (q($2)):($1 == 262144 ? $6 : 1/0) skip 1 \
         with linespoints lw 1 dt 2 pt 5 lc i title sp(word(titles, i))." 256 KiB" noenhanced
unset multiplot
