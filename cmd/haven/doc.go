// Command haven runs Haven, a self-hosted companion bot.
//
//	haven [serve]        serve every configured platform, or the terminal when none is
//	haven chat           chat in the terminal
//	haven assess         assess JSONL messages on stdin with the crisis gate
//	haven eval crisis    measure the crisis gate on labelled JSONL files
//	haven backup COPY    a consistent copy of the database, also while serving
//	haven migrate        the database's schema version (status); up applies what is pending
//	haven doctor         check the configuration, tokens, model, database and disk
//
// Flags: --config FILE (YAML), --db FILE (SQLite database). With no file and no
// tokens, haven chats in the terminal on ./data/haven.db with no LLM.
//
// The wiring is explicit: serve.go builds the store, the model client, the
// crisis gate, the engine and the Hub; platforms.go holds the one table of
// chat platforms (name, configuration section, constructor), so adding a
// platform is its adapter package plus one row. observe.go and health.go
// serve the operator's endpoint (metrics.listen: /metrics, /healthz,
// /readyz); backup.go and doctor.go are the operations commands.
package main
