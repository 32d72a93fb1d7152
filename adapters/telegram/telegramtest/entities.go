package telegramtest

import (
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Entities computes the entities Telegram's servers attach to a plain text
// message: @username mentions and /commands (with an optional @botname),
// with offsets and lengths in UTF-16 code units as in the real API.
func Entities(text string) []tgbotapi.MessageEntity {
	units := utf16.Encode([]rune(text))
	var out []tgbotapi.MessageEntity
	prevWord := false // the previous unit is part of a word
	for i := 0; i < len(units); {
		c := units[i]
		switch {
		case c == '@' && !prevWord:
			n := wordLen(units[i+1:])
			if n >= 5 && n <= 32 {
				out = append(out, tgbotapi.MessageEntity{Type: "mention", Offset: i, Length: n + 1})
				i += n + 1
				prevWord = true
				continue
			}
		case c == '/' && (i == 0 || isSpace(units[i-1])):
			n := wordLen(units[i+1:])
			if n >= 1 && n <= 64 {
				l := n + 1
				if i+l < len(units) && units[i+l] == '@' {
					if m := wordLen(units[i+l+1:]); m >= 5 && m <= 32 {
						l += m + 1
					}
				}
				out = append(out, tgbotapi.MessageEntity{Type: "bot_command", Offset: i, Length: l})
				i += l
				prevWord = true
				continue
			}
		}
		prevWord = isWord(c)
		i++
	}
	return out
}

func wordLen(units []uint16) int {
	n := 0
	for n < len(units) && isWord(units[n]) {
		n++
	}
	return n
}

func isWord(c uint16) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSpace(c uint16) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r'
}
