package core

import (
	"encoding/hex"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/havenbot/haven/core/therapy/exercises"
)

// Route is the way a turn went through the graph, as metrics count it.
type Route string

// The routes.
const (
	// RouteCrisis: the crisis reply answered (the gate's level 2 or 3, or
	// a third party in danger).
	RouteCrisis Route = "crisis"
	// RouteTherapeutic: the therapeutic branch answered.
	RouteTherapeutic Route = "therapeutic"
	// RouteTask: the task branch answered.
	RouteTask Route = "task"
	// RouteCommand: a command (/help, /memory ...) answered.
	RouteCommand Route = "command"
	// RouteApproval: a yes or no to a pending approval answered.
	RouteApproval Route = "approval"
	// RouteNone: nothing answered (the store failed before any branch and
	// the gate saw no crisis).
	RouteNone Route = "none"
)

// TurnReport is what one turn tells Options.Observe when it ends: the way
// it took and what it cost. It holds no message text and no person's or
// conversation's ids.
type TurnReport struct {
	// ID is the turn's id: the "turn" attribute of every log line the turn
	// wrote.
	ID string
	// Platform is the platform the message came from.
	Platform string
	// Route is the way the turn took.
	Route Route
	// Mode is the therapeutic mode ("supportive", ...); "" off the
	// therapeutic branch.
	Mode string
	// Level is the crisis gate's level, 0 to 3; -1 when the gate did not
	// run (a pure command).
	Level int
	// ReplySource says who wrote a therapeutic reply (scripted, llm,
	// fallback, guarded); "" off the therapeutic branch.
	ReplySource string
	// GuardRule names the output guard rule a generated reply failed, ""
	// when none did.
	GuardRule string
	// Nodes are the nodes the turn visited, with their durations, in order.
	Nodes []NodeTiming
	// Duration is the whole turn's.
	Duration time.Duration
	// StoreWrites and LLMCalls count the turn's writes and model calls.
	StoreWrites, LLMCalls int
	// Failed is true when the turn returned an error or met a store
	// failure on its way (its reply, if any, still went out).
	Failed bool
	// Valence is what the message was read as (emotion.Valence: positive,
	// negative, ambiguous, neutral), "" when it was not read.
	Valence string
	// Met is the valence the therapeutic reply met, "" when it reflected
	// no feeling (or the turn was not therapeutic).
	Met string
	// Answered is true when the reply answered a direct question the
	// message asked.
	Answered bool
	// Exercise is the guided exercise running after the turn ("" for none,
	// and for one only offered); ExerciseStep is its current step, counted
	// from 1 (0 for none).
	Exercise     string
	ExerciseStep int
	// ExerciseEvent is what happened to an exercise this turn (offered,
	// declined, started, advanced, exited, finished, interrupted, ...), ""
	// for nothing.
	ExerciseEvent string
	// AskedSafetyQuestion is true when the reply asks about suicidal
	// thoughts or intent, or whether the person is safe.
	AskedSafetyQuestion bool
}

// newTurnID returns a random id for a turn: 16 hex digits, unique enough to
// find one turn's log lines.
func newTurnID() string {
	var b [8]byte
	for i, v := 0, rand.Uint64(); i < 8; i, v = i+1, v>>8 {
		b[i] = byte(v)
	}
	return hex.EncodeToString(b[:])
}

// report builds the TurnReport of a finished turn.
func (t *Turn) report(d time.Duration, err error) TurnReport {
	r := TurnReport{
		ID: t.id, Platform: t.In.Platform, Route: RouteNone, Level: -1,
		Nodes: t.Diag.Nodes, Duration: d, StoreWrites: t.Diag.StoreWrites, LLMCalls: t.Diag.LLMCalls,
		GuardRule: t.Diag.GuardRule, Failed: err != nil || t.Err != nil,
	}
	if t.Assessment != nil {
		r.Level = int(t.Assessment.Level)
	}
	r.Valence, r.Met, r.Answered = string(t.Feeling.Valence), string(t.Met), t.Answered
	r.ExerciseEvent = t.ExerciseEvent
	r.AskedSafetyQuestion = t.AskedSafetyQuestion || t.AskedIfSafe
	if t.Therapy.InExercise() {
		r.Exercise = t.Therapy.Exercise
		if ex := exercises.Get(r.Exercise); ex != nil {
			r.ExerciseStep = ex.StepIndex(t.Therapy.Step) + 1
		}
	}
	visited := map[Node]bool{}
	for _, n := range t.Diag.Nodes {
		visited[n.Node] = true
	}
	switch {
	case visited[NodeCrisisReply]:
		r.Route = RouteCrisis
	case visited[NodeTherapeutic]:
		r.Route, r.Mode, r.ReplySource = RouteTherapeutic, string(t.Mode), string(t.ReplySource)
	case visited[NodeTask]:
		r.Route = RouteTask
	case visited[NodeApproval]:
		r.Route = RouteApproval
	case visited[NodeCommand]:
		r.Route = RouteCommand
	}
	return r
}

// logger returns the turn's logger, which adds the turn's id to every line,
// or the engine's for a turn that Handle did not start.
func (e *Engine) logger(t *Turn) *slog.Logger {
	if t.log != nil {
		return t.log
	}
	return e.log
}
