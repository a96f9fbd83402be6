/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The bits of frames.flags, as the worker writes them and the ledger
 * reads them; what each means is written once, beside the column in
 * sql/schema.sql.  Decimal, so that a statement can spell one
 * (VO_FRAME_SQL): "(flags & " VO_FRAME_SQL(VO_FRAME_BETWEEN) ")".
 */

#ifndef _VO_FRAME_FLAGS_H_INCLUDED_
#define _VO_FRAME_FLAGS_H_INCLUDED_


#define VO_FRAME_TIMED_OUT    1       /* 0x001 */
#define VO_FRAME_NO_PICTURE   2       /* 0x002 */
#define VO_FRAME_NO_TEXT      4       /* 0x004 */
#define VO_FRAME_BETWEEN      8       /* 0x008: a look between samples */
#define VO_FRAME_TURN_SHIFT   4       /* bits 4-5: quarter turns */
#define VO_FRAME_TURN_MASK    48      /* 0x030 */
#define VO_FRAME_OSD          64      /* 0x040 */
#define VO_FRAME_UNREAD       128     /* 0x080 */
#define VO_FRAME_EXACT        256     /* 0x100 */
#define VO_FRAME_JOINED       512     /* 0x200 */
#define VO_FRAME_JOINING      1024    /* 0x400 */
#define VO_FRAME_UNSURE_SHIFT 11      /* bits 11-18: lines 1-8 of its text */
#define VO_FRAME_UNSURE_MASK  522240  /* 0x7f800 */
#define VO_FRAME_UNSURE_LINES 8

#define VO_FRAME_SQL_(bit)    #bit
#define VO_FRAME_SQL(bit)     VO_FRAME_SQL_(bit)


#endif /* _VO_FRAME_FLAGS_H_INCLUDED_ */
