-- Schema version 1 to 2 (PostgreSQL).  Each issue's part in a section of
-- its own.

-- issue 16: webhooks (the outbox): the WEBHOOKS section of schema_pg.sql,
-- with the job's two new columns added where that section adds the
-- foreign key.

ALTER TABLE jobs ADD COLUMN webhook_endpoint BIGINT,
                 ADD COLUMN status_url TEXT;

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


-- issue 17 (claims): the claim's index probes and the tenants' turn
-- (the issue 17 (claims) section of schema_pg.sql).  not_before becomes
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
    id              BIGINT  PRIMARY KEY CHECK (id = 1),
    tenant          TEXT    NOT NULL,
    streak          BIGINT  NOT NULL
);

INSERT INTO claim_turn VALUES (1, '', 0);

-- issue 17, retention: the RETENTION section of schema_pg.sql, and
-- requests without its foreign key to jobs (schema.sql says why).

ALTER TABLE requests DROP CONSTRAINT IF EXISTS requests_job_id_fkey;
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

-- the queues of a version 1 ledger, counted once here
INSERT INTO tenant_job_counts
    SELECT tenant, state, count(*) FROM jobs
    WHERE state IN ('accepted', 'running') GROUP BY tenant, state;

CREATE INDEX jobs_by_tenant_age ON jobs (tenant, state, created_at);

CREATE FUNCTION tenant_jobs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1);
    RETURN NULL;
END $$;

CREATE TRIGGER tenant_jobs_counted AFTER INSERT ON jobs
    FOR EACH ROW WHEN (NEW.state IN ('accepted', 'running'))
    EXECUTE FUNCTION tenant_jobs_counted();

CREATE FUNCTION tenant_jobs_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
