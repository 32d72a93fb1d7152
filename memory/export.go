package memory

import (
	"time"
)

// Export is everything Haven holds about one person.
type Export struct {
	PersonID   string         `json:"person_id"`
	Display    string         `json:"display_name"`
	Created    time.Time      `json:"created"`
	Identities []string       `json:"identities"`
	Settings   Settings       `json:"settings"`
	Facts      []ExportFact   `json:"facts"`
	Episodes   []Episode      `json:"episodes"`
	Rules      []Rule         `json:"rules"`
	Journal    []JournalEntry `json:"journal"`
	Sessions   []ExportSess   `json:"sessions"`
	Crisis     []CrisisEvent  `json:"crisis_log"`
	Pending    int            `json:"pending_extraction_jobs"`
	Held       []Fact         `json:"held_for_later"`
	Moods      []Mood         `json:"moods"`
	// Reminders are the person's active reminders and check-ins, and
	// Proactive their time zone and pause.
	Reminders []Reminder        `json:"reminders"`
	Proactive ProactiveSettings `json:"proactive"`
}

// ExportFact is a fact as exported, with its state in words.
type ExportFact struct {
	Fact
	Sentence string `json:"sentence"`
}

// ExportSess is a session and its transcript as exported.
type ExportSess struct {
	ID             string    `json:"id"`
	ConversationID string    `json:"conversation_id"`
	Started        time.Time `json:"started"`
	Ended          time.Time `json:"ended,omitzero"`
	Entries        []Entry   `json:"transcript"`
}
