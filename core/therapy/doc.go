// Package therapy is Haven's therapeutic branch: it decides how to meet a
// person (mode type, mode, modality, stage), runs guided exercises as
// multi-turn state machines (see the exercises subpackage), and writes the
// reply.
//
// With no language model it answers from a scripted, clinician-style
// library: reflective listening in the person's own words, validation, one
// open question, psychoeducation snippets, gentle exercise offers and closing
// summaries. With a model (package llm) it builds a prompt from the same
// decisions plus working memory and the person's procedural rules, and every
// generated reply passes the output guard (Guard); a failing, late or broken
// generation is replaced by the scripted reply, so the person always gets an
// answer.
//
// The package never imports core, memory or safety: core fills a Request
// from the turn and copies the Response back into the turn and checkpoint.
package therapy
