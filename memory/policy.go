package memory

// Policy says when an extracted memory is written.
type Policy string

// The write policies.
const (
	// CommitNow writes the memory as soon as it is extracted.
	CommitNow Policy = "now"
	// AtSessionEnd holds the memory until the session ends.
	AtSessionEnd Policy = "session_end"
	// AfterRepetition holds the memory until it was said in more than one
	// turn (fragile negative self-beliefs).
	AfterRepetition Policy = "repetition"
	// Drop never writes it.
	Drop Policy = "drop"
)

// RepetitionsNeeded is how many distinct turns an AfterRepetition memory
// must be said in before it is written.
const RepetitionsNeeded = 2
