// Package jobs runs Haven's background memory work. One Runner, owned by
// its caller, does three kinds of job:
//
//   - extraction, from the durable queue: the facts and style rules of one
//     message (memory.JobTurn), and the episode and held facts of an ended
//     session (memory.JobSessionEnd). What to remember is memory/extract's
//     decision; jobs decides when it runs and writes what it finds.
//   - idle sessions, every SweepEvery: sessions with no activity for
//     IdleTimeout are ended and their JobSessionEnd queued.
//   - retention, every SweepEvery: what Options.Retention says is past
//     keeping is deleted.
//
// Queued jobs are leased, retried with backoff and survive restarts; the
// store behind them is the Store interface (memory/sqlite implements it).
//
// jobs imports memory and memory/extract, never core.
package jobs
