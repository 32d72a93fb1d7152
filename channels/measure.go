package channels

import (
	"fmt"
	"unicode/utf8"
)

// Measure is the unit a platform counts the length of a message in. The
// zero value is Runes.
//
// What each platform counts, as far as its sources say (the limit applies
// to the text a person sees, after markup is parsed, so the neutral text
// the Hub splits is never shorter than what is counted):
//
//   - Telegram: 4,096 Unicode code points per message (Runes). The Bot API
//     says "1-4096 characters after entities parsing"; the Bot API server is
//     TDLib, whose create_input_message_content (td/telegram/MessageContent.cpp)
//     refuses a bot's text when utf8_length of the parsed text (UTF-8 lead
//     bytes, that is code points) exceeds message_text_length_max, and a
//     TDLib maintainer confirms the limit is counted after parsing
//     (tdlib/telegram-bot-api#374). Entity offsets, not lengths, are in
//     UTF-16 units. A third-party probe of the live API accepted 4,096
//     U+1F600 (8,192 UTF-16 units) and refused 4,097
//     (FerroxLabs/wayland#934).
//   - Discord: 2,000 code points of content (Runes): Discord's API is
//     written in Python 3 and counts code points, says Discord staff in
//     discord/discord-api-docs#1315.
//   - Slack: 3,000 "characters" per section block text, 40,000 per message
//     text (docs.slack.dev, section block and chat.postMessage); Slack does
//     not say which unit. UTF16 is never smaller than Runes, so it is the
//     safe choice until a test against Slack settles it.
type Measure uint8

// The measures.
const (
	// Runes counts Unicode code points (Go runes). An invalid UTF-8 byte
	// counts one, as the U+FFFD it is sent as.
	Runes Measure = iota
	// UTF16 counts UTF-16 code units: a code point above U+FFFF (most emoji)
	// counts two.
	UTF16
	// Bytes counts the bytes of the UTF-8 text.
	Bytes
)

// String names m.
func (m Measure) String() string {
	switch m {
	case Runes:
		return "runes"
	case UTF16:
		return "UTF-16 units"
	case Bytes:
		return "bytes"
	default:
		return fmt.Sprintf("Measure(%d)", uint8(m))
	}
}

// Len returns the length of s in m's units.
func (m Measure) Len(s string) int {
	switch m {
	case UTF16:
		n := len(s)
		// A code point takes one unit per 1-3 UTF-8 bytes and two per 4:
		// subtract what multi-byte sequences add over their units.
		for i := 0; i < len(s); {
			if s[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			n -= size - m.width(r, size)
			i += size
		}
		return n
	case Bytes:
		return len(s)
	default:
		return utf8.RuneCountInString(s)
	}
}

// width returns the units of r, which takes size bytes of the text.
func (m Measure) width(r rune, size int) int {
	switch m {
	case UTF16:
		if r > 0xFFFF {
			return 2
		}
		return 1
	case Bytes:
		return size
	default:
		return 1
	}
}

// maxWidth is the most units one code point can take.
func (m Measure) maxWidth() int {
	switch m {
	case UTF16:
		return 2
	case Bytes:
		return utf8.UTFMax
	default:
		return 1
	}
}

// fits reports whether s is at most n units long, reading no further than
// it must.
func (m Measure) fits(s string, n int) bool {
	// No measure counts more units than the text has bytes.
	if len(s) <= n {
		return true
	}
	if m == Bytes {
		return false
	}
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		n -= m.width(r, size)
		if n < 0 {
			return false
		}
		i += size
	}
	return true
}

// Limit is how much text one message may hold on a platform: at most Max
// units, counted by Measure. Max <= 0 means no limit.
type Limit struct {
	Max     int
	Measure Measure
}

// Fits reports whether text fits in one message.
func (l Limit) Fits(text string) bool {
	return l.Max <= 0 || l.Measure.fits(text, l.Max)
}

// String describes l, as "4096 runes".
func (l Limit) String() string {
	if l.Max <= 0 {
		return "no limit"
	}
	return fmt.Sprintf("%d %s", l.Max, l.Measure)
}
