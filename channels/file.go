package channels

import (
	"errors"
	"fmt"
	"mime"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrNotText is wrapped by FileText for a file whose content cannot be shown
// as text (not UTF-8, or holding control characters other than tab, line
// feed, carriage return and form feed).
var ErrNotText = errors.New("file content is not text")

// FileText renders f as text messages that each fit limit (measured as
// limit.Measure counts), for a platform that cannot take files. Each
// message is a header line (the file name, with "(part i of n)" when there
// are several) and a code fence holding the next piece of the content:
//
//	haven-export-2025-01-31.json (part 1 of 3)
//	```json
//	<piece>
//	```
//
// The fence is one backtick longer than the longest run of backticks in the
// content (at least three), so no content line can close it; its info
// string is "json" for JSON files. Nothing is dropped: the content between
// a message's opening fence line and its closing fence line is its piece
// plus one line feed, so removing that last line feed from each and joining
// them in order gives f.Data exactly. Pieces end after a line feed where
// one falls in the second half of the room, else between runes.
//
// It returns an error wrapping ErrNotText for content that is not text,
// and an error when limit leaves no room for content (one rune at its
// widest) after the header and fence lines.
func FileText(f *File, limit Limit) ([]string, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	data := string(f.Data)
	if !isText(data) {
		return nil, fmt.Errorf("show %s as text: %w", f.Name, ErrNotText)
	}
	name := strings.ToValidUTF8(f.Name, "?")
	ticks := strings.Repeat("`", max(3, longestRun(data, '`')+1))
	open := ticks + fenceInfo(f) + "\n"
	closing := "\n" + ticks
	var chunks []string
	if limit.Max <= 0 {
		chunks = []string{data}
	} else {
		// Reserve room for the longest header any part could have: there
		// are never more parts than runes of content.
		m := limit.Measure
		d := len(strconv.Itoa(utf8.RuneCountInString(data)))
		header := m.Len(name) + len(" (part  of )\n") + 2*d
		room := limit.Max - header - m.Len(open) - m.Len(closing)
		if room < m.maxWidth() {
			return nil, fmt.Errorf("show %s as text: a limit of %s leaves no room for its content", f.Name, limit)
		}
		chunks = chunkText(data, room, m)
	}
	out := make([]string, len(chunks))
	for i, c := range chunks {
		h := name
		if len(chunks) > 1 {
			h = fmt.Sprintf("%s (part %d of %d)", name, i+1, len(chunks))
		}
		out[i] = h + "\n" + open + c + closing
	}
	return out, nil
}

// isText reports whether s is UTF-8 without control characters other than
// \t, \n, \r and \f.
func isText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f') || r == 0x7f {
			return false
		}
	}
	return true
}

// fenceInfo is the info string of f's code fence: "json" for JSON files.
func fenceInfo(f *File) string {
	mt, _, _ := mime.ParseMediaType(f.ContentType)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") ||
		(mt == "" && strings.HasSuffix(strings.ToLower(f.Name), ".json")) {
		return "json"
	}
	return ""
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// chunkText cuts s into pieces of at most room units of m (room is at
// least one rune at its widest) that joined give s: after the last line
// feed of a piece when it falls in the second half of the room, else at the
// room.
func chunkText(s string, room int, m Measure) []string {
	var out []string
	for s != "" {
		end, units, lastNL := 0, 0, -1
		for end < len(s) {
			r, w := utf8.DecodeRuneInString(s[end:])
			u := m.width(r, w)
			if units+u > room {
				break
			}
			if s[end] == '\n' && units+u > room/2 {
				lastNL = end + 1
			}
			end += w
			units += u
		}
		if end < len(s) && lastNL > 0 {
			end = lastNL
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}
