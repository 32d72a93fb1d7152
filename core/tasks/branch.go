package tasks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"time"

	"github.com/havenbot/haven/llm"
)

// Branch runs the task branch of a turn: it extracts the task (a
// capability command, the capabilities' rules, then the model when one is
// configured), plans it as steps, asks for what is missing or for
// approval, and runs the steps. It is safe for concurrent use once the
// registry is complete.
type Branch struct {
	reg     *Registry
	llm     llm.Client
	timeout time.Duration
}

// BranchOptions configure a Branch.
type BranchOptions struct {
	// LLM, when set, extracts a task no rule recognised; nil means rules
	// only.
	LLM llm.Client
	// Timeout bounds the model call; zero means DefaultModelTimeout.
	Timeout time.Duration
}

// DefaultModelTimeout bounds the extraction model call when
// BranchOptions.Timeout is zero.
const DefaultModelTimeout = 3 * time.Second

// NewBranch returns a branch over reg.
func NewBranch(reg *Registry, opts BranchOptions) *Branch {
	b := &Branch{reg: reg, llm: opts.LLM, timeout: opts.Timeout}
	if b.timeout <= 0 {
		b.timeout = DefaultModelTimeout
	}
	return b
}

// Registry returns the branch's registry.
func (b *Branch) Registry() *Registry { return b.reg }

// Input is one turn as the task branch sees it.
type Input struct {
	// Request is the turn; its Context is the session's capability
	// context, which Run never changes (Outcome.Context is the new one).
	Request Request
	// Command, when set, is the capability the person named with its slash
	// command; Request.Text is then the text after the command word.
	Command string
	// History is the recent conversation, oldest first, each line
	// prefixed "person: " or "haven: ", for the model.
	History []string
	// Plan is the plan waiting on the person from an earlier turn, nil when
	// none.
	Plan *Plan
}

// Kind says how a task turn ended.
type Kind string

// The ways a task turn ends.
const (
	// KindDone: every step ran.
	KindDone Kind = "done"
	// KindClarify: a required argument is missing; Outcome.Text asks for it.
	KindClarify Kind = "clarify"
	// KindApproval: a step waits for the person's yes; Outcome.Text asks.
	KindApproval Kind = "approval"
	// KindFailed: a step failed; Outcome.Err says why (for logs) and
	// nothing of that step was kept.
	KindFailed Kind = "failed"
	// KindCancelled: the person said no (or cancelled a question).
	KindCancelled Kind = "cancelled"
	// KindNoTask: no capability fits the request.
	KindNoTask Kind = "none"
)

// Outcome is what the task branch did in a turn.
type Outcome struct {
	Kind Kind
	// Text is the reply: the steps' results, a question, or (KindFailed)
	// the results of the steps that did run, "" when none did.
	Text string
	File *File
	// Plan is the plan left waiting on the person (KindClarify,
	// KindApproval), nil otherwise.
	Plan *Plan
	// Context is the capability context after the turn.
	Context Context
	// Capability names the capability of the last step touched ("" when
	// none).
	Capability string
	// Source says how the task was found: "command", "rules", "model",
	// "plan" (a waiting plan resumed) or "" when none was.
	Source string
	// Err is why a step failed (KindFailed) or why the model's answer was
	// not used; never shown to the person.
	Err error
	// ModelCalls and Tokens count the model's use.
	ModelCalls, Tokens int
}

// cancelRE is an answer that drops a clarifying question.
var cancelRE = regexp.MustCompile(`(?i)^\s*(no|nope|cancel|stop|never ?mind|forget it|don't|do not|no thanks|leave it)\s*[.!]*\s*$`)

// Run handles a turn: a waiting plan's answer, a command, or a new task.
func (b *Branch) Run(ctx context.Context, in Input) Outcome {
	req := in.Request
	req.Context = in.Request.Context.Clone()
	if in.Command != "" {
		c, err := b.reg.Lookup(in.Command)
		if err != nil {
			return Outcome{Kind: KindNoTask, Context: req.Context, Err: err}
		}
		req.Command = c.Command
		args := Args{}
		if c.Match != nil {
			if a, ok := c.Match(&req); ok && a != nil {
				args = a
			}
		}
		if len(args) == 0 && strings.TrimSpace(req.Text) != "" {
			// "/note pay rent" where the rule reads only whole requests:
			// the words are the one required argument.
			if p, ok := soleRequired(c); ok {
				args[p] = strings.TrimSpace(req.Text)
			}
		}
		return b.run(ctx, &req, b.newPlan(req.Text, Step{Capability: c.Name, Args: args}), Outcome{Source: "command"})
	}
	if p := in.Plan; p != nil && p.Waiting == WaitParam {
		if out, ok := b.answer(ctx, &req, p.clone()); ok {
			return out
		}
	}
	if c, args, ok := b.MatchRules(&req); ok {
		return b.run(ctx, &req, b.newPlan(req.Text, Step{Capability: c.Name, Args: args}), Outcome{Source: "rules"})
	}
	out := Outcome{Context: req.Context}
	if b.llm == nil {
		out.Kind = KindNoTask
		return out
	}
	plan, calls, tokens, err := b.extractByModel(ctx, &req, in.History)
	out.ModelCalls, out.Tokens = calls, tokens
	if err != nil || plan == nil {
		out.Kind, out.Err = KindNoTask, err
		return out
	}
	out.Source = "model"
	return b.run(ctx, &req, plan, out)
}

// MatchRules returns the first capability, in registration order, whose
// rule recognises the request, with the arguments it read.
func (b *Branch) MatchRules(req *Request) (*Capability, Args, bool) {
	for _, c := range b.reg.caps {
		if c.Match == nil {
			continue
		}
		if args, ok := c.Match(req); ok {
			if args == nil {
				args = Args{}
			}
			return c, args, true
		}
	}
	return nil, nil, false
}

// answer reads the message as the answer to the plan's question. ok is
// false when the message is a new task a rule recognises instead: the
// plan is dropped and the message runs as that task.
func (b *Branch) answer(ctx context.Context, req *Request, p *Plan) (Outcome, bool) {
	st := p.step()
	c, err := b.reg.Lookup(st.Capability)
	if err != nil {
		return Outcome{Kind: KindNoTask, Context: req.Context, Err: err}, true
	}
	if cancelRE.MatchString(req.Text) {
		return Outcome{Kind: KindCancelled, Text: "Okay, I'll leave that.", Context: req.Context, Capability: c.Name, Source: "plan"}, true
	}
	if other, _, ok := b.MatchRules(req); ok && other.Name != c.Name {
		return Outcome{}, false
	}
	// The capability's own rule may read the answer together with the
	// request ("remind me" ... "to call mum at 6").
	joined := *req
	joined.Text = strings.TrimSpace(p.Text + " " + req.Text)
	if st.Args == nil {
		st.Args = Args{} // a plan decoded from the checkpoint has none
	}
	if c.Match != nil {
		if a, ok := c.Match(&joined); ok && a[p.Asked] != "" {
			for k, v := range a {
				if st.Args[k] == "" {
					st.Args[k] = v
				}
			}
		}
	}
	if st.Args[p.Asked] == "" {
		st.Args[p.Asked] = strings.TrimSpace(req.Text)
	}
	p.Waiting, p.Asked, p.Question = "", "", ""
	req.Text = joined.Text
	return b.run(ctx, req, p, Outcome{Source: "plan"}), true
}

// Resume carries on with a plan that waited for approval: yes runs the
// step and the rest of the plan; no cancels it. req.Context is not
// changed.
func (b *Branch) Resume(ctx context.Context, req Request, plan *Plan, yes bool) Outcome {
	req.Context = req.Context.Clone()
	if plan == nil || plan.step() == nil || plan.Waiting != WaitApproval {
		return Outcome{Kind: KindCancelled, Text: "That request has lapsed, so I haven't done anything. You can ask again whenever you like.", Context: req.Context, Source: "plan"}
	}
	p := plan.clone()
	if !yes {
		return Outcome{Kind: KindCancelled, Text: "Okay, I won't do that. Nothing has changed.", Context: req.Context, Capability: p.step().Capability, Source: "plan"}
	}
	p.step().Approved = true
	p.Waiting, p.Question, p.Reasked = "", "", false
	if p.Text != "" {
		req.Text = p.Text
	}
	return b.run(ctx, &req, p, Outcome{Source: "plan"})
}

// Reask returns the question to ask once more for a plan waiting for
// approval, and the plan marked as having asked it.
func Reask(p *Plan) (string, *Plan) {
	c := p.clone()
	c.Reasked = true
	return "I didn't catch a yes or a no. " + p.Question + " Please reply yes or no; if I don't hear a yes I'll leave it undone.", c
}

func (b *Branch) newPlan(text string, steps ...Step) *Plan {
	return &Plan{Text: text, Steps: steps}
}

// run runs the plan's steps from its current one until it ends or waits.
func (b *Branch) run(ctx context.Context, req *Request, p *Plan, out Outcome) Outcome {
	out.Context = req.Context
	for ; p.step() != nil; p.Current++ {
		st := p.step()
		c, err := b.reg.Lookup(st.Capability)
		if err != nil {
			out.Kind, out.Err = KindNoTask, err
			return out
		}
		out.Capability = c.Name
		if st.Args == nil {
			st.Args = Args{}
		}
		for _, prm := range c.Params {
			if prm.Required && strings.TrimSpace(st.Args[prm.Name]) == "" {
				p.Waiting, p.Asked, p.Question = WaitParam, prm.Name, prm.Ask
				out.Kind, out.Plan, out.Text = KindClarify, p, joinText(p.Done, prm.Ask)
				return out
			}
		}
		if c.Approval != nil && !st.Approved {
			if q, needed := c.Approval(maps.Clone(st.Args)); needed {
				p.Waiting, p.Question = WaitApproval, q
				out.Kind, out.Plan, out.Text = KindApproval, p, joinText(p.Done, q+" Reply yes or no.")
				return out
			}
		}
		work := *req
		work.Context = req.Context.Clone()
		res, err := b.execute(ctx, c, &work, maps.Clone(st.Args))
		if err != nil {
			out.Kind, out.Err = KindFailed, fmt.Errorf("capability %s: %w", c.Name, err)
			out.Text = joinText(p.Done)
			return out
		}
		req.Context = work.Context
		out.Context = work.Context
		p.Done = append(p.Done, res.Text)
		if res.File != nil {
			out.File = res.File
		}
	}
	out.Kind, out.Text = KindDone, joinText(p.Done)
	return out
}

// execute runs one step, turning a panic into an error: a capability's bug
// must not take the turn with it.
func (b *Branch) execute(ctx context.Context, c *Capability, req *Request, args Args) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	res, err = c.Execute(ctx, req, args)
	if err == nil && strings.TrimSpace(res.Text) == "" && res.File == nil {
		err = errors.New("returned no reply")
	}
	return res, err
}

func joinText(parts ...any) string {
	var ss []string
	for _, p := range parts {
		switch v := p.(type) {
		case []string:
			ss = append(ss, v...)
		case string:
			ss = append(ss, v)
		}
	}
	var keep []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			keep = append(keep, s)
		}
	}
	return strings.Join(keep, "\n\n")
}

// soleRequired returns the name of c's one required param, false when it
// has none or several.
func soleRequired(c *Capability) (string, bool) {
	name := ""
	for _, p := range c.Params {
		if p.Required {
			if name != "" {
				return "", false
			}
			name = p.Name
		}
	}
	return name, name != ""
}
