-- +goose Up
-- The mood log: one row per mood a person logged (/mood 6 tired but ok),
-- a score on the 0-10 scale (memory.MoodMin to memory.MoodMax) with an
-- optional note. It is memory the person controls (/memory, /forget,
-- /export) and goes with them (ON DELETE CASCADE: forget all, forget-user).
CREATE TABLE moods (
    id         INTEGER PRIMARY KEY,
    person_id  TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    score      INTEGER NOT NULL CHECK (score BETWEEN 0 AND 10),
    note       TEXT    NOT NULL DEFAULT '',
    at         INTEGER NOT NULL
);
CREATE INDEX moods_person_at ON moods (person_id, at);

-- +goose Down
DROP TABLE moods;
