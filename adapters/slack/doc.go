// Package slack is Haven's Slack adapter, built on
// github.com/slack-go/slack (its socketmode and slackevents packages).
//
// It receives events over Socket Mode (the default: no public URL
// needed) or from the Events API over HTTP (Handler, which checks Slack's
// request signature before it reads anything). It normalizes DMs, public
// and private channels and group DMs into channels.Inbound, dropping bots,
// its own messages, edits, deletions and other non-human subtypes, and
// sends replies as mrkdwn with everything Haven says escaped.
//
// Dedupe: an event_id already handled is dropped at once (Slack's
// retries), and every message's delivery key is its channel and ts, so
// the Hub's durable inbox runs one turn for a message however it arrives:
// app_mention and its message twin, a retry, a redelivery after a
// restart.
//
// The person behind a message is looked up with users.info (cached,
// Options.UserCacheTTL): their display name, whether they are a workspace
// admin or owner (Author.PlatformAdmin, with the configured Admins; false
// when users.info fails), and their time zone and locale, which become
// the Locale hint the crisis gate reads a country from (see localeHint).
//
// The slash command (/haven ARGS) reaches the core as an admin command
// whose Text is "/haven ARGS"; its answers are ephemeral. A Private
// message in a shared conversation (a crisis reply's details, a memory
// answer, an export) goes to the person's DM, or ephemerally when the DM
// cannot be opened; the core's public note says to look for it or to
// write directly, which stays true either way. Files go through
// UploadFileContext (SendFile), privately in the same way (a private
// file is never ephemeral: it goes to the DM or not at all).
//
// Choices (Outbound.Choices) become Block Kit buttons under the message
// (an actions block, ChoicesBlockID), ephemeral messages included. Slack's
// file upload takes no blocks, so a file's choices come in a short
// message of their own right after it, in the same place, whose text is
// only the choices' labels (never the caption, which may be private); if
// that message cannot be posted, the file still counts as sent and its
// caption says what to type. When the Outbound names the person
// they are for (ChoicesFor), each button's action_id carries that
// person's user id ("haven_choice_N_for_U..."), so the binding lives on
// the message and survives a restart; otherwise (and on buttons made
// before persons were named) anyone may press. A press arrives as a
// block_actions interaction (over Socket Mode, or at Handler in http
// mode); it is acked at once. A press by the person, or on buttons for
// anyone, is then handed to the Hub as an ordinary Inbound from the
// person who pressed, saying the choice's Text, keyed by its trigger_id
// (a redelivery makes one turn), and the buttons are taken off the
// message with chat.update so that it cannot be pressed twice. An
// ephemeral message (container.is_ephemeral) cannot be changed with
// chat.update and is not sent with the press: the adapter remembers the
// text of its latest ephemeral messages with buttons (in memory only)
// and replaces the pressed one through the press's response_url
// (replace_original, its text without the buttons), sent only to Slack's
// hooks hosts or the configured API's host; after a restart the text is
// unknown and the buttons stay (a second press reads as ordinary text).
// A press by
// anyone else is skipped (Stats().Skipped, logged at debug without names)
// and answered with an ephemeral message only the presser sees
// (chat.postEphemeral, channels.NotYourChoices); the buttons stay. A press
// of a button Haven did not make, and every other interaction, is skipped.
//
// Slack shows no typing indicator for bots outside its assistant
// threads, so the adapter has no Typer. It reports Liveness (connected,
// last event, last sign of life on the socket) and Stats (skipped and
// duplicate events).
//
// The adapter owns its configuration section (Config: the slack keys,
// their defaults and their rules).
package slack

//go:generate go run gen_zones.go
