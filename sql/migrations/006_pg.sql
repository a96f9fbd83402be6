-- Schema version 5 to 6 (PostgreSQL).

-- issue 39: long videos in parts (as in 006.sql); the functions of the
-- triggers that count jobs skip parts, as a new ledger's do.

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

CREATE OR REPLACE FUNCTION jobs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO job_counts VALUES (NEW.state, 1);
    INSERT INTO counters VALUES ('input_bytes', NEW.input_size);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION jobs_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO job_counts VALUES (OLD.state, -1), (NEW.state, 1);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION jobs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO job_counts VALUES (OLD.state, -1);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION tenant_jobs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION tenant_jobs_moved() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION tenant_jobs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.parent_id IS NOT NULL THEN
        RETURN NULL;                    -- a part (PARTS): not counted
    END IF;
    INSERT INTO tenant_job_counts VALUES (OLD.tenant, OLD.state, -1);
    RETURN NULL;
END $$;
