package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// SQLite's default WAL auto-checkpoint runs inside the commit that takes
// the WAL past 1,000 pages, on the writer connection: that commit (and
// every write queued behind the single writer) waits for the checkpoint's
// copy and its two fsyncs, a few milliseconds at a time, tens of times a
// second under load. The Store checkpoints on a connection of its own
// instead, beside the writer: a PASSIVE checkpoint never blocks a writer
// or a reader. Commits are written to the WAL exactly as before; only who
// copies them into the database file changes.
const (
	// checkpointEvery is the least time between two background
	// checkpoints while writes go on.
	checkpointEvery = 100 * time.Millisecond
	// writerAutoCheckpoint is the writer's own auto-checkpoint threshold
	// (pages). It bounds the WAL if the background checkpoints fail, and
	// under steady writes it is also what starts the WAL over: a WAL
	// restarts only when a commit finds every frame copied and no reader
	// still reading from the WAL, and while commits keep coming the
	// background checkpoints, a commit or two behind, leave readers in the
	// WAL. So the WAL grows to this size, where the writer's own checkpoint
	// (the last frames' copy and two fsyncs) and the next commit's restart
	// (an fsync of the WAL header) hold every write for a few milliseconds.
	// At 20,000 pages (80 MB of WAL at the most) that happens half as often
	// as at 10,000. Since restartAt it is a backstop: the checkpointer
	// starts the WAL over first, more cheaply.
	writerAutoCheckpoint = 20000
	// restartAt is the WAL size (frames) at which the checkpointer starts
	// the WAL over itself, before the writer's backstop does. It holds the
	// writer connection for one more PASSIVE checkpoint right after its
	// own: with no commit coming in, that one copies the last few frames
	// and the next commit restarts the WAL. Both of its fsyncs then find
	// little to write (the checkpoint just before synced the WAL and the
	// database file), where the writer's own checkpoint at the backstop
	// syncs everything since the last background one: the writes held
	// wait about two milliseconds instead of three to nine.
	restartAt = 15000
)

// checkpointer runs PASSIVE WAL checkpoints on its own connection, at
// most every checkpointEvery while the writer commits, and starts the WAL
// over when it reaches restartAt (catchUp).
type checkpointer struct {
	db    *sql.DB
	every time.Duration
	// writer is the Store's writer pool (one connection): holding its
	// connection holds every write. restartAt is the WAL size at which
	// the checkpointer starts it over (0: never; the writer's backstop
	// does).
	writer    *sql.DB
	restartAt int
	kick      chan struct{} // a commit happened since the last checkpoint
	// life ends when close is called (cancel): it stops the goroutine
	// and a catch-up still waiting for the writer.
	life   context.Context
	cancel context.CancelFunc
	done   chan struct{}

	closeOnce sync.Once
	closeErr  error
}

// startCheckpointer opens the checkpoint connection on dsn and starts its
// goroutine; close stops it.
func startCheckpointer(ctx context.Context, dsn string, every time.Duration, writer *sql.DB, restartAt int) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	c := &checkpointer{db: db, every: every, writer: writer, restartAt: restartAt,
		kick: make(chan struct{}, 1), done: make(chan struct{})}
	c.life, c.cancel = context.WithCancel(context.Background())
	go c.run()
	return c, nil
}

// committed tells the checkpointer the WAL has grown. It never blocks.
func (c *checkpointer) committed() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// run checkpoints after commits, at most every c.every, until close.
func (c *checkpointer) run() {
	defer close(c.done)
	t := time.NewTimer(0)
	<-t.C
	defer t.Stop()
	for {
		select {
		case <-c.kick:
		case <-c.life.Done():
			return
		}
		t.Reset(c.every)
		select {
		case <-t.C:
		case <-c.life.Done():
			return
		}
		// A failed checkpoint is tried again after the next commit; the
		// writer's own auto-checkpoint bounds the WAL meanwhile.
		c.step()
	}
}

// step runs one background checkpoint and, when the WAL has grown to
// restartAt, the catch-up that lets the next commit start it over. It
// reports whether it ran the catch-up.
func (c *checkpointer) step() bool {
	frames, _, err := c.checkpoint()
	if err != nil || c.restartAt <= 0 || frames < c.restartAt {
		return false
	}
	return c.catchUp() == nil
}

// catchUp holds the writer connection (so no commit comes in) while a
// PASSIVE checkpoint copies the frames the one before it left, so that
// the next commit starts the WAL over. A reader still in the old part of
// the WAL keeps it from starting over then; the next catch-up tries
// again, and the writer's backstop bounds the WAL.
func (c *checkpointer) catchUp() error {
	// Closing the store stops a catch-up still waiting for the writer.
	ctx, cancel := context.WithTimeout(c.life, 30*time.Second)
	defer cancel()
	w, err := c.writer.Conn(ctx)
	if err != nil {
		return fmt.Errorf("wal catch-up: hold the writer: %w", err)
	}
	defer w.Close()
	var busy, frames, copied int
	if err := w.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		return fmt.Errorf("wal catch-up: %w", err)
	}
	return nil
}

// checkpoint copies into the database file what of the WAL no reader
// still needs, without waiting for anyone. It returns the frames in the
// WAL and how many of them are now in the database file.
func (c *checkpointer) checkpoint() (frames, copied int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var busy int
	if err := c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		return 0, 0, fmt.Errorf("wal checkpoint: %w", err)
	}
	return frames, copied, nil
}

// close stops the goroutine and closes the connection. It may be called
// more than once.
func (c *checkpointer) close() error {
	if c == nil {
		return nil
	}
	c.closeOnce.Do(func() {
		c.cancel()
		<-c.done
		c.closeErr = c.db.Close()
	})
	return c.closeErr
}
