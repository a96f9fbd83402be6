-- Schema version 3 to 4.  Each issue's part in a section of its own.

-- issue 18: text in two places at once.  A frame row gets the parts of
-- its text (the frames table of schema.sql; NULL in the rows already
-- there: each is one part, as it was read).

ALTER TABLE frames ADD COLUMN parts TEXT;
