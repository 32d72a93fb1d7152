-- +goose Up
-- Reminders and check-ins: messages Haven sends a person later, once or on
-- a recurrence (rule, in core/tasks' form, read in zone), in the
-- conversation they were asked in. status: active, done, cancelled.
CREATE TABLE reminders (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    person_id         TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    kind              TEXT    NOT NULL CHECK (kind IN ('reminder', 'checkin')),
    what              TEXT    NOT NULL DEFAULT '',
    due_at            INTEGER NOT NULL,
    rule              TEXT    NOT NULL DEFAULT '',
    exact             INTEGER NOT NULL DEFAULT 0,
    zone              TEXT    NOT NULL DEFAULT '',
    platform          TEXT    NOT NULL,
    conversation_id   TEXT    NOT NULL,
    conversation_kind TEXT    NOT NULL,
    thread_id         TEXT    NOT NULL DEFAULT '',
    recipient         TEXT    NOT NULL,
    status            TEXT    NOT NULL DEFAULT 'active',
    -- source is the message the reminder was set from, so a turn run
    -- again after a crash sets it once; '' for none.
    source            TEXT    NOT NULL DEFAULT '',
    created_at        INTEGER NOT NULL,
    fired_at          INTEGER
);
CREATE UNIQUE INDEX reminders_source ON reminders (person_id, source) WHERE source != '';
CREATE INDEX reminders_due ON reminders (due_at) WHERE status = 'active';
CREATE INDEX reminders_person ON reminders (person_id, status);

-- A person's controls over proactive messages and their time zone.
CREATE TABLE proactive_settings (
    person_id    TEXT    PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
    time_zone    TEXT    NOT NULL DEFAULT '',
    zone_asked   INTEGER NOT NULL DEFAULT 0,
    paused       INTEGER NOT NULL DEFAULT 0,
    suspended_at INTEGER,
    updated_at   INTEGER NOT NULL
);

-- The reminder an outbox row delivers: abandoning it for good suspends
-- that person's schedule.
ALTER TABLE outbox ADD COLUMN reminder_id INTEGER;

-- +goose Down
ALTER TABLE outbox DROP COLUMN reminder_id;
DROP TABLE proactive_settings;
DROP TABLE reminders;
