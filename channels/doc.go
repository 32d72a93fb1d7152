// Package channels is the contract between platform adapters and Haven's core:
// the normalized Inbound and Outbound message types, the Adapter interface an
// adapter implements, and the Hub that runs it (dedupe, channel policy,
// per-conversation ordering, splitting and delivery). An adapter says how
// its platform counts a message's length (MessageLimit), and the Hub splits
// once; Inbound and Outbound are stored in a versioned wire form (wire.go).
//
// channels imports nothing from core, memory, safety or the adapters.
package channels
