// Package discordtest is an in-process fake of Discord for tests, used like
// net/http/httptest: NewServer starts it on 127.0.0.1, APIURL gives the
// REST root in discordgo's EndpointAPI form ("http://127.0.0.1:port/api/v9/")
// and its /gateway endpoint names the fake's own gateway WebSocket.
//
// The gateway speaks Discord's gateway protocol (v9, JSON encoding): HELLO
// with heartbeat_interval in milliseconds (WithHeartbeat makes it short),
// IDENTIFY checked for the token and the intents (a wrong token is closed
// with 4004; the privileged message-content intent asked for while the
// portal has it off, WithMessageContentDisabled, is closed with 4014),
// READY with the bot user and the application, GUILD_CREATE per guild when
// the GUILDS intent is on, heartbeat ACKs, and DISPATCH of MESSAGE_CREATE,
// MESSAGE_UPDATE, INTERACTION_CREATE, THREAD_CREATE and CHANNEL_CREATE.
// What a session is sent follows its intents as Discord's does: guild
// messages need GUILD_MESSAGES, DMs need DIRECT_MESSAGES, and without
// MESSAGE_CONTENT a guild message that does not mention the bot arrives
// with its content, attachments and embeds emptied. With compress set in
// IDENTIFY, READY and GUILD_CREATE come zlib-compressed in binary frames,
// as Discord's payload compression sends large payloads.
//
// Every dispatched event gets the session's next sequence number and is
// kept, so that a RESUME (op 6) replays what the client missed before
// RESUMED, as Discord does. The control API breaks things: Reconnect sends
// op 7, InvalidateSession sends op 9 and forgets the session (a RESUME then
// gets op 9 too), DropConnections cuts the sockets without a close frame,
// ReplayOnResume makes the next RESUME replay events the client already
// had, and StopHeartbeatAcks turns the connection into a zombie.
//
// The REST API (authenticated with "Bot <token>" except the interaction
// webhooks, as Discord's) serves /gateway, /users/@me, DM channel creation,
// channel lookup, guild and role lookup, channel messages (JSON and
// multipart with files; the 2,000-character content limit counted in code
// points; message_reference; 50007 to a person whose DMs are closed),
// typing, interaction callbacks (the 3-second deadline and single
// acknowledgement enforced) and follow-ups (only after a callback, within
// 15 minutes), and application command registration, global or per guild.
// Messages and follow-ups may carry buttons (action rows of buttons,
// checked as Discord checks them); Post.Buttons and Buttons read them,
// Press makes a person press one (INTERACTION_CREATE of type 3,
// MESSAGE_COMPONENT, with the message), and a press takes the callbacks
// 6 (DEFERRED_UPDATE_MESSAGE) and 7 (UPDATE_MESSAGE: an empty components
// array removes the buttons, a null leaves them, an empty content is
// refused with 50006). RedeliverInteraction sends an interaction again.
// FailNext makes the next call of an operation fail, 429 with retry_after
// (per route or global) included.
//
// The control API builds a world (guilds, channels, threads, forum posts,
// people, roles), makes people write (Post, Edit, Redeliver, Invoke, Press), and
// reads what the bot did (Posts, WaitPosts, Callbacks, Commands, Typing,
// Calls). EchoBot runs a bare discordgo echo bot against the fake, the
// baseline of Haven's benchmark.
package discordtest
