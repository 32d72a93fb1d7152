package telegramtest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

// allowedTags are the tags Telegram's HTML parse mode accepts.
var allowedTags = map[string]bool{
	"b": true, "strong": true, "i": true, "em": true, "u": true, "ins": true,
	"s": true, "strike": true, "del": true, "span": true, "tg-spoiler": true,
	"a": true, "code": true, "pre": true, "blockquote": true, "tg-emoji": true,
}

// parseHTML parses text the way the Bot API does in HTML parse mode and
// returns the plain text a person sees. It returns an error worded like
// Telegram's "can't parse entities" errors for anything Telegram rejects: an
// unsupported tag, an unbalanced tag, a bare "<" or "&" that is not part of
// a tag or a supported entity.
func parseHTML(text string) (string, error) {
	var out strings.Builder
	var open []string
	for i := 0; i < len(text); {
		c := text[i]
		switch c {
		case '<':
			end := strings.IndexByte(text[i:], '>')
			if end < 0 {
				return "", fmt.Errorf("can't parse entities: Unclosed start tag at byte offset %d", i)
			}
			tag := text[i+1 : i+end]
			closing := strings.HasPrefix(tag, "/")
			name := strings.TrimPrefix(tag, "/")
			if sp := strings.IndexAny(name, " \t\n"); sp >= 0 {
				if closing {
					return "", fmt.Errorf("can't parse entities: Unexpected end tag at byte offset %d", i)
				}
				name = name[:sp]
			}
			name = strings.ToLower(name)
			if !allowedTags[name] {
				if closing {
					return "", fmt.Errorf("can't parse entities: Unexpected end tag at byte offset %d", i)
				}
				return "", fmt.Errorf("can't parse entities: Unsupported start tag %q at byte offset %d", name, i)
			}
			if closing {
				if len(open) == 0 || open[len(open)-1] != name {
					return "", fmt.Errorf("can't parse entities: Can't find end tag corresponding to start tag at byte offset %d", i)
				}
				open = open[:len(open)-1]
			} else {
				open = append(open, name)
			}
			i += end + 1
		case '&':
			end := strings.IndexByte(text[i:], ';')
			if end < 0 || end > 10 {
				return "", fmt.Errorf("can't parse entities: Character entity expected at byte offset %d", i)
			}
			ent := text[i+1 : i+end]
			r, ok := entity(ent)
			if !ok {
				return "", fmt.Errorf("can't parse entities: Unsupported HTML entity %q at byte offset %d", "&"+ent+";", i)
			}
			out.WriteString(r)
			i += end + 1
		default:
			out.WriteByte(c)
			i++
		}
	}
	if len(open) > 0 {
		return "", fmt.Errorf("can't parse entities: Can't find end tag corresponding to start tag %q", open[len(open)-1])
	}
	return out.String(), nil
}

// entity decodes one of the entities Telegram supports: &lt; &gt; &amp;
// &quot; and numeric ones.
func entity(ent string) (string, bool) {
	switch ent {
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "amp":
		return "&", true
	case "quot":
		return `"`, true
	}
	if num, ok := strings.CutPrefix(ent, "#"); ok {
		base := 10
		if hex, ok := strings.CutPrefix(num, "x"); ok {
			num, base = hex, 16
		}
		n, err := strconv.ParseUint(num, base, 32)
		if err != nil || n == 0 || n > 0x10FFFF {
			return "", false
		}
		return string(rune(n)), true
	}
	return "", false
}

// utf16Len is the length of s in UTF-16 code units, the unit Telegram counts
// entity offsets in.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
