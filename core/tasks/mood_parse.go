package tasks

import (
	"regexp"
	"strconv"
	"strings"
)

// The mood scale, as memory keeps it: 0 is the worst, 10 the best.
const (
	MoodMin = 0
	MoodMax = 10
)

// MaxMoodNote is the longest note mood.log keeps, in characters (memory
// keeps the same limit).
const MaxMoodNote = 500

// moodNumber is a score as people write it: digits (a decimal is read so
// that it can be refused clearly) or a number word.
const moodNumber = `(-?\d{1,3}(?:[.,]\d+)?|zero|one|two|three|four|five|six|seven|eight|nine|ten)`

// moodScale is an optional "out of N" after the score.
const moodScale = `(?:\s*(?:/|out of|of)\s*(\d{1,3}))?`

var (
	// reMoodSaid is a mood said in plain words, the whole message: "log my
	// mood as 4", "mood 7", "my mood today is a 5/10", "I'd rate my mood a
	// 3 today", "/mood 6 tired but ok". The score is group 1, an explicit
	// scale group 2, the rest (the note) group 3.
	reMoodSaid = regexp.MustCompile(`^(?:/mood\b|` +
		`(?:please |can you |could you )?(?:log|record|track|note|save|put|add) (?:down )?(?:my |a |today's )?mood(?: for today| today)?(?: (?:as|at|to|of|:))?(?: (?:a|an))?|` +
		`(?:today's |my |current )?mood(?: (?:today|now|right now|tonight|this morning|this evening|score|rating))?(?: (?:is|was|=|:))?(?: (?:a|an|at|about|around))?|` +
		`i(?:'d| would| will|'ll)? (?:rate|give|put) (?:my mood|myself|today|my day)(?: (?:today|right now|now))?(?: (?:as|at))?(?: (?:a|an))?` +
		`)(?:[\s:,=]|-\s)*` + moodNumber + moodScale + `\b[\s.,;:!-]*(.*)$`)

	// reMoodBody is the text after the /mood command word: "6 tired but
	// ok", "7/10".
	reMoodBody = regexp.MustCompile(`^` + moodNumber + moodScale + `\b[\s.,;:!-]*(.*)$`)

	// reNoteFiller is what the person said around the score that is not
	// a note ("today", "out of ten").
	reNoteFiller = regexp.MustCompile(`^(?:(?:today|right now|now|tonight|this morning|this evening|please|thanks|thank you)\b[\s.,;:!-]*)+`)
	// reOutOfTen is "out of ten" written in words after the score.
	reOutOfTen = regexp.MustCompile(`^(?:/|out of|of) ?ten\b[\s.,;:!-]*`)
)

var moodWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
	"six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
}

// normalizeMoodText lower-cases text, folds typographic apostrophes and
// squeezes spaces, for matching.
func normalizeMoodText(text string) string {
	s := strings.ToLower(strings.TrimSpace(text))
	s = strings.ReplaceAll(s, "’", "'")
	return strings.Join(strings.Fields(s), " ")
}

// parseMood reads a mood said in plain words (the whole message). It
// returns the args of mood.log (score as written, scale when one was
// given, note in the person's own letters) and whether the message says a
// mood. The score is not checked against the scale here: mood.log answers
// a score off the scale with a clear question instead of clamping it.
func parseMood(text string) (Args, bool) {
	return matchMood(reMoodSaid, text)
}

// parseMoodBody reads the text after the /mood command word ("6 tired but
// ok").
func parseMoodBody(text string) (Args, bool) {
	return matchMood(reMoodBody, text)
}

func matchMood(re *regexp.Regexp, text string) (Args, bool) {
	if len(text) > 2000 {
		return nil, false
	}
	s := normalizeMoodText(text)
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return nil, false
	}
	score := s[m[2]:m[3]]
	if w, ok := moodWords[score]; ok {
		score = w
	}
	args := Args{"score": strings.ReplaceAll(score, ",", ".")}
	if m[4] >= 0 {
		args["scale"] = s[m[4]:m[5]]
	}
	note := s[m[6]:m[7]]
	if loc := reOutOfTen.FindStringIndex(note); loc != nil {
		args["scale"] = "10"
		note = note[loc[1]:]
	}
	note = reNoteFiller.ReplaceAllString(note, "")
	if note != "" {
		// The note keeps the person's own letters: find it in the
		// original text by its normalized tail.
		args["note"] = originalTail(text, note)
	}
	return args, true
}

// originalTail returns the end of text that normalizes to tail (which is
// a normalized suffix of text), so that a note keeps its capitals.
func originalTail(text, tail string) string {
	words := strings.Fields(strings.TrimSpace(text))
	n := len(strings.Fields(tail))
	if n > len(words) {
		return tail
	}
	orig := strings.Join(words[len(words)-n:], " ")
	if normalizeMoodText(orig) != tail {
		return tail
	}
	return orig
}

// moodScore checks a score as parsed: a whole number on the scale, said
// on the 0-10 scale. It returns the score, or the question to ask when it
// is not one (naming what is wrong).
func moodScore(args Args) (int, string) {
	raw := strings.ToLower(strings.TrimSpace(args["score"]))
	if w, ok := moodWords[raw]; ok {
		raw = w // a model may pass the word the person said
	}
	raw = strings.TrimSuffix(strings.TrimSuffix(raw, "/10"), " out of 10")
	if sc := args["scale"]; sc != "" && sc != "10" {
		return 0, "I keep moods on a scale from 0 (the worst) to 10 (the best), and " + raw + " out of " + sc +
			" is on another scale, so I haven't logged it. What number from 0 to 10 fits how you feel?"
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		if _, ferr := strconv.ParseFloat(raw, 64); ferr == nil {
			return 0, "I keep moods as whole numbers from 0 (the worst) to 10 (the best), so I haven't logged " + raw +
				". Which whole number fits best?"
		}
		return 0, "How would you rate your mood, from 0 (the worst) to 10 (the best)?"
	}
	if n < MoodMin || n > MoodMax {
		return 0, "I keep moods on a scale from 0 (the worst) to 10 (the best), so I can't log " + strconv.Itoa(n) +
			". What number from 0 to 10 fits how you feel?"
	}
	return n, ""
}
