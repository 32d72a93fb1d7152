-- +goose Up
-- What operators set for one conversation with admin commands: paused
-- (Haven answers nothing there but a crisis) and the policy (when Haven
-- answers: mentions, all, dm-only). No row means the defaults. Who changed
-- it last is the admin's namespaced platform id; the admin audit log has
-- the history.
CREATE TABLE channel_settings (
    conversation_id TEXT PRIMARY KEY,
    paused INTEGER NOT NULL DEFAULT 0,
    policy TEXT NOT NULL DEFAULT 'mentions' CHECK (policy IN ('mentions', 'all', 'dm-only')),
    updated_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE channel_settings;
