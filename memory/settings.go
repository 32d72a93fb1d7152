package memory

// Settings are a person's memory controls.
type Settings struct {
	// Paused is incognito: nothing new is remembered while it is set.
	Paused bool `json:"paused"`
	// Proactive lets Haven bring up memories the message did not ask about
	// (recent ones, a catch-up on the last session). On by default.
	Proactive bool `json:"proactive"`
}

// DefaultSettings are the settings of a person who never changed them.
func DefaultSettings() Settings { return Settings{Proactive: true} }
