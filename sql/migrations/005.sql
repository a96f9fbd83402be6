-- Schema version 4 to 5.  Each issue's part in a section of its own.

-- issue 38 (tus): Upload-Metadata kept for HEAD, and concatenation
-- (schema.sql says what each column is, and invariant 14).  The uploads
-- already there are whole uploads (concat NULL) whose metadata was not
-- kept (metadata NULL: HEAD gives none).

ALTER TABLE uploads ADD COLUMN metadata TEXT;
ALTER TABLE uploads ADD COLUMN concat TEXT
    CHECK (concat IN ('partial', 'final'));
ALTER TABLE uploads ADD COLUMN partial_key TEXT;
ALTER TABLE uploads ADD COLUMN parts TEXT;
