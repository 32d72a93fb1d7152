// Package slacktest is an in-process fake of Slack for tests, used like
// net/http/httptest: NewServer starts it on 127.0.0.1, APIURL gives the
// Web API root (with its trailing slash) that slack-go's OptionAPIURL
// takes, and the client libraries talk to it as they would to Slack.
//
// It serves the Web API methods Haven calls (auth.test, users.info,
// chat.postMessage, chat.postEphemeral, chat.update, conversations.open,
// files.getUploadURLExternal with its upload URL, and
// files.completeUploadExternal, the three steps of slack-go's
// UploadFileContext), apps.connections.open, and a Socket Mode WebSocket
// that sends hello, pings at a configurable interval, event, slash
// command and interactive envelopes, and reads acks. An envelope that is not acked when
// its socket ends is sent again on the next one with its retry_attempt
// raised, as Slack does. The socket accepts only the Origin slack-go
// sends (https://api.slack.com) and only a ticket from
// apps.connections.open, each once. A wrong token gets invalid_auth.
//
// With SetEventsURL the fake delivers the same events over HTTP instead
// (the Events API): each request is signed with the signing secret
// (Sign, NewSignedRequest), slash commands are form posts, and a delivery
// that does not get a 2xx is retried up to three times with
// X-Slack-Retry-Num, as Slack does (an interaction is sent once, as a
// form with a payload field).
//
// Messages with Block Kit blocks are checked as Slack checks them
// (invalid_blocks); Post.Buttons lists the buttons a message carries now,
// Press and PressButton make a person press one (a block_actions
// interaction), and Updates lists the bot's chat.update calls. A press on
// an ephemeral message says so (container.is_ephemeral) and carries no
// message, as Slack's does; chat.update refuses such a message
// (cant_update_message), and every press's response_url is served on
// the fake's own address: replace_original and delete_original change
// the pressed message, anything else is a new message, five uses each
// (Responses, WaitResponses).
//
// The control API adds people and conversations (AddUser, AddChannel,
// DM), makes people say things (Message, Mention, Edit, Slash,
// Redeliver, InjectRaw), reads what the bot posted (Posts, WaitPosts,
// Files, WaitFiles), forces failures (FailNext: 429 with Retry-After,
// Slack errors such as channel_not_found, 5xx), and breaks the socket
// (Disconnect sends a disconnect envelope, DropConnections closes it
// abruptly, Silence stops the pings so the client must notice a dead
// socket).
package slacktest
