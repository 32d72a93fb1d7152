package tasks

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MoodEntry is one entry of a person's mood log, as the mood capabilities
// see it.
type MoodEntry struct {
	ID int64
	// Score is from MoodMin to MoodMax.
	Score int
	// Note is what the person said with it, "" for none.
	Note string
	At   time.Time
}

// MoodStore keeps a person's mood log. Core hands the mood capabilities
// one over its memory store.
type MoodStore interface {
	// LogMood stores e for the person and returns it with its id. It
	// refuses a score off the scale. source names the message it came
	// from (Request.MessageKey): a second call with the same source
	// returns the entry already stored.
	LogMood(ctx context.Context, personID, source string, e MoodEntry) (MoodEntry, error)
	// Moods returns the person's entries logged at or after from and
	// before to, oldest first.
	Moods(ctx context.Context, personID string, from, to time.Time) ([]MoodEntry, error)
}

// The mood capabilities' names.
const (
	MoodLog   = "mood.log"
	MoodWeek  = "mood.week"
	MoodChart = "mood.chart"
)

// moodContextType is the capability context type the mood capabilities
// write: key "last" holds the entry logged last in the session.
const moodContextType = "mood"

// Chart windows, in days.
const (
	defaultChartDays = 30
	minChartDays     = 7
	maxChartDays     = 90
)

// privateMoodReply answers a request to see the mood log outside a DM.
const privateMoodReply = "Your mood log is private, so I only show it in a direct message. Send me /mood week or /mood chart there."

// MoodCapabilities returns mood.log (log a score from 0 to 10 with an
// optional note), mood.week (the last seven days as text, compared with
// the week before) and mood.chart (a trend chart PNG), all over store.
// The log and the chart are only shown in a direct message.
func MoodCapabilities(store MoodStore) []Capability {
	return []Capability{
		{
			Name:        MoodLog,
			Description: "Log how you feel right now, from 0 (the worst) to 10 (the best), with a few words if you like.",
			Command:     "mood",
			Usage:       "/mood 6 tired but ok",
			Examples:    []string{"/mood 6 tired but ok", "log my mood as 4", "mood 7", "I'd rate my mood a 3 today"},
			Params: []Param{
				{Name: "score", Description: "the mood score as the person said it, a whole number from 0 (the worst) to 10 (the best)",
					Required: true, Ask: "How would you rate your mood right now, from 0 (the worst) to 10 (the best)? You can add a few words too, like: 6 tired but ok."},
				{Name: "note", Description: "what the person said about the mood, in their words; empty for none"},
				{Name: "scale", Description: "the top of the scale when the person named one other than 10 (\"3 out of 5\" is 5); empty otherwise"},
			},
			Writes: []string{moodContextType},
			Match:  matchMoodLog,
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return logMood(ctx, store, req, args)
			},
		},
		{
			Name:        MoodWeek,
			Description: "See your moods of the last seven days, day by day, and how the week compares with the one before.",
			Usage:       "/mood week",
			Examples:    []string{"/mood week", "how was my mood this week?", "show my moods for the week"},
			Reads:       []string{moodContextType},
			Match:       matchMoodWeek,
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return moodWeek(ctx, store, req)
			},
		},
		{
			Name:        MoodChart,
			Description: "Get a chart of your mood over the last 30 days (or any 7 to 90).",
			Usage:       "/mood chart",
			Examples:    []string{"/mood chart", "show me my mood chart", "graph my mood for the last two weeks"},
			Params: []Param{
				{Name: "days", Description: "how many days back the chart goes, 7 to 90; empty for 30"},
			},
			Reads: []string{moodContextType},
			Match: matchMoodChart,
			Execute: func(ctx context.Context, req *Request, args Args) (Result, error) {
				return moodChart(ctx, store, req, args)
			},
		},
	}
}

// commandBody is text without a leading "/mood" command word.
func commandBody(text string) string {
	s := strings.TrimSpace(text)
	if len(s) >= 5 && strings.EqualFold(s[:5], "/mood") && (len(s) == 5 || s[5] == ' ') {
		s = strings.TrimSpace(s[5:])
	}
	return s
}

// moodView is the text after "/mood" that asks for a view rather than a
// log: "week" or "chart".
func moodView(body string) string {
	s := strings.TrimRight(normalizeMoodText(commandBody(body)), ".!?")
	switch {
	case s == "week" || s == "this week" || s == "the week" || s == "last week" || s == "w":
		return MoodWeek
	case s == "chart" || s == "graph" || s == "trend" || s == "plot" || strings.HasPrefix(s, "chart ") || strings.HasPrefix(s, "graph "):
		return MoodChart
	}
	return ""
}

// reMoodAsk asks to log a mood without saying it ("log my mood"): the
// branch asks for the score.
var reMoodAsk = regexp.MustCompile(`^(?:/mood|(?:please |can you |could you |i want to |i'd like to |let me )?(?:log|record|track|note|save|add) (?:down )?(?:my |a |today's )?mood(?: for today| today| now| please)?)$`)

// matchMoodLog is mood.log's rule: a mood said in plain words, or
// "/mood" and a score; "log my mood" alone matches without a score.
func matchMoodLog(req *Request) (Args, bool) {
	if moodView(req.Text) != "" {
		return nil, false
	}
	if args, ok := parseMood(req.Text); ok {
		return args, true
	}
	if reMoodAsk.MatchString(strings.TrimRight(normalizeMoodText(req.Text), ".!?")) {
		return Args{}, true
	}
	return nil, false
}

var (
	reMoodWeek = regexp.MustCompile(`^(?:/mood (?:this |the |last )?week|` +
		`(?:please )?(?:show|see|view|give|tell|list)(?: me)? (?:my |the )?(?:mood|moods|mood log)(?: (?:for|of|over|in))?(?: (?:this|the))?(?: (?:last|past))?(?: (?:7|seven) days| week)|` +
		`how (?:was|has|have|were|is) (?:my mood|my moods|i been feeling|i felt)(?: been)?(?: (?:this|the|over the|in the) (?:last |past )?(?:week|7 days|seven days))|` +
		`(?:my )?mood(?:s)? (?:this|last|the|for the|over the) (?:last |past )?week)$`)

	reMoodChart = regexp.MustCompile(`^(?:/mood (?:chart|graph|trend|plot)|` +
		`(?:please )?(?:show|send|draw|make|give)(?: me)?(?: a| my| the)? (?:mood (?:chart|graph|trend|plot)|mood over time)|` +
		`(?:please )?(?:plot|chart|graph|draw)(?: me)? (?:my |a )?mood(?:s| over time)?|` +
		`(?:my )?mood (?:chart|graph|trend|plot))` +
		`(?: (?:(?:for|of|over|in) )?(?:the )?(?:(?:last|past|this) )?(.+))?$`)

	// reChartFiller is said after a chart request without changing it.
	reChartFiller = regexp.MustCompile(`(?: please| now| thanks| thank you)+$`)

	reChartDays = regexp.MustCompile(`^(?:(\d{1,3}) ?(?:days?|d)|(week|two weeks|fortnight|month|three months|(\d{1,2}) weeks|(\d) months?))$`)
)

// matchMoodWeek is mood.week's rule.
func matchMoodWeek(req *Request) (Args, bool) {
	s := strings.TrimRight(normalizeMoodText(req.Text), ".!?")
	if reMoodWeek.MatchString(s) {
		return Args{}, true
	}
	return nil, false
}

// matchMoodChart is mood.chart's rule; "for the last 2 weeks" fills days.
func matchMoodChart(req *Request) (Args, bool) {
	s := strings.TrimRight(normalizeMoodText(req.Text), ".!?")
	s = reChartFiller.ReplaceAllString(s, "")
	m := reMoodChart.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	args := Args{}
	if m[1] != "" {
		args["days"] = m[1]
	}
	return args, true
}

// chartDays reads the days param: a number of days or a span in words. It
// returns the question to ask when it is not one of 7 to 90 days.
func chartDays(raw string) (int, string) {
	raw = strings.TrimSpace(strings.ToLower(raw))
	if raw == "" {
		return defaultChartDays, ""
	}
	n := -1
	if v, err := strconv.Atoi(raw); err == nil {
		n = v
	} else if m := reChartDays.FindStringSubmatch(raw); m != nil {
		switch {
		case m[1] != "":
			n, _ = strconv.Atoi(m[1])
		case m[3] != "":
			w, _ := strconv.Atoi(m[3])
			n = 7 * w
		case m[4] != "":
			mo, _ := strconv.Atoi(m[4])
			n = 30 * mo
		default:
			n = map[string]int{"week": 7, "two weeks": 14, "fortnight": 14, "month": 30, "three months": 90}[m[2]]
		}
	}
	if n < minChartDays || n > maxChartDays {
		return 0, fmt.Sprintf("I can chart from %d to %d days back. How many days would you like, like /mood chart 30?", minChartDays, maxChartDays)
	}
	return n, ""
}

// logMood is mood.log's Execute.
//
// Straight from "/mood ..." the text is what follows the command word, and
// the branch may have put all of it in score (its one required param), as
// it does with the answer to "How would you rate your mood?": "week" and
// "chart" there are the views, and "6 tired but ok" is read as a score and
// a note.
func logMood(ctx context.Context, store MoodStore, req *Request, args Args) (Result, error) {
	for _, text := range []string{args["score"], req.Text} {
		body := commandBody(text)
		switch moodView(body) {
		case MoodWeek:
			return moodWeek(ctx, store, req)
		case MoodChart:
			chartArgs, _ := matchMoodChart(&Request{Text: "/mood " + body})
			return moodChart(ctx, store, req, chartArgs)
		}
	}
	if _, ask := moodScore(args); ask != "" && args["note"] == "" && args["scale"] == "" {
		body := args["score"]
		if body == "" {
			body = commandBody(req.Text)
		}
		if parsed, ok := parseMoodBody(body); ok {
			args = parsed
		} else if parsed, ok := parseMood(req.Text); ok {
			args = parsed
		}
	}
	score, ask := moodScore(args)
	if ask != "" {
		return Result{Text: ask}, nil
	}
	note := strings.TrimSpace(args["note"])
	if n := utf8.RuneCountInString(note); n > MaxMoodNote {
		return Result{Text: fmt.Sprintf("Your note is %d characters long and I keep up to %d with a mood, so I haven't logged it yet. "+
			"Could you send the score with a shorter note? (For longer thoughts, just tell me about it.)", n, MaxMoodNote)}, nil
	}
	e, err := store.LogMood(ctx, req.PersonID, req.MessageKey, MoodEntry{Score: score, Note: note, At: req.Now})
	if err != nil {
		return Result{}, fmt.Errorf("log mood: %w", err)
	}
	if req.Context != nil {
		req.Context.Put(moodContextType, "last", map[string]string{
			"id": strconv.FormatInt(e.ID, 10), "score": strconv.Itoa(e.Score), "at": e.At.UTC().Format(time.RFC3339)})
	}
	if !req.Private {
		return Result{Text: "Logged. Your mood log is private: send me /mood week or /mood chart in a direct message to see it."}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Logged your mood: %d/10", score)
	if note != "" {
		fmt.Fprintf(&b, " (%s)", note)
	}
	b.WriteString(".")
	if score <= 2 {
		b.WriteString(" That sounds like a hard time. I'm here if you'd like to talk about it.")
	}
	b.WriteString(" /mood week shows your week, /mood chart the trend.")
	return Result{Text: b.String()}, nil
}

// dayStart is midnight of t's day in loc.
func dayStart(t time.Time, loc *time.Location) time.Time {
	t = t.In(loc)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
}

// location is the request's time zone, UTC when it is not known.
func location(req *Request) *time.Location {
	if req.Location != nil {
		return req.Location
	}
	return time.UTC
}

// moodWeek is mood.week's Execute: the last seven days (today and the six
// before, in the person's time zone), each day's scores and notes, the
// average, and the average of the seven days before.
func moodWeek(ctx context.Context, store MoodStore, req *Request) (Result, error) {
	if !req.Private {
		return Result{Text: privateMoodReply}, nil
	}
	loc := location(req)
	today := dayStart(req.Now, loc)
	from, to := today.AddDate(0, 0, -6), today.AddDate(0, 0, 1)
	before := from.AddDate(0, 0, -7)
	entries, err := store.Moods(ctx, req.PersonID, before, to)
	if err != nil {
		return Result{}, fmt.Errorf("read the mood log for the week: %w", err)
	}
	var this, last []MoodEntry
	for _, e := range entries {
		if e.At.Before(from) {
			last = append(last, e)
		} else {
			this = append(this, e)
		}
	}
	if len(this) == 0 {
		text := "You haven't logged a mood in the last seven days."
		if len(last) > 0 {
			text = fmt.Sprintf("You haven't logged a mood in the last seven days (the week before, your average was %s).", avgText(last))
		}
		return Result{Text: text + " Log one any time with /mood and a number from 0 to 10, like /mood 6 tired but ok."}, nil
	}
	var b strings.Builder
	b.WriteString("Your mood over the last seven days (0 is the worst, 10 the best):\n")
	i := 0
	for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
		next := d.AddDate(0, 0, 1)
		var day []string
		for ; i < len(this) && this[i].At.Before(next); i++ {
			s := strconv.Itoa(this[i].Score)
			if this[i].Note != "" {
				s += " (" + this[i].Note + ")"
			}
			day = append(day, s)
		}
		label := d.Format("Mon 2 Jan")
		if d.Equal(today) {
			label += ", today"
		}
		if len(day) == 0 {
			fmt.Fprintf(&b, "%s: -\n", label)
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", label, strings.Join(day, "; "))
	}
	fmt.Fprintf(&b, "Average: %s from %d %s.", avgText(this), len(this), plural(len(this), "entry", "entries"))
	if len(last) == 0 {
		b.WriteString(" There's nothing logged the week before to compare with.")
	} else {
		d := round1(avg(this)) - round1(avg(last))
		switch {
		case math.Abs(d) < 0.05:
			fmt.Fprintf(&b, " The week before was the same, %s.", avgText(last))
		case d > 0:
			fmt.Fprintf(&b, " That's up %.1f from the week before (%s).", d, avgText(last))
		default:
			fmt.Fprintf(&b, " That's down %.1f from the week before (%s).", -d, avgText(last))
		}
	}
	return Result{Text: b.String()}, nil
}

func avg(es []MoodEntry) float64 {
	sum := 0
	for _, e := range es {
		sum += e.Score
	}
	return float64(sum) / float64(len(es))
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func avgText(es []MoodEntry) string { return strconv.FormatFloat(round1(avg(es)), 'f', 1, 64) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// moodChart is mood.chart's Execute: the chart of the last days as a PNG.
func moodChart(ctx context.Context, store MoodStore, req *Request, args Args) (Result, error) {
	if !req.Private {
		return Result{Text: privateMoodReply}, nil
	}
	days, ask := chartDays(args["days"])
	if ask != "" {
		return Result{Text: ask}, nil
	}
	loc := location(req)
	to := dayStart(req.Now, loc).AddDate(0, 0, 1)
	from := to.AddDate(0, 0, -days)
	entries, err := store.Moods(ctx, req.PersonID, from, to)
	if err != nil {
		return Result{}, fmt.Errorf("read the mood log for the chart: %w", err)
	}
	if len(entries) == 0 {
		return Result{Text: fmt.Sprintf("You haven't logged a mood in the last %d days, so there's nothing to chart yet. "+
			"Log one any time with /mood and a number from 0 to 10, like /mood 6 tired but ok.", days)}, nil
	}
	c, err := newTrendChart(entries, from, days, loc)
	if err != nil {
		return Result{}, fmt.Errorf("draw the mood chart: %w", err)
	}
	png, err := c.PNG()
	if err != nil {
		return Result{}, fmt.Errorf("draw the mood chart: %w", err)
	}
	return Result{
		Text: fmt.Sprintf("Your mood over the last %d days: %d %s, average %s.", days, len(entries), plural(len(entries), "entry", "entries"), avgText(entries)),
		File: &File{Name: "mood-" + req.Now.In(loc).Format("2006-01-02") + ".png", MIME: "image/png", Data: png},
	}, nil
}
