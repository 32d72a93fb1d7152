-- +goose Up
-- Platform cursors an adapter must keep across restarts (Telegram's last
-- update_id), so that a restart neither replays nor skips events.
CREATE TABLE offsets (
    key        TEXT PRIMARY KEY NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    value      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- +goose Down
DROP TABLE offsets;
