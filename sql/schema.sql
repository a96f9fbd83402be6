-- video-ocr ledger schema, version 6.
--
-- The single source of truth for the ledger's tables.  The nginx module and
-- video-ocr-worker embed this file at build time (sql/embed.sh) and apply it
-- to a new ledger (PRAGMA user_version 0); an older one is brought up by the
-- migrations of sql/migrations/ instead.  The version is set by the code
-- that applies them (vo_sqlite_migrate, vo_pg_migrate), in the same
-- transaction.
--
-- All times are integer milliseconds since the Unix epoch (UTC).
--
-- THE JOB STATE MACHINE
--
--   accepted --claim--> running --publish--> done
--      ^                  |  |
--      |                  |  +--reject (invalid media)--> rejected
--      |                  +-----retry (transient error, failures left)--+
--      |                  +-----release (worker shutting down)----------+
--      +---------------------------------------------------------------+
--                         running --retry, no failures left--> failed
--                         running --lease expired--> claimed again by
--                                   another child (a takeover: the dead
--                                   attempt counts as a failure; with no
--                                   failures left the job is failed)
--                         running --its first claim splits a long
--                                   video into parts--> running with no
--                                   lease, until its last part publishes
--                                   it (or a part fails or rejects it):
--                                   PARTS, at the end
--      accepted, running --DELETE by its tenant--> cancelled
--      accepted, running --operator abandon--> failed
--      failed, rejected, running, accepted --operator retry--> accepted
--                                   (meant for stuck jobs: not checked)
--
--   done, failed, rejected and cancelled are terminal for the system: no
--   worker write touches a job in one of them, and only an operator's
--   retry (recorded as an event with its reason) moves one back.
--
-- INVARIANTS (every writer keeps them and names the ones it keeps; the
-- tests and docs/reliability.md use these numbers)
--
--   1. One receipt per (tenant, request_key): requests' primary key.
--   2. One digest per receipt: input_digest is written once, at admission,
--      and never updated.  A retry with the same digest gets the receipt;
--      one with another digest is refused (422), it never rewrites the row.
--   3. One job per receipt: requests.job_id is unique and written once.
--      A job may exist without a receipt (video_ocr_key_required off),
--      and a receipt may outlive its job, as its tombstone (RETENTION).
--   4. Nothing acknowledged is lost: a receipt is committed only after its
--      input file is in the store, and, with video_ocr_durability full,
--      durable there.  The uploads of a batch are written and renamed into
--      the store without an fsync each; the batch's leader then makes them
--      durable, data and directory entries, with one syncfs() of the
--      store's filesystem, and only then commits the batch's transaction
--      (ngx_module/vo_group.c).  A client that saw 202 can lose neither its
--      receipt nor its input, whatever is killed or powered off after.
--   5. jobs.attempt only grows.  Claiming a job increments it; the value a
--      worker claimed with is its fencing token.  jobs.failures counts the
--      attempts that failed; a job is failed when it reaches max_attempts.
--   6. A worker writes to a job (frames, progress, state, result) only in a
--      statement whose WHERE clause checks job_id, state = 'running' and
--      attempt = its token.  A write that matches no row was made by a stale
--      attempt; it is refused and counted (stale_writes), never retried.
--      So a job in a terminal state is never written by a worker.
--   7. The result is published only by the attempt that holds the lease,
--      in the transaction that moves the job to done (results rows are
--      inserted only there).
--   8. One frame row per (job_id, plan_version, frame_index); a frame row is
--      never rewritten by a later attempt (INSERT ... ON CONFLICT DO NOTHING),
--      so a resumed job keeps the text of the frames already read.
--   9. Every file in the store belongs to a job or to an incomplete
--      upload, but for a while: an upload placed by an admission that did
--      not commit is removed by it at once, or, if its nginx worker died
--      first, is an orphan, which the janitor removes once it is older
--      than --orphan-age.  A job's file is removed only with its job's
--      media: by DELETE after the ledger records it (deleted_at), by the
--      media retention just before it records it (media_deleted_at, so
--      that no job marked so keeps a file).  A resumable upload's partial
--      file ("uploads/<xx>/<upload_id>.part") belongs to its uploads row:
--      its completion links it to the job's input name and, once the
--      admission committed, removes the partial name; the janitor removes
--      an expired upload's row, then its file; a partial file that no row
--      names (a janitor or a creation that died between the row and the
--      file) is an orphan too.
--  10. (issue 16, the outbox) A job's move to done, failed, rejected or
--      cancelled inserts its notification row in the same transaction
--      and under the same fencing as the move: a move that is refused (a
--      stale attempt, a job no longer in the state the move expects)
--      writes none, and a move that commits cannot lose it.  Admission
--      may insert a job.accepted row, in the admission's transaction.  A
--      notification's webhook-id (msg_id) and body are written once, at
--      insertion: every attempt sends the same id and the same bytes.
--      notifications.attempts only grows; claiming one increments it and
--      the value is the deliverer's fencing token: an attempt's outcome is
--      recorded only while the row is still pending under that token.  A
--      delivered or failed notification is sent again only by the
--      operator (webhooks redeliver), under the same webhook-id.
--  11. An upload's offset only grows and never passes what is durable: it
--      is moved only by the append holding the upload's current writer
--      token, in an UPDATE that names the offset it wrote at, after the
--      bytes up to the new offset are in the partial file and (durability
--      full) fdatasync'd.  Every write truncates the file to the recorded
--      offset first, so bytes of a writer that died before its commit are
--      never counted.
--  12. One writer per upload: an append claims the upload (writer + 1)
--      before its body is read, and writes the partial file only while
--      it holds the file's lock (flock: the nginx processes of a host) and,
--      on PostgreSQL, the row's (FOR UPDATE: every host), and only if its
--      token is still the current one; a stale append's bytes are dropped.
--  13. An upload is completed only by an admission: the transaction that
--      inserts (or finds) the receipt and the job also marks the upload
--      completed, if it is still incomplete under the completing writer's
--      token, so a completed upload names exactly one job.
--  14. A partial upload's bytes count in one job at most, and only while
--      it lives (tus concatenation, below): no admission completes a
--      partial upload; an admission takes its bytes only for a final
--      upload of its tenant and of its partial_key, and deletes its row
--      in the same transaction, which fails when that row is gone,
--      expired or not whole (deleted, or expired and taken by the
--      janitor): the final upload then fails and admits nothing.
--  15. A job is in the search index (SEARCH, below) exactly while its
--      result is published: its rows (search_jobs, search_segments, the
--      words it brought) are written in the transaction that publishes
--      the result, under the same fence (invariants 6, 7), and deleted in
--      the transaction that deletes the result (DELETE, the job
--      retention).  A ledger migrated to version 5 has its published
--      results indexed by the migration, in its transaction.
--  16. A part of a long job (PARTS, below) exists only while its job is
--      running: every transaction that moves the job out of 'running'
--      (published by its last part, failed or rejected by a part,
--      cancelled, abandoned, retried) deletes its parts and their frames
--      too.  The job is published only by the transaction of the part
--      that finishes last, under that part's fence (invariants 6, 7),
--      with the parts' rows joined at their seams; a transaction that
--      writes both a part and its job locks the job first.

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

CREATE TABLE jobs (
    job_id          TEXT    PRIMARY KEY,    -- 32 lowercase hex digits
    tenant          TEXT    NOT NULL,
    state           TEXT    NOT NULL DEFAULT 'accepted'
                    CHECK (state IN ('accepted', 'running', 'done',
                                     'failed', 'rejected', 'cancelled')),
    options         TEXT    NOT NULL,   -- canonical options, JSON object
    input_path      TEXT    NOT NULL,   -- relative to the store directory
    input_size      INTEGER NOT NULL,
    input_sha256    TEXT    NOT NULL,   -- hex SHA-256 of the body bytes
    container       TEXT    NOT NULL,   -- sniffed at the edge: mp4, ...

    attempt         INTEGER NOT NULL DEFAULT 0,  -- claims so far: the fencing token
    failures        INTEGER NOT NULL DEFAULT 0,  -- attempts that failed or died
    max_attempts    INTEGER NOT NULL DEFAULT 3,  -- failures before 'failed'
    lease_owner     TEXT,               -- "host:pid/slot" of the claiming child
    lease_expires_at INTEGER,
    not_before      INTEGER NOT NULL DEFAULT 0,  -- when it became (or
                                        -- becomes) claimable: its
                                        -- admission, the end of a retry
                                        -- backoff, a release (issue 17)

    plan_version    INTEGER,
    frames_planned  INTEGER,
    frames_done     INTEGER NOT NULL DEFAULT 0,
    inspection      TEXT,               -- normalised media facts, JSON
    error_code      TEXT,               -- machine-readable reason
    error           TEXT,               -- a sentence a user can act on

    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    started_at      INTEGER,
    finished_at     INTEGER,
    deleted_at      INTEGER,            -- DELETE by its tenant: input,
                                        -- frames and results are gone
    media_deleted_at INTEGER,           -- media retention: input and
                                        -- frames are gone, results kept
    -- issue 16: where its notifications go (video_ocr_webhook, recorded
    -- at admission; NULL: the tenant's endpoint of "webhooks add", if
    -- any), and its status URL as the receipt gave it, for their body
    webhook_endpoint INTEGER REFERENCES webhook_endpoints (id),
    status_url      TEXT
);

-- The oldest job in a state, for the metrics (a single index probe).
CREATE INDEX jobs_by_age ON jobs (state, created_at);

-- Finished jobs by age, for the media retention.
CREATE INDEX jobs_by_finish ON jobs (finished_at)
    WHERE finished_at IS NOT NULL AND media_deleted_at IS NULL;

-- Receipts by expiry, for the janitor.
CREATE INDEX requests_by_expiry ON requests (expires_at);

CREATE TABLE frames (
    job_id          TEXT    NOT NULL REFERENCES jobs (job_id),
    plan_version    INTEGER NOT NULL,
    frame_index     INTEGER NOT NULL,
    pts_ms          INTEGER NOT NULL,   -- presentation time of the sample
    text            TEXT    NOT NULL,
    confidence      REAL    NOT NULL,   -- 0..100, Tesseract's mean
    reused_from     INTEGER,            -- frame_index whose text was reused
    -- the row's bits (sql/vo_frame_flags.h names them VO_FRAME_*):
    --    1 TIMED_OUT   the deadline cancelled the reading of its screen
    --    2 NO_PICTURE  no picture at the look: the video had ended, or
    --                  the crop misses this frame
    --    4 NO_TEXT     no glyph on the picture: empty, not OCR'd
    --    8 BETWEEN     a look between two samples where the text changed
    --                  (frames_done counts the rows without it)
    --   16, 32 (TURN)  the quarter turns, clockwise, that orientation
    --                  detection found the text needed: bits 4-5
    --   64 OSD         orientation detection had run when the row was
    --                  made (once per video: a resumed job does as a
    --                  whole run)
    --  128 UNREAD      a screen of many glyphs whose reading says
    --                  (almost) nothing: the text_unreadable warning
    --  256 EXACT       pts_ms is the frame the change began on (refine)
    --  512 JOINED      the text is that of the screen before, joined to
    --                  it in hindsight: not its own reading
    -- 1024 JOINING     a row of a group of joined screens before the
    --                  first row of its last screen: a resumed job does
    --                  not pick up right after it
    -- 2048 << k (UNSURE, bits 11-18): line k + 1 of its text (k < 8)
    --                  was read with a confidence below the unsure
    --                  bound (VW_UNSURE_BELOW), whatever the mean
    flags           INTEGER NOT NULL DEFAULT 0,
    attempt         INTEGER NOT NULL,   -- the attempt that wrote the row
    created_at      INTEGER NOT NULL,
    -- issue 18 (version 3): where the text of its screen is, in pixels
    -- of the picture as shown (the display matrix applied; the crop's
    -- offset added, a turn found by orientation detection undone): the
    -- top left corner, width and height of its glyphs; and how many
    -- lines of text they make.  NULL, all five: no glyph, or a row made
    -- before version 3.
    box_x           INTEGER,
    box_y           INTEGER,
    box_w           INTEGER,
    box_h           INTEGER,
    lines           INTEGER,
    -- issue 18 (version 4): text in two places at once (a title and a
    -- subtitle): where each part of the text is, as the worker writes it
    -- ("lines x y w h confidence" per part, ";" between: the form is in
    -- worker/result/vw_parts.h).  NULL: the text is one part (and in every
    -- row made before version 4).
    parts           TEXT,
    PRIMARY KEY (job_id, plan_version, frame_index)
) WITHOUT ROWID;

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

-- Append-only audit trail: admissions, state changes, refusals.
CREATE TABLE events (
    id              INTEGER PRIMARY KEY,
    at              INTEGER NOT NULL,
    job_id          TEXT,
    tenant          TEXT,
    kind            TEXT    NOT NULL,   -- admitted, claimed, retried, ...
    attempt         INTEGER,
    detail          TEXT                -- JSON
);

CREATE INDEX events_by_job ON events (job_id, id);


-- METRICS
--
-- Kept current by the triggers below, in the transactions that change
-- what they count, so that a metrics scrape reads a few dozen rows and
-- never scans jobs or events (docs/operations.md lists the metrics).

-- jobs by state, a gauge
CREATE TABLE job_counts (
    state           TEXT    PRIMARY KEY,
    jobs            INTEGER NOT NULL
) WITHOUT ROWID;

-- events by kind, by the code (or op) and the step their detail names
CREATE TABLE event_counts (
    kind            TEXT    NOT NULL,
    code            TEXT    NOT NULL,
    step            TEXT    NOT NULL,
    events          INTEGER NOT NULL,
    PRIMARY KEY (kind, code, step)
) WITHOUT ROWID;

-- sums: OCR calls, bytes per artifact class, ...
CREATE TABLE counters (
    name            TEXT    PRIMARY KEY,
    value           INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER jobs_counted AFTER INSERT ON jobs
    WHEN NEW.parent_id IS NULL
BEGIN
    INSERT INTO job_counts VALUES (NEW.state, 1)
        ON CONFLICT (state) DO UPDATE SET jobs = jobs + 1;
    INSERT INTO counters VALUES ('input_bytes', NEW.input_size)
        ON CONFLICT (name) DO UPDATE SET value = value + NEW.input_size;
END;

CREATE TRIGGER jobs_moved AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state AND NEW.parent_id IS NULL
BEGIN
    UPDATE job_counts SET jobs = jobs - 1 WHERE state = OLD.state;
    INSERT INTO job_counts VALUES (NEW.state, 1)
        ON CONFLICT (state) DO UPDATE SET jobs = jobs + 1;
END;

CREATE TRIGGER jobs_removed AFTER DELETE ON jobs
    WHEN OLD.parent_id IS NULL
BEGIN
    UPDATE job_counts SET jobs = jobs - 1 WHERE state = OLD.state;
END;

CREATE TRIGGER receipts_counted AFTER INSERT ON requests BEGIN
    INSERT INTO counters VALUES ('receipts', 1)
        ON CONFLICT (name) DO UPDATE SET value = value + 1;
END;

CREATE TRIGGER receipts_removed AFTER DELETE ON requests BEGIN
    UPDATE counters SET value = value - 1 WHERE name = 'receipts';
END;

CREATE TRIGGER frames_counted AFTER INSERT ON frames BEGIN
    INSERT INTO counters VALUES ('frame_bytes', length(CAST(NEW.text AS BLOB)))
        ON CONFLICT (name) DO UPDATE
        SET value = value + length(CAST(NEW.text AS BLOB));
END;

CREATE TRIGGER results_counted AFTER INSERT ON results BEGIN
    INSERT INTO counters VALUES ('result_bytes', length(CAST(NEW.body AS BLOB)))
        ON CONFLICT (name) DO UPDATE
        SET value = value + length(CAST(NEW.body AS BLOB));
END;

-- an attempt's last event carries what it did: ocr_calls, reused,
-- ocr_ms, frames; the janitor's and deletions carry receipts_expired,
-- media_jobs, media_bytes
CREATE TRIGGER events_counted AFTER INSERT ON events BEGIN
    INSERT INTO event_counts VALUES (NEW.kind,
            coalesce(json_extract(NEW.detail, '$.code'),
                     json_extract(NEW.detail, '$.op'), ''),
            coalesce(json_extract(NEW.detail, '$.step'), ''), 1)
        ON CONFLICT (kind, code, step) DO UPDATE SET events = events + 1;
    INSERT INTO counters
        SELECT key, value FROM json_each(NEW.detail)
        WHERE key IN ('ocr_calls', 'reused', 'ocr_ms', 'frames',
                      'receipts_expired', 'media_jobs', 'media_bytes')
          AND json_valid(NEW.detail)
        ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
END;


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


-- issue 17 (claims): claims in O(log n), fair between tenants, and caps
--
-- A claim is two index probes, never a scan or a sort, whatever the
-- backlog (vo_ledger_claim):
--
--   1. a takeover: the running job whose lease expired first
--      (jobs_leases);
--   2. else the next tenant, in name order after the one the last claim
--      served (claim_turn), that has an accepted job (jobs_queued: the
--      first entry past it), and that tenant's claimable job with the
--      smallest not_before (its oldest: not_before is when a job became
--      claimable, its admission unless a backoff or a release moved it).
--
-- So claims go round-robin over the tenants with work, one each (or
-- its weight, streak), oldest first within a tenant.  The turn is one
-- row that every claim rewrites: claims take turns on it (PostgreSQL:
-- FOR UPDATE), which is what makes them round-robin across hosts too.
-- A tenant's running cap counts its running jobs in jobs_running, at
-- most the cap's entries; its queued cap (video_ocr_tenant_max_queued,
-- checked by the admission) counts its entries of jobs_queued, at most
-- the cap's.
--
-- The three indexes lead with state and are not partial: PostgreSQL
-- drops a condition that a partial index's WHERE implies from the
-- index's search keys, so "WHERE state = 'accepted'" over
-- (state, tenant, ...) would search on tenant alone, a second column,
-- and read the index from its start (measured: 80 ms a probe beside
-- 10^6 queued jobs); without the leading state SQLite's planner, with
-- no statistics, prefers jobs_by_age and sorts.  Led by state, both
-- descend straight to (state, tenant).

CREATE INDEX jobs_queued ON jobs (state, tenant, not_before, created_at);

CREATE INDEX jobs_leases ON jobs (state, lease_expires_at);

CREATE INDEX jobs_running ON jobs (state, tenant);

-- the metrics' count of disabled endpoints: an index probe, not a scan
-- of every tenant's endpoints
CREATE INDEX webhook_endpoints_disabled ON webhook_endpoints (disabled_at)
    WHERE disabled_at IS NOT NULL;

CREATE TABLE claim_turn (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    tenant          TEXT    NOT NULL,   -- the tenant the last claim served
    streak          INTEGER NOT NULL    -- claims in a row it has had
);

INSERT INTO claim_turn VALUES (1, '', 0);

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

CREATE INDEX jobs_by_tenant_age ON jobs (tenant, state, created_at);

CREATE TRIGGER tenant_jobs_counted AFTER INSERT ON jobs
    WHEN NEW.state IN ('accepted', 'running') AND NEW.parent_id IS NULL
BEGIN
    INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1)
        ON CONFLICT (tenant, state) DO UPDATE SET jobs = jobs + 1;
END;

CREATE TRIGGER tenant_jobs_moved AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state AND NEW.parent_id IS NULL
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
    WHEN OLD.state IN ('accepted', 'running') AND OLD.parent_id IS NULL
BEGIN
    UPDATE tenant_job_counts SET jobs = jobs - 1
        WHERE tenant = OLD.tenant AND state = OLD.state;
    DELETE FROM tenant_job_counts
        WHERE tenant = OLD.tenant AND state = OLD.state AND jobs <= 0;
END;

-- The claim latency histogram, in counters: an attempt's last event
-- carries claim_ms, the time its child's claim took (from the call to
-- the committed claim, waits for the write lock included; measured by
-- the worker, worker/pool/vw_child.c).  "claim_latency_le:<ms>",
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


-- issue 38 (tus): Upload-Metadata kept for HEAD, and concatenation
-- (schema version 5; sql/migrations/005.sql adds the same columns)
--
-- A tus upload may be a partial upload (Upload-Concat: partial), one
-- slice of a video that a client sends beside the others over its own
-- connection, or a final upload (Upload-Concat: final;<partial URLs>),
-- which joins partial uploads, in its order, into the video it admits.
-- A partial upload is an upload row like any other (invariants 11 and
-- 12) that stays incomplete when all its bytes are in: no admission
-- completes it (invariant 14).  It has no request_key, so the key's
-- receipt stays the final upload's, and partial_key scopes it to that
-- key instead.  The final upload's bytes are joined into the job's input
-- file by its creation (copy_file_range: shared blocks, no copy, where
-- the filesystem has reflinks), and its admission is the ordinary one
-- (invariant 13), which also deletes the partial uploads' rows
-- (invariant 14); its own partial file stays empty.

ALTER TABLE uploads ADD COLUMN metadata TEXT;   -- tus Upload-Metadata as
                                                -- the creation sent it
ALTER TABLE uploads ADD COLUMN concat TEXT      -- NULL: a whole upload
    CHECK (concat IN ('partial', 'final'));
ALTER TABLE uploads ADD COLUMN partial_key TEXT;    -- a partial upload: the
                                                    -- Idempotency-Key of
                                                    -- the final one that
                                                    -- may join it
ALTER TABLE uploads ADD COLUMN parts TEXT;      -- a final upload: the ids
                                                -- of its partial uploads,
                                                -- in order, by spaces
-- SEARCH (issue 41; sql/vo_ledger_search.c, docs/http-api.md "Search")
--
-- Every segment of a published result is a row of search_segments: its
-- text folded (lib/vo_fold.h: case, accents, full-width forms; the
-- characters of Han, kana and Hangul spaced), found by trigrams: here
-- FTS5's trigram tokenizer over it (search_fts, an external-content
-- index the triggers keep; case_sensitive 1, as the text is folded
-- already), in PostgreSQL pg_trgm's GIN index.  Here also by words
-- (search_tokens, FTS5's unicode61 over the same text; every letter,
-- mark and digit is a word's, as in the fold, whatever Unicode version
-- SQLite's tables know): a whole word is a read of its list of segments,
-- where by trigrams it is the walk of several long ones
-- (vo_ledger_search_int.h).  A job's segments are a
-- run of ids, base to base + segments - 1 in the order of the video,
--
--     base = (its tenant's num << 40) + 2^40 - next
--
-- next: the tenant's segments numbered so far, this job's included.  So
-- a tenant's segments are one range of ids, and the newer a job the
-- lower its run.  Every search names its tenant's range, which is how a
-- tenant finds only its own jobs, and walks the index up from the
-- bottom of it: newest job first, each job's hits in the order of its
-- video, stopping at the page's limit (FTS5 also walks a doclist
-- fastest that way, and takes a transaction's rows as it wants them:
-- by growing ids).
--
-- search_words lists the words (3 to 32 letters, no digit) of each
-- tenant's indexed jobs, each with one job that has it (base: the job
-- that brought it, until that job goes and another takes its place; a
-- word no job has any more goes with it).  A word of a query is also
-- looked for as the words one edit away from it that the tenant has
-- (typo tolerance), found by its first or its last half (the word and
-- its reverse, by length).  A publish writes only the words the tenant
-- did not have (a count per word made every publish rewrite a page per
-- word: 4 MB of WAL a job on the benchmark's ledger).
--
-- Invariant 15 (at the top) says when a job is in the index.

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

-- PARTS (issue 39; docs/worker-pipeline.md, "Long videos in parts")
--
-- A long video is read by the whole pool: the first claim of a job whose
-- video is long enough plans it as parts, time ranges that begin at
-- keyframes, and inserts each part as a row of jobs whose parent_id names
-- the job.  A part is claimed, leased, heartbeated, fenced, taken over,
-- retried and released as a job is, by the same statements; it has the
-- job's tenant, options and input.  Its rows are frames under its own
-- job_id.  Meanwhile the job stays 'running' with no lease (no takeover
-- can claim it).  The part that finishes last joins the parts' rows into
-- the job's and publishes its result, in the transaction that moves the
-- part to done; a part that fails for good or is rejected fails or
-- rejects the job with its reason.  When the job leaves 'running' by any
-- path (published, failed, rejected, cancelled, abandoned, retried by an
-- operator) its parts and their frames are deleted in the same
-- transaction: a part exists only under a running job, so retention, the
-- janitor, search, the metrics (the triggers above skip parts) and
-- everything a user sees know only jobs.  Only the worker writes parts.
--
--   parent_id     the job a part belongs to (NULL: not a part)
--   part          its number, 0 first, in time order
--   first_sample  the first sample it reads (vw_job_t.from)
--   end_sample    the first sample of the next part (the last part: the
--                 job's frames_planned)
--   seam_index    set when the part is done: the frame index from which
--                 the part seam_part's rows take over (vw_seam_same: the
--                 next part, or one after it if this one read past the
--                 next's whole range); both NULL: the part read to the
--                 end of the video, its rows are the job's to the end
--   parts         on the job: how many parts it was planned as (0: read
--                 whole); parts_done: how many of them are done
ALTER TABLE jobs ADD COLUMN parent_id TEXT REFERENCES jobs (job_id);
ALTER TABLE jobs ADD COLUMN part INTEGER;
ALTER TABLE jobs ADD COLUMN first_sample INTEGER;
ALTER TABLE jobs ADD COLUMN end_sample INTEGER;
ALTER TABLE jobs ADD COLUMN seam_index INTEGER;
ALTER TABLE jobs ADD COLUMN seam_part INTEGER;
ALTER TABLE jobs ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN parts_done INTEGER NOT NULL DEFAULT 0;

-- a job's parts, in order
CREATE INDEX jobs_parts ON jobs (parent_id, part)
    WHERE parent_id IS NOT NULL;
