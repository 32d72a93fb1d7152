-- +goose Up
-- What Haven remembers beyond the transcript: facts, episodes, procedural
-- rules, memories held until their write policy lets them in, the memory
-- controls, and the durable extraction queue. Every row belongs to a person
-- and goes when the person is deleted (forget everything).

-- Semantic facts. An inactive fact was superseded; it is kept until the
-- person forgets it or the retention job removes it.
CREATE TABLE facts (
    id            INTEGER PRIMARY KEY,
    person_id     TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    subject       TEXT    NOT NULL CHECK (length(subject) BETWEEN 1 AND 100),
    predicate     TEXT    NOT NULL CHECK (length(predicate) BETWEEN 1 AND 40),
    object        TEXT    NOT NULL CHECK (length(object) BETWEEN 1 AND 200),
    evidence      TEXT    NOT NULL DEFAULT '' CHECK (length(evidence) <= 280),
    session_id    TEXT    NOT NULL DEFAULT '',
    turn          INTEGER NOT NULL DEFAULT 0,
    confidence    REAL    NOT NULL CHECK (confidence > 0 AND confidence <= 1),
    active        INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    superseded_by INTEGER,
    superseded_at INTEGER,
    created_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX facts_person ON facts (person_id, active, created_at);
CREATE INDEX facts_inactive ON facts (superseded_at) WHERE active = 0;
-- Active facts by what they are about: supersession and the pinned name.
CREATE INDEX facts_key ON facts (person_id, subject COLLATE NOCASE, predicate) WHERE active = 1;

-- One episode per session, written when it ends. themes and open_loops are
-- JSON arrays of strings.
CREATE TABLE episodes (
    id         INTEGER PRIMARY KEY,
    person_id  TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    session_id TEXT    NOT NULL,
    summary    TEXT    NOT NULL CHECK (length(summary) BETWEEN 1 AND 1000),
    themes     TEXT    NOT NULL DEFAULT '[]',
    mood_arc   TEXT    NOT NULL DEFAULT '',
    open_loops TEXT    NOT NULL DEFAULT '[]',
    started_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX episodes_session ON episodes (session_id);
CREATE INDEX episodes_person ON episodes (person_id, created_at);

-- Procedural rules: how the person wants Haven to talk with them. One rule
-- per key (the newest wins).
CREATE TABLE rules (
    id         INTEGER PRIMARY KEY,
    person_id  TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    key        TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 60),
    text       TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 200),
    evidence   TEXT    NOT NULL DEFAULT '' CHECK (length(evidence) <= 280),
    session_id TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX rules_key ON rules (person_id, key);

-- Facts waiting for their write policy: the end of their session, or being
-- said again. fact is the memory.Fact as JSON; turns counts distinct turns.
CREATE TABLE held_facts (
    id         INTEGER PRIMARY KEY,
    person_id  TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    session_id TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    policy     TEXT    NOT NULL CHECK (policy IN ('session_end', 'repetition')),
    fact       TEXT    NOT NULL,
    last_turn  TEXT    NOT NULL,
    times      INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX held_facts_key ON held_facts (person_id, key);

CREATE TABLE memory_settings (
    person_id  TEXT    PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
    paused     INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    proactive  INTEGER NOT NULL DEFAULT 1 CHECK (proactive IN (0, 1)),
    updated_at INTEGER NOT NULL
) STRICT;

-- The durable extraction queue. A job is deleted when done; a leased job
-- whose lease ran out (a crash) is claimed again.
CREATE TABLE memory_jobs (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind IN ('turn', 'session_end')),
    person_id   TEXT    NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    session_id  TEXT    NOT NULL,
    turn        INTEGER NOT NULL DEFAULT 0,
    text        TEXT    NOT NULL DEFAULT '',
    attempts    INTEGER NOT NULL DEFAULT 0,
    due_at      INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX memory_jobs_due ON memory_jobs (due_at, id);

-- Full-text index of active facts (rowid 2*id) and episodes (rowid 2*id+1).
-- Every indexed word carries its person's id as a prefix ("p<id>xsister"),
-- so a person's search reads only their own postings, and BM25's document
-- frequencies are the person's own.
CREATE VIRTUAL TABLE memory_fts USING fts5 (body, tokenize = 'porter unicode61 remove_diacritics 2');
-- How many of a person's indexed records each of their prefixed terms is
-- in, kept with memory_fts: search leaves out terms so common that matching
-- them would read most of the person's index (see ftsTerms).
CREATE TABLE memory_terms (
    term TEXT    PRIMARY KEY,
    docs INTEGER NOT NULL CHECK (docs >= 0)
) STRICT, WITHOUT ROWID;

-- Open sessions by last activity, for the idle-timeout sweep.
CREATE INDEX sessions_idle ON sessions (updated_at) WHERE ended_at IS NULL;
-- Transcript and crisis log by time, for retention.
CREATE INDEX transcript_at ON transcript (at);

-- +goose Down
DROP INDEX transcript_at;
DROP INDEX sessions_idle;
DROP TABLE memory_terms;
DROP TABLE memory_fts;
DROP TABLE memory_jobs;
DROP TABLE memory_settings;
DROP TABLE held_facts;
DROP TABLE rules;
DROP TABLE episodes;
DROP TABLE facts;
