// Package tasks is Haven's task branch: things Haven does for a person
// rather than talks through (log a mood, keep a journal, set a reminder,
// name a helpline).
//
// A capability is registered explicitly in code (Registry.Register, no
// reflection) with what it is for, example phrasings, the capability
// context types it reads and writes, whether it needs the person's
// approval, and its Execute function. A turn's task is extracted and
// classified by rules first, then by the model when one is configured
// (its JSON checked against the registry: it can never pick a capability
// that is not registered), planned as steps, paused for approval where a
// step is sensitive, and run; results live in the session's capability
// context (type -> key -> fields) so that a later turn can refer back
// ("move that to 7").
//
// The package never imports core, memory, safety or channels: core hands
// each capability the stores it needs through the small interfaces
// declared beside it, and copies Results back into the turn.
package tasks
