// Package discord is to be Haven's Discord adapter (discordgo: the gateway
// and the REST API). For now it holds the adapter's configuration section,
// which Haven already reads and validates so that a deployment configured
// for Discord is told clearly that this build cannot serve it yet.
package discord
