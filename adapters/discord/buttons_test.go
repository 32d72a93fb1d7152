package discord_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
)

// yesNo are the choices the core puts under an approval question.
var yesNo = []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "No", Text: "no"}}

const question = "Shall I remind you to take a walk at 6? Reply yes or no."

// wantButtons are the buttons yesNo render as.
var wantButtons = []discordtest.Button{
	{Label: "Yes", CustomID: "haven:choice:yes", Style: discordgo.PrimaryButton},
	{Label: "No", CustomID: "haven:choice:no", Style: discordgo.SecondaryButton},
}

// six are one choice too many.
func six() []channels.Choice {
	cs := make([]channels.Choice, 6)
	for i := range cs {
		cs[i] = channels.Choice{Label: string(rune('1' + i)), Text: string(rune('1' + i))}
	}
	return cs
}

func sameButtons(got, want []discordtest.Button) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func TestChoicesAreButtonsUnderTheMessageAndAMessageWithoutThemHasNone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := newAdapter(t, w.srv, discord.Options{}) // sending needs no gateway
	asked := w.say(w.general, w.ana, w.mention("remind me"))
	dm := w.srv.DMChannel(w.ana.ID)
	file := &channels.File{Name: "plan.txt", ContentType: "text/plain", Data: []byte("walk at 6")}
	tests := []struct {
		name string
		out  channels.Outbound
		want []discordtest.Button
	}{
		{"a question in a DM", channels.Outbound{Conversation: conv(dm, channels.KindDM), Text: question, Choices: yesNo}, wantButtons},
		{"a question in a guild, replying", channels.Outbound{Conversation: conv(w.general, channels.KindChannel),
			ReplyTo: "discord::" + w.general + ":" + asked.ID, Text: question, Choices: yesNo}, wantButtons},
		{"a question in a thread", channels.Outbound{Conversation: channels.Conversation{ID: "discord::" + w.general, Kind: channels.KindChannel, ThreadID: w.thread},
			Text: question, Choices: yesNo}, wantButtons},
		{"a file with its caption", channels.Outbound{Conversation: conv(dm, channels.KindDM), Text: question, File: file, Choices: yesNo}, wantButtons},
		{"no choices", channels.Outbound{Conversation: conv(dm, channels.KindDM), Text: "hello"}, nil},
		{"choices that do not fit (six)", channels.Outbound{Conversation: conv(dm, channels.KindDM), Text: question,
			Choices: six()}, nil},
		{"choices that do not fit (a text twice)", channels.Outbound{Conversation: conv(dm, channels.KindDM), Text: question,
			Choices: []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "Sure", Text: "yes"}}}, nil},
	}
	for i, tt := range tests {
		send := a.Send
		if tt.out.File != nil {
			send = a.SendFile
		}
		if err := send(ctxT(t), tt.out); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		p := w.posts(t, i+1)[i]
		if !sameButtons(p.Buttons, tt.want) || (tt.want == nil && p.Buttons != nil) || !sameButtons(w.srv.Buttons(p.Message.ID), tt.want) {
			t.Errorf("%s: buttons %+v, want %+v", tt.name, p.Buttons, tt.want)
		}
		if p.Content != tt.out.Text {
			t.Errorf("%s: content %q, want %q", tt.name, p.Content, tt.out.Text)
		}
	}
}

func TestAChoiceUnderAnAnswerToACommandIsAButtonOnTheEphemeralFollowUp(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	invoke(w, w.general, w.ana, "remind me", "")
	in := r.sink.next(t)
	if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: in.Conversation, ReplyTo: in.MessageID, Text: question, Choices: yesNo}); err != nil {
		t.Fatal(err)
	}
	p := w.posts(t, 1)[0]
	if !p.Ephemeral || p.InteractionID == "" || !sameButtons(p.Buttons, wantButtons) {
		t.Errorf("answer %+v, want an ephemeral follow-up with the buttons", p)
	}
}

// pressCallback waits until the callback of interaction id is in and
// returns it.
func pressCallback(t *testing.T, w *world, id string) discordtest.Callback {
	t.Helper()
	for n := 1; ; {
		cbs, err := w.srv.WaitCallbacks(ctxT(t), n)
		if err != nil {
			t.Fatalf("no callback for %s: %v", id, err)
		}
		for _, cb := range cbs {
			if cb.InteractionID == id {
				return cb
			}
		}
		n = len(cbs) + 1
	}
}

func TestAPressIsOneInboundFromWhoPressedSayingTheChoice(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{Admins: []string{"discord::" + w.ben.ID}})
	dm := w.srv.DMChannel(w.ana.ID)
	tests := []struct {
		name    string
		out     channels.Conversation
		who     discordgo.User
		label   string
		locale  string
		want    channels.Conversation
		admin   bool
		replyTo string // the MessageID's local part, "" for the question's
	}{
		{"Ana says no in her DM", conv(dm, channels.KindDM), w.ana, "No", "en-GB", conv(dm, channels.KindDM), false, ""},
		{"Ben (a configured admin) says yes in #general", conv(w.general, channels.KindChannel), w.ben, "Yes", "", conv(w.general, channels.KindChannel), true, ""},
		{"Mod (Manage Server) says yes in a thread", channels.Conversation{ID: "discord::" + w.general, Kind: channels.KindChannel, ThreadID: w.thread}, w.mod, "Yes", "fr",
			channels.Conversation{ID: "discord::" + w.general, Kind: channels.KindChannel, ThreadID: w.thread}, true, ""},
		{"Ana says no in a forum post", channels.Conversation{ID: "discord::" + w.forum, Kind: channels.KindChannel, ThreadID: w.post}, w.ana, "No", "",
			channels.Conversation{ID: "discord::" + w.forum, Kind: channels.KindChannel, ThreadID: w.post}, false, ""},
	}
	for i, tt := range tests {
		if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: tt.out, Text: question, Choices: yesNo}); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		q := w.posts(t, i+1)[i]
		id := w.srv.Press(discordtest.Press{Message: q.Message, UserID: tt.who.ID, Label: tt.label, Locale: tt.locale})
		in := r.sink.next(t)
		wantLocale := tt.locale
		if wantLocale == "" {
			wantLocale = "en-US" // the fake's default client locale
		}
		if in.Text != strings.ToLower(tt.label) || in.Author.ID != "discord::"+tt.who.ID || in.Author.Display != tt.who.GlobalName ||
			in.Author.IsBot || in.Author.PlatformAdmin != tt.admin || in.Conversation != tt.want || !in.MentionsBot ||
			in.DeliveryKey != "discord::interaction:"+id || in.Locale != wantLocale || in.Edited || in.ReceivedAt.IsZero() ||
			in.MessageID != "discord::"+q.ChannelID+":"+q.Message.ID || in.Platform != "discord" {
			t.Errorf("%s: inbound %+v", tt.name, in)
		}
		cb := pressCallback(t, w, id)
		if cb.Type != discordgo.InteractionResponseUpdateMessage || !cb.ButtonsSet || len(cb.Buttons) != 0 || cb.Content != nil {
			t.Errorf("%s: callback %+v, want UPDATE_MESSAGE removing the buttons and nothing else", tt.name, cb)
		}
		if b := w.srv.Buttons(q.Message.ID); len(b) != 0 {
			t.Errorf("%s: the question still carries %+v", tt.name, b)
		}
	}
	if s := r.a.Stats(); s.Skipped != 0 || s.Replays != 0 {
		t.Errorf("stats %+v, want nothing skipped or replayed", s)
	}
}

// blockingSink accepts only once release is closed.
type blockingSink struct {
	release chan struct{}
	rec     *recSink
}

func (s *blockingSink) Accept(ctx context.Context, in channels.Inbound) error {
	select {
	case <-s.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.rec.Accept(ctx, in)
}

func TestAPressIsAcknowledgedBeforeTheSinkTakesIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := newAdapter(t, w.srv, discord.Options{})
	sink := &blockingSink{release: make(chan struct{}), rec: &recSink{ch: make(chan channels.Inbound, 10)}}
	start(t, a, sink)
	if err := a.Send(ctxT(t), channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Text: question, Choices: yesNo}); err != nil {
		t.Fatal(err)
	}
	q := w.posts(t, 1)[0]
	id := w.srv.Press(discordtest.Press{Message: q.Message, UserID: w.ana.ID, Label: "Yes"})
	// The sink has taken nothing yet; the press is acknowledged anyway.
	cb := pressCallback(t, w, id)
	if cb.Type != discordgo.InteractionResponseUpdateMessage || cb.After > discordtest.InteractionDeadline {
		t.Errorf("callback %+v, want UPDATE_MESSAGE within Discord's deadline", cb)
	}
	close(sink.release)
	if in := sink.rec.next(t); in.Text != "yes" {
		t.Errorf("accepted %q, want yes", in.Text)
	}
}

func TestARedeliveredPressIsOneTurnWithAKeyOfItsIDAlone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	dm := w.srv.DMChannel(w.ana.ID)
	if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: conv(dm, channels.KindDM), Text: question, Choices: yesNo}); err != nil {
		t.Fatal(err)
	}
	q := w.posts(t, 1)[0]
	id := w.srv.Press(discordtest.Press{Message: q.Message, UserID: w.ana.ID, Label: "Yes"})
	first := r.sink.next(t)
	pressCallback(t, w, id) // acknowledged (in the background)
	w.srv.RedeliverInteraction(id)
	w.dm(w.ana, "marker")
	if in := r.sink.next(t); in.Text != "marker" {
		t.Fatalf("after the redelivery the sink took %q, want the marker", in.Text)
	}
	if r.a.Stats().Replays != 1 || w.srv.Calls(discordtest.OpCallback) != 1 {
		t.Errorf("replays %d, callbacks %d, want the redelivery dropped without a second acknowledgement", r.a.Stats().Replays, w.srv.Calls(discordtest.OpCallback))
	}
	// Another adapter (after a restart, when the redelivery reaches an
	// adapter that never saw the press) gives the same key: the Hub
	// answers it once.
	r.stop()
	r2 := run(t, w, discord.Options{})
	w.srv.RedeliverInteraction(id)
	if again := r2.sink.next(t); again.DeliveryKey != first.DeliveryKey || again.Text != first.Text {
		t.Errorf("redelivered press has key %q (%q), want %q (%q)", again.DeliveryKey, again.Text, first.DeliveryKey, first.Text)
	}
}

func TestAPressOnAButtonHavenDidNotMakeIsSkipped(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	dm := w.srv.DMChannel(w.ana.ID)
	if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: conv(dm, channels.KindDM), Text: question, Choices: yesNo}); err != nil {
		t.Fatal(err)
	}
	q := w.posts(t, 1)[0]
	foreign := []struct{ name, customID string }{
		{"another app's id", "vote:42"},
		{"Haven's prefix with nothing after", "haven:choice:"},
		{"a text over the choice limit", "haven:choice:" + strings.Repeat("y", channels.MaxChoiceText+1)},
		{"a control character", "haven:choice:y\nes"},
	}
	for i, f := range foreign {
		w.srv.Press(discordtest.Press{Message: q.Message, UserID: w.ana.ID, CustomID: f.customID})
		w.dm(w.ana, "marker "+f.name)
		if in := r.sink.next(t); in.Text != "marker "+f.name {
			t.Fatalf("%s: accepted %q, want the marker", f.name, in.Text)
		}
		if got := r.a.Stats().Skipped; got != uint64(i+1) {
			t.Errorf("%s: Stats().Skipped = %d, want %d", f.name, got, i+1)
		}
	}
	// A select menu, which Haven never sends.
	w.srv.DispatchRaw("INTERACTION_CREATE", `{"id":"7001","application_id":"`+w.srv.AppID()+`","type":3,"token":"t","channel_id":"`+dm+
		`","user":{"id":"`+w.ana.ID+`","username":"ana"},"message":{"id":"`+q.Message.ID+`","channel_id":"`+dm+
		`"},"data":{"custom_id":"haven:choice:yes","component_type":3,"values":["yes"]}}`)
	w.dm(w.ana, "marker select")
	if in := r.sink.next(t); in.Text != "marker select" {
		t.Fatalf("accepted %q, want the marker", in.Text)
	}
	if got := r.a.Stats().Skipped; got != uint64(len(foreign)+1) {
		t.Errorf("Stats().Skipped = %d, want %d", got, len(foreign)+1)
	}
	if n := w.srv.Calls(discordtest.OpCallback); n != 0 {
		t.Errorf("%d callbacks, want none for presses Haven ignores", n)
	}
	if b := w.srv.Buttons(q.Message.ID); !sameButtons(b, wantButtons) {
		t.Errorf("the question's buttons are now %+v, want them untouched", b)
	}
	if logs := r.logs.String(); strings.Count(logs, "a press on a component Haven did not make") != len(foreign)+1 || strings.Contains(logs, "vote:42") {
		t.Errorf("logs:\n%s\nwant each foreign press logged once, without its data", logs)
	}
}

func TestAPressWhoseUpdateIsRefusedIsStillAcknowledged(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Text: question, Choices: yesNo}); err != nil {
		t.Fatal(err)
	}
	q := w.posts(t, 1)[0]
	w.srv.FailNext(discordtest.OpCallback, discordtest.Failure{Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body"})
	id := w.srv.Press(discordtest.Press{Message: q.Message, UserID: w.ana.ID, Label: "No"})
	if in := r.sink.next(t); in.Text != "no" {
		t.Errorf("accepted %q, want no", in.Text)
	}
	if cb := pressCallback(t, w, id); cb.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("callback %+v, want DEFERRED_UPDATE_MESSAGE after the refused update", cb)
	}
}

func TestThroughTheHubAPressIsAnsweredWhereTheQuestionWas(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// "ask" gets the approval question; anything else the scenario core.
	asking := func(next channels.Handler) channels.Handler {
		return channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
			if strings.HasSuffix(in.Text, "ask") {
				return []channels.Outbound{{Platform: in.Platform, Conversation: in.Conversation, ReplyTo: in.MessageID,
					Kind: channels.OutReply, Text: question, Choices: yesNo}}, nil
			}
			return next.Handle(ctx, in)
		})
	}
	runHub(t, w, discord.Options{}, asking)

	// In a channel: the question replies to the mention, the answer to
	// the press replies to the question, both public.
	w.say(w.general, w.ana, w.mention("ask"))
	q := w.posts(t, 1)[0]
	if !sameButtons(q.Buttons, wantButtons) {
		t.Fatalf("question %+v, want the buttons", q)
	}
	id := w.srv.Press(discordtest.Press{Message: q.Message, UserID: w.ben.ID, Label: "Yes"})
	w.srv.RedeliverInteraction(id)
	a := w.posts(t, 2)[1]
	if a.Content != "echo: yes" || a.ChannelID != w.general || a.ReplyTo != q.Message.ID || a.Ephemeral || a.Buttons != nil {
		t.Errorf("answer %+v, want a public echo of yes replying to the question", a)
	}

	// Under an answer to a command (ephemeral): the answer to the press
	// goes to the person alone, as a follow-up on the press.
	invoke(w, w.general, w.ana, "ask", "")
	eq := w.posts(t, 3)[2]
	if !eq.Ephemeral || !sameButtons(eq.Buttons, wantButtons) {
		t.Fatalf("question %+v, want an ephemeral follow-up with the buttons", eq)
	}
	pid := w.srv.Press(discordtest.Press{Message: eq.Message, UserID: w.ana.ID, Label: "No"})
	ea := w.posts(t, 4)[3]
	if ea.Content != "echo: no" || !ea.Ephemeral || ea.InteractionID != pid {
		t.Errorf("answer %+v, want an ephemeral follow-up on the press %s", ea, pid)
	}
	if got := w.srv.Posts(); len(got) != 4 {
		t.Errorf("%d posts, want 4 (the redelivered press answered once)", len(got))
	}
}

func TestAPressAnswersOnlyForThePersonTheButtonsAreFor(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	forAna := "discord::" + w.ana.ID
	tests := []struct {
		name       string
		choicesFor string // the Outbound's ChoicesFor
		who        discordgo.User
		customID   string // pressed instead of the Yes button (an old one)
		answers    bool   // the press is an Inbound saying yes
	}{
		{"Ana presses her own buttons", forAna, w.ana, "", true},
		{"Ben presses Ana's buttons", forAna, w.ben, "", false},
		{"Mod (Manage Server) presses Ana's buttons", forAna, w.mod, "", false},
		{"Ben presses an old button, made before buttons named a person", "", w.ben, "haven:choice:yes", true},
		{"Ben presses buttons that name no one", "", w.ben, "", true},
	}
	posts, skipped := 0, uint64(0)
	for _, tt := range tests {
		if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Text: question, Choices: yesNo, ChoicesFor: tt.choicesFor}); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		posts++
		q := w.posts(t, posts)[posts-1]
		want := wantButtons
		if tt.choicesFor != "" {
			want = []discordtest.Button{
				{Label: "Yes", CustomID: "haven:for:" + w.ana.ID + ":yes", Style: discordgo.PrimaryButton},
				{Label: "No", CustomID: "haven:for:" + w.ana.ID + ":no", Style: discordgo.SecondaryButton},
			}
		}
		if !sameButtons(q.Buttons, want) {
			t.Fatalf("%s: buttons %+v, want %+v", tt.name, q.Buttons, want)
		}
		id := w.srv.Press(discordtest.Press{Message: q.Message, UserID: tt.who.ID, Label: "Yes", CustomID: tt.customID})
		cb := pressCallback(t, w, id)
		if tt.answers {
			if in := r.sink.next(t); in.Text != "yes" || in.Author.ID != "discord::"+tt.who.ID {
				t.Errorf("%s: inbound %q from %s, want yes from the presser", tt.name, in.Text, in.Author.ID)
			}
			if cb.Type != discordgo.InteractionResponseUpdateMessage || len(w.srv.Buttons(q.Message.ID)) != 0 {
				t.Errorf("%s: callback %+v, want UPDATE_MESSAGE taking the buttons off", tt.name, cb)
			}
			continue
		}
		skipped++
		posts++
		note := w.posts(t, posts)[posts-1]
		if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || cb.Flags&discordgo.MessageFlagsEphemeral == 0 ||
			!note.Ephemeral || note.InteractionID != id || note.Content != channels.NotYourChoices || note.Buttons != nil {
			t.Errorf("%s: callback %+v, note %+v, want an ephemeral %q to the presser alone", tt.name, cb, note, channels.NotYourChoices)
		}
		if b := w.srv.Buttons(q.Message.ID); !sameButtons(b, want) {
			t.Errorf("%s: the question's buttons are now %+v, want them kept for Ana", tt.name, b)
		}
		w.dm(w.ana, "marker "+tt.name)
		if in := r.sink.next(t); in.Text != "marker "+tt.name {
			t.Fatalf("%s: accepted %q, want no inbound for the refused press", tt.name, in.Text)
		}
		if got := r.a.Stats().Skipped; got != skipped {
			t.Errorf("%s: Stats().Skipped = %d, want %d", tt.name, got, skipped)
		}
	}
	logs := r.logs.String()
	if strings.Count(logs, "refused a press by someone the buttons are not for") != int(skipped) ||
		strings.Contains(logs, "Ben") || strings.Contains(logs, w.ben.ID) || strings.Contains(logs, question) {
		t.Errorf("logs:\n%s\nwant each refused press logged once, without names, ids of people or text", logs)
	}
}

func TestABoundButtonFitsDiscordWithTheLongestIDAndText(t *testing.T) {
	t.Parallel()
	longest := []channels.Choice{{Label: strings.Repeat("L", channels.MaxChoiceLabel), Text: strings.Repeat("t", channels.MaxChoiceText)}}
	id := "18446744073709551615" // 2^64-1: 20 digits, the most a snowflake has
	rows := discord.ChoiceComponents(longest, "discord::"+id)
	if len(rows) != 1 {
		t.Fatalf("no buttons for the longest choice bound to the longest id")
	}
	b := rows[0].(discordgo.ActionsRow).Components[0].(discordgo.Button)
	if b.CustomID != "haven:for:"+id+":"+longest[0].Text || len(b.CustomID) > 100 {
		t.Errorf("custom_id %q (%d characters), want it bound to %s within Discord's 100", b.CustomID, len(b.CustomID), id)
	}
	for _, bad := range []string{"discord::" + id + "0", "slack:T1:U2", "discord::ana", "nobody"} {
		if rows := discord.ChoiceComponents(longest, bad); rows != nil {
			t.Errorf("buttons for %q, want none: they could not be bound to a Discord user", bad)
		}
	}
}
