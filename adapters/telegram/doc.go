// Package telegram is Haven's Telegram adapter, built on
// github.com/go-telegram-bot-api/telegram-bot-api/v5.
//
// It receives updates by long polling (the default) or through a webhook
// (Handler), normalizes private chats, groups and supergroups into
// channels.Inbound, and sends replies in Telegram's HTML parse mode with
// everything Haven says escaped.
//
// The library's own polling loop (GetUpdatesChan) is not used: it ignores
// retry_after and sleeps a fixed 3 s on every error, and none of the
// library's calls take a context. The adapter runs its own loop instead,
// and gives each API call a context through a per-call copy of the BotAPI
// whose HTTP client attaches it to the request. It also decodes each
// getUpdates batch one update at a time (the library's GetUpdates fails
// the whole batch on one update it cannot decode): an update that does not
// decode, polled or delivered to the webhook, is skipped, logged without
// its content and counted (Stats), never retried, so it cannot stall
// polling.
//
// The adapter owns its configuration section (Config: the telegram keys,
// their defaults and their rules; New applies the same rules to Options).
// Replies arrive split by the Hub to MessageLimit, 4,096 code points, which
// is how Telegram counts a message after parsing its HTML (see
// channels.Measure); the adapter does not split again.
//
// Files go through SendFile (channels.FileSender) with the message text as
// caption: a PNG or JPEG within Telegram's photo limits (a chart) as a
// photo, shown in the chat, anything else (an export) and a photo Telegram
// refuses as a document.
//
// Buttons: an Outbound's Choices go as an inline keyboard under the
// message, and under a file's message with SendFile. When the Outbound
// names the person they are for (ChoicesFor), the callback data is "hv2:",
// that person's user id, ":" and the choice's Text (at most 4 + 19 + 1 +
// 32 = 56 bytes, within Telegram's 64), so the binding lives on the
// message and survives a restart; otherwise it is "hv1:" and the Text,
// and anyone may press (buttons made before persons were named read the
// same way). A press (a callback_query, which Haven asks for in
// allowed_updates) is answered at once (answerCallbackQuery). A press by
// the person, or on unbound buttons, becomes an ordinary Inbound from the
// person who pressed, saying the choice's Text, with the callback query id
// as its DeliveryKey; once the sink has it the buttons are removed
// (editMessageReplyMarkup), except, for unbound buttons in a group, when
// the presser is not the person the question answered. A press of bound
// buttons by anyone else is answered with channels.NotYourChoices, which
// Telegram shows to the presser alone; the buttons stay, no Inbound is
// made, and it is skipped and counted. A press of a button Haven did not
// make is skipped and counted like an update that does not decode.
//
// Crisis replies in a group: the core asks for the details to go privately
// (Outbound.Private with a Recipient). The adapter sends those to the
// person's private chat; when Telegram refuses because the person has not
// started the bot, Send returns a permanent error wrapping ErrCannotDM, and
// the core sends a short public note in the group asking them to message
// Haven directly.
package telegram
