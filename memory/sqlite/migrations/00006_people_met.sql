-- +goose Up
-- When Haven first finished a turn for the person (answered a message of
-- theirs): until then every turn is a first contact, whose reply says what
-- Haven is. Set in the same transaction as that turn's end, so that a turn
-- cut short by a crash, after the person was created, does not count.
-- Everyone already in the database has been answered.
ALTER TABLE people ADD COLUMN met_at INTEGER;
UPDATE people SET met_at = created_at;

-- +goose Down
ALTER TABLE people DROP COLUMN met_at;
