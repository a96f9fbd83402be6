/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The version of video-ocr, written here and nowhere else: the module
 * logs it when nginx starts or reloads and exports it in
 * video_ocr_build_info, the worker prints it (-V, --version) and sends
 * it in its webhooks' User-Agent, and "make deb" (scripts/deb.sh) takes
 * the packages' version and their debian/changelog entry from this line.
 */

#ifndef _VO_VERSION_H_INCLUDED_
#define _VO_VERSION_H_INCLUDED_


#define VO_VERSION  "0.1.0"


#endif /* _VO_VERSION_H_INCLUDED_ */
