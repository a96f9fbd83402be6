# The OCR benchmark's plots, from the files bench.pl writes:
#
#   gnuplot -e "results='DIR'" -e "png='a.png'" -e "png2='b.png'" plot.gp
#
# a.png: CPU seconds per video second against mean character error rate,
# one point per video and pipeline, a large one per pipeline (the whole
# corpus); b.png: video seconds per CPU second per video and pipeline
# (colours in the order of the pipelines: worker, cli, cv, before).

set terminal pngcairo size 900,560 font "DejaVu Sans,10"
set datafile separator "\t"
set key inside right top box opaque

set output png
set title "OCR: CPU per video second vs character error rate (lower left is better)"
set xlabel "CPU seconds per video second (log scale)"
set ylabel "mean character error rate"
set logscale x
set xrange [0.005:2]
set yrange [-0.1:1.02]
set grid
r = results . "/results.tsv"
s = results . "/summary.tsv"
plot r using (strcol(1) eq "worker" ? $5 : 1/0):6 with points pt 7 ps 1.2 lc rgb "#1b9e77" title "video-ocr-worker, per video", \
     r using (strcol(1) eq "cli" ? $5 : 1/0):6 with points pt 5 ps 1.2 lc rgb "#d95f02" title "ffmpeg + tesseract CLI, per video", \
     r using (strcol(1) eq "cv" ? $5 : 1/0):6 with points pt 9 ps 1.3 lc rgb "#7570b3" title "OpenCV + tesserocr, per video", \
     r using (strcol(1) eq "before" ? $5 : 1/0):6 with points pt 13 ps 1.1 lc rgb "#999999" title "video-ocr-worker before issue 4", \
     s using 2:3 with points pt 6 ps 3.5 lw 2 lc rgb "black" title "whole corpus", \
     s using 2:($3 + (int(column(0)) % 2 ? -0.055 : 0.055)):5 with labels font ",9" notitle

set output png2
unset logscale x
set autoscale
set title "OCR: video seconds per CPU second, per video (higher is better)"
set xlabel ""
set ylabel "video seconds per CPU second"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 font ",8"
set yrange [0:*]
set key inside left top
set rmargin 9
colors = "#1b9e77 #d95f02 #7570b3 #999999 #e7298a #66a61e"
plot for [i=2:*] results . "/speed.tsv" using i:xtic(1) title columnheader(i) \
     lc rgb word(colors, i - 1)
