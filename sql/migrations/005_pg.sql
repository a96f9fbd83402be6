-- Schema version 4 to 5 (PostgreSQL).  Each issue's part in a section of
-- its own.

-- issue 38 (tus): Upload-Metadata, concatenation (as in 005.sql).

ALTER TABLE uploads ADD COLUMN metadata TEXT;
ALTER TABLE uploads ADD COLUMN concat TEXT
    CHECK (concat IN ('partial', 'final'));
ALTER TABLE uploads ADD COLUMN partial_key TEXT;
ALTER TABLE uploads ADD COLUMN parts TEXT;
