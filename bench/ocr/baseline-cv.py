#!/usr/bin/python3
# The second obvious pipeline: an OpenCV loop over every frame, one
# Tesseract engine kept for the whole video (tesserocr), and a frame
# OCR'd only when it differs from the last OCR'd one (mean absolute
# grey difference of at least SKIP_DIFF levels).  Prints the per-sample
# texts as JSON for segments.pl:
#
#   /usr/bin/python3 bench/ocr/baseline-cv.py VIDEO [FPS] [--lang L]
#       [--psm N] | perl bench/ocr/segments.pl
#
# --lang: Tesseract's languages (eng unless given, e.g. chi_sim+eng);
# --psm: its page segmentation mode (3, automatic, unless given; 11,
# sparse text, is how videocr-style tools read a whole frame, and how
# bench.pl runs it on the real-like set).
# Debian 12's python3-opencv and python3-tesserocr (run it with Debian's
# /usr/bin/python3).  Sample i is the frame shown at i / FPS seconds.
# OMP_THREAD_LIMIT=1 is set by the caller (bench.pl), as for the CLI.

import argparse
import json
import sys

import cv2
import tesserocr

SKIP_DIFF = 2.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('video')
    ap.add_argument('fps', nargs='?', type=float, default=1.0)
    ap.add_argument('--lang', default='eng')
    ap.add_argument('--psm', type=int, default=int(tesserocr.PSM.AUTO))
    a = ap.parse_args()
    path, fps = a.video, a.fps

    cv2.setNumThreads(1)
    cap = cv2.VideoCapture(path)
    if not cap.isOpened():
        sys.exit("cannot open %s" % path)
    rate = cap.get(cv2.CAP_PROP_FPS)
    count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    duration = count / rate if rate > 0 else None

    frames = []
    calls = 0
    last = None
    text, conf = '', 0
    k = 0          # frame number
    i = 0          # sample number
    with tesserocr.PyTessBaseAPI(lang=a.lang, psm=a.psm) as api:
        while cap.grab():
            # sample i uses the frame on screen at i / fps
            want = int(i / fps * rate + 1e-6)
            if k == want:
                ok, bgr = cap.retrieve()
                if not ok:
                    break
                grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
                if last is None or cv2.absdiff(grey, last).mean() >= SKIP_DIFF:
                    h, w = grey.shape
                    api.SetImageBytes(grey.tobytes(), w, h, 1, w)
                    text = api.GetUTF8Text().strip()
                    conf = api.MeanTextConf()
                    calls += 1
                    last = grey
                frames.append({'index': i, 'text': text, 'confidence': conf})
                i += 1
            k += 1

    json.dump({'fps': fps, 'duration': duration, 'ocr_calls': calls,
               'frames': frames}, sys.stdout)


main()
