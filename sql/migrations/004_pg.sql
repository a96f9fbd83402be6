-- Schema version 3 to 4 (PostgreSQL).  Each issue's part in a section of
-- its own.

-- issue 18: text in two places at once: the frames' parts (NULL in the
-- rows already there: each is one part).

ALTER TABLE frames ADD COLUMN parts TEXT;
