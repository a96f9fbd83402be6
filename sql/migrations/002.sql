-- Schema version 1 to 2.

-- issue 15: resumable uploads (IETF draft, tus 1.0)
--
-- An upload resource: a row here and a partial file in the store,
-- "<store>/uploads/<last two hex digits>/<upload_id>.part", whose first
-- upload_offset bytes are exactly the bytes acknowledged to the client
-- (invariant 11).  Completion admits the file as an ordinary upload (the
-- same receipt, invariants 1-4) and records the job here; the row then
-- stays, to replay the receipt, until the receipt expires.
CREATE TABLE uploads (
    upload_id       TEXT    PRIMARY KEY,    -- 32 random hex digits: the URL
    tenant          TEXT    NOT NULL,
    request_key     TEXT,                   -- Idempotency-Key, NULL: none
    protocol        TEXT    NOT NULL CHECK (protocol IN ('ietf', 'tus')),
    options         TEXT    NOT NULL,       -- canonical options, JSON
    filename        TEXT,                   -- as the client named it
    upload_offset   INTEGER NOT NULL DEFAULT 0,
    upload_length   INTEGER,                -- NULL: not known yet
    sha256_state    TEXT    NOT NULL,       -- SHA-256 of [0, upload_offset)
    container       TEXT,                   -- sniffed from the first bytes
    writer          INTEGER NOT NULL DEFAULT 0,  -- appends claimed so far:
                                                 -- the fencing token
    state           TEXT    NOT NULL DEFAULT 'incomplete'
                    CHECK (state IN ('incomplete', 'completed')),
    job_id          TEXT,                   -- the job it became
    input_digest    TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL        -- incomplete: video_ocr_upload_ttl
                                            -- after the last append;
                                            -- completed: the receipt's
);

-- A retried creation finds its upload by its key.
CREATE UNIQUE INDEX uploads_by_key ON uploads (tenant, request_key)
    WHERE request_key IS NOT NULL;

-- The janitor's expiry pass.
CREATE INDEX uploads_by_expiry ON uploads (expires_at);

-- A tenant's incomplete uploads, counted against video_ocr_uploads_max.
CREATE INDEX uploads_by_tenant ON uploads (tenant, state);
