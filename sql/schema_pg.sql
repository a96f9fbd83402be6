-- video-ocr ledger schema for PostgreSQL, version 6.
--
-- The same tables, columns, keys and indexes as sql/schema.sql, which is
-- the reference: its comment lists the job states, the transitions and
-- the invariants, and they hold here unchanged.  This file says only
-- what PostgreSQL spells differently.  The two are kept in step by a
-- test (t/nginx/030-postgresql.t, "the schemas agree") that creates both and
-- compares every table's columns (names, order, NOT NULL), primary and
-- unique keys, indexes and triggers: a change to one file without the
-- other fails `make test`.
--
-- Applied by vo_ledger_pg.c to a schema that has no video_ocr_schema
-- table; that table, holding the version, is created by the code in the
-- same transaction (it is SQLite's PRAGMA user_version).  Tables go to
-- the first schema of the connection's search_path (by default the one
-- named after the role, else public).
--
-- Differences, and why:
--
--   * Integers are BIGINT (SQLite's INTEGER holds 64 bits), REAL is
--     DOUBLE PRECISION, events.id is an identity column.
--   * No WITHOUT ROWID (a SQLite storage option).
--   * Triggers are PL/pgSQL functions; events_counted reads the detail
--     as jsonb where SQLite uses json_extract/json_each.  The functions
--     of the triggers that count jobs skip parts (jobs.parent_id) in
--     their body, where SQLite says it in the trigger's WHEN: a
--     trigger's WHEN here may not name a column added after it.
--   * The metric tables (job_counts, event_counts, counters) have no
--     primary key: each trigger APPENDS a row (+1, -1, +bytes) instead
--     of updating the one row of its key.  With many writers in flight
--     at once, one row per key would be a lock every admission and
--     every claim waits on until the other commits (and taken in
--     different orders by different transactions, a deadlock).  Readers
--     sum per key; the janitor folds the rows into one per key
--     (vo_ledger_fold_counters).  SQLite has one writer at a time and
--     updates in place.

CREATE TABLE jobs (
    job_id          TEXT    PRIMARY KEY,
    tenant          TEXT    NOT NULL,
    state           TEXT    NOT NULL DEFAULT 'accepted'
                    CHECK (state IN ('accepted', 'running', 'done',
                                     'failed', 'rejected', 'cancelled')),
    options         TEXT    NOT NULL,
    input_path      TEXT    NOT NULL,
    input_size      BIGINT  NOT NULL,
    input_sha256    TEXT    NOT NULL,
    container       TEXT    NOT NULL,

    attempt         BIGINT  NOT NULL DEFAULT 0,
    failures        BIGINT  NOT NULL DEFAULT 0,
    max_attempts    BIGINT  NOT NULL DEFAULT 3,
    lease_owner     TEXT,
    lease_expires_at BIGINT,
    not_before      BIGINT  NOT NULL DEFAULT 0,

    plan_version    BIGINT,
    frames_planned  BIGINT,
    frames_done     BIGINT  NOT NULL DEFAULT 0,
    inspection      TEXT,
    error_code      TEXT,
    error           TEXT,

    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL,
    started_at      BIGINT,
    finished_at     BIGINT,
    deleted_at      BIGINT,
    media_deleted_at BIGINT,
    webhook_endpoint BIGINT,            -- REFERENCES webhook_endpoints,
                                        -- added with that table below
    status_url      TEXT
);

-- after jobs: PostgreSQL checks the REFERENCES when it creates the table
CREATE TABLE requests (
    tenant          TEXT    NOT NULL,
    request_key     TEXT    NOT NULL,
    input_digest    TEXT    NOT NULL,
    job_id          TEXT    NOT NULL UNIQUE,    -- no REFERENCES (RETENTION)
    created_at      BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL,
    PRIMARY KEY (tenant, request_key)
);

CREATE INDEX jobs_by_age ON jobs (state, created_at);

CREATE INDEX jobs_by_finish ON jobs (finished_at)
    WHERE finished_at IS NOT NULL AND media_deleted_at IS NULL;

CREATE INDEX requests_by_expiry ON requests (expires_at);

CREATE TABLE frames (
    job_id          TEXT    NOT NULL REFERENCES jobs (job_id),
    plan_version    BIGINT  NOT NULL,
    frame_index     BIGINT  NOT NULL,
    pts_ms          BIGINT  NOT NULL,
    text            TEXT    NOT NULL,
    confidence      DOUBLE PRECISION NOT NULL,
    reused_from     BIGINT,
    flags           BIGINT  NOT NULL DEFAULT 0,  -- the bits of schema.sql
    attempt         BIGINT  NOT NULL,
    created_at      BIGINT  NOT NULL,
    box_x           BIGINT,
    box_y           BIGINT,
    box_w           BIGINT,
    box_h           BIGINT,
    lines           BIGINT,
    parts           TEXT,
    PRIMARY KEY (job_id, plan_version, frame_index)
);

CREATE TABLE results (
    job_id          TEXT    NOT NULL REFERENCES jobs (job_id),
    format          TEXT    NOT NULL CHECK (format IN ('json', 'vtt',
                                                       'srt', 'txt',
                                                       'ass')),
    body            TEXT    NOT NULL,
    PRIMARY KEY (job_id, format)
);

CREATE TABLE events (
    id              BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at              BIGINT  NOT NULL,
    job_id          TEXT,
    tenant          TEXT,
    kind            TEXT    NOT NULL,
    attempt         BIGINT,
    detail          TEXT
);

CREATE INDEX events_by_job ON events (job_id, id);


-- METRICS: appended rows, summed by key (see above)

CREATE TABLE job_counts (
    state           TEXT    NOT NULL,
    jobs            BIGINT  NOT NULL
);

CREATE TABLE event_counts (
    kind            TEXT    NOT NULL,
    code            TEXT    NOT NULL,
    step            TEXT    NOT NULL,
    events          BIGINT  NOT NULL
);

CREATE TABLE counters (
    name            TEXT    NOT NULL,
    value           BIGINT  NOT NULL
);

CREATE FUNCTION jobs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO job_counts VALUES (NEW.state, 1);
    INSERT INTO counters VALUES ('input_bytes', NEW.input_size);
    RETURN NULL;
END $$;

CREATE TRIGGER jobs_counted AFTER INSERT ON jobs
    FOR EACH ROW EXECUTE FUNCTION jobs_counted();

CREATE FUNCTION jobs_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO job_counts VALUES (OLD.state, -1), (NEW.state, 1);
    RETURN NULL;
END $$;

CREATE TRIGGER jobs_moved AFTER UPDATE OF state ON jobs
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state)
    EXECUTE FUNCTION jobs_moved();

CREATE FUNCTION jobs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO job_counts VALUES (OLD.state, -1);
    RETURN NULL;
END $$;

CREATE TRIGGER jobs_removed AFTER DELETE ON jobs
    FOR EACH ROW EXECUTE FUNCTION jobs_removed();

CREATE FUNCTION receipts_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO counters VALUES ('receipts', 1);
    RETURN NULL;
END $$;

CREATE TRIGGER receipts_counted AFTER INSERT ON requests
    FOR EACH ROW EXECUTE FUNCTION receipts_counted();

CREATE FUNCTION receipts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO counters VALUES ('receipts', -1);
    RETURN NULL;
END $$;

CREATE TRIGGER receipts_removed AFTER DELETE ON requests
    FOR EACH ROW EXECUTE FUNCTION receipts_removed();

CREATE FUNCTION frames_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO counters VALUES ('frame_bytes', octet_length(NEW.text));
    RETURN NULL;
END $$;

CREATE TRIGGER frames_counted AFTER INSERT ON frames
    FOR EACH ROW EXECUTE FUNCTION frames_counted();

CREATE FUNCTION results_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO counters VALUES ('result_bytes', octet_length(NEW.body));
    RETURN NULL;
END $$;

CREATE TRIGGER results_counted AFTER INSERT ON results
    FOR EACH ROW EXECUTE FUNCTION results_counted();

CREATE FUNCTION events_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d jsonb := NEW.detail::jsonb;
BEGIN
    INSERT INTO event_counts VALUES (NEW.kind,
        coalesce(d ->> 'code', d ->> 'op', ''), coalesce(d ->> 'step', ''),
        1);
    INSERT INTO counters
        SELECT key, value::bigint FROM jsonb_each_text(d)
        WHERE key IN ('ocr_calls', 'reused', 'ocr_ms', 'frames',
                      'receipts_expired', 'media_jobs', 'media_bytes');
    RETURN NULL;
END $$;

CREATE TRIGGER events_counted AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_counted();


-- WEBHOOKS (issue 16): as in schema.sql; ids are identity columns, the
-- triggers append to counters

CREATE TABLE webhook_endpoints (
    id              BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant          TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    secret          TEXT    NOT NULL,
    previous_secret TEXT,
    previous_until  BIGINT,
    disabled_at     BIGINT,
    disabled_reason TEXT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL,
    UNIQUE (tenant, url)
);

ALTER TABLE jobs ADD FOREIGN KEY (webhook_endpoint)
    REFERENCES webhook_endpoints (id);

CREATE TABLE webhook_defaults (
    tenant          TEXT    PRIMARY KEY,
    endpoint_id     BIGINT  NOT NULL REFERENCES webhook_endpoints (id),
    created_at      BIGINT  NOT NULL
);

CREATE TABLE notifications (
    id              BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    msg_id          TEXT    NOT NULL UNIQUE,
    job_id          TEXT    NOT NULL REFERENCES jobs (job_id),
    tenant          TEXT    NOT NULL,
    endpoint_id     BIGINT  NOT NULL REFERENCES webhook_endpoints (id),
    type            TEXT    NOT NULL
                    CHECK (type IN ('job.accepted', 'job.done', 'job.failed',
                                    'job.rejected', 'job.cancelled')),
    state           TEXT    NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'held', 'delivered',
                                     'failed')),
    payload         TEXT    NOT NULL,
    attempts        BIGINT  NOT NULL DEFAULT 0,
    attempts_before BIGINT  NOT NULL DEFAULT 0,
    next_attempt_at BIGINT  NOT NULL,
    lease_owner     TEXT,
    last_status     BIGINT,
    last_error      TEXT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL,
    delivered_at    BIGINT
);

CREATE INDEX notifications_due ON notifications (next_attempt_at, id)
    WHERE state = 'pending';

CREATE INDEX notifications_by_job ON notifications (job_id, id);

CREATE INDEX notifications_by_endpoint ON notifications (endpoint_id, state);

CREATE INDEX notifications_waiting ON notifications (created_at)
    WHERE state IN ('pending', 'held');

CREATE TABLE notification_attempts (
    notification_id BIGINT  NOT NULL REFERENCES notifications (id),
    attempt         BIGINT  NOT NULL,
    owner           TEXT    NOT NULL,
    started_at      BIGINT  NOT NULL,
    ended_at        BIGINT,
    outcome         TEXT    NOT NULL DEFAULT 'sending'
                    CHECK (outcome IN ('sending', 'delivered', 'retry',
                                       'failed', 'gone', 'stale')),
    reason          TEXT,
    status          BIGINT,
    latency_ms      BIGINT,
    error           TEXT,
    PRIMARY KEY (notification_id, attempt)
);

CREATE FUNCTION notifications_counted() RETURNS trigger LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO counters VALUES ('webhook_state:' || NEW.state || ':'
                                 || NEW.type, 1);
    RETURN NULL;
END $$;

CREATE TRIGGER notifications_counted AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION notifications_counted();

CREATE FUNCTION notifications_moved() RETURNS trigger LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO counters VALUES
        ('webhook_state:' || OLD.state || ':' || OLD.type, -1),
        ('webhook_state:' || NEW.state || ':' || NEW.type, 1);
    IF NEW.state IN ('delivered', 'failed') THEN
        INSERT INTO counters VALUES
            ('webhook_' || NEW.state || ':' || NEW.type, 1);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER notifications_moved AFTER UPDATE OF state ON notifications
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state)
    EXECUTE FUNCTION notifications_moved();

CREATE FUNCTION notification_attempts_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO counters VALUES
        ('webhook_attempts:' || coalesce(NEW.reason, NEW.outcome), 1);
    IF NEW.outcome = 'retry' THEN
        INSERT INTO counters SELECT 'webhook_retried:' || n.type, 1
            FROM notifications n WHERE n.id = NEW.notification_id;
    END IF;
    IF NEW.latency_ms IS NOT NULL THEN
        INSERT INTO counters
            SELECT 'webhook_latency_le:' || b.le, 1
            FROM unnest(ARRAY[50, 100, 250, 500, 1000, 2500, 5000, 10000,
                              15000, 30000]) AS b(le)
            WHERE NEW.latency_ms <= b.le;
        INSERT INTO counters VALUES ('webhook_latency_count', 1),
                                    ('webhook_latency_ms', NEW.latency_ms);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER notification_attempts_ended
    AFTER UPDATE OF outcome ON notification_attempts
    FOR EACH ROW WHEN (OLD.outcome = 'sending' AND NEW.outcome <> 'sending')
    EXECUTE FUNCTION notification_attempts_ended();

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


-- issue 17 (claims): as in schema.sql

CREATE INDEX jobs_queued ON jobs (state, tenant, not_before, created_at);

CREATE INDEX jobs_leases ON jobs (state, lease_expires_at);

CREATE INDEX jobs_running ON jobs (state, tenant);

-- the metrics' count of disabled endpoints: an index probe, not a scan
-- of every tenant's endpoints
CREATE INDEX webhook_endpoints_disabled ON webhook_endpoints (disabled_at)
    WHERE disabled_at IS NOT NULL;

CREATE TABLE claim_turn (
    id              BIGINT  PRIMARY KEY CHECK (id = 1),
    tenant          TEXT    NOT NULL,
    streak          BIGINT  NOT NULL
);

INSERT INTO claim_turn VALUES (1, '', 0);

-- RETENTION (issue 17): as in schema.sql, which says why.
-- tenant_job_counts appends rows like the other metric tables; the
-- janitor folds them (vo_ledger_fold_counters) and drops the keys that
-- sum to 0.

ALTER TABLE jobs ADD COLUMN frames_deleted_at BIGINT;

CREATE INDEX jobs_frames_due ON jobs (finished_at)
    WHERE state = 'done' AND frames_deleted_at IS NULL;

CREATE INDEX jobs_expired ON jobs (finished_at)
    WHERE media_deleted_at IS NOT NULL;

CREATE INDEX events_by_age ON events (at)
    WHERE kind NOT IN ('deleted', 'upload_deleted', 'operator_retry',
                       'webhook_added', 'webhook_removed',
                       'webhook_secret_rotated', 'webhook_enabled',
                       'webhook_redelivered', 'webhook_disabled',
                       'retention');
CREATE INDEX events_audit_by_age ON events (at)
    WHERE kind IN ('deleted', 'upload_deleted', 'operator_retry',
                   'webhook_added', 'webhook_removed',
                   'webhook_secret_rotated', 'webhook_enabled',
                   'webhook_redelivered', 'webhook_disabled',
                   'retention');

CREATE TABLE tenant_job_counts (
    tenant          TEXT    NOT NULL,
    state           TEXT    NOT NULL,
    jobs            BIGINT  NOT NULL
);

CREATE INDEX jobs_by_tenant_age ON jobs (tenant, state, created_at);

CREATE FUNCTION tenant_jobs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1);
    RETURN NULL;
END $$;

CREATE TRIGGER tenant_jobs_counted AFTER INSERT ON jobs
    FOR EACH ROW WHEN (NEW.state IN ('accepted', 'running'))
    EXECUTE FUNCTION tenant_jobs_counted();

CREATE FUNCTION tenant_jobs_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    IF OLD.state IN ('accepted', 'running') THEN
        INSERT INTO tenant_job_counts VALUES (OLD.tenant, OLD.state, -1);
    END IF;
    IF NEW.state IN ('accepted', 'running') THEN
        INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER tenant_jobs_moved AFTER UPDATE OF state ON jobs
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state)
    EXECUTE FUNCTION tenant_jobs_moved();

CREATE FUNCTION tenant_jobs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO tenant_job_counts VALUES (OLD.tenant, OLD.state, -1);
    RETURN NULL;
END $$;

CREATE TRIGGER tenant_jobs_removed AFTER DELETE ON jobs
    FOR EACH ROW WHEN (OLD.state IN ('accepted', 'running'))
    EXECUTE FUNCTION tenant_jobs_removed();

CREATE FUNCTION claim_latency_counted() RETURNS trigger LANGUAGE plpgsql
AS $$
DECLARE
    ms bigint := (NEW.detail::jsonb ->> 'claim_ms')::bigint;
BEGIN
    IF ms IS NOT NULL THEN
        INSERT INTO counters
            SELECT 'claim_latency_le:' || b.le, 1
            FROM unnest(ARRAY[1, 2, 5, 10, 25, 50, 100, 250, 500, 1000,
                              2500, 5000]) AS b(le)
            WHERE ms <= b.le;
        INSERT INTO counters VALUES ('claim_latency_count', 1),
                                    ('claim_latency_ms', ms);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER claim_latency_counted AFTER INSERT ON events
    FOR EACH ROW WHEN (NEW.detail LIKE '%"claim_ms"%')
    EXECUTE FUNCTION claim_latency_counted();

CREATE FUNCTION retention_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO counters
        SELECT 'retention_deleted:' || substr(key, 9), value::bigint
        FROM jsonb_each_text(NEW.detail::jsonb)
        WHERE key IN ('deleted_frames', 'deleted_jobs', 'deleted_results',
                      'deleted_notifications', 'deleted_events');
    RETURN NULL;
END $$;

CREATE TRIGGER retention_counted AFTER INSERT ON events
    FOR EACH ROW WHEN (NEW.kind = 'retention')
    EXECUTE FUNCTION retention_counted();


-- issue 38 (tus): Upload-Metadata, concatenation (schema version 5; as
-- in schema.sql, which says what each column is and invariant 14)

ALTER TABLE uploads ADD COLUMN metadata TEXT;
ALTER TABLE uploads ADD COLUMN concat TEXT
    CHECK (concat IN ('partial', 'final'));
ALTER TABLE uploads ADD COLUMN partial_key TEXT;
ALTER TABLE uploads ADD COLUMN parts TEXT;
-- SEARCH (issue 41): as in schema.sql, with pg_trgm's GIN index where
-- SQLite has FTS5.  The extension must exist in the database or the
-- ledger's role be allowed to create it (pg_trgm is trusted: CREATE on
-- the database is enough; docs/operations.md).  The words and the
-- folded text compare bytewise (COLLATE "C"), as SQLite's do: a range
-- of words by prefix is then a range of the index.  search_words takes
-- its writers in one order (the code sorts the words it writes), so that
-- two publishes of one tenant that bring the same new word wait for each
-- other, never deadlock.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE search_tenants (
    num             BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    tenant          TEXT    NOT NULL UNIQUE,
    next            BIGINT  NOT NULL DEFAULT 0
);

CREATE TABLE search_jobs (
    job_id          TEXT    PRIMARY KEY REFERENCES jobs (job_id),
    base            BIGINT  NOT NULL UNIQUE,
    segments        BIGINT  NOT NULL
);

CREATE TABLE search_segments (
    id              BIGINT  PRIMARY KEY,
    folded          TEXT    COLLATE "C" NOT NULL
);

CREATE INDEX search_segments_trgm ON search_segments
    USING gin (folded gin_trgm_ops);

-- its words (one space apart in a folded text), where schema.sql has
-- search_tokens: a whole word is a read of its list of rows, where its
-- trigrams are several long ones (sql/vo_ledger_search.c)
CREATE INDEX search_segments_words ON search_segments
    USING gin (string_to_array(btrim(folded), ' '));

CREATE TABLE search_words (
    num             BIGINT  NOT NULL,
    len             BIGINT  NOT NULL,
    word            TEXT    COLLATE "C" NOT NULL,
    rev             TEXT    COLLATE "C" NOT NULL,
    base            BIGINT  NOT NULL,
    PRIMARY KEY (num, len, word)
);

CREATE INDEX search_words_rev ON search_words (num, len, rev);

CREATE INDEX search_words_by_job ON search_words (num, base);

CREATE INDEX uploads_by_job ON uploads (job_id) WHERE job_id IS NOT NULL;

-- PARTS (issue 39): as in schema.sql, which says why.  The job counting
-- triggers' functions skip parts.

ALTER TABLE jobs ADD COLUMN parent_id TEXT REFERENCES jobs (job_id);
ALTER TABLE jobs ADD COLUMN part BIGINT;
ALTER TABLE jobs ADD COLUMN first_sample BIGINT;
ALTER TABLE jobs ADD COLUMN end_sample BIGINT;
ALTER TABLE jobs ADD COLUMN seam_index BIGINT;
ALTER TABLE jobs ADD COLUMN seam_part BIGINT;
ALTER TABLE jobs ADD COLUMN parts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN parts_done BIGINT NOT NULL DEFAULT 0;

CREATE INDEX jobs_parts ON jobs (parent_id, part)
    WHERE parent_id IS NOT NULL;
