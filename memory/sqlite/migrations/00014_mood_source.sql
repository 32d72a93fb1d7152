-- +goose Up
-- source is the message a mood was logged from (its delivery key), so a
-- turn run again after a crash logs it once, as journal.source does; ''
-- for none (entries logged before this column, or with no message).
ALTER TABLE moods ADD COLUMN source TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX moods_source ON moods (person_id, source) WHERE source != '';

-- +goose Down
DROP INDEX moods_source;
ALTER TABLE moods DROP COLUMN source;
