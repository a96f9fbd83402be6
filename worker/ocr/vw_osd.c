/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Tesseract's orientation and script detection (see vw_ocr.h): its own
 * engine (osd.traineddata, the legacy engine), loaded on first use and
 * kept.
 */

#include <stdlib.h>

#include <tesseract/capi.h>

#include "vw_ocr_int.h"


static TessBaseAPI  *vw_osd_api;
static int           vw_osd_broken;     /* no osd.traineddata: never again */


static int vw_osd_run(const vw_image_t *img, int *deg, float *conf,
    const char **script, float *sconf, vw_err_t *err);


int
vw_osd_detect(const vw_image_t *img, int *turns, float *conf, vw_err_t *err)
{
    int          rc, deg;
    float        sconf;
    const char  *script;

    *turns = 0;

    rc = vw_osd_run(img, &deg, conf, &script, &sconf, err);

    if (rc == 0) {
        /* deg: how far the text is turned clockwise; undo it */
        *turns = (4 - (deg / 90) % 4) % 4;
    }

    return rc;
}


int
vw_osd_script(const vw_image_t *img, const char **script, float *conf,
    vw_err_t *err)
{
    int    deg;
    float  oconf;

    return vw_osd_run(img, &deg, &oconf, script, conf, err);
}


/*
 * One detection: *deg and *conf the orientation, *script (the name in
 * Tesseract's own tables, never freed: Tesseract 5's header note about
 * TessDeleteText is out of date, freeing it is a double free) and
 * *sconf the script.
 */
static int
vw_osd_run(const vw_image_t *img, int *deg, float *conf,
    const char **script, float *sconf, vw_err_t *err)
{
    char        *names[2], *values[2];
    const char  *path;

    *deg = 0;
    *conf = 0;
    *script = NULL;
    *sconf = 0;

    if (vw_osd_broken || img->width == 0 || img->height == 0) {
        return 1;
    }

    if (vw_osd_api == NULL) {
        vw_osd_api = TessBaseAPICreate();
        if (vw_osd_api == NULL) {
            return vw_fail(err, "no_memory", "osd: cannot create a "
                           "Tesseract engine");
        }

        path = vw_ocr_datapath();

        /* subtitles are short: Tesseract skips fewer than 50 characters */
        names[0] = (char *) "debug_file";
        values[0] = (char *) "/dev/null";
        names[1] = (char *) "min_characters_to_try";
        values[1] = (char *) "8";

        if (TessBaseAPIInit4(vw_osd_api, path, "osd", OEM_TESSERACT_ONLY,
                             NULL, 0, names, values, 2, 0) != 0)
        {
            TessBaseAPIDelete(vw_osd_api);
            vw_osd_api = NULL;
            vw_osd_broken = 1;
            return 1;
        }

        TessBaseAPISetPageSegMode(vw_osd_api, PSM_OSD_ONLY);
    }

    TessBaseAPISetImage(vw_osd_api, img->data, img->width, img->height, 1,
                        img->stride);
    TessBaseAPISetSourceResolution(vw_osd_api, 300);

    if (!TessBaseAPIDetectOrientationScript(vw_osd_api, deg, conf, script,
                                            sconf))
    {
        TessBaseAPIClear(vw_osd_api);
        *script = NULL;
        return 1;
    }

    TessBaseAPIClear(vw_osd_api);

    return 0;
}


void
vw_osd_shutdown(void)
{
    if (vw_osd_api != NULL) {
        TessBaseAPIEnd(vw_osd_api);
        TessBaseAPIDelete(vw_osd_api);
        vw_osd_api = NULL;
    }
}
