-- Schema version 2 to 3 (PostgreSQL).  Each issue's part in a section of
-- its own.

-- issue 18: where the text was: the frames' box and lines (NULL in the
-- rows already there), and 'ass' among the results' formats (the CHECK
-- is replaced under its own name; the rows stay where they are).

ALTER TABLE frames ADD COLUMN box_x BIGINT,
                   ADD COLUMN box_y BIGINT,
                   ADD COLUMN box_w BIGINT,
                   ADD COLUMN box_h BIGINT,
                   ADD COLUMN lines BIGINT;

ALTER TABLE results DROP CONSTRAINT results_format_check,
    ADD CONSTRAINT results_format_check
        CHECK (format IN ('json', 'vtt', 'srt', 'txt', 'ass'));
