// Package slack is to be Haven's Slack adapter (slack-go: Socket Mode by
// default, or the Events API over HTTP). For now it holds the adapter's
// configuration section, which Haven already reads and validates so that
// a deployment configured for Slack is told clearly that this build cannot
// serve it yet.
package slack
