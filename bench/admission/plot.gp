# The admission benchmark's plot, from the medians run.sh writes:
#
#   gnuplot -e "tsv='throughput.tsv'" -e "png='a.png'" plot.gp
#
# requests per second (left) and MB/s of bodies received (right) against
# the body size, bare nginx and video-ocr; log scales.

set terminal pngcairo size 900,480 font "DejaVu Sans,10"
set output png
set datafile separator "\t"
set multiplot layout 1,2 title "Admission: bare nginx vs video-ocr (medians, 16 connections, 2 nginx workers)"
set logscale xy
set grid
set key bottom left box opaque
set xlabel "body size (bytes)"
set xtics ("4 KiB" 4096, "256 KiB" 262144, "8 MiB" 8388608)
set xrange [2048:16777216]

set ylabel "requests per second"
plot tsv using 1:2 skip 1 with linespoints pt 7 lc rgb "#d95f02" title "bare nginx (body to a file)", \
     tsv using 1:3 skip 1 with linespoints pt 5 lc rgb "#1b9e77" title "video-ocr (receipt + upload durable)"

set ylabel "MB/s of bodies"
set key bottom right
plot tsv using 1:4 skip 1 with linespoints pt 7 lc rgb "#d95f02" title "bare nginx", \
     tsv using 1:5 skip 1 with linespoints pt 5 lc rgb "#1b9e77" title "video-ocr"
unset multiplot
