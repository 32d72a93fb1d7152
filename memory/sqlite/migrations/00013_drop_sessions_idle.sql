-- +goose Up
-- sessions_idle kept the open sessions in order of last activity for the
-- idle sweep (Store.IdleSessions). Every turn moved its session's entry:
-- one more index page written to the WAL per turn. The sweep now reads the
-- open sessions through sessions_open and sorts them; the open sessions
-- are the recently active ones, since the sweep ends the others.
DROP INDEX sessions_idle;

-- +goose Down
CREATE INDEX sessions_idle ON sessions (updated_at) WHERE ended_at IS NULL;
