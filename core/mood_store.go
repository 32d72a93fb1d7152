package core

import (
	"context"
	"fmt"
	"time"

	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory"
)

// MoodMemory is what the mood capabilities need of the store: the mood
// log. memory/sqlite's Store implements it.
type MoodMemory interface {
	// AddMood stores a mood entry of m.PersonID, refusing a score off the
	// scale, and returns it with its id.
	AddMood(ctx context.Context, m memory.Mood) (memory.Mood, error)
	// Moods returns the person's entries logged at or after from and
	// before to, oldest first.
	Moods(ctx context.Context, personID string, from, to time.Time) ([]memory.Mood, error)
}

// moodStore hands the mood capabilities (core/tasks, which never imports
// memory) the mood log in their own types.
type moodStore struct{ m MoodMemory }

// MoodStore returns m as the tasks.MoodStore that tasks.MoodCapabilities
// takes.
func MoodStore(m MoodMemory) tasks.MoodStore { return moodStore{m} }

// LogMood implements tasks.MoodStore.
func (s moodStore) LogMood(ctx context.Context, personID, source string, e tasks.MoodEntry) (tasks.MoodEntry, error) {
	m, err := s.m.AddMood(ctx, memory.Mood{PersonID: personID, Score: e.Score, Note: e.Note, At: e.At, Source: source})
	if err != nil {
		return tasks.MoodEntry{}, fmt.Errorf("log mood: %w", err)
	}
	return moodEntry(m), nil
}

// Moods implements tasks.MoodStore.
func (s moodStore) Moods(ctx context.Context, personID string, from, to time.Time) ([]tasks.MoodEntry, error) {
	ms, err := s.m.Moods(ctx, personID, from, to)
	if err != nil {
		return nil, fmt.Errorf("read moods: %w", err)
	}
	out := make([]tasks.MoodEntry, len(ms))
	for i, m := range ms {
		out[i] = moodEntry(m)
	}
	return out, nil
}

func moodEntry(m memory.Mood) tasks.MoodEntry {
	return tasks.MoodEntry{ID: m.ID, Score: m.Score, Note: m.Note, At: m.At}
}
