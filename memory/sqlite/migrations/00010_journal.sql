-- +goose Up
-- Journal entries: what a person chose to write down with Haven. They are
-- the person's memory: /memory lists them, /forget removes them, /export
-- includes them, and they go when the person is deleted.
CREATE TABLE journal (
    id         INTEGER PRIMARY KEY,
    person_id  TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    text       TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 4000),
    -- source is the message the entry was written from (its delivery
    -- key), so a turn run again after a crash writes it once; '' for none.
    source     TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX journal_person ON journal (person_id, created_at);
CREATE UNIQUE INDEX journal_source ON journal (person_id, source) WHERE source != '';

-- +goose Down
DROP TABLE journal;
