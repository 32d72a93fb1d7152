//go:build unix

package main

// The kill-anywhere tests of issue 12. The haven process (this test binary
// started again with HAVENTEST_MAIN=1, so that TestMain runs haven's main:
// the same wiring, flags, environment and signal handling as the built
// binary) serves the fake Bot API on 127.0.0.1 with its database in a temp
// dir. The test stops it at points chosen from the fake's progress (a send
// the fake took and did not answer yet, the k-th send, the k-th turn's
// typing indicator, the first poll after a start), with SIGKILL or SIGTERM,
// and starts it again on the same database. At the end every message must
// have been answered once, in order, each crisis message with its crisis
// reply.
//
// One duplicate no bot can avoid is allowed, and counted: a reply Telegram
// took while Haven died (or gave up at the end of a drain) before it
// recorded it as sent; Telegram has no idempotency key, so the next start
// sends it again. After each stop the test reads the outbox: a reply it
// still holds as unsent that the fake already has is of that kind. Any
// other duplicate, any loss and any reordering fails the test.
//
// Why the test binary and not `go build`: it is already built (under
// -race, the haven process then runs under the race detector too), while a
// build in the test costs a compile of the whole binary (about a minute
// with a cold cache) and needs the toolchain at test time; main is the
// same function either way.

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
)

// mainEnv makes TestMain run haven's main instead of the tests.
const mainEnv = "HAVENTEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

var (
	killSeed = flag.Uint64("kill.seed", 0, "seed of the kill tests' random choices (0: from the clock; the seed is logged)")
	killLong = flag.Bool("kill.long", false, "run the long version of the kill test (more people, messages and kills)")
)

const killToken = "123456:kill-token-abcdefghijklmnopqrstuvwxyz"

// sendersPerPlatform is the Hub's default channels.HubOptions
// SendersPerPlatform, which serve uses: at most that many replies of a
// platform are on their way at once.
const sendersPerPlatform = 4

// killTexts are what people write; crisisTexts are messages the crisis
// gate must always answer with a crisis reply. A person's messages differ
// from each other, so that Haven's replies to them do.
var (
	killTexts = []string{
		"I had a long day at work and I feel really tired",
		"my sister and I argued again last night",
		"can you help me plan my week, it feels like too much",
		"I've been sleeping badly and I'm worried about my exam",
		"I don't really know how to start, things have been heavy lately",
	}
	crisisTexts = []string{
		crisisText,
		"I do not want to be alive anymore",
		"I have been thinking about ending my life",
	}
)

// killPerson is one simulated person and what they write.
type killPerson struct {
	user   tgbotapi.User
	texts  []string
	crisis []bool
}

// killPeople makes n people with m messages each; every fifth writes a
// crisis message second, so that an ordinary one follows it.
func killPeople(n, m int) []killPerson {
	people := make([]killPerson, n)
	for i := range people {
		p := killPerson{user: tgbotapi.User{ID: int64(2_000_000 + i), FirstName: "K" + strconv.Itoa(i), LanguageCode: "en"}}
		for j := range m {
			if i%5 == 0 && j == 1 {
				p.texts = append(p.texts, crisisTexts[i/5%len(crisisTexts)])
				p.crisis = append(p.crisis, true)
				continue
			}
			p.texts = append(p.texts, killTexts[(i+j)%len(killTexts)])
			p.crisis = append(p.crisis, false)
		}
		people[i] = p
	}
	return people
}

// replyKey identifies a reply: its chat and its text (a person's replies
// differ from each other; check makes sure).
type replyKey struct {
	chat int64
	text string
}

// killRig is the fake Bot API, the database and the haven processes of one
// test.
type killRig struct {
	t      *testing.T
	ctx    context.Context
	srv    *telegramtest.Server
	db     string
	env    map[string]string
	people []killPerson
	rng    *rand.Rand
	procs  []*havenProc

	injected int // rounds injected: round r is everyone's message r
	// inflight counts, per reply, the stops at which the fake had a copy of
	// it that the outbox did not record as sent; seen is the fake's number
	// of copies at the last such stop.
	inflight, seen map[replyKey]int
}

func newKillRig(t *testing.T, people []killPerson, env map[string]string) *killRig {
	seed := *killSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -args -kill.seed=%d)", seed, seed)
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		t.Cleanup(cancel)
	}
	srv := telegramtest.NewServer(killToken)
	t.Cleanup(srv.Close)
	r := &killRig{
		t: t, ctx: ctx, srv: srv, db: t.TempDir() + "/haven.db", people: people,
		rng:      rand.New(rand.NewPCG(seed, seed>>1|1)),
		inflight: map[replyKey]int{}, seen: map[replyKey]int{},
		env: map[string]string{
			"HAVEN_TELEGRAM_TOKEN":         killToken,
			"HAVEN_TELEGRAM_API_URL":       srv.APIEndpoint(),
			"HAVEN_LOG_FORMAT":             "json",
			"HAVEN_LOG_LEVEL":              "info",
			"HAVEN_SAFETY_DEFAULT_COUNTRY": "US",
		},
	}
	r.env["HAVEN_DATABASE_PATH"] = r.db
	for k, v := range env {
		r.env[k] = v
	}
	return r
}

// inject queues round r, everyone's message r, and returns the last
// update id.
func (r *killRig) inject(round int) (last int) {
	for _, p := range r.people {
		if round < len(p.texts) {
			last = r.srv.Inject(r.srv.NewMessage(telegramtest.PrivateChat(p.user), p.user, p.texts[round]))
		}
	}
	r.injected = max(r.injected, round+1)
	return last
}

// messages is the number of messages injected so far: the replies due.
func (r *killRig) messages() int {
	n := 0
	for _, p := range r.people {
		n += min(len(p.texts), r.injected)
	}
	return n
}

func (r *killRig) inflightTotal() int {
	n := 0
	for _, c := range r.inflight {
		n += c
	}
	return n
}

// start starts a haven process on the rig's database.
func (r *killRig) start() *havenProc {
	r.t.Helper()
	p := startHaven(r.t, r.env)
	r.procs = append(r.procs, p)
	return p
}

// waitLimit bounds each wait of the kill tests, which take well under a
// minute in all: past it, something is stuck.
const waitLimit = 3 * time.Minute

// wait runs until (a wait on the fake) with a context that ends when p
// exits, and fails the test, with p's log, when until fails.
func (r *killRig) wait(p *havenProc, what string, until func(ctx context.Context) error) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(r.ctx, waitLimit)
	defer cancel()
	go func() {
		select {
		case <-p.exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := until(ctx); err != nil {
		select {
		case <-p.exited:
			r.t.Fatalf("%s: haven exited (%v) first; its log:\n%s", what, p.state, p.logs.tail(60))
		default:
		}
		r.t.Fatalf("%s: %v; haven's log:\n%s", what, err, p.logs.tail(60))
	}
}

// waitExit waits until p has exited, failing the test after waitLimit.
func (r *killRig) waitExit(p *havenProc, what string) {
	r.t.Helper()
	select {
	case <-p.exited:
	case <-time.After(waitLimit):
		r.t.Fatalf("%s: haven has not exited after %v; its log:\n%s", what, waitLimit, p.logs.tail(60))
	case <-r.ctx.Done():
		r.t.Fatalf("%s: %v; haven's log:\n%s", what, r.ctx.Err(), p.logs.tail(60))
	}
}

// afterStop runs once a haven process has stopped. It waits until every
// request of that process has reached the fake, then reads the outbox: a
// reply it holds as unsent that the fake already has is one Telegram took
// and Haven could not record; the next start sends it again. It returns
// how many such replies this stop left, and the outbox's and the inbox's
// counts of what is left.
func (r *killRig) afterStop() (inflight, unsent, unfinished int) {
	r.t.Helper()
	if err := r.srv.WaitIdle(r.ctx); err != nil {
		r.t.Fatal(err)
	}
	store, err := sqlite.Open(r.ctx, r.db)
	if err != nil {
		r.t.Fatalf("open the database after a stop: %v", err)
	}
	defer store.Close()
	items, err := store.Unsent(r.ctx, "telegram")
	if err != nil {
		r.t.Fatal(err)
	}
	ins, err := store.Unfinished(r.ctx, "telegram")
	if err != nil {
		r.t.Fatal(err)
	}
	// The fake's Plain is the text Haven sent, its HTML rendering undone.
	copies := map[replyKey]int{}
	for _, s := range r.srv.Sent() {
		copies[replyKey{s.ChatID, s.Plain}]++
	}
	for _, it := range items {
		k := replyKey{chatOf(r.t, it.Out.Conversation.ID), it.Out.Text}
		if c := copies[k]; c > r.seen[k] {
			r.seen[k] = c
			r.inflight[k]++
			inflight++
		}
	}
	return inflight, len(items), len(ins)
}

// chatOf returns the Telegram chat id of a namespaced conversation id.
func chatOf(t *testing.T, conv string) int64 {
	_, _, local, ok := channels.SplitID(conv)
	id, err := strconv.ParseInt(local, 10, 64)
	if !ok || err != nil {
		t.Fatalf("outbox conversation %q is not a Telegram chat", conv)
	}
	return id
}

// finish starts haven once more, waits for every reply, stops it with
// SIGTERM and checks everything.
func (r *killRig) finish() {
	r.t.Helper()
	p := r.start()
	want := r.messages() + r.inflightTotal()
	r.wait(p, "every reply", func(ctx context.Context) error {
		_, err := r.srv.WaitSent(ctx, want)
		return err
	})
	p.terminate()
	r.waitExit(p, "the exit after SIGTERM")
	if code := p.state.ExitCode(); code != 0 {
		r.t.Fatalf("haven exited %d after SIGTERM; its log:\n%s", code, p.logs.tail(60))
	}
	if !p.logs.has("hub stopped; everything was delivered") {
		r.t.Errorf("the last run did not log that everything was delivered; its log:\n%s", p.logs.tail(30))
	}
	inflight, unsent, unfinished := r.afterStop()
	if inflight != 0 || unsent != 0 || unfinished != 0 {
		r.t.Errorf("after the last run: %d replies in flight, %d unsent, %d turns unfinished; want none", inflight, unsent, unfinished)
	}
	r.check()
}

// check compares what the fake received with what Haven recorded: per
// person, the transcript holds each message once, in order, and a reply
// to each (a crisis reply, logged in the crisis log, to each crisis
// message; a first reply that says Haven is an AI); the fake received
// exactly those replies in that order, with a repeat only right after the
// copy it repeats and only as often as stops left that reply in flight. No
// haven process logged an error or a data race.
func (r *killRig) check() {
	t := r.t
	t.Helper()
	defer func() {
		if t.Failed() {
			for i, p := range r.procs {
				t.Logf("the end of haven run %d's log:\n%s", i+1, p.logs.tail(20))
			}
		}
	}()
	for i, p := range r.procs {
		for _, line := range p.logs.errors() {
			t.Errorf("haven run %d logged: %s", i+1, line)
		}
	}
	store, err := sqlite.Open(r.ctx, r.db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	byChat := map[int64][]string{}
	for _, s := range r.srv.Sent() {
		byChat[s.ChatID] = append(byChat[s.ChatID], s.Plain)
	}
	dups := map[replyKey]int{}
	failed, crisisLogExtra := 0, 0
	for pi, p := range r.people {
		if failed >= 10 {
			t.Fatalf("stopping the check after ten failures")
		}
		got := byChat[p.user.ID]
		delete(byChat, p.user.ID)
		replies, logged, err := r.transcript(store, p)
		if err != nil {
			t.Errorf("person %d: %v", pi, err)
			failed++
			continue
		}
		d, err := matchReplies(got, replies)
		if err != nil {
			t.Errorf("person %d (chat %d): %v; replies received %d, transcript %d", pi, p.user.ID, err, len(got), len(replies))
			failed++
			continue
		}
		for k, n := range d {
			dups[replyKey{p.user.ID, k}] += n
		}
		// The crisis log is always on: one row per crisis turn, written in
		// the turn's transaction, so a turn killed and run again logs once.
		unlogged := 0
		for _, e := range replies {
			if e.Crisis {
				unlogged++
			}
		}
		for _, ev := range logged {
			if ev.Level >= 2 {
				unlogged--
			}
		}
		if unlogged > 0 {
			t.Errorf("person %d: %d crisis turns have no crisis log row", pi, unlogged)
			failed++
		}
		if unlogged < 0 {
			t.Errorf("person %d: %d crisis log rows beyond one per crisis turn", pi, -unlogged)
			failed++
		}
		crisisLogExtra += max(0, -unlogged)
		for j, isCrisis := range p.crisis {
			if isCrisis && (!replies[j].Crisis || !namesResource(replies[j].Text)) {
				t.Errorf("person %d: message %d is a crisis message; its reply (crisis %v) names no resource", pi, j+1, replies[j].Crisis)
				failed++
			}
		}
		if len(replies) > 0 && !aiRE.MatchString(replies[0].Text) {
			t.Errorf("person %d: the first reply does not say Haven is an AI", pi)
			failed++
		}
	}
	t.Logf("crisis log rows beyond one per crisis turn: %d", crisisLogExtra)
	for chat, texts := range byChat {
		t.Errorf("chat %d, no person's, got %d messages", chat, len(texts))
	}
	for k, n := range dups {
		if want := r.inflight[k]; n != want {
			t.Errorf("chat %d got a reply %d extra times; %d of them the in-flight kind", k.chat, n, want)
		}
	}
	for k, want := range r.inflight {
		if dups[k] != want {
			t.Errorf("chat %d: a reply left in flight %d times was repeated %d times", k.chat, want, dups[k])
		}
	}
}

// aiRE finds where a reply says Haven is an AI, as a first contact's reply
// does (core/therapy's introduction, the crisis reply).
var aiRE = regexp.MustCompile(`\bAI\b`)

// transcript returns Haven's replies to p, in order, after checking that
// its transcript holds p's messages, each once, in order.
func (r *killRig) transcript(store *sqlite.Store, p killPerson) ([]memory.Entry, []memory.CrisisEvent, error) {
	person, err := store.ResolvePerson(r.ctx, "telegram", channels.NamespacedID("telegram", "", strconv.FormatInt(p.user.ID, 10)), p.user.FirstName)
	if err != nil {
		return nil, nil, err
	}
	ex, err := store.Export(r.ctx, person.ID)
	if err != nil {
		return nil, nil, err
	}
	var users []string
	var replies []memory.Entry
	for _, s := range ex.Sessions {
		for _, e := range s.Entries {
			if e.Role == memory.RoleUser {
				users = append(users, e.Text)
			} else {
				replies = append(replies, e)
			}
		}
	}
	want := p.texts[:min(len(p.texts), r.injected)]
	if !slices.Equal(users, want) || len(replies) != len(users) {
		return nil, nil, fmt.Errorf("the transcript holds %d messages (%s) and %d replies; want the %d sent, in order, each once",
			len(users), describeOrder(users, want), len(replies), len(want))
	}
	for i := range replies {
		for j := range i {
			if replies[i].Text == replies[j].Text {
				return nil, nil, fmt.Errorf("replies %d and %d are the same text: the test cannot tell them apart; give the person other messages", j+1, i+1)
			}
		}
	}
	return replies, ex.Crisis, nil
}

// describeOrder says which of want the transcript's messages are, by
// number, without their text.
func describeOrder(got, want []string) string {
	var b strings.Builder
	for i, g := range got {
		if i > 0 {
			b.WriteString(",")
		}
		if j := slices.Index(want, g); j >= 0 {
			b.WriteString(strconv.Itoa(j + 1))
		} else {
			b.WriteString("?")
		}
	}
	return "messages " + b.String()
}

// matchReplies walks the replies a chat received against the replies Haven
// recorded: each must be the next recorded one or a repeat of the one just
// received. It returns the number of repeats per text.
func matchReplies(got []string, want []memory.Entry) (map[string]int, error) {
	dups := map[string]int{}
	j := 0
	for i, g := range got {
		switch {
		case j < len(want) && g == want[j].Text:
			j++
		case j > 0 && g == want[j-1].Text:
			dups[g]++
		default:
			return nil, fmt.Errorf("received reply %d is not reply %d nor a repeat of reply %d (out of order, or one Haven did not record)", i+1, j+1, j)
		}
	}
	if j < len(want) {
		return nil, fmt.Errorf("replies %d to %d never arrived", j+1, len(want))
	}
	return dups, nil
}

// killKind is where a kill lands.
type killKind int

const (
	killInSend    killKind = iota // the fake took a send and has not answered it
	killAfterSend                 // the k-th send of the run was answered
	killMidTurn                   // the k-th turn of the run has started (its typing indicator)
	killAtStart                   // the run's first poll: the replay of the outbox and inbox is under way
)

func (k killKind) String() string {
	return [...]string{"in a send", "after a send", "in a turn", "at start"}[k]
}

// TestKillAnywhereAnswersEveryMessageOnceInOrder kills haven with SIGKILL
// several times in a burst of people writing, at points chosen from the
// fake's progress, and restarts it on the same database each time. Each
// person writes a few messages, a round at a time (a round arrives while
// haven is down, so it polls it after the restart); every fifth writes a
// crisis message second. A last run answers the rest and stops with
// SIGTERM; then check. -args -kill.long runs a longer version.
func TestKillAnywhereAnswersEveryMessageOnceInOrder(t *testing.T) {
	t.Parallel() // it waits on Telegram's rate limit most of the time
	people, messages, kills := 200, 3, 5
	if *killLong {
		people, messages, kills = 300, 4, 12
	}
	started := time.Now()
	r := newKillRig(t, killPeople(people, messages), nil)
	// Every kind at least once; a kill in a turn only where a round of
	// messages was just injected (turns are sure to be running).
	kinds := []killKind{killMidTurn, killInSend, killAfterSend, killAtStart}
	for len(kinds) < kills {
		kinds = append(kinds, killKind(r.rng.IntN(4)))
	}
	kinds = kinds[:kills]
	r.rng.Shuffle(len(kinds)-1, func(i, j int) { kinds[i+1], kinds[j+1] = kinds[j+1], kinds[i+1] })
	for i, k := range kinds {
		if k == killMidTurn && i >= messages {
			kinds[i] = killInSend
		}
	}
	var report []string
	for gen, kind := range kinds {
		if gen < messages {
			r.inject(gen) // while haven is down: it polls them after the start
		}
		// Counted from before the start, so that nothing the run does is
		// missed.
		base, typing, polls := len(r.srv.Sent()), r.srv.Calls("sendChatAction"), r.srv.Calls("getUpdates")
		due := r.messages() + r.inflightTotal() - base // sends this run makes at least
		if due <= 0 && kind != killAtStart {
			kind = killAtStart
		}
		// Spread the kills over the burst: this one lands, on average, at
		// its share of the sends still due.
		k := 1 + r.rng.IntN(max(1, min(due, 2*due/(len(kinds)-gen+1))))
		var p *havenProc
		switch kind {
		case killInSend:
			started := make(chan *havenProc, 1)
			var n atomic.Int64
			r.srv.OnSend(func(telegramtest.Sent) {
				if n.Add(1) == int64(k) {
					(<-started).kill() // before the fake answers
				}
			})
			p = r.start()
			started <- p
			r.waitExit(p, "the kill in a send")
			r.srv.OnSend(nil)
		case killAfterSend:
			p = r.start()
			r.wait(p, "the send to kill after", func(ctx context.Context) error {
				_, err := r.srv.WaitSent(ctx, base+k)
				return err
			})
		case killMidTurn:
			k = 1 + r.rng.IntN(20)
			p = r.start()
			r.wait(p, "the turn to kill in", func(ctx context.Context) error { return r.srv.WaitCalls(ctx, "sendChatAction", typing+k) })
		case killAtStart:
			k = 1
			p = r.start()
			r.wait(p, "the first poll", func(ctx context.Context) error { return r.srv.WaitCalls(ctx, "getUpdates", polls+1) })
		}
		p.kill()
		inflight, unsent, unfinished := r.afterStop()
		if inflight > sendersPerPlatform {
			t.Errorf("kill %d left %d replies in flight; only the Hub's %d senders can have one each", gen+1, inflight, sendersPerPlatform)
		}
		report = append(report, fmt.Sprintf("kill %d %s (k=%d): %d sends in the run, then %d replies unsent (%d in flight), %d turns unfinished",
			gen+1, kind, k, len(r.srv.Sent())-base, unsent, inflight, unfinished))
	}
	for g := r.injected; g < messages; g++ {
		r.inject(g)
	}
	r.finish()
	t.Logf("%d people, %d messages, %d kills, %d runs, %d replies sent, %d duplicates of the in-flight kind, %v\n%s",
		people, r.messages(), kills, len(r.procs), len(r.srv.Sent()), r.inflightTotal(), time.Since(started).Round(time.Millisecond), strings.Join(report, "\n"))
}

// TestGracefulStopMidBurstDrainsInBoundedTimeAndLosesNothing sends
// SIGTERM to haven in the middle of a burst: it stops taking messages,
// drains for at most hub.drain_timeout, exits 0 and logs what it left,
// which is what the outbox and the inbox then hold; after a restart every
// message is answered exactly once.
func TestGracefulStopMidBurstDrainsInBoundedTimeAndLosesNothing(t *testing.T) {
	t.Parallel() // it waits on Telegram's rate limit most of the time
	const drain = 2 * time.Second
	// The shutdown's bound: the drain timeout (the Hub's drain and the
	// memory worker's after it share it) and the process's exit (closing
	// the database), with a margin for a loaded machine. What it took is
	// logged.
	const bound = drain + 20*time.Second
	people, messages := 150, 2
	r := newKillRig(t, killPeople(people, messages), map[string]string{"HAVEN_HUB_DRAIN_TIMEOUT": drain.String()})
	var last int
	for round := range messages {
		last = r.inject(round)
	}
	p := r.start()
	r.wait(p, "every update accepted", func(ctx context.Context) error { return r.srv.WaitConfirmed(ctx, last+1) })
	// Mid-burst: every update accepted, and at most 20 sends later. The
	// Hub sends 25 replies a second (Telegram's limit), so a drain of 2 s
	// sends about 50 of the hundred or more still due.
	k := len(r.srv.Sent()) + 1 + r.rng.IntN(20)
	r.wait(p, "the send to stop after", func(ctx context.Context) error {
		_, err := r.srv.WaitSent(ctx, k)
		return err
	})
	stopped := time.Now()
	p.terminate()
	r.waitExit(p, "the exit after SIGTERM")
	took := time.Since(stopped)
	if code := p.state.ExitCode(); code != 0 {
		t.Fatalf("haven exited %d after SIGTERM; its log:\n%s", code, p.logs.tail(60))
	}
	if took > bound {
		t.Errorf("haven took %v to exit after SIGTERM with a drain timeout of %v; want at most %v", took, drain, bound)
	}
	left := p.logs.records("hub stopped before everything was delivered; the rest is kept for the next start")
	if len(left) != 1 {
		t.Fatalf("%d log lines say what the drain left, want 1; the log:\n%s", len(left), p.logs.tail(30))
	}
	replies, _ := left[0]["replies_left_in_outbox"].(float64)
	turns, _ := left[0]["turns_left_in_inbox"].(float64)
	sentBefore := len(r.srv.Sent())
	inflight, unsent, unfinished := r.afterStop()
	if replies == 0 || int(replies) != unsent || int(turns) != unfinished {
		t.Errorf("the log says %v replies and %v turns were left; the outbox holds %d unsent, the inbox %d unfinished; want the same, and replies left",
			replies, turns, unsent, unfinished)
	}
	r.finish()
	t.Logf("%d people, %d messages; SIGTERM after send %d: exit 0 after %v (drain timeout %v), %d sent by then, %d replies and %d turns left, %d in flight; %d replies sent in all, %d duplicates of the in-flight kind",
		people, r.messages(), k, took.Round(time.Millisecond), drain, sentBefore, unsent, unfinished, inflight, len(r.srv.Sent()), r.inflightTotal())
}

// havenProc is one haven process.
type havenProc struct {
	cmd    *exec.Cmd
	logs   *procLog
	exited chan struct{} // closed once it has exited and its stderr is read
	state  *os.ProcessState
}

// startHaven starts `haven serve` with env (and nothing else of the
// environment that is Haven's) until it stops or the test ends.
func startHaven(t *testing.T, env map[string]string) *havenProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "serve")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HAVEN_") && !strings.HasPrefix(kv, mainEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, mainEnv+"=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	p := &havenProc{cmd: cmd, logs: &procLog{}, exited: make(chan struct{})}
	cmd.Stderr = p.logs
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start haven: %v", err)
	}
	go func() {
		_ = cmd.Wait()
		p.state = cmd.ProcessState
		close(p.exited)
	}()
	t.Cleanup(p.kill)
	return p
}

// kill sends SIGKILL and waits until the process has exited.
func (p *havenProc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// terminate sends SIGTERM: haven drains and exits.
func (p *havenProc) terminate() { _ = p.cmd.Process.Signal(syscall.SIGTERM) }

// procLog keeps a process's stderr: JSON log lines, and whatever else the
// process writes there (a panic, a data race report).
type procLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *procLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *procLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// tail returns the last n lines.
func (l *procLog) tail(n int) string {
	lines := strings.Split(strings.TrimRight(l.String(), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// records returns the JSON log records with message msg.
func (l *procLog) records(msg string) []map[string]any {
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(l.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec["msg"] == msg {
			out = append(out, rec)
		}
	}
	return out
}

func (l *procLog) has(msg string) bool { return len(l.records(msg)) > 0 }

// logLevelRE reads a JSON log record's level: slog writes time, level and
// msg first.
var logLevelRE = regexp.MustCompile(`^\{"time":"[^"]*","level":"([A-Z]+)"`)

// errors returns the log records at level ERROR and every line that is not
// a log record (a data race report, a panic).
func (l *procLog) errors() []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(l.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := logLevelRE.FindSubmatch(sc.Bytes()); m == nil || string(m[1]) == "ERROR" {
			out = append(out, sc.Text())
		}
	}
	return out
}
