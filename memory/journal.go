package memory

import "time"

// MaxJournalRunes bounds one journal entry.
const MaxJournalRunes = 4000

// JournalEntry is one entry a person wrote in their journal. It is theirs:
// listed by /memory, removed by /forget, included in /export.
type JournalEntry struct {
	ID       int64     `json:"id"`
	PersonID string    `json:"-"`
	Text     string    `json:"text"`
	Created  time.Time `json:"created"`
}
