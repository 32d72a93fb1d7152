package memory

import (
	"time"
)

// Retention says how long records are kept; zero keeps them forever.
type Retention struct {
	// Transcripts bounds transcript entries (by when they were said).
	Transcripts time.Duration
	// Inactive bounds superseded facts (by when they were superseded).
	Inactive time.Duration
	// CrisisLog bounds the crisis log, which has its own retention.
	CrisisLog time.Duration
	// Deliveries bounds the delivery records kept for dedupe and retries:
	// handled inbox rows and sent or abandoned outbox rows (by when they
	// were handled). They hold platform ids, so they must not live forever;
	// a redelivery older than this would be answered again.
	Deliveries time.Duration
}

// Swept is what one retention pass deleted.
type Swept struct {
	Transcripts, Inactive, CrisisLog, Deliveries int64
}
