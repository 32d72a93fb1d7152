package channels

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind is the kind of a conversation.
type Kind string

// The conversation kinds. A DM is one person and Haven; a group is a small
// multi-person chat; a channel is a public or team-wide room.
const (
	KindDM      Kind = "dm"
	KindGroup   Kind = "group"
	KindChannel Kind = "channel"
)

// Public reports whether other people can read what is said in a
// conversation of this kind.
func (k Kind) Public() bool { return k != KindDM }

// NamespacedID returns the platform-wide unique form of a platform-local id:
// "platform:workspace:id". Workspace may be empty (Telegram has none), which
// gives "platform::id". Every ID in Inbound and Outbound uses this form so that
// no two platforms collide.
func NamespacedID(platform, workspace, id string) string {
	return platform + ":" + workspace + ":" + id
}

// SplitID splits a namespaced id into its parts. ok is false when id does not
// have the platform:workspace:id form. The local id may itself contain colons.
func SplitID(id string) (platform, workspace, local string, ok bool) {
	platform, rest, ok1 := strings.Cut(id, ":")
	workspace, local, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || platform == "" || local == "" {
		return "", "", "", false
	}
	return platform, workspace, local, true
}

// Conversation identifies where a message was said.
type Conversation struct {
	// ID is the namespaced conversation id (NamespacedID).
	ID string `json:"id"`
	// Kind says whether the conversation is private (dm) or not.
	Kind Kind `json:"kind"`
	// ThreadID is the platform's thread within the conversation, if any
	// (a Slack thread_ts, a Discord thread, a Telegram forum topic).
	ThreadID string `json:"thread_id"`
}

// Author is the person (or bot) who wrote a message.
type Author struct {
	// ID is the namespaced, stable platform user id. Never a display name.
	ID string `json:"id"`
	// Display is the name shown on the platform. It is for greeting people,
	// never for permissions, and never logged above debug.
	Display string `json:"display"`
	// IsBot is true for bot and app accounts, including Haven itself.
	IsBot bool `json:"is_bot"`
	// PlatformAdmin is true when the platform says the author administers the
	// conversation or workspace (for example a Telegram group admin).
	PlatformAdmin bool `json:"platform_admin"`
}

// Inbound is one message from a person, normalized across platforms. Its
// JSON form is the versioned wire form (see WireVersion).
type Inbound struct {
	// Platform names the adapter the message came through ("console",
	// "telegram", "slack", "discord").
	Platform string `json:"platform"`
	// Workspace is the platform-local workspace (Slack team, Discord guild);
	// empty where the platform has none.
	Workspace string `json:"workspace"`
	// Conversation is where the message was said.
	Conversation Conversation `json:"conversation"`
	// MessageID is the namespaced platform id of the message.
	MessageID string `json:"message_id"`
	// DeliveryKey identifies one delivery of one event (Slack event_id,
	// Telegram update_id, Discord message id). A redelivered event carries the
	// same key; the Hub answers each key once.
	DeliveryKey string `json:"delivery_key"`
	// Author is who wrote it.
	Author Author `json:"author"`
	// MentionsBot is true when the message mentions Haven or replies to one of
	// its messages.
	MentionsBot bool `json:"mentions_bot"`
	// Text is the message text with mentions of Haven removed and other
	// mentions normalized to plain names.
	Text string `json:"text"`
	// Locale is the platform's language or region hint ("en", "en-GB"), if any.
	Locale string `json:"locale"`
	// TimeZone is the author's IANA time zone ("Europe/Dublin") where the
	// platform gives one (Slack does); empty otherwise.
	TimeZone string `json:"time_zone,omitempty"`
	// Edited is true when the event is an edit of an earlier message. Edits are
	// not run as new turns.
	Edited bool `json:"edited"`
	// ReceivedAt is when the adapter received the event.
	ReceivedAt time.Time `json:"received_at"`
}

// OutKind says what an outbound message is for; it drives priority and
// where it may be shown.
type OutKind string

// The outbound kinds.
const (
	// OutReply is an ordinary reply to the message that asked.
	OutReply OutKind = "reply"
	// OutCrisis is a crisis reply. It jumps every queue and is never dropped.
	OutCrisis OutKind = "crisis"
	// OutNotice is a short system notice (an error, a policy note).
	OutNotice OutKind = "notice"
	// OutProactive is a message Haven starts: a reminder, a check-in.
	OutProactive OutKind = "proactive"
)

// Outbound is one message Haven sends. Text is plain text in Haven's neutral
// markup (paragraphs separated by blank lines, "- " bullets, `code`); each
// adapter renders and escapes it for its platform. The Hub splits it at the
// adapter's limit before Send sees it. Its JSON form is the versioned wire
// form (see WireVersion).
//
// An Outbound may carry a File. Text is then the file's caption (or the
// message that goes with it) and may be empty; the file itself is
// delivered whole and never split: through the adapter's FileSender where
// it has one, else as text (see FileSender).
type Outbound struct {
	// Platform names the adapter that must deliver it.
	Platform string `json:"platform"`
	// Conversation is where it goes.
	Conversation Conversation `json:"conversation"`
	// ReplyTo is the namespaced id of the message this answers, if any; in
	// groups adapters thread or quote the reply to it.
	ReplyTo string `json:"reply_to"`
	// Kind drives priority and display.
	Kind OutKind `json:"kind"`
	// Private asks the adapter to deliver the message only to Recipient: in a
	// DM, or ephemerally, never visible to the rest of a group.
	Private bool `json:"private"`
	// Recipient is the namespaced author id a Private message is for.
	Recipient string `json:"recipient"`
	// Text is the message body; with a File, its caption.
	Text string `json:"text"`
	// File, when set, is a file to deliver with the message (an export, a
	// document). It is delivered whole and is at most MaxFileSize bytes.
	File *File `json:"file,omitempty"`
	// Choices, when set, are answers the person can give with one tap
	// (Yes / No to a pending approval). An adapter that can show buttons
	// renders them under the message (on its last piece when the Hub
	// splits it); a press comes back as an ordinary Inbound from the
	// person who pressed, whose Text is the choice's Text, so a platform
	// without buttons loses nothing: the message itself says what to type.
	Choices []Choice `json:"choices,omitempty"`
	// ChoicesFor is the namespaced author id of the person the Choices
	// answer for (the one who was asked). An adapter binds its buttons to
	// that person: a press by anyone else is refused (privately where the
	// platform can) and says nothing. Empty, as in outbox rows written
	// before this field, means anyone may press.
	ChoicesFor string `json:"choices_for,omitempty"`
}

// Choice is one button under an Outbound.
type Choice struct {
	// Label is what the button shows ("Yes"), at most MaxChoiceLabel
	// bytes.
	Label string `json:"label"`
	// Text is what pressing it says, as if the person had typed it
	// ("yes"), at most MaxChoiceText bytes.
	Text string `json:"text"`
}

// NotYourChoices is what an adapter tells someone, privately where the
// platform can, who pressed a button that answers for another person
// (Outbound.ChoicesFor).
const NotYourChoices = "These buttons answer a question for someone else."

// MaxChoices, MaxChoiceLabel and MaxChoiceText bound an Outbound's
// choices so that every platform can show them (Telegram limits a
// button's callback data to 64 bytes, Discord a row to 5 buttons and a
// label to 80 characters).
const (
	MaxChoices     = 5
	MaxChoiceLabel = 40
	MaxChoiceText  = 32
)

// ChoicesFit reports whether cs fit the limits every adapter can show:
// at most MaxChoices, each with a label and text within their bounds,
// no text twice.
func ChoicesFit(cs []Choice) bool {
	if len(cs) > MaxChoices {
		return false
	}
	seen := make(map[string]bool, len(cs))
	for _, c := range cs {
		if c.Label == "" || c.Text == "" || len(c.Label) > MaxChoiceLabel || len(c.Text) > MaxChoiceText || seen[c.Text] {
			return false
		}
		seen[c.Text] = true
	}
	return true
}

// Priority reports whether the message jumps the delivery queue.
func (o Outbound) Priority() bool { return o.Kind == OutCrisis }

// MaxFileSize is the largest File an Outbound may carry, in bytes (20 MiB).
// It keeps a file within what every supported platform accepts from a bot
// (Telegram: 50 MB, Slack and Discord: 25 MB for most) and bounds the
// outbox row that holds it (base64 in JSON, a third larger).
const MaxFileSize = 20 << 20

// maxFileName bounds File.Name, in bytes.
const maxFileName = 255

// File is a file attached to an Outbound. It is delivered whole, never
// split; in the outbox its Data is kept (as base64 in the JSON) until the
// message is sent.
type File struct {
	// Name is the file name shown to the person ("haven-export-2025-01-31.json"):
	// a base name, no directories. Adapters that write it somewhere
	// sanitize it again.
	Name string `json:"name"`
	// ContentType is the media type of Data ("application/json"); empty
	// means application/octet-stream.
	ContentType string `json:"content_type"`
	// Data is the file's content, 1 to MaxFileSize bytes.
	Data []byte `json:"data"`
}

// ErrFileTooLarge is wrapped by File.Check for a file over MaxFileSize.
var ErrFileTooLarge = errors.New("file too large")

// Check reports what is wrong with f, or nil: a file must have a name
// (at most 255 bytes of UTF-8, without path separators or control
// characters) and 1 to MaxFileSize bytes of data. A file over MaxFileSize
// gives an error wrapping ErrFileTooLarge.
func (f *File) Check() error {
	switch {
	case f == nil:
		return errors.New("no file")
	case f.Name == "":
		return errors.New("file has no name")
	case len(f.Name) > maxFileName:
		return fmt.Errorf("file name of %d bytes is over the limit of %d", len(f.Name), maxFileName)
	case !utf8.ValidString(f.Name):
		return fmt.Errorf("file name %q is not valid UTF-8", f.Name)
	case strings.ContainsAny(f.Name, "/\\"), f.Name == ".", f.Name == "..":
		return fmt.Errorf("file name %q is not a base name", f.Name)
	case strings.ContainsFunc(f.Name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("file name %q holds control characters", f.Name)
	case len(f.Data) == 0:
		return fmt.Errorf("file %s is empty", f.Name)
	case len(f.Data) > MaxFileSize:
		return fmt.Errorf("file %s of %s is over the limit of %s: %w", f.Name, FormatSize(len(f.Data)), FormatSize(MaxFileSize), ErrFileTooLarge)
	}
	return nil
}

// FormatSize renders a byte count for people: "812 bytes", "3.4 KB",
// "20.0 MB" (powers of 1024).
func FormatSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}
