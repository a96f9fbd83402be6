-- Schema version 2 to 3.  Each issue's part in a section of its own.

-- issue 18: where the text was.  A frame row gets its box and lines
-- (the frames table of schema.sql; NULL in the rows already there, which
-- were made without them), and a result may be ASS: the CHECK on
-- results.format gains 'ass'.  SQLite cannot change a CHECK in place, so
-- results is rebuilt as 002 rebuilt requests: copied aside, dropped (its
-- implicit DELETE fires no trigger, so the result_bytes counter stands),
-- created as schema.sql has it, filled again before its trigger is back
-- (so nothing is counted twice).  No table refers to results.

ALTER TABLE frames ADD COLUMN box_x INTEGER;
ALTER TABLE frames ADD COLUMN box_y INTEGER;
ALTER TABLE frames ADD COLUMN box_w INTEGER;
ALTER TABLE frames ADD COLUMN box_h INTEGER;
ALTER TABLE frames ADD COLUMN lines INTEGER;

CREATE TEMP TABLE results_v2 AS SELECT * FROM results;
DROP TABLE results;

-- The published result, one row per output format (json, vtt, srt, txt,
-- and from version 3 ass), all written by the publishing attempt in the
-- transaction that moves the job to done, so the formats always agree.
-- A job published before version 3 has no ass row.
CREATE TABLE results (
    job_id          TEXT    NOT NULL REFERENCES jobs (job_id),
    format          TEXT    NOT NULL CHECK (format IN ('json', 'vtt',
                                                       'srt', 'txt',
                                                       'ass')),
    body            TEXT    NOT NULL,
    PRIMARY KEY (job_id, format)
) WITHOUT ROWID;

INSERT INTO results (job_id, format, body)
    SELECT job_id, format, body FROM results_v2;
DROP TABLE results_v2;

CREATE TRIGGER results_counted AFTER INSERT ON results BEGIN
    INSERT INTO counters VALUES ('result_bytes', length(CAST(NEW.body AS BLOB)))
        ON CONFLICT (name) DO UPDATE
        SET value = value + length(CAST(NEW.body AS BLOB));
END;
