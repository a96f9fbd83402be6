--
-- PostgreSQL database dump
--

\restrict Aupry50Bm56oZJOIhwafkPDNGMQTPebajln1qvKbXCBy8ku5nVjidcfI7XcQuwD

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


SET default_tablespace = '';

SET default_table_access_method = heap;

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
    created_at bigint NOT NULL
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
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['accepted'::text, 'running'::text, 'done'::text, 'failed'::text, 'rejected'::text, 'cancelled'::text])))
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
    CONSTRAINT results_format_check CHECK ((format = ANY (ARRAY['json'::text, 'vtt'::text, 'srt'::text, 'txt'::text])))
);


--
-- Name: video_ocr_schema; Type: TABLE; Schema: @SCHEMA@; Owner: -
--

CREATE TABLE @SCHEMA@.video_ocr_schema (
    version bigint NOT NULL
);


--
-- Data for Name: counters; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 7140);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 1);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 0);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 21);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 21);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 21);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 21);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 21);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 479);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 60);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 54);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 22);
INSERT INTO @SCHEMA@.counters VALUES ('frames', 6);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_ms', 21);
INSERT INTO @SCHEMA@.counters VALUES ('reused', 4);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_calls', 1);
INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 3570);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 1);
INSERT INTO @SCHEMA@.counters VALUES ('frames', 0);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_ms', 0);
INSERT INTO @SCHEMA@.counters VALUES ('reused', 0);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_calls', 0);
INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 6238);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 1);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 0);
INSERT INTO @SCHEMA@.counters VALUES ('frame_bytes', 20);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 476);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 59);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 53);
INSERT INTO @SCHEMA@.counters VALUES ('result_bytes', 21);
INSERT INTO @SCHEMA@.counters VALUES ('frames', 2);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_ms', 25);
INSERT INTO @SCHEMA@.counters VALUES ('reused', 0);
INSERT INTO @SCHEMA@.counters VALUES ('ocr_calls', 1);
INSERT INTO @SCHEMA@.counters VALUES ('media_jobs', 1);
INSERT INTO @SCHEMA@.counters VALUES ('media_bytes', 6238);
INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 6238);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 1);
INSERT INTO @SCHEMA@.counters VALUES ('input_bytes', 7140);
INSERT INTO @SCHEMA@.counters VALUES ('receipts', 1);


--
-- Data for Name: event_counts; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('claimed', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('published', '', 'publish', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('claimed', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('rejected', 'truncated', 'inspect', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('claimed', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('published', '', 'publish', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('deleted', 'done', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('admitted', '', '', 1);
INSERT INTO @SCHEMA@.event_counts VALUES ('failed', 'abandoned', '', 1);


--
-- Data for Name: events; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (1, 1796158534926, '01a23364350e5961a1e808834d011f14', '', 'admitted', 0, '{"input_size":7140,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (2, 1796158535268, '01a23364350e5961a1e808834d011f14', '', 'claimed', 1, '{"owner":"vm:13161/0"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (3, 1796158535516, '01a23364350e5961a1e808834d011f14', '', 'published', 1, '{"code":"","step":"publish","frames":6,"ocr_calls":1,"reused":4,"ocr_ms":21,"ms":236}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (4, 1796158535582, '01a23364379e462d9513fef7ba2eefe9', '', 'admitted', 0, '{"input_size":3570,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (5, 1796158535619, '01a23364379e462d9513fef7ba2eefe9', '', 'claimed', 1, '{"owner":"vm:13161/0"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (6, 1796158535628, '01a23364379e462d9513fef7ba2eefe9', '', 'rejected', 1, '{"code":"truncated","step":"inspect","frames":0,"ocr_calls":0,"reused":0,"ocr_ms":0,"ms":1}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (7, 1796158535720, '01a233643828a1793edab4acb4b8c7ad', '', 'admitted', 0, '{"input_size":6238,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (8, 1796158535832, '01a233643828a1793edab4acb4b8c7ad', '', 'claimed', 1, '{"owner":"vm:13161/0"}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (9, 1796158535888, '01a233643828a1793edab4acb4b8c7ad', '', 'published', 1, '{"code":"","step":"publish","frames":2,"ocr_calls":1,"reused":0,"ocr_ms":25,"ms":52}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (10, 1796158535976, '01a233643828a1793edab4acb4b8c7ad', '', 'deleted', 0, '{"code":"done","media_jobs":1,"media_bytes":6238}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (11, 1796158536044, '01a23364396c23e84aa1d53444da980f', '', 'admitted', 0, '{"input_size":6238,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (12, 1796158536072, '01a233643988b7c01ee420fb79708a60', '', 'admitted', 0, '{"input_size":7140,"container":"mp4","keyed":true}');
INSERT INTO @SCHEMA@.events OVERRIDING SYSTEM VALUE VALUES (13, 1796158536247, '01a233643988b7c01ee420fb79708a60', NULL, 'failed', 0, '{"code":"abandoned","reason":"fixture: abandoned by the operator"}');


--
-- Data for Name: frames; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.frames VALUES ('01a23364350e5961a1e808834d011f14', 1, 0, 0, '', 0, NULL, 4, 1, 1796158535432);
INSERT INTO @SCHEMA@.frames VALUES ('01a23364350e5961a1e808834d011f14', 1, 1, 480, 'Ledger of version one', 96, NULL, 0, 1, 1796158535463);
INSERT INTO @SCHEMA@.frames VALUES ('01a23364350e5961a1e808834d011f14', 1, 2, 1000, 'Ledger of version one', 96, 1, 0, 1, 1796158535478);
INSERT INTO @SCHEMA@.frames VALUES ('01a23364350e5961a1e808834d011f14', 1, 3, 1480, 'Ledger of version one', 96, 1, 0, 1, 1796158535488);
INSERT INTO @SCHEMA@.frames VALUES ('01a23364350e5961a1e808834d011f14', 1, 4, 2000, 'Ledger of version one', 96, 1, 0, 1, 1796158535502);
INSERT INTO @SCHEMA@.frames VALUES ('01a23364350e5961a1e808834d011f14', 1, 5, 2480, 'Ledger of version one', 96, 1, 0, 1, 1796158535509);


--
-- Data for Name: job_counts; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', -1);
INSERT INTO @SCHEMA@.job_counts VALUES ('running', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('running', -1);
INSERT INTO @SCHEMA@.job_counts VALUES ('done', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', -1);
INSERT INTO @SCHEMA@.job_counts VALUES ('running', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('running', -1);
INSERT INTO @SCHEMA@.job_counts VALUES ('rejected', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', -1);
INSERT INTO @SCHEMA@.job_counts VALUES ('running', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('running', -1);
INSERT INTO @SCHEMA@.job_counts VALUES ('done', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', 1);
INSERT INTO @SCHEMA@.job_counts VALUES ('accepted', -1);
INSERT INTO @SCHEMA@.job_counts VALUES ('failed', 1);


--
-- Data for Name: jobs; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.jobs VALUES ('01a233643828a1793edab4acb4b8c7ad', '', 'done', '{"crop":null,"fps":1,"lang":"eng"}', 'ad/01a233643828a1793edab4acb4b8c7ad.video', 6238, '5147aff24348ac3a85da3852b979a830466630ae76fd11b282102f11bfb4b4d8', 'mp4', 1, 0, 3, NULL, NULL, 0, 1, 2, 2, '{"container":"mp4","demuxer":"mov,mp4,m4a,3gp,3g2,mj2","codec":"h264","pix_fmt":"yuv420p","width":640,"height":360,"duration_ms":2000,"frame_rate":25,"stream_index":0,"streams":1,"bit_rate":19052,"size":6238}', NULL, NULL, 1796158535720, 1796158535976, 1796158535832, 1796158535888, 1796158535976, 1796158535976);
INSERT INTO @SCHEMA@.jobs VALUES ('01a23364396c23e84aa1d53444da980f', '', 'accepted', '{"crop":[0,180,640,180],"fps":0.5,"lang":"eng"}', '0f/01a23364396c23e84aa1d53444da980f.video', 6238, '5147aff24348ac3a85da3852b979a830466630ae76fd11b282102f11bfb4b4d8', 'mp4', 0, 0, 3, NULL, NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, 1796158536044, 1796158536044, NULL, NULL, NULL, NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a233643988b7c01ee420fb79708a60', '', 'failed', '{"crop":null,"fps":1,"lang":"eng"}', '60/01a233643988b7c01ee420fb79708a60.video', 7140, '1878bdabe1fe8e23fa3820440d833581a2a1c34042b25f8912b1d22550e8343b', 'mp4', 0, 0, 3, NULL, NULL, 0, NULL, NULL, 0, NULL, 'abandoned', 'fixture: abandoned by the operator', 1796158536072, 1796158536247, NULL, 1796158536247, NULL, NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a23364350e5961a1e808834d011f14', '', 'done', '{"crop":null,"fps":2,"lang":"eng"}', '14/01a23364350e5961a1e808834d011f14.video', 7140, '1878bdabe1fe8e23fa3820440d833581a2a1c34042b25f8912b1d22550e8343b', 'mp4', 1, 0, 3, NULL, NULL, 0, 1, 6, 6, '{"container":"mp4","demuxer":"mov,mp4,m4a,3gp,3g2,mj2","codec":"h264","pix_fmt":"yuv420p","width":640,"height":360,"duration_ms":3000,"frame_rate":25,"stream_index":0,"streams":1,"bit_rate":14306,"size":7140}', NULL, NULL, 1796158534926, 1796158535516, 1796158535268, 1796158535516, NULL, NULL);
INSERT INTO @SCHEMA@.jobs VALUES ('01a23364379e462d9513fef7ba2eefe9', '', 'rejected', '{"crop":null,"fps":1,"lang":"eng"}', 'e9/01a23364379e462d9513fef7ba2eefe9.video', 3570, 'e9d31970252fbc99ad267227950a50d37fe456fa2e2456f2d17feb9fb5d2e5ac', 'mp4', 1, 0, 3, NULL, NULL, 0, NULL, NULL, 0, NULL, 'truncated', 'inspect "job 01a23364379e462d9513fef7ba2eefe9": the file ends at byte 3570, inside the "mdat" box that declares 5373 bytes from byte 40; the upload is incomplete, send the whole file', 1796158535582, 1796158535628, 1796158535619, 1796158535628, NULL, NULL);


--
-- Data for Name: requests; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.requests VALUES ('', 'k-done', '694dd9ec2b0f66fb883e0905a9997173833bd3189c3f45904c87686634942838', '01a23364350e5961a1e808834d011f14', 1796158534926, 2111518534926);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-rejected', 'b7bbe7f1a61f2ab8015f3fd721b64532c519a549d5d5d57a1f78da0a55d8d76b', '01a23364379e462d9513fef7ba2eefe9', 1796158535582, 2111518535582);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-deleted', '08416bb89d03f736b1c768487d210430e4517c54bbd4359957fed8588fc91137', '01a233643828a1793edab4acb4b8c7ad', 1796158535720, 2111518535720);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-accepted', '5e04e43c464516ef019e2da79a7ba647ca9cf7289e7143fd5ff967972914bf20', '01a23364396c23e84aa1d53444da980f', 1796158536044, 2111518536044);
INSERT INTO @SCHEMA@.requests VALUES ('', 'k-failed', 'c2bb5d3babbaaf84efdc920203a8d16057129f980a54965f539f298878eb6331', '01a233643988b7c01ee420fb79708a60', 1796158536072, 2111518536072);


--
-- Data for Name: results; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.results VALUES ('01a23364350e5961a1e808834d011f14', 'json', '{"plan_version":1,"options":{"crop":null,"fps":2,"lang":"eng"},"inspection":{"container":"mp4","demuxer":"mov,mp4,m4a,3gp,3g2,mj2","codec":"h264","pix_fmt":"yuv420p","width":640,"height":360,"duration_ms":3000,"frame_rate":25,"stream_index":0,"streams":1,"bit_rate":14306,"size":7140},"frames_planned":6,"frames_done":6,"ocr_calls":1,"frames_reused":4,"frames_timed_out":0,"frames_no_text":1,"segments":[{"start":0.25,"end":2.75,"text":"Ledger of version one","confidence":96}]}
');
INSERT INTO @SCHEMA@.results VALUES ('01a23364350e5961a1e808834d011f14', 'vtt', 'WEBVTT

00:00:00.250 --> 00:00:02.750
Ledger of version one
');
INSERT INTO @SCHEMA@.results VALUES ('01a23364350e5961a1e808834d011f14', 'srt', '1
00:00:00,250 --> 00:00:02,750
Ledger of version one
');
INSERT INTO @SCHEMA@.results VALUES ('01a23364350e5961a1e808834d011f14', 'txt', 'Ledger of version one
');


--
-- Data for Name: video_ocr_schema; Type: TABLE DATA; Schema: @SCHEMA@; Owner: -
--

INSERT INTO @SCHEMA@.video_ocr_schema VALUES (1);


--
-- Name: events_id_seq; Type: SEQUENCE SET; Schema: @SCHEMA@; Owner: -
--

SELECT pg_catalog.setval('@SCHEMA@.events_id_seq', 13, true);


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
-- Name: jobs_by_state; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX jobs_by_state ON @SCHEMA@.jobs USING btree (state, not_before, created_at);


--
-- Name: requests_by_expiry; Type: INDEX; Schema: @SCHEMA@; Owner: -
--

CREATE INDEX requests_by_expiry ON @SCHEMA@.requests USING btree (expires_at);


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
-- Name: frames frames_job_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.frames
    ADD CONSTRAINT frames_job_id_fkey FOREIGN KEY (job_id) REFERENCES @SCHEMA@.jobs(job_id);


--
-- Name: requests requests_job_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.requests
    ADD CONSTRAINT requests_job_id_fkey FOREIGN KEY (job_id) REFERENCES @SCHEMA@.jobs(job_id);


--
-- Name: results results_job_id_fkey; Type: FK CONSTRAINT; Schema: @SCHEMA@; Owner: -
--

ALTER TABLE ONLY @SCHEMA@.results
    ADD CONSTRAINT results_job_id_fkey FOREIGN KEY (job_id) REFERENCES @SCHEMA@.jobs(job_id);


--
-- PostgreSQL database dump complete
--

\unrestrict Aupry50Bm56oZJOIhwafkPDNGMQTPebajln1qvKbXCBy8ku5nVjidcfI7XcQuwD

