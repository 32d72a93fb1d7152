// Package llmtest is a scripted fake OpenAI-compatible server for tests, in
// the manner of net/http/httptest. It serves POST /v1/chat/completions,
// GET /v1/models and POST /v1/embeddings on 127.0.0.1, answers from a queue
// of canned replies, rules and a default, and records every request so a
// test can check what the prompt carried.
//
// Failures are scripted too: HTTP statuses (with Retry-After), malformed
// JSON bodies, empty choices, and hangs that end only when the client gives
// up, the test releases them, or the server closes; no real sleeping is
// needed to test a timeout.
package llmtest
