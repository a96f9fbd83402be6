-- Schema version 1 to 2.  Each issue's part in a section of its own.

-- issue 16: webhooks (the outbox).  The job's two new columns come last,
-- as in schema.sql; the tables, indexes and triggers are those of its
-- WEBHOOKS section.

ALTER TABLE jobs ADD COLUMN webhook_endpoint INTEGER
    REFERENCES webhook_endpoints (id);
ALTER TABLE jobs ADD COLUMN status_url TEXT;

-- WEBHOOKS (issue 16): where notifications go, and the outbox
--
-- An endpoint is a (tenant, url) with its secret, written once here: a
-- job row names its endpoint by id, so the secret is not repeated in
-- every job or notification.  Endpoints come from nginx's
-- video_ocr_webhook / video_ocr_webhook_secret (created or rotated by the
-- admission that first sees them) or from "video-ocr-worker webhooks
-- add" (webhook_defaults: the tenant's endpoint for jobs nginx gave
-- none).  A rotation keeps the previous secret, signed with too, until
-- previous_until.  A receiver's 410 Gone disables an endpoint: its
-- pending notifications are held until "webhooks enable".

CREATE TABLE webhook_endpoints (
    id              INTEGER PRIMARY KEY,
    tenant          TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    secret          TEXT    NOT NULL,   -- whsec_...
    previous_secret TEXT,               -- also signed with until
    previous_until  INTEGER,
    disabled_at     INTEGER,            -- the receiver answered 410 Gone
    disabled_reason TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    UNIQUE (tenant, url)
);

-- the operator's endpoint of a tenant ("webhooks add")
CREATE TABLE webhook_defaults (
    tenant          TEXT    PRIMARY KEY,
    endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints (id),
    created_at      INTEGER NOT NULL
) WITHOUT ROWID;

-- The outbox: one row per event to deliver (invariant 10).
CREATE TABLE notifications (
    id              INTEGER PRIMARY KEY,
    msg_id          TEXT    NOT NULL UNIQUE,  -- webhook-id: msg_<32 hex>
    job_id          TEXT    NOT NULL REFERENCES jobs (job_id),
    tenant          TEXT    NOT NULL,
    endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints (id),
    type            TEXT    NOT NULL
                    CHECK (type IN ('job.accepted', 'job.done', 'job.failed',
                                    'job.rejected', 'job.cancelled')),
    state           TEXT    NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'held', 'delivered',
                                     'failed')),
    payload         TEXT    NOT NULL,   -- the body, the same every attempt
    attempts        INTEGER NOT NULL DEFAULT 0,  -- claims: the fencing token
    attempts_before INTEGER NOT NULL DEFAULT 0,  -- those before the
                                        -- operator's last redeliver
    next_attempt_at INTEGER NOT NULL,   -- when due; while claimed, the end
                                        -- of the claim's lease
    lease_owner     TEXT,               -- "host:pid" of the last claim
    last_status     INTEGER,            -- HTTP status of the last attempt
    last_error      TEXT,               -- why the last attempt failed
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    delivered_at    INTEGER
);

-- what a deliverer claims: the pending rows by when they are due (id:
-- the tie-break of its ORDER BY, so that no sort follows the probe)
CREATE INDEX notifications_due ON notifications (next_attempt_at, id)
    WHERE state = 'pending';

-- a job's notifications in order (the status document; "in order per job")
CREATE INDEX notifications_by_job ON notifications (job_id, id);

-- an endpoint's rows by state (410 holds them, enable releases them)
CREATE INDEX notifications_by_endpoint ON notifications (endpoint_id, state);

-- the oldest one waiting, for the metrics (a single index probe)
CREATE INDEX notifications_waiting ON notifications (created_at)
    WHERE state IN ('pending', 'held');

-- every attempt, its outcome written when it ends; an attempt whose
-- deliverer died stays 'sending'
CREATE TABLE notification_attempts (
    notification_id INTEGER NOT NULL REFERENCES notifications (id),
    attempt         INTEGER NOT NULL,
    owner           TEXT    NOT NULL,
    started_at      INTEGER NOT NULL,
    ended_at        INTEGER,
    outcome         TEXT    NOT NULL DEFAULT 'sending'
                    CHECK (outcome IN ('sending', 'delivered', 'retry',
                                       'failed', 'gone', 'stale')),
    reason          TEXT,               -- 2xx, 5xx, timeout, connect, ...
    status          INTEGER,            -- the HTTP status, if one came
    latency_ms      INTEGER,
    error           TEXT,               -- a sentence: what went wrong
    PRIMARY KEY (notification_id, attempt)
) WITHOUT ROWID;

-- metrics, in counters: "webhook_state:<state>:<type>" (a gauge),
-- "webhook_delivered:<type>", "webhook_failed:<type>" (totals)
CREATE TRIGGER notifications_counted AFTER INSERT ON notifications BEGIN
    INSERT INTO counters VALUES ('webhook_state:' || NEW.state || ':'
                                 || NEW.type, 1)
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
END;

CREATE TRIGGER notifications_moved AFTER UPDATE OF state ON notifications
    WHEN OLD.state IS NOT NEW.state
BEGIN
    UPDATE counters SET value = value - 1
        WHERE name = 'webhook_state:' || OLD.state || ':' || OLD.type;
    INSERT INTO counters VALUES ('webhook_state:' || NEW.state || ':'
                                 || NEW.type, 1)
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
    INSERT INTO counters SELECT 'webhook_' || NEW.state || ':' || NEW.type, 1
        WHERE NEW.state IN ('delivered', 'failed')
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
END;

-- "webhook_attempts:<reason>", "webhook_retried:<type>", and the latency
-- histogram: "webhook_latency_le:<ms>", "webhook_latency_count",
-- "webhook_latency_ms"
CREATE TRIGGER notification_attempts_ended
    AFTER UPDATE OF outcome ON notification_attempts
    WHEN OLD.outcome = 'sending' AND NEW.outcome <> 'sending'
BEGIN
    INSERT INTO counters VALUES ('webhook_attempts:'
                                 || coalesce(NEW.reason, NEW.outcome), 1)
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
    INSERT INTO counters SELECT 'webhook_retried:' || n.type, 1
        FROM notifications n
        WHERE n.id = NEW.notification_id AND NEW.outcome = 'retry'
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
    INSERT INTO counters SELECT 'webhook_latency_le:' || b.le, 1
        FROM (SELECT 50 AS le UNION ALL SELECT 100 UNION ALL SELECT 250
              UNION ALL SELECT 500 UNION ALL SELECT 1000 UNION ALL SELECT 2500
              UNION ALL SELECT 5000 UNION ALL SELECT 10000
              UNION ALL SELECT 15000 UNION ALL SELECT 30000) b
        WHERE NEW.latency_ms IS NOT NULL AND NEW.latency_ms <= b.le
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
    INSERT INTO counters SELECT 'webhook_latency_count', 1
        WHERE NEW.latency_ms IS NOT NULL
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
    INSERT INTO counters SELECT 'webhook_latency_ms', NEW.latency_ms
        WHERE NEW.latency_ms IS NOT NULL
        ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
END;

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


-- issue 17 (claims): the claim's index probes and the tenants' turn
-- (the issue 17 (claims) section of schema.sql).  not_before becomes
-- the time a job became claimable: an accepted job's admission time
-- unless its backoff ends later.  jobs_by_state, the index of the old
-- claim, goes: nothing else read it.

UPDATE jobs SET not_before = created_at
    WHERE state = 'accepted' AND not_before < created_at;

DROP INDEX jobs_by_state;

CREATE INDEX jobs_queued ON jobs (state, tenant, not_before, created_at);

CREATE INDEX jobs_leases ON jobs (state, lease_expires_at);

CREATE INDEX jobs_running ON jobs (state, tenant);

-- the metrics' count of disabled endpoints: an index probe, not a scan
-- of every tenant's endpoints
CREATE INDEX webhook_endpoints_disabled ON webhook_endpoints (disabled_at)
    WHERE disabled_at IS NOT NULL;

CREATE TABLE claim_turn (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    tenant          TEXT    NOT NULL,
    streak          INTEGER NOT NULL
);

INSERT INTO claim_turn VALUES (1, '', 0);

-- issue 17, retention: the RETENTION section of schema.sql, and requests
-- rebuilt without its REFERENCES jobs (SQLite cannot drop a foreign key):
-- copied aside, dropped (its implicit DELETE fires no trigger, so the
-- receipts counter stands), created as schema.sql has it, filled again
-- before its triggers are back (so nothing is counted twice).  The file
-- keeps its auto_vacuum (NONE for a ledger made by version 1): switching
-- needs a VACUUM, which cannot run in this transaction and rewrites the
-- whole file; docs/operations.md says how and when to run it.

CREATE TEMP TABLE requests_v1 AS SELECT * FROM requests;
DROP TABLE requests;

CREATE TABLE requests (
    tenant          TEXT    NOT NULL,
    request_key     TEXT    NOT NULL,   -- Idempotency-Key, unquoted
    input_digest    TEXT    NOT NULL,   -- hex SHA-256, see docs/http-api.md
    job_id          TEXT    NOT NULL UNIQUE,    -- no REFERENCES: the
                                        -- job may be gone first (RETENTION)
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,   -- the receipt is forgotten after this
    PRIMARY KEY (tenant, request_key)
) WITHOUT ROWID;

INSERT INTO requests (tenant, request_key, input_digest, job_id, created_at,
                      expires_at)
    SELECT tenant, request_key, input_digest, job_id, created_at, expires_at
    FROM requests_v1;
DROP TABLE requests_v1;

CREATE INDEX requests_by_expiry ON requests (expires_at);

CREATE TRIGGER receipts_counted AFTER INSERT ON requests BEGIN
    INSERT INTO counters VALUES ('receipts', 1)
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
END;

CREATE TRIGGER receipts_removed AFTER DELETE ON requests BEGIN
    UPDATE counters SET value = value - 1 WHERE name = 'receipts';
END;

-- RETENTION (issue 17): history that stays bounded, and what the metrics
-- need to see it (docs/operations.md, "Retention").  The janitor deletes,
-- in short batches, each on an index of its own so that a pass costs the
-- rows it deletes and not the size of the history:
--
--   * the frame rows of a done job, --frame-retention after its finish
--     (they only serve a resumption, and a done job never resumes; those
--     of a failed or rejected job stay with its media, which an operator
--     retry resumes from): jobs.frames_deleted_at marks the job;
--   * a job, its results and its delivered or failed notifications,
--     --job-retention after its finish and once its media is gone (never
--     while a notification of it is pending or held: the outbox row
--     names its job, and "webhooks notifications --job" and the
--     status show it);
--   * events after --event-retention, those of the audit kinds (below:
--     a tenant's deletions, the operators' actions, the janitor's own
--     records of what it deleted) after --audit-retention.
--
-- A receipt may outlive its job (receipts live video_ocr_receipt_ttl,
-- which may be longer than --job-retention): it is then the job's
-- tombstone.  A retry of its key still replays it (invariant 1: the key
-- starts no new work while the receipt lives) and the job's URLs answer
-- 410 Gone (docs/http-api.md), which is why requests.job_id is no
-- foreign key of jobs (invariant 3: one job per receipt, written once;
-- the job may be gone since).

ALTER TABLE jobs ADD COLUMN frames_deleted_at INTEGER;

-- done jobs whose frame rows are still there, by finish (a job enters
-- it at its publish and leaves it when its frames go)
CREATE INDEX jobs_frames_due ON jobs (finished_at)
    WHERE state = 'done' AND frames_deleted_at IS NULL;

-- finished jobs whose media is gone, by finish: the job retention
CREATE INDEX jobs_expired ON jobs (finished_at)
    WHERE media_deleted_at IS NOT NULL;

-- events by age, the ordinary kinds and the audit kinds apart (the list
-- is VO_AUDIT_KINDS of sql/vo_ledger_int.h, word for word)
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

-- Per-tenant gauges for the metrics (video_ocr_metrics_tenants on): the
-- jobs of a tenant in the states a queue has, kept by triggers like
-- job_counts; a row that falls to 0 is deleted, so a tenant without work
-- has none.  The oldest job of a tenant in a state is an index probe.
CREATE TABLE tenant_job_counts (
    tenant          TEXT    NOT NULL,
    state           TEXT    NOT NULL,
    jobs            INTEGER NOT NULL,
    PRIMARY KEY (tenant, state)
) WITHOUT ROWID;

-- the queues of a version 1 ledger, counted once here
INSERT INTO tenant_job_counts
    SELECT tenant, state, count(*) FROM jobs
    WHERE state IN ('accepted', 'running') GROUP BY tenant, state;

CREATE INDEX jobs_by_tenant_age ON jobs (tenant, state, created_at);

CREATE TRIGGER tenant_jobs_counted AFTER INSERT ON jobs
    WHEN NEW.state IN ('accepted', 'running')
BEGIN
    INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1)
        ON CONFLICT (tenant, state) DO UPDATE SET jobs = jobs + 1;
END;

CREATE TRIGGER tenant_jobs_moved AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state
BEGIN
    UPDATE tenant_job_counts SET jobs = jobs - 1
        WHERE tenant = OLD.tenant AND state = OLD.state;
    DELETE FROM tenant_job_counts
        WHERE tenant = OLD.tenant AND state = OLD.state AND jobs <= 0;
    INSERT INTO tenant_job_counts
        SELECT NEW.tenant, NEW.state, 1
        WHERE NEW.state IN ('accepted', 'running')
        ON CONFLICT (tenant, state) DO UPDATE SET jobs = jobs + 1;
END;

CREATE TRIGGER tenant_jobs_removed AFTER DELETE ON jobs
    WHEN OLD.state IN ('accepted', 'running')
BEGIN
    UPDATE tenant_job_counts SET jobs = jobs - 1
        WHERE tenant = OLD.tenant AND state = OLD.state;
    DELETE FROM tenant_job_counts
        WHERE tenant = OLD.tenant AND state = OLD.state AND jobs <= 0;
END;

-- The claim latency histogram, in counters: an attempt's last event
-- carries claim_ms, the time its child's claim took (from the call to
-- the committed claim, waits for the write lock included; measured by
-- the worker, worker/vw_child.c).  "claim_latency_le:<ms>",
-- "claim_latency_count", "claim_latency_ms".
CREATE TRIGGER claim_latency_counted AFTER INSERT ON events
    WHEN json_valid(NEW.detail)
         AND json_extract(NEW.detail, '$.claim_ms') IS NOT NULL
BEGIN
    INSERT INTO counters SELECT 'claim_latency_le:' || b.le, 1
        FROM (SELECT 1 AS le UNION ALL SELECT 2 UNION ALL SELECT 5
              UNION ALL SELECT 10 UNION ALL SELECT 25 UNION ALL SELECT 50
              UNION ALL SELECT 100 UNION ALL SELECT 250 UNION ALL SELECT 500
              UNION ALL SELECT 1000 UNION ALL SELECT 2500
              UNION ALL SELECT 5000) b
        WHERE json_extract(NEW.detail, '$.claim_ms') <= b.le
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
    INSERT INTO counters VALUES ('claim_latency_count', 1)
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
    INSERT INTO counters
        VALUES ('claim_latency_ms', json_extract(NEW.detail, '$.claim_ms'))
        ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
END;

-- Rows deleted by retention, in counters "retention_deleted:<table>":
-- the janitor's retention events carry {"deleted_<table>": n, ...}.
CREATE TRIGGER retention_counted AFTER INSERT ON events
    WHEN NEW.kind = 'retention' AND json_valid(NEW.detail)
BEGIN
    INSERT INTO counters
        SELECT 'retention_deleted:' || substr(key, 9), value
        FROM json_each(NEW.detail)
        WHERE key IN ('deleted_frames', 'deleted_jobs', 'deleted_results',
                      'deleted_notifications', 'deleted_events')
        ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
END;
