-- Schema version 1 to 2 (PostgreSQL).

-- issue 15: resumable uploads (IETF draft, tus 1.0)
-- (sql/schema.sql says what each column is.)
CREATE TABLE uploads (
    upload_id       TEXT    PRIMARY KEY,
    tenant          TEXT    NOT NULL,
    request_key     TEXT,
    protocol        TEXT    NOT NULL CHECK (protocol IN ('ietf', 'tus')),
    options         TEXT    NOT NULL,
    filename        TEXT,
    upload_offset   BIGINT  NOT NULL DEFAULT 0,
    upload_length   BIGINT,
    sha256_state    TEXT    NOT NULL,
    container       TEXT,
    writer          BIGINT  NOT NULL DEFAULT 0,
    state           TEXT    NOT NULL DEFAULT 'incomplete'
                    CHECK (state IN ('incomplete', 'completed')),
    job_id          TEXT,
    input_digest    TEXT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL
);

-- A retried creation finds its upload by its key.
CREATE UNIQUE INDEX uploads_by_key ON uploads (tenant, request_key)
    WHERE request_key IS NOT NULL;

-- The janitor's expiry pass.
CREATE INDEX uploads_by_expiry ON uploads (expires_at);

-- A tenant's incomplete uploads, counted against video_ocr_uploads_max.
CREATE INDEX uploads_by_tenant ON uploads (tenant, state);
