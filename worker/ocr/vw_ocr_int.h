/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The OCR room's own header (its contract is vw_ocr.h): what its files
 * share.  Nothing outside ocr/ includes it.
 */

#ifndef _VW_OCR_INT_H_INCLUDED_
#define _VW_OCR_INT_H_INCLUDED_


#include "vw_ocr.h"


/* where the traineddata files are when TESSDATA_PREFIX does not say */
#ifndef VW_TESSDATA_DEFAULT
#define VW_TESSDATA_DEFAULT  "/usr/share/tesseract-ocr/5/tessdata"
#endif


/* The Tesseract data directory: TESSDATA_PREFIX, else Debian's. */
const char *vw_ocr_datapath(void);


#endif /* _VW_OCR_INT_H_INCLUDED_ */
