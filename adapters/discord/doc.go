// Package discord is Haven's Discord adapter, built on
// github.com/bwmarrin/discordgo: the gateway for messages and
// interactions, the REST API for everything Haven sends.
//
// Receiving. The adapter identifies with the intents in Intents (guilds,
// guild messages, direct messages and the privileged message content).
// When the Developer Portal has Message Content switched off, Discord
// closes the connection with 4014: the adapter logs one line saying where
// to switch it on and goes on without it (DMs and messages that @mention
// Haven still carry their text); a message addressed to Haven that
// arrives without its text is logged the same way, once, and answered
// with a note pointing to a DM. Messages are normalized into
// channels.Inbound: DMs, guild channels, threads and forum posts (a
// thread is a thread of its parent channel's conversation); Haven's
// mentions (its user and its managed role) are stripped and other
// mentions rendered as names; a reply to Haven counts as a mention; bots,
// webhooks, system messages and Haven's own messages are dropped; an edit
// (MESSAGE_UPDATE) is marked Edited, which the Hub never runs as a turn.
// The delivery key is the message id, so a RESUME replaying a message is
// answered once (the adapter also drops ids it saw lately). Events that
// do not decode are skipped, counted (Stats) and logged without their
// content.
//
// Connection. discordgo opens, heartbeats and resumes; the adapter owns
// the reconnect loop (discordgo's has no context and hides close codes),
// cuts an Open that hangs, and reports the heartbeat-ACK age as Liveness.
// A refused token stops Run with an error naming HAVEN_DISCORD_TOKEN.
//
// Commands. The commands (DefaultCommands: /haven) are registered at start,
// globally or in the configured guilds. An interaction is acknowledged at
// once with a deferred response (Discord wants one within 3 s), then runs
// as a turn whose text is "/haven <what was typed>"; its answers go as
// follow-ups, ephemeral in a guild (flag 64). The person is PlatformAdmin
// when the configured admins name them or, in a guild, when Discord's
// permissions for them hold Administrator or Manage Server (for a typed
// "/..." message, from their roles); anything unreadable counts as no.
// The interaction's locale is the Inbound's Locale, and is remembered as
// the person's locale for their later messages: the crisis gate's hint
// for their country.
//
// Buttons. An Outbound's Choices go under the message (its last piece,
// the Hub sees to that; a file's caption too) as one action row of
// buttons. When the Outbound names the person they are for (ChoicesFor)
// each custom_id is "haven:for:", that person's user id, ":" and the
// choice's Text, so the binding lives on the message and survives a
// restart; otherwise (and on buttons made before persons were named) it
// is "haven:choice:" and the Text, and anyone may press. A message
// without Choices is sent as before. A press (INTERACTION_CREATE of type
// 3, MESSAGE_COMPONENT) by the person, or on a button for anyone, is
// answered at once, before the sink sees it, with UPDATE_MESSAGE (type 7)
// and an empty components array: the acknowledgement and the removal of
// the buttons in one call (when Discord refuses the update,
// DEFERRED_UPDATE_MESSAGE, type 6). It then runs as a turn from the
// person who pressed, saying the choice's Text, in the conversation of
// the message (a thread's parent, as for messages), addressed to Haven,
// with the interaction id as delivery key. Answers reply to the message
// in a guild; under an ephemeral message (an answer to a command) they go
// as follow-ups only the person sees. A press by anyone else is answered
// with an ephemeral message (type 4, flag 64) saying
// channels.NotYourChoices; the buttons stay, no turn runs, and the press
// is counted as skipped and logged at debug without names. A press on a
// button Haven did not make is skipped, counted and logged at debug.
//
// Sending. Replies arrive split by the Hub at MessageLimit (2,000 code
// points, with code fences balanced); Haven's neutral text is Discord
// markdown as it is. In guilds a reply references the message that asked
// (message_reference), and nothing Haven posts pings anyone. Private
// messages (crisis details, memory, exports) go to the person's DM, with
// the core's short public note in the channel; when Discord refuses the
// DM (50007) Send fails permanently with ErrCannotDM, and the note, which
// tells the person how to reach Haven, stays true. Files go as
// attachments (SendFile). A 429 is handled here, not in discordgo
// (ShouldRetryOnRateLimit off): its retry_after is returned to the Hub,
// global or for the conversation only. Typing shows the typing indicator.
//
// Base URL. discordgo builds every URL from its package-level EndpointAPI
// (https://discord.com/api/v9/). The adapter never changes it: its HTTP
// client's transport sends those requests to Options.APIURL instead, and
// the gateway URL comes from that API's /gateway.
package discord
