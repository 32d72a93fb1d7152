-- +goose Up
-- One de-identified row per finished turn, for /haven stats: where it came
-- from and the way it took. No person, session or conversation id and no
-- text: a row cannot be tied to anyone, so forgetting a person leaves
-- these counts alone.
CREATE TABLE turn_stats (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    at           INTEGER NOT NULL,
    platform     TEXT    NOT NULL DEFAULT '' CHECK (length(platform) <= 40),
    route        TEXT    NOT NULL DEFAULT '' CHECK (length(route) <= 40),
    mode         TEXT    NOT NULL DEFAULT '' CHECK (length(mode) <= 40),
    level        INTEGER NOT NULL DEFAULT -1 CHECK (level BETWEEN -1 AND 3),
    exercise     TEXT    NOT NULL DEFAULT '' CHECK (length(exercise) <= 40),
    guarded      INTEGER NOT NULL DEFAULT 0 CHECK (guarded IN (0, 1))
);
CREATE INDEX turn_stats_at ON turn_stats (at);

-- +goose Down
DROP TABLE turn_stats;
