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
-- issue 41: search.  The tables of schema.sql's SEARCH section; the
-- results already published are indexed by the code that runs this
-- migration, in its transaction (vo_ledger_search_migrate).

CREATE TABLE search_tenants (
    num             INTEGER PRIMARY KEY,    -- 1 to 2^23 - 1
    tenant          TEXT    NOT NULL UNIQUE,
    next            INTEGER NOT NULL DEFAULT 0  -- segments numbered so far
);

CREATE TABLE search_jobs (
    job_id          TEXT    PRIMARY KEY REFERENCES jobs (job_id),
    base            INTEGER NOT NULL UNIQUE,    -- its lowest segment id
    segments        INTEGER NOT NULL
);

CREATE TABLE search_segments (
    id              INTEGER PRIMARY KEY,
    folded          TEXT    NOT NULL
);

CREATE VIRTUAL TABLE search_fts USING fts5 (
    folded, content = 'search_segments', content_rowid = 'id',
    tokenize = 'trigram case_sensitive 1', columnsize = 0
);

CREATE VIRTUAL TABLE search_tokens USING fts5 (
    folded, content = 'search_segments', content_rowid = 'id',
    tokenize = "unicode61 remove_diacritics 0 categories 'L* N* M* Co Cn'",
    columnsize = 0
);

CREATE TRIGGER search_segments_indexed AFTER INSERT ON search_segments
BEGIN
    INSERT INTO search_fts (rowid, folded) VALUES (NEW.id, NEW.folded);
    INSERT INTO search_tokens (rowid, folded) VALUES (NEW.id, NEW.folded);
END;

CREATE TRIGGER search_segments_removed AFTER DELETE ON search_segments
BEGIN
    INSERT INTO search_fts (search_fts, rowid, folded)
        VALUES ('delete', OLD.id, OLD.folded);
    INSERT INTO search_tokens (search_tokens, rowid, folded)
        VALUES ('delete', OLD.id, OLD.folded);
END;

CREATE TABLE search_words (
    num             INTEGER NOT NULL,       -- the tenant's
    len             INTEGER NOT NULL,       -- code points
    word            TEXT    NOT NULL,
    rev             TEXT    NOT NULL,       -- the word backwards
    base            INTEGER NOT NULL,       -- a job that has it
    PRIMARY KEY (num, len, word)
) WITHOUT ROWID;

CREATE INDEX search_words_rev ON search_words (num, len, rev);

CREATE INDEX search_words_by_job ON search_words (num, base);

-- a hit's file name: the upload its job came from
CREATE INDEX uploads_by_job ON uploads (job_id) WHERE job_id IS NOT NULL;
