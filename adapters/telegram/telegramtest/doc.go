// Package telegramtest is an in-process fake of the Telegram Bot API for
// tests, used like net/http/httptest: NewServer starts it on 127.0.0.1 and
// APIEndpoint gives the URL form the go-telegram-bot-api library takes
// ("http://127.0.0.1:port/bot%s/%s").
//
// It serves getMe, long-polled getUpdates (offset confirms earlier updates,
// timeout blocks until an update arrives, the timeout passes, the request is
// replaced by a newer one or the server closes), sendMessage (with Telegram's
// HTML parse mode checks and the 4,096-character limit, counted in code
// points of the parsed text as TDLib counts it), sendDocument
// (multipart uploads only, with the 1,024-character caption limit and the
// 50 MB upload limit), sendPhoto (multipart uploads of PNG or JPEG within
// Telegram's photo limits, refused with Telegram's PHOTO_INVALID_DIMENSIONS,
// IMAGE_PROCESS_FAILED or PHOTO_SAVE_FILE_INVALID otherwise), sendChatAction, setMyCommands, getChatMember,
// setWebhook, deleteWebhook and getWebhookInfo, and inline keyboards: the
// sends take an inline reply_markup (callback_data of 1-64 bytes, else
// BUTTON_DATA_INVALID), answerCallbackQuery takes one answer per query,
// editMessageReplyMarkup removes a keyboard with {"inline_keyboard":[]} and
// leaves it with null, as Telegram does, and a callback_query is dropped
// while allowed_updates leaves it out. A wrong token in the URL
// path gets 401 Unauthorized like the real API.
//
// The control API injects updates (messages built with NewMessage and its
// relatives, or raw JSON with InjectRaw), reads what the bot sent (Sent, WaitSent; documents with
// Documents, WaitDocuments; photos with Photos, WaitPhotos; the buttons a
// message carries with Sent.Buttons and Buttons), presses a button as a
// person (Press, or InjectCallback with any data; CallbackAnswers says what
// was answered), forces failures
// (FailNext: 429 with retry_after, 5xx, 409, 400, 403), and drops connections
// (DropConnections) to simulate a broken network. For crash tests, OnSend
// runs a hook between recording a message and answering the bot (the bot
// can be killed there), and WaitIdle waits until a stopped bot's
// connections are gone, so that every request it made has been recorded.
package telegramtest
