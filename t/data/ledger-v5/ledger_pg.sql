--
-- PostgreSQL database dump
--

\restrict CA0NFWfDRH0jH1dteDGiorxgpNkNTc6tLq2FcwsVg4jeEHS3zEca1ZFyOXi3xoc

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: @SCHEMA@; Type: SCHEMA; Schema: -; Owner: -
--



--
-- Name: claim_latency_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.claim_latency_counted() RETURNS trigger
    LANGUAGE plpgsql
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


--
-- Name: events_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.events_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: frames_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.frames_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO counters VALUES ('frame_bytes', octet_length(NEW.text));
    RETURN NULL;
END $$;


--
-- Name: jobs_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.jobs_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO job_counts VALUES (NEW.state, 1);
    INSERT INTO counters VALUES ('input_bytes', NEW.input_size);
    RETURN NULL;
END $$;


--
-- Name: jobs_moved(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.jobs_moved() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO job_counts VALUES (OLD.state, -1), (NEW.state, 1);
    RETURN NULL;
END $$;


--
-- Name: jobs_removed(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.jobs_removed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO job_counts VALUES (OLD.state, -1);
    RETURN NULL;
END $$;


--
-- Name: notification_attempts_ended(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.notification_attempts_ended() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: notifications_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.notifications_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO counters VALUES ('webhook_state:' || NEW.state || ':'
                                 || NEW.type, 1);
    RETURN NULL;
END $$;


--
-- Name: notifications_moved(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.notifications_moved() RETURNS trigger
    LANGUAGE plpgsql
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


--
-- Name: receipts_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.receipts_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO counters VALUES ('receipts', 1);
    RETURN NULL;
END $$;


--
-- Name: receipts_removed(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.receipts_removed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO counters VALUES ('receipts', -1);
    RETURN NULL;
END $$;


--
-- Name: results_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.results_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO counters VALUES ('result_bytes', octet_length(NEW.body));
    RETURN NULL;
END $$;


--
-- Name: retention_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.retention_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO counters
        SELECT 'retention_deleted:' || substr(key, 9), value::bigint
        FROM jsonb_each_text(NEW.detail::jsonb)
        WHERE key IN ('deleted_frames', 'deleted_jobs', 'deleted_results',
                      'deleted_notifications', 'deleted_events');
    RETURN NULL;
END $$;


--
-- Name: tenant_jobs_counted(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.tenant_jobs_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1);
    RETURN NULL;
END $$;


--
-- Name: tenant_jobs_moved(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.tenant_jobs_moved() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF OLD.state IN ('accepted', 'running') THEN
        INSERT INTO tenant_job_counts VALUES (OLD.tenant, OLD.state, -1);
    END IF;
    IF NEW.state IN ('accepted', 'running') THEN
        INSERT INTO tenant_job_counts VALUES (NEW.tenant, NEW.state, 1);
    END IF;
    RETURN NULL;
END $$;


--
-- Name: tenant_jobs_removed(); Type: FUNCTION; Schema: @SCHEMA@; Owner: -
--

CREATE FUNCTION @SCHEMA@.tenant_jobs_removed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO tenant_job_counts VALUES (OLD.tenant, OLD.state, -1);
    RETURN NULL;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: claim_turn; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.claim_turn (
    id bigint NOT NULL,
    tenant text NOT NULL,
    streak bigint NOT NULL,
    CONSTRAINT claim_turn_id_check CHECK ((id = 1))
);


--
-- Name: counters; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.counters (
    name text NOT NULL,
    value bigint NOT NULL
);


--
-- Name: event_counts; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.event_counts (
    kind text NOT NULL,
    code text NOT NULL,
    step text NOT NULL,
    events bigint NOT NULL
);


--
-- Name: events; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.events (
    id bigint NOT NULL,
    at bigint NOT NULL,
    job_id text,
    tenant text,
    kind text NOT NULL,
    attempt bigint,
    detail text
);


--
-- Name: events_id_seq; Type: SEQUENCE; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE @SCHEMA@.events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME @SCHEMA@.events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: frames; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.frames (
    job_id text NOT NULL,
    plan_version bigint NOT NULL,
    frame_index bigint NOT NULL,
    pts_ms bigint NOT NULL,
    text text NOT NULL,
    confidence double precision NOT NULL,
    reused_from bigint,
    flags bigint DEFAULT 0 NOT NULL,
    attempt bigint NOT NULL,
    created_at bigint NOT NULL,
    box_x bigint,
    box_y bigint,
    box_w bigint,
    box_h bigint,
    lines bigint,
    parts text
);


--
-- Name: job_counts; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.job_counts (
    state text NOT NULL,
    jobs bigint NOT NULL
);


--
-- Name: jobs; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.jobs (
    job_id text NOT NULL,
    tenant text NOT NULL,
    state text DEFAULT 'accepted'::text NOT NULL,
    options text NOT NULL,
    input_path text NOT NULL,
    input_size bigint NOT NULL,
    input_sha256 text NOT NULL,
    container text NOT NULL,
    attempt bigint DEFAULT 0 NOT NULL,
    failures bigint DEFAULT 0 NOT NULL,
    max_attempts bigint DEFAULT 3 NOT NULL,
    lease_owner text,
    lease_expires_at bigint,
    not_before bigint DEFAULT 0 NOT NULL,
    plan_version bigint,
    frames_planned bigint,
    frames_done bigint DEFAULT 0 NOT NULL,
    inspection text,
    error_code text,
    error text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    started_at bigint,
    finished_at bigint,
    deleted_at bigint,
    media_deleted_at bigint,
    webhook_endpoint bigint,
    status_url text,
    frames_deleted_at bigint,
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['accepted'::text, 'running'::text, 'done'::text, 'failed'::text, 'rejected'::text, 'cancelled'::text])))
);


--
-- Name: notification_attempts; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.notification_attempts (
    notification_id bigint NOT NULL,
    attempt bigint NOT NULL,
    owner text NOT NULL,
    started_at bigint NOT NULL,
    ended_at bigint,
    outcome text DEFAULT 'sending'::text NOT NULL,
    reason text,
    status bigint,
    latency_ms bigint,
    error text,
    CONSTRAINT notification_attempts_outcome_check CHECK ((outcome = ANY (ARRAY['sending'::text, 'delivered'::text, 'retry'::text, 'failed'::text, 'gone'::text, 'stale'::text])))
);


--
-- Name: notifications; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.notifications (
    id bigint NOT NULL,
    msg_id text NOT NULL,
    job_id text NOT NULL,
    tenant text NOT NULL,
    endpoint_id bigint NOT NULL,
    type text NOT NULL,
    state text DEFAULT 'pending'::text NOT NULL,
    payload text NOT NULL,
    attempts bigint DEFAULT 0 NOT NULL,
    attempts_before bigint DEFAULT 0 NOT NULL,
    next_attempt_at bigint NOT NULL,
    lease_owner text,
    last_status bigint,
    last_error text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    delivered_at bigint,
    CONSTRAINT notifications_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'held'::text, 'delivered'::text, 'failed'::text]))),
    CONSTRAINT notifications_type_check CHECK ((type = ANY (ARRAY['job.accepted'::text, 'job.done'::text, 'job.failed'::text, 'job.rejected'::text, 'job.cancelled'::text])))
);


--
-- Name: notifications_id_seq; Type: SEQUENCE; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE @SCHEMA@.notifications ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME @SCHEMA@.notifications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: requests; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.requests (
    tenant text NOT NULL,
    request_key text NOT NULL,
    input_digest text NOT NULL,
    job_id text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: results; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.results (
    job_id text NOT NULL,
    format text NOT NULL,
    body text NOT NULL,
    CONSTRAINT results_format_check CHECK ((format = ANY (ARRAY['json'::text, 'vtt'::text, 'srt'::text, 'txt'::text, 'ass'::text])))
);


--
-- Name: search_jobs; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.search_jobs (
    job_id text NOT NULL,
    base bigint NOT NULL,
    segments bigint NOT NULL
);


--
-- Name: search_segments; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.search_segments (
    id bigint NOT NULL,
    folded text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: search_tenants; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.search_tenants (
    num bigint NOT NULL,
    tenant text NOT NULL,
    next bigint DEFAULT 0 NOT NULL
);


--
-- Name: search_tenants_num_seq; Type: SEQUENCE; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE @SCHEMA@.search_tenants ALTER COLUMN num ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME @SCHEMA@.search_tenants_num_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: search_words; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.search_words (
    num bigint NOT NULL,
    len bigint NOT NULL,
    word text NOT NULL COLLATE pg_catalog."C",
    rev text NOT NULL COLLATE pg_catalog."C",
    base bigint NOT NULL
);


--
-- Name: tenant_job_counts; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.tenant_job_counts (
    tenant text NOT NULL,
    state text NOT NULL,
    jobs bigint NOT NULL
);


--
-- Name: uploads; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.uploads (
    upload_id text NOT NULL,
    tenant text NOT NULL,
    request_key text,
    protocol text NOT NULL,
    options text NOT NULL,
    filename text,
    upload_offset bigint DEFAULT 0 NOT NULL,
    upload_length bigint,
    sha256_state text NOT NULL,
    container text,
    writer bigint DEFAULT 0 NOT NULL,
    state text DEFAULT 'incomplete'::text NOT NULL,
    job_id text,
    input_digest text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    metadata text,
    concat text,
    partial_key text,
    parts text,
    CONSTRAINT uploads_concat_check CHECK ((concat = ANY (ARRAY['partial'::text, 'final'::text]))),
    CONSTRAINT uploads_protocol_check CHECK ((protocol = ANY (ARRAY['ietf'::text, 'tus'::text]))),
    CONSTRAINT uploads_state_check CHECK ((state = ANY (ARRAY['incomplete'::text, 'completed'::text])))
);


--
-- Name: video_ocr_schema; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.video_ocr_schema (
    version bigint NOT NULL
);


--
-- Name: webhook_defaults; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.webhook_defaults (
    tenant text NOT NULL,
    endpoint_id bigint NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: webhook_endpoints; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.webhook_endpoints (
    id bigint NOT NULL,
    tenant text NOT NULL,
    url text NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_until bigint,
    disabled_at bigint,
    disabled_reason text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: webhook_endpoints_id_seq; Type: SEQUENCE; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE @SCHEMA@.webhook_endpoints ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME @SCHEMA@.webhook_endpoints_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Data for Name: claim_turn; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.claim_turn VALUES (1, '', 1);


--
-- Data for Name: counters; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.counters VALUES ('reused', 4);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:2500', 3);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_ms', 16);
INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 33956);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:1000', 3);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:5000', 3);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:25', 3);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_count', 3);
INSERT INTO @SCHEMA@.counters VALUES ('media_jobs', 1);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 206);
INSERT INTO @SCHEMA@.counters VALUES ('frames', 9);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:500', 3);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:250', 3);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 3540);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:100', 3);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:5', 2);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_ms', 75);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_calls', 2);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 4);
INSERT INTO @SCHEMA@.counters VALUES ('media_bytes', 6409);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:50', 3);
INSERT INTO @SCHEMA@.counters VALUES ('claim_latency_le:10', 3);
INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 6409);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 1);
INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 6409);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 1);


--
-- Data for Name: event_counts; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 4);
INSERT INTO @SCHEMA@.event_counts VALUES ('deleted', 'done', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('published', '', 'publish', 2);
INSERT INTO @SCHEMA@.event_counts VALUES ('rejected', 'truncated', 'inspect', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('claimed', '', '', 4);
INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('upload_created', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('upload_created', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('upload_completed', '', '', 1);


--
-- Data for Name: events; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (1, 1796617777080, '01a24ec3afb828c8eb42ee59d931c80e', '', 'admitted', 0, '{"input_size":11806,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (2, 1796617777307, '01a24ec3afb828c8eb42ee59d931c80e', '', 'claimed', 1, '{"owner":"vm:10873/0"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (3, 1796617777579, '01a24ec3afb828c8eb42ee59d931c80e', '', 'published', 1, '{"code":"","step":"publish","frames":6,"ocr_calls":1,"reused":3,"ocr_ms":54,"ms":261,"claim_ms":10}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (4, 1796617777643, '01a24ec3b1ebd83fc77ee609076171e2', '', 'admitted', 0, '{"input_size":6409,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (5, 1796617777694, '01a24ec3b1ebd83fc77ee609076171e2', '', 'claimed', 1, '{"owner":"vm:10873/0"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (6, 1796617777741, '01a24ec3b1ebd83fc77ee609076171e2', '', 'published', 1, '{"code":"","step":"publish","frames":3,"ocr_calls":1,"reused":1,"ocr_ms":21,"ms":43,"claim_ms":3}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (7, 1796617777799, '01a24ec3b1ebd83fc77ee609076171e2', '', 'deleted', 0, '{"code":"done","media_jobs":1,"media_bytes":6409}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (8, 1796617777822, '01a24ec3b29e1b8ee0f5977a2e69bcbb', '', 'admitted', 0, '{"input_size":3935,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (9, 1796617777847, '01a24ec3b29e1b8ee0f5977a2e69bcbb', '', 'claimed', 1, '{"owner":"vm:10873/0"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (10, 1796617777850, '01a24ec3b29e1b8ee0f5977a2e69bcbb', '', 'rejected', 1, '{"code":"truncated","step":"inspect","frames":0,"ocr_calls":0,"reused":0,"ocr_ms":0,"ms":0,"claim_ms":3}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (11, 1796617778015, '01a24ec3b35faf7e57adf01e22c11d97', '', 'admitted', 0, '{"input_size":11806,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (12, 1796617778247, '01a24ec3b35faf7e57adf01e22c11d97', '', 'claimed', 1, '{"owner":"vm:10974/0"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (13, 1796617778262, '01a24ec3b45620c20ddb054d87bf72d8', '', 'admitted', 0, '{"input_size":6409,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (14, 1796617778276, NULL, '', 'upload_created', 0, '{"upload_id":"e7bf1fbd36de4cab890e52758699557a","protocol":"tus"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (15, 1796617778308, NULL, '', 'upload_created', 0, '{"upload_id":"221b6dc5fbb17e93d502afd4c338056f","protocol":"ietf"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (16, 1796617778339, '01a24ec3b4a38597bedec08ac13df15f', '', 'admitted', 0, '{"input_size":6409,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (17, 1796617778339, '01a24ec3b4a38597bedec08ac13df15f', '', 'upload_completed', 0, '{"upload_id":"221b6dc5fbb17e93d502afd4c338056f"}');


--
-- Data for Name: frames; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.frames VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 2, 4, 520, 'Found by its words
Ledger of version five', 97, NULL, 264, 1, 1796617777566, 169, 24, 304, 312, 2, '1 189 24 263 27 97;1 169 309 304 27 96');
INSERT INTO @SCHEMA@.frames VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 2, 0, 0, '', 0, NULL, 4, 1, 1796617777569, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO @SCHEMA@.frames VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 2, 6, 1000, 'Found by its words
Ledger of version five', 97, 4, 0, 1, 1796617777570, 169, 24, 304, 312, 2, '1 189 24 263 27 97;1 169 309 304 27 96');
INSERT INTO @SCHEMA@.frames VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 2, 12, 2000, 'Found by its words
Ledger of version five', 97, 4, 0, 1, 1796617777573, 169, 24, 304, 312, 2, '1 189 24 263 27 97;1 169 309 304 27 96');
INSERT INTO @SCHEMA@.frames VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 2, 22, 3520, '', 0, NULL, 268, 1, 1796617777574, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO @SCHEMA@.frames VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 2, 18, 3000, 'Found by its words
Ledger of version five', 97, 4, 0, 1, 1796617777575, 169, 24, 304, 312, 2, '1 189 24 263 27 97;1 169 309 304 27 96');


--
-- Data for Name: job_counts; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.job_counts VALUES ('running', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('rejected', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('done', 2);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 0);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 1);


--
-- Data for Name: jobs; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.jobs VALUES ('01a24ec3afb828c8eb42ee59d931c80e', '', 'done', '{"crop":null,"fps":1,"lang":"eng"}', '0e/01a24ec3afb828c8eb42ee59d931c80e.video', 11806, '4a9dfa8df32673fe5bbe465a7f39fb6fbe322e01f17e575931599f76e8ba639a', 'mp4', 1, 0, 3, NULL, NULL, 1796617777080, 2, 4, 4, '{"container":"mp4","demuxer":"mov,mp4,m4a,3gp,3g2,mj2","codec":"h264","pix_fmt":"yuv420p","width":640,"height":360,"display_width":640,"display_height":360,"rotation":0,"mirror":false,"duration_ms":4000,"frame_rate":25,"stream_index":0,"streams":1,"bit_rate":19462,"size":11806,"duration_from":"container"}', NULL, NULL, 1796617777080, 1796617777579, 1796617777307, 1796617777579, NULL, NULL, NULL, '/jobs/01a24ec3afb828c8eb42ee59d931c80e', NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a24ec3b1ebd83fc77ee609076171e2', '', 'done', '{"crop":null,"fps":1,"lang":"eng"}', 'e2/01a24ec3b1ebd83fc77ee609076171e2.video', 6409, '1fec07db7115ab3b6563f5f1d08738f209b3d3c0376e23b276dd5cf793fc5667', 'mp4', 1, 0, 3, NULL, NULL, 1796617777643, 2, 2, 2, '{"container":"mp4","demuxer":"mov,mp4,m4a,3gp,3g2,mj2","codec":"h264","pix_fmt":"yuv420p","width":640,"height":360,"display_width":640,"display_height":360,"rotation":0,"mirror":false,"duration_ms":2000,"frame_rate":25,"stream_index":0,"streams":1,"bit_rate":19736,"size":6409,"duration_from":"container"}', NULL, NULL, 1796617777643, 1796617777799, 1796617777694, 1796617777741, 1796617777799, 1796617777799, NULL, '/jobs/01a24ec3b1ebd83fc77ee609076171e2', NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a24ec3b29e1b8ee0f5977a2e69bcbb', '', 'rejected', '{"crop":null,"fps":1,"lang":"eng"}', 'bb/01a24ec3b29e1b8ee0f5977a2e69bcbb.video', 3935, 'fcd47e59da70b06ebd40e9a9ebf7eec1a52145a0dc218388f1b28705b432dae3', 'mp4', 1, 0, 3, NULL, NULL, 1796617777822, NULL, NULL, 0, NULL, 'truncated', 'inspect "job 01a24ec3b29e1b8ee0f5977a2e69bcbb": the file ends at byte 3935, inside the "mdat" box that declares 9739 bytes from byte 40; the upload is incomplete, send the whole file', 1796617777822, 1796617777850, 1796617777847, 1796617777850, NULL, NULL, NULL, '/jobs/01a24ec3b29e1b8ee0f5977a2e69bcbb', NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a24ec3b35faf7e57adf01e22c11d97', '', 'running', '{"crop":null,"fps":2,"lang":"eng"}', '97/01a24ec3b35faf7e57adf01e22c11d97.video', 11806, '4a9dfa8df32673fe5bbe465a7f39fb6fbe322e01f17e575931599f76e8ba639a', 'mp4', 1, 0, 3, 'vm:10974/0', 1796617808247, 1796617778015, NULL, NULL, 0, NULL, NULL, NULL, 1796617778015, 1796617778247, 1796617778247, NULL, NULL, NULL, NULL, '/jobs/01a24ec3b35faf7e57adf01e22c11d97', NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a24ec3b45620c20ddb054d87bf72d8', '', 'accepted', '{"crop":null,"fps":0.5,"lang":"eng"}', 'd8/01a24ec3b45620c20ddb054d87bf72d8.video', 6409, '1fec07db7115ab3b6563f5f1d08738f209b3d3c0376e23b276dd5cf793fc5667', 'mp4', 0, 0, 3, NULL, NULL, 1796617778262, NULL, NULL, 0, NULL, NULL, NULL, 1796617778262, 1796617778262, NULL, NULL, NULL, NULL, NULL, '/jobs/01a24ec3b45620c20ddb054d87bf72d8', NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a24ec3b4a38597bedec08ac13df15f', '', 'accepted', '{"crop":null,"fps":2,"lang":"eng"}', '5f/01a24ec3b4a38597bedec08ac13df15f.video', 6409, '1fec07db7115ab3b6563f5f1d08738f209b3d3c0376e23b276dd5cf793fc5667', 'mp4', 0, 0, 3, NULL, NULL, 1796617778339, NULL, NULL, 0, NULL, NULL, NULL, 1796617778339, 1796617778339, NULL, NULL, NULL, NULL, NULL, '/jobs/01a24ec3b4a38597bedec08ac13df15f', NULL);


--
-- Data for Name: notification_attempts; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--



--
-- Data for Name: notifications; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--



--
-- Data for Name: requests; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.requests VALUES ('', 'k-done', '9b4c1b53ad437fe0fd976a32c97cfa01b1afc8677e13aba5046039249ae2566c', '01a24ec3afb828c8eb42ee59d931c80e', 1796617777080, 2111977777080);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-deleted', '29d0cbaa19718108550dbd2945712c3f0615d07a83dc45cbcdc686d2dc5eb676', '01a24ec3b1ebd83fc77ee609076171e2', 1796617777643, 2111977777643);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-rejected', '526ef5a0a43e91ebd80be6e9bed3814f28db3165e1eb9997d0aa983808b07c5f', '01a24ec3b29e1b8ee0f5977a2e69bcbb', 1796617777822, 2111977777822);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-running', 'f28fcaa1caec6cf043632a8b9e3bb4174ddc6640519a47b767bfa659814e2de3', '01a24ec3b35faf7e57adf01e22c11d97', 1796617778015, 2111977778015);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-accepted', '9fac0b2220cd84519b19bd0702de2664aeb266beed7b5c0b10d41ef86f51482d', '01a24ec3b45620c20ddb054d87bf72d8', 1796617778262, 2111977778262);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-ietf', '4433219f66ffbff0f175e165f590a5c4e03a780207953312eff5d858120da465', '01a24ec3b4a38597bedec08ac13df15f', 1796617778339, 2111977778339);


--
-- Data for Name: results; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.results VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 'json', '{"plan_version":2,"options":{"crop":null,"fps":1,"lang":"eng"},"inspection":{"container":"mp4","demuxer":"mov,mp4,m4a,3gp,3g2,mj2","codec":"h264","pix_fmt":"yuv420p","width":640,"height":360,"display_width":640,"display_height":360,"rotation":0,"mirror":false,"duration_ms":4000,"frame_rate":25,"stream_index":0,"streams":1,"bit_rate":19462,"size":11806,"duration_from":"container"},"frames_planned":4,"frames_done":4,"frames_between":2,"ocr_calls":1,"frames_reused":3,"frames_timed_out":0,"frames_no_text":2,"detected_rotation":null,"warnings":[],"frame_size":[640,360],"segments":[{"start":0.52,"end":3.52,"text":"Found by its words","confidence":97,"looks":12,"box":[189,24,263,27],"lines":1},{"start":0.52,"end":3.52,"text":"Ledger of version five","confidence":96,"looks":12,"box":[169,309,304,27],"lines":1}]}
');
INSERT INTO @SCHEMA@.results VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 'vtt', 'WEBVTT

00:00:00.520 --> 00:00:03.520 line:6.667% position:50.078% size:41.094% align:center
Found by its words

00:00:00.520 --> 00:00:03.520 line:93.333%,end position:50.156% size:47.5% align:center
Ledger of version five
');
INSERT INTO @SCHEMA@.results VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 'srt', '1
00:00:00,520 --> 00:00:03,520
Found by its words

2
00:00:00,520 --> 00:00:03,520
Ledger of version five
');
INSERT INTO @SCHEMA@.results VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 'txt', 'Found by its words
Ledger of version five
');
INSERT INTO @SCHEMA@.results VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 'ass', '[Script Info]
; made by video-ocr from the text it read
ScriptType: v4.00+
WrapStyle: 0
ScaledBorderAndShadow: yes
PlayResX: 640
PlayResY: 360

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,15,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.52,0:00:03.52,Default,,0,0,0,,{\an8\pos(320,24)}Found by its words
Dialogue: 0,0:00:00.52,0:00:03.52,Default,,0,0,0,,{\an2\pos(321,336)}Ledger of version five
');


--
-- Data for Name: search_jobs; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.search_jobs VALUES ('01a24ec3afb828c8eb42ee59d931c80e', 2199023255550, 2);


--
-- Data for Name: search_segments; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.search_segments VALUES (2199023255550, ' found by its words ');
INSERT INTO @SCHEMA@.search_segments VALUES (2199023255551, ' ledger of version five ');


--
-- Data for Name: search_tenants; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.search_tenants VALUES (1, '', 3);


--
-- Data for Name: search_words; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.search_words VALUES (1, 3, 'its', 'sti', 2199023255550);
INSERT INTO @SCHEMA@.search_words VALUES (1, 4, 'five', 'evif', 2199023255550);
INSERT INTO @SCHEMA@.search_words VALUES (1, 5, 'found', 'dnuof', 2199023255550);
INSERT INTO @SCHEMA@.search_words VALUES (1, 5, 'words', 'sdrow', 2199023255550);
INSERT INTO @SCHEMA@.search_words VALUES (1, 6, 'ledger', 'regdel', 2199023255550);
INSERT INTO @SCHEMA@.search_words VALUES (1, 7, 'version', 'noisrev', 2199023255550);


--
-- Data for Name: tenant_job_counts; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.tenant_job_counts VALUES ('', 'running', 1);
INSERT INTO @SCHEMA@.tenant_job_counts VALUES ('', 'accepted', 1);
INSERT INTO @SCHEMA@.tenant_job_counts VALUES ('', 'accepted', 1);


--
-- Data for Name: uploads; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.uploads VALUES ('e7bf1fbd36de4cab890e52758699557a', '', 'k-tus', 'tus', '{"crop":null,"fps":1,"lang":"eng"}', 'clip five.mp4', 5903, 11806, 'aab52afb965c4e1a369cb301dec8f937f6ca2eb9bc13f721b0b18170e0f19110bde8af667967844e826b319bb1ebc6', 'mp4', 1, 'incomplete', NULL, NULL, 1796617778276, 1796617778298, 2111977778298, 'filename Y2xpcCBmaXZlLm1wNA==,filetype dmlkZW8vbXA0,lang ZW5n', NULL, NULL, NULL);
INSERT INTO @SCHEMA@.uploads VALUES ('221b6dc5fbb17e93d502afd4c338056f', '', 'k-ietf', 'ietf', '{"crop":null,"fps":2,"lang":"eng"}', NULL, 6409, 6409, '5060ccbeeaee64a85d9909c2da9ceffe19e02ba3debb528d1f97018f685c91d835392e32372e313030', 'mp4', 1, 'completed', '01a24ec3b4a38597bedec08ac13df15f', '4433219f66ffbff0f175e165f590a5c4e03a780207953312eff5d858120da465', 1796617778308, 1796617778339, 2111977778339, NULL, NULL, NULL, NULL);


--
-- Data for Name: video_ocr_schema; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.video_ocr_schema VALUES (5);


--
-- Data for Name: webhook_defaults; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--



--
-- Data for Name: webhook_endpoints; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--



--
-- Name: events_id_seq; Type: SEQUENCE SET; Schema: @SCHEMA@; Owner: -
--

SELECT pg_catalog.setval('@SCHEMA@.events_id_seq', 17, true);


--
-- Name: notifications_id_seq; Type: SEQUENCE SET; Schema: @SCHEMA@; Owner: -
--

SELECT pg_catalog.setval('@SCHEMA@.notifications_id_seq', 1, false);


--
-- Name: search_tenants_num_seq; Type: SEQUENCE SET; Schema: @SCHEMA@; Owner: -
--

SELECT pg_catalog.setval('@SCHEMA@.search_tenants_num_seq', 1, true);


--
-- Name: webhook_endpoints_id_seq; Type: SEQUENCE SET; Schema: @SCHEMA@; Owner: -
--

SELECT pg_catalog.setval('@SCHEMA@.webhook_endpoints_id_seq', 1, false);


--
-- Name: claim_turn claim_turn_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.claim_turn
    ADD CONSTRAINT claim_turn_pkey PRIMARY KEY (id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: frames frames_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.frames
    ADD CONSTRAINT frames_pkey PRIMARY KEY (job_id, plan_version, frame_index);


--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (job_id);


--
-- Name: notification_attempts notification_attempts_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.notification_attempts
    ADD CONSTRAINT notification_attempts_pkey PRIMARY KEY (notification_id, attempt);


--
-- Name: notifications notifications_msg_id_key; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.notifications
    ADD CONSTRAINT notifications_msg_id_key UNIQUE (msg_id);


--
-- Name: notifications notifications_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (id);


--
-- Name: requests requests_job_id_key; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.requests
    ADD CONSTRAINT requests_job_id_key UNIQUE (job_id);


--
-- Name: requests requests_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.requests
    ADD CONSTRAINT requests_pkey PRIMARY KEY (tenant, request_key);


--
-- Name: results results_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.results
    ADD CONSTRAINT results_pkey PRIMARY KEY (job_id, format);


--
-- Name: search_jobs search_jobs_base_key; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.search_jobs
    ADD CONSTRAINT search_jobs_base_key UNIQUE (base);


--
-- Name: search_jobs search_jobs_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.search_jobs
    ADD CONSTRAINT search_jobs_pkey PRIMARY KEY (job_id);


--
-- Name: search_segments search_segments_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.search_segments
    ADD CONSTRAINT search_segments_pkey PRIMARY KEY (id);


--
-- Name: search_tenants search_tenants_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.search_tenants
    ADD CONSTRAINT search_tenants_pkey PRIMARY KEY (num);


--
-- Name: search_tenants search_tenants_tenant_key; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.search_tenants
    ADD CONSTRAINT search_tenants_tenant_key UNIQUE (tenant);


--
-- Name: search_words search_words_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.search_words
    ADD CONSTRAINT search_words_pkey PRIMARY KEY (num, len, word);


--
-- Name: uploads uploads_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.uploads
    ADD CONSTRAINT uploads_pkey PRIMARY KEY (upload_id);


--
-- Name: webhook_defaults webhook_defaults_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.webhook_defaults
    ADD CONSTRAINT webhook_defaults_pkey PRIMARY KEY (tenant);


--
-- Name: webhook_endpoints webhook_endpoints_pkey; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id);


--
-- Name: webhook_endpoints webhook_endpoints_tenant_url_key; Type: CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_tenant_url_key UNIQUE (tenant, url);


--
-- Name: events_audit_by_age; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX events_audit_by_age ON @SCHEMA@.events USING btree (at) WHERE (kind = ANY (ARRAY['deleted'::text, 'upload_deleted'::text, 'operator_retry'::text, 'webhook_added'::text, 'webhook_removed'::text, 'webhook_secret_rotated'::text, 'webhook_enabled'::text, 'webhook_redelivered'::text, 'webhook_disabled'::text, 'retention'::text]));


--
-- Name: events_by_age; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX events_by_age ON @SCHEMA@.events USING btree (at) WHERE (kind <> ALL (ARRAY['deleted'::text, 'upload_deleted'::text, 'operator_retry'::text, 'webhook_added'::text, 'webhook_removed'::text, 'webhook_secret_rotated'::text, 'webhook_enabled'::text, 'webhook_redelivered'::text, 'webhook_disabled'::text, 'retention'::text]));


--
-- Name: events_by_job; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX events_by_job ON @SCHEMA@.events USING btree (job_id, id);


--
-- Name: jobs_by_age; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_by_age ON @SCHEMA@.jobs USING btree (state, created_at);


--
-- Name: jobs_by_finish; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_by_finish ON @SCHEMA@.jobs USING btree (finished_at) WHERE ((finished_at IS NOT NULL) AND (media_deleted_at IS NULL));


--
-- Name: jobs_by_tenant_age; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_by_tenant_age ON @SCHEMA@.jobs USING btree (tenant, state, created_at);


--
-- Name: jobs_expired; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_expired ON @SCHEMA@.jobs USING btree (finished_at) WHERE (media_deleted_at IS NOT NULL);


--
-- Name: jobs_frames_due; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_frames_due ON @SCHEMA@.jobs USING btree (finished_at) WHERE ((state = 'done'::text) AND (frames_deleted_at IS NULL));


--
-- Name: jobs_leases; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_leases ON @SCHEMA@.jobs USING btree (state, lease_expires_at);


--
-- Name: jobs_queued; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_queued ON @SCHEMA@.jobs USING btree (state, tenant, not_before, created_at);


--
-- Name: jobs_running; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_running ON @SCHEMA@.jobs USING btree (state, tenant);


--
-- Name: notifications_by_endpoint; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX notifications_by_endpoint ON @SCHEMA@.notifications USING btree (endpoint_id, state);


--
-- Name: notifications_by_job; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX notifications_by_job ON @SCHEMA@.notifications USING btree (job_id, id);


--
-- Name: notifications_due; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX notifications_due ON @SCHEMA@.notifications USING btree (next_attempt_at, id) WHERE (state = 'pending'::text);


--
-- Name: notifications_waiting; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX notifications_waiting ON @SCHEMA@.notifications USING btree (created_at) WHERE (state = ANY (ARRAY['pending'::text, 'held'::text]));


--
-- Name: requests_by_expiry; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX requests_by_expiry ON @SCHEMA@.requests USING btree (expires_at);


--
-- Name: search_segments_trgm; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX search_segments_trgm ON @SCHEMA@.search_segments USING gin (folded public.gin_trgm_ops);


--
-- Name: search_segments_words; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX search_segments_words ON @SCHEMA@.search_segments USING gin (string_to_array(btrim(folded), ' '::text));


--
-- Name: search_words_by_job; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX search_words_by_job ON @SCHEMA@.search_words USING btree (num, base);


--
-- Name: search_words_rev; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX search_words_rev ON @SCHEMA@.search_words USING btree (num, len, rev);


--
-- Name: uploads_by_expiry; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX uploads_by_expiry ON @SCHEMA@.uploads USING btree (expires_at);


--
-- Name: uploads_by_job; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX uploads_by_job ON @SCHEMA@.uploads USING btree (job_id) WHERE (job_id IS NOT NULL);


--
-- Name: uploads_by_key; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE UNIQUE INDEX uploads_by_key ON @SCHEMA@.uploads USING btree (tenant, request_key) WHERE (request_key IS NOT NULL);


--
-- Name: uploads_by_tenant; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX uploads_by_tenant ON @SCHEMA@.uploads USING btree (tenant, state);


--
-- Name: webhook_endpoints_disabled; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX webhook_endpoints_disabled ON @SCHEMA@.webhook_endpoints USING btree (disabled_at) WHERE (disabled_at IS NOT NULL);


--
-- Name: events claim_latency_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER claim_latency_counted AFTER INSERT ON @SCHEMA@.events FOR EACH ROW WHEN ((new.detail ~~ '%"claim_ms"%'::text)) EXECUTE FUNCTION @SCHEMA@.claim_latency_counted();


--
-- Name: events events_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER events_counted AFTER INSERT ON @SCHEMA@.events FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.events_counted();


--
-- Name: frames frames_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER frames_counted AFTER INSERT ON @SCHEMA@.frames FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.frames_counted();


--
-- Name: jobs jobs_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER jobs_counted AFTER INSERT ON @SCHEMA@.jobs FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.jobs_counted();


--
-- Name: jobs jobs_moved; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER jobs_moved AFTER UPDATE OF state ON @SCHEMA@.jobs FOR EACH ROW WHEN ((old.state IS DISTINCT FROM new.state)) EXECUTE FUNCTION @SCHEMA@.jobs_moved();


--
-- Name: jobs jobs_removed; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER jobs_removed AFTER DELETE ON @SCHEMA@.jobs FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.jobs_removed();


--
-- Name: notification_attempts notification_attempts_ended; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER notification_attempts_ended AFTER UPDATE OF outcome ON @SCHEMA@.notification_attempts FOR EACH ROW WHEN (((old.outcome = 'sending'::text) AND (new.outcome <> 'sending'::text))) EXECUTE FUNCTION @SCHEMA@.notification_attempts_ended();


--
-- Name: notifications notifications_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER notifications_counted AFTER INSERT ON @SCHEMA@.notifications FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.notifications_counted();


--
-- Name: notifications notifications_moved; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER notifications_moved AFTER UPDATE OF state ON @SCHEMA@.notifications FOR EACH ROW WHEN ((old.state IS DISTINCT FROM new.state)) EXECUTE FUNCTION @SCHEMA@.notifications_moved();


--
-- Name: requests receipts_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER receipts_counted AFTER INSERT ON @SCHEMA@.requests FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.receipts_counted();


--
-- Name: requests receipts_removed; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER receipts_removed AFTER DELETE ON @SCHEMA@.requests FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.receipts_removed();


--
-- Name: results results_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER results_counted AFTER INSERT ON @SCHEMA@.results FOR EACH ROW EXECUTE FUNCTION @SCHEMA@.results_counted();


--
-- Name: events retention_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER retention_counted AFTER INSERT ON @SCHEMA@.events FOR EACH ROW WHEN ((new.kind = 'retention'::text)) EXECUTE FUNCTION @SCHEMA@.retention_counted();


--
-- Name: jobs tenant_jobs_counted; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER tenant_jobs_counted AFTER INSERT ON @SCHEMA@.jobs FOR EACH ROW WHEN ((new.state = ANY (ARRAY['accepted'::text, 'running'::text]))) EXECUTE FUNCTION @SCHEMA@.tenant_jobs_counted();


--
-- Name: jobs tenant_jobs_moved; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER tenant_jobs_moved AFTER UPDATE OF state ON @SCHEMA@.jobs FOR EACH ROW WHEN ((old.state IS DISTINCT FROM new.state)) EXECUTE FUNCTION @SCHEMA@.tenant_jobs_moved();


--
-- Name: jobs tenant_jobs_removed; Type: TRIGGER; Schema: @SCHEMA@; Owner: -
--

CREATE TRIGGER tenant_jobs_removed AFTER DELETE ON @SCHEMA@.jobs FOR EACH ROW WHEN ((old.state = ANY (ARRAY['accepted'::text, 'running'::text]))) EXECUTE FUNCTION @SCHEMA@.tenant_jobs_removed();


--
-- Name: frames frames_job_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.frames
    ADD CONSTRAINT frames_job_id_fkey FOREIGN KEY (job_id) REFERENCES @SCHEMA@.jobs(job_id);


--
-- Name: jobs jobs_webhook_endpoint_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.jobs
    ADD CONSTRAINT jobs_webhook_endpoint_fkey FOREIGN KEY (webhook_endpoint) REFERENCES @SCHEMA@.webhook_endpoints(id);


--
-- Name: notification_attempts notification_attempts_notification_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.notification_attempts
    ADD CONSTRAINT notification_attempts_notification_id_fkey FOREIGN KEY (notification_id) REFERENCES @SCHEMA@.notifications(id);


--
-- Name: notifications notifications_endpoint_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.notifications
    ADD CONSTRAINT notifications_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES @SCHEMA@.webhook_endpoints(id);


--
-- Name: notifications notifications_job_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.notifications
    ADD CONSTRAINT notifications_job_id_fkey FOREIGN KEY (job_id) REFERENCES @SCHEMA@.jobs(job_id);


--
-- Name: results results_job_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.results
    ADD CONSTRAINT results_job_id_fkey FOREIGN KEY (job_id) REFERENCES @SCHEMA@.jobs(job_id);


--
-- Name: search_jobs search_jobs_job_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.search_jobs
    ADD CONSTRAINT search_jobs_job_id_fkey FOREIGN KEY (job_id) REFERENCES @SCHEMA@.jobs(job_id);


--
-- Name: webhook_defaults webhook_defaults_endpoint_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.webhook_defaults
    ADD CONSTRAINT webhook_defaults_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES @SCHEMA@.webhook_endpoints(id);


--
-- PostgreSQL database dump complete
--

\unrestrict CA0NFWfDRH0jH1dteDGiorxgpNkNTc6tLq2FcwsVg4jeEHS3zEca1ZFyOXi3xoc

