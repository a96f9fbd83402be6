#!/bin/sh
# Installs the Debian packages video-ocr needs to build, run and test.
# Idempotent: asks apt only for what dpkg says is missing, so a second
# run costs a few dpkg-query calls. Debian packages only, no other source.
set -eu

# build: the nginx module against Debian's nginx source tree
BUILD="gcc make pkg-config nginx nginx-dev libpcre2-dev zlib1g-dev
       libssl-dev libsqlite3-dev sqlite3 libpq-dev"
# worker: FFmpeg libraries, Tesseract and its models (English, German,
# Russian, Simplified Chinese, Japanese, Korean: the languages the tests
# and the traits corpus read, and the upload page offers what is
# installed), libcurl (with OpenSSL) for the webhook deliveries
WORKER="libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
        libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng
        tesseract-ocr-deu tesseract-ocr-rus tesseract-ocr-chi-sim
        tesseract-ocr-jpn tesseract-ocr-kor libcurl4-openssl-dev"
# tests: the Test::Nginx block format harness and its dependencies, the
# ffmpeg CLI and fonts to make test videos (WenQuanYi Zen Hei: Han, kana
# and Hangul in one 7 MB font, for the CJK traits; DejaVu's light and
# condensed faces and Humor Sans, a hand-drawn one, fontconfig's
# fc-match to check them, and photographs from mate-backgrounds, for
# the real-like clips of t/ocr/024), a pseudo terminal for ocr's
# progress line (IO::Pty), ledger readers for assertions,
# promtool and a Prometheus server to scrape /metrics, and a PostgreSQL
# server the suites start in a temporary directory
TEST="perl libtest-base-perl libtext-diff-perl libtest-longstring-perl
      liblist-moreutils-perl libipc-run-perl libio-pty-perl
      libhttp-message-perl libdbd-sqlite3-perl libdbd-pg-perl libjson-pp-perl ffmpeg curl
      fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-wqy-zenhei
      fonts-humor-sans fontconfig mate-backgrounds procps psmisc prometheus
      postgresql"
# fuzzing (make fuzz, and the smoke in make test): Debian's clang and its
# runtimes (libFuzzer, ASan, UBSan)
FUZZ="clang libclang-rt-dev"

# browser tests ("scripts/deps.sh browser", for make test, test-browser,
# test-worker and test-pg): Debian's chromium, and node + npm for
# playwright-core and the webhook receiver's standardwebhooks when the
# machine has none (Debian 12's nodejs 18 and npm 9 will do)
BROWSER=""
if [ "${1:-}" = browser ]; then
    BROWSER="chromium"
    command -v node >/dev/null 2>&1 || BROWSER="$BROWSER nodejs"
    command -v npm >/dev/null 2>&1 || BROWSER="$BROWSER npm"
fi

# benchmarks ("scripts/deps.sh bench", for make bench): wrk and the echo
# module for the admission benchmark and its bare-nginx baseline; GNU time,
# gnuplot, and python3 with OpenCV and tesserocr (the second OCR baseline);
# for the real-like OCR set, python3-skimage's sample photographs (a
# face, a grey film still, a cluttered room, lights at night), Spanish
# for Tesseract and Comic Neue (Spanish hand-drawn lettering); wamerican,
# the words of the search benchmark's texts
BENCH=""
if [ "${1:-}" = bench ]; then
    BENCH="wrk libnginx-mod-http-echo time gnuplot-nox python3
           python3-opencv python3-tesserocr python3-skimage
           tesseract-ocr-spa fonts-comic-neue wamerican"
fi

# sanitizers ("scripts/deps.sh sanitizers", for make asan and make
# valgrind): valgrind; make asan uses the clang of FUZZ
SANITIZERS=""
if [ "${1:-}" = sanitizers ]; then
    SANITIZERS="valgrind"
fi

# Debian packages ("scripts/deps.sh deb", for make deb, make test and
# make test-worker): debhelper (with dh-sequence-nginx from nginx-dev,
# in BUILD), dpkg-dev, fakeroot and lintian to make and check them
DEB=""
if [ "${1:-}" = deb ]; then
    DEB="debhelper dpkg-dev fakeroot lintian"
fi

missing=""
for p in $BUILD $WORKER $TEST $FUZZ $BROWSER $BENCH $SANITIZERS $DEB; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
    case "$status" in
        ii*) ;;
        *) missing="$missing $p" ;;
    esac
done

[ -z "$missing" ] && exit 0

echo "deps: installing$missing"

if [ "$(id -u)" -ne 0 ]; then
    SUDO=sudo
    command -v sudo >/dev/null 2>&1 || {
        echo "deps: missing packages:$missing; run as root or install sudo" >&2
        exit 1
    }
else
    SUDO=
fi

# Debian's nginx package starts a server in its postinst when it can; we
# only want the binary and the source tree.
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
