package therapy

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/havenbot/haven/core/reply"
	"github.com/havenbot/haven/llm"
)

// DefaultReplyTimeout bounds a reply's model call when Options.ReplyTimeout
// is zero.
const DefaultReplyTimeout = 10 * time.Second

// shorterRunes caps a generated reply when the person asked for shorter
// replies.
const shorterRunes = 320

// Options configure a Therapist.
type Options struct {
	// LLM, when set, writes the replies; nil means scripted replies only.
	LLM llm.Client
	// ReplyTimeout bounds the reply call; zero means DefaultReplyTimeout.
	ReplyTimeout time.Duration
	// Logger receives events (never message or reply text); nil means
	// slog.Default().
	Logger *slog.Logger
}

// Therapist is the therapeutic branch. It is safe for concurrent use.
type Therapist struct {
	llm          llm.Client
	replyTimeout time.Duration
	log          *slog.Logger

	replies, generated, fallbacks, guarded atomic.Uint64
	mu                                     sync.Mutex
	guardByRule                            map[string]uint64
}

// New returns a Therapist.
func New(opts Options) *Therapist {
	t := &Therapist{
		llm: opts.LLM, replyTimeout: opts.ReplyTimeout,
		log: opts.Logger, guardByRule: map[string]uint64{},
	}
	if t.replyTimeout <= 0 {
		t.replyTimeout = DefaultReplyTimeout
	}
	if t.log == nil {
		t.log = slog.Default()
	}
	return t
}

// Stats are the Therapist's counters since it started.
type Stats struct {
	// Replies counts every reply written.
	Replies uint64
	// Generated counts replies the model wrote that passed the guard.
	Generated uint64
	// Fallbacks counts model errors and timeouts answered by the scripted reply.
	Fallbacks uint64
	// GuardRejections counts generated replies the output guard replaced;
	// GuardByRule splits them by rule.
	GuardRejections uint64
	GuardByRule     map[string]uint64
}

// Stats returns a snapshot of the counters.
func (t *Therapist) Stats() Stats {
	t.mu.Lock()
	by := make(map[string]uint64, len(t.guardByRule))
	for k, v := range t.guardByRule {
		by[k] = v
	}
	t.mu.Unlock()
	return Stats{
		Replies: t.replies.Load(), Generated: t.generated.Load(), Fallbacks: t.fallbacks.Load(),
		GuardRejections: t.guarded.Load(), GuardByRule: by,
	}
}

// Respond writes the reply. With a model it generates the body from the
// plan's brief under the reply deadline, assembles it with what core adds
// (reply.Assemble) and checks the whole with Guard; on an error, a timeout
// or a guard failure the scripted reply answers and the event is counted.
// It never fails.
func (t *Therapist) Respond(ctx context.Context, req Request) Response {
	t.replies.Add(1)
	log := t.log
	if req.Log != nil {
		log = req.Log
	}
	if t.llm != nil {
		req.LanguageModel = true
	}
	p := build(req)
	scripted := p.draft()
	resp := p.response(scripted)
	if t.llm == nil || !p.generate {
		return resp
	}
	limit := p.maxRunes()
	if p.style.shorter {
		limit = min(limit, shorterRunes)
	}
	// The model writes the body only: it is told to leave room for the
	// parts that follow it and never to ask when the safety question does.
	fixed := reply.Assemble(reply.Draft{Question: questionIfSafety(scripted.Question), Notice: scripted.Notice}, 0).Text
	brief := GuardOptions{MaxRunes: limit - utf8.RuneCountInString(fixed) - 1, NoAdvice: p.style.justListen, NoQuestion: req.SafetyQuestion != ""}
	ref := scripted
	ref.Recall, ref.Notice = reply.Part{}, reply.Part{}
	ref.Question = questionUnlessSafety(ref.Question)
	temp := float32(0.7)
	resp.LLMCalls++
	out, err := t.llm.Complete(ctx, llm.Request{
		Messages: p.messages(reply.Assemble(ref, 0).Text, brief), MaxTokens: 400, Temperature: &temp, Timeout: t.replyTimeout,
	})
	if err != nil {
		t.fallbacks.Add(1)
		resp.Source = ReplyFallback
		log.Warn("therapy: model reply failed; the scripted reply answers",
			slog.Bool("timeout", errors.Is(err, context.DeadlineExceeded)), slog.Any("err", err))
		return resp
	}
	resp.Tokens += out.PromptTokens + out.CompletionTokens
	generated := scripted
	generated.Body = []reply.Part{{Text: cleanGenerated(out.Content), Essential: true}}
	generated.Question = questionIfSafety(scripted.Question)
	a := reply.Assemble(generated, limit)
	// The guard reads the whole reply: its length and its one question over
	// everything, its content rules over the words the model wrote.
	rule := GuardTooLong
	if a.Fits {
		rule = Guard(a.Text, GuardOptions{MaxRunes: limit, NoAdvice: p.style.justListen,
			Trusted: []string{req.Recall.Text, req.SafetyQuestion, req.Notice}})
	}
	if rule != "" {
		t.guarded.Add(1)
		t.mu.Lock()
		t.guardByRule[rule]++
		t.mu.Unlock()
		resp.Source, resp.GuardReason = ReplyGuarded, rule
		log.Warn("therapy: generated reply failed the output guard; the scripted reply answers", slog.String("rule", rule))
		return resp
	}
	t.generated.Add(1)
	resp.Text, resp.Keys, resp.Source = a.Text, generatedKeys(a.Keys, resp.Keys), ReplyLLM
	return resp
}

// questionIfSafety keeps q only when it is the crisis gate's safety
// question; questionUnlessSafety the other way round.
func questionIfSafety(q reply.Part) reply.Part {
	if q.Key == safetyQuestionKey {
		return q
	}
	return reply.Part{}
}

func questionUnlessSafety(q reply.Part) reply.Part {
	if q.Key == safetyQuestionKey {
		return reply.Part{}
	}
	return q
}

// generatedKeys returns the keys of a generated reply: the scripted
// templates it was written from (so the next scripted reply does not repeat
// them) and the parts core added that it kept.
func generatedKeys(kept, scripted []string) []string {
	out := slices.Clone(scripted)
	for _, k := range kept {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// cleanGenerated strips what models wrap around a chat reply: surrounding
// quotes, a speaker label, extra blank space.
func cleanGenerated(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"Haven:", "haven:", "Assistant:", "assistant:"} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}
