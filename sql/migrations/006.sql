-- Schema version 5 to 6.

-- issue 39: long videos in parts (schema.sql's PARTS section says what
-- each column is).  The jobs already there are not parts and were not
-- split (parent_id NULL, parts 0); the triggers that count jobs now skip
-- parts, as a new ledger's do.

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

DROP TRIGGER jobs_counted;
CREATE TRIGGER jobs_counted AFTER INSERT ON jobs
    WHEN NEW.parent_id IS NULL
BEGIN
    INSERT INTO job_counts VALUES (NEW.state, 1)
        ON CONFLICT (state) DO UPDATE SET jobs = jobs + 1;
    INSERT INTO counters VALUES ('input_bytes', NEW.input_size)
        ON CONFLICT (name) DO UPDATE SET value = value + NEW.input_size;
END;

DROP TRIGGER jobs_moved;
CREATE TRIGGER jobs_moved AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state AND NEW.parent_id IS NULL
BEGIN
    UPDATE job_counts SET jobs = jobs - 1 WHERE state = OLD.state;
    INSERT INTO job_counts VALUES (NEW.state, 1)
        ON CONFLICT (state) DO UPDATE SET jobs = jobs + 1;
END;

DROP TRIGGER jobs_removed;
CREATE TRIGGER jobs_removed AFTER DELETE ON jobs
    WHEN OLD.parent_id IS NULL
BEGIN
    UPDATE job_counts SET jobs = jobs - 1 WHERE state = OLD.state;
END;

DROP TRIGGER tenant_jobs_counted;
CREATE TRIGGER tenant_jobs_counted AFTER INSERT ON jobs
    WHEN NEW.state IN ('accepted', 'running') AND NEW.parent_id IS NULL
BEGIN
    INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1)
        ON CONFLICT (tenant, state) DO UPDATE SET jobs = jobs + 1;
END;

DROP TRIGGER tenant_jobs_moved;
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

DROP TRIGGER tenant_jobs_removed;
CREATE TRIGGER tenant_jobs_removed AFTER DELETE ON jobs
    WHEN OLD.state IN ('accepted', 'running') AND OLD.parent_id IS NULL
BEGIN
    UPDATE tenant_job_counts SET jobs = jobs - 1
        WHERE tenant = OLD.tenant AND state = OLD.state;
    DELETE FROM tenant_job_counts
        WHERE tenant = OLD.tenant AND state = OLD.state AND jobs <= 0;
END;
