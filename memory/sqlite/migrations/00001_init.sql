-- Haven's first schema. Times are INTEGER unix nanoseconds (UTC); ids of
-- people and sessions are random opaque hex strings.

-- +goose Up

-- application_id marks the file as Haven's ("HAVN"), so that Open can tell a
-- Haven database from another program's SQLite file.
PRAGMA application_id = 1212241486;

CREATE TABLE people (
    id         TEXT    PRIMARY KEY,
    display    TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);

-- A person's namespaced platform user ids (platform:workspace:id).
CREATE TABLE identities (
    platform_user_id TEXT    PRIMARY KEY,
    person_id        TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    platform         TEXT    NOT NULL,
    created_at       INTEGER NOT NULL
);
CREATE INDEX identities_person ON identities (person_id);

-- One conversation episode. turn_count and max_risk mirror the checkpoint so
-- that operators and later queries need not parse JSON.
CREATE TABLE sessions (
    id              TEXT    PRIMARY KEY,
    person_id       TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    conversation_id TEXT    NOT NULL,
    started_at      INTEGER NOT NULL,
    ended_at        INTEGER,
    checkpoint      TEXT    NOT NULL DEFAULT '{}',
    turn_count      INTEGER NOT NULL DEFAULT 0,
    max_risk        INTEGER NOT NULL DEFAULT 0 CHECK (max_risk BETWEEN 0 AND 3),
    updated_at      INTEGER NOT NULL
);
-- At most one open session per person and conversation.
CREATE UNIQUE INDEX sessions_open ON sessions (person_id, conversation_id) WHERE ended_at IS NULL;
CREATE INDEX sessions_person ON sessions (person_id, started_at);

CREATE TABLE transcript (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    text       TEXT    NOT NULL,
    crisis     INTEGER NOT NULL DEFAULT 0 CHECK (crisis IN (0, 1)),
    at         INTEGER NOT NULL
);
CREATE INDEX transcript_session ON transcript (session_id, id);

-- Durable dedupe of inbound deliveries. payload is the channels.Inbound as
-- JSON; its text is cleared when the delivery is done.
CREATE TABLE inbox (
    delivery_key TEXT    PRIMARY KEY,
    platform     TEXT    NOT NULL,
    payload      TEXT    NOT NULL,
    recorded_at  INTEGER NOT NULL,
    done_at      INTEGER
);
CREATE INDEX inbox_unfinished ON inbox (platform) WHERE done_at IS NULL;

-- Outbound messages until the platform has taken them. payload is the
-- channels.Outbound as JSON; its text is cleared once sent.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    platform     TEXT    NOT NULL,
    payload      TEXT    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    sent_at      INTEGER,
    abandoned_at INTEGER
);
CREATE INDEX outbox_unsent ON outbox (platform, id) WHERE sent_at IS NULL AND abandoned_at IS NULL;

-- The crisis log: opaque ids and the assessment, never message text. The
-- short, bounded reason/path/flags columns cannot hold a message.
CREATE TABLE crisis_log (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    person_id       TEXT    NOT NULL DEFAULT '',
    session_id      TEXT    NOT NULL DEFAULT '',
    conversation_id TEXT    NOT NULL DEFAULT '',
    platform        TEXT    NOT NULL DEFAULT '',
    level           INTEGER NOT NULL CHECK (level BETWEEN 0 AND 3),
    confidence      REAL    NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    reason          TEXT    NOT NULL DEFAULT '' CHECK (length(reason) <= 120),
    path            TEXT    NOT NULL DEFAULT '' CHECK (length(path) <= 120),
    flags           TEXT    NOT NULL DEFAULT '' CHECK (length(flags) <= 120),
    at              INTEGER NOT NULL
);
CREATE INDEX crisis_log_person ON crisis_log (person_id, at);
CREATE INDEX crisis_log_at ON crisis_log (at);

CREATE TABLE admin_audit (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    actor_id        TEXT    NOT NULL,
    conversation_id TEXT    NOT NULL DEFAULT '',
    command         TEXT    NOT NULL,
    allowed         INTEGER NOT NULL CHECK (allowed IN (0, 1)),
    detail          TEXT    NOT NULL DEFAULT '',
    at              INTEGER NOT NULL
);
CREATE INDEX admin_audit_at ON admin_audit (at);

-- +goose Down
DROP TABLE admin_audit;
DROP TABLE crisis_log;
DROP TABLE outbox;
DROP TABLE inbox;
DROP TABLE transcript;
DROP TABLE sessions;
DROP TABLE identities;
DROP TABLE people;
PRAGMA application_id = 0;
