package slack_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
)

var yesNo = []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "No", Text: "no"}}

// haven's buttons for yesNo, as the fake lists them.
var yesNoButtons = []slacktest.Button{
	{BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_0", Value: "yes", Label: "Yes"},
	{BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_1", Value: "no", Label: "No"},
}

// sections returns the texts of a post's section blocks, and whether they
// are all verbatim (nothing in them parsed into links or mentions).
func sections(t *testing.T, p slacktest.Post) (texts []string, verbatim bool) {
	t.Helper()
	var blocks []struct {
		Type string `json:"type"`
		Text struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Verbatim bool   `json:"verbatim"`
		} `json:"text"`
	}
	if err := json.Unmarshal([]byte(p.Blocks), &blocks); err != nil {
		t.Fatalf("blocks %q: %v", p.Blocks, err)
	}
	verbatim = true
	for _, b := range blocks {
		if b.Type == "section" {
			texts = append(texts, b.Text.Text)
			verbatim = verbatim && b.Text.Type == "mrkdwn" && b.Text.Verbatim
		}
	}
	return texts, verbatim
}

func sameButtons(a, b []slacktest.Button) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestChoicesBecomeButtonsUnderTheMessageAndNothingElseChanges(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	withChoices := func(o channels.Outbound, cs []channels.Choice) channels.Outbound { o.Choices = cs; return o }
	question := "Shall I remind you at 6 & <@U0BEN>? Reply yes or no."
	reply := out(general.ID, channels.KindChannel, question)
	reply.ReplyTo = ns(general.ID + ":1700000000.000005")
	private := out(general.ID, channels.KindChannel, question)
	private.Private, private.Recipient = true, ns(ana.ID)
	slash := out(general.ID, channels.KindChannel, question)
	slash.ReplyTo = ns(general.ID + ":cmd:" + ana.ID + ":1.2.trigger")
	tooMany := append(append([]channels.Choice{}, yesNo...), channels.Choice{Label: "Yes again", Text: "yes"})
	tests := []struct {
		name    string
		out     channels.Outbound
		buttons []slacktest.Button
	}{
		{"a DM", withChoices(out(h.srv.DM(ana.ID), channels.KindDM, question), yesNo), yesNoButtons},
		{"a reply in a channel's thread", withChoices(reply, yesNo), yesNoButtons},
		{"a private message, in the DM", withChoices(private, yesNo), yesNoButtons},
		{"an ephemeral answer", withChoices(slash, yesNo), yesNoButtons},
		{"choices that do not fit: no buttons", withChoices(out(h.srv.DM(ana.ID), channels.KindDM, question), tooMany), nil},
		{"no choices: no blocks", out(h.srv.DM(ana.ID), channels.KindDM, question), nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := h.a.Send(ctxT(t), tt.out); err != nil {
				t.Fatal(err)
			}
			p := h.srv.Posts()[i]
			if p.Plain != question {
				t.Errorf("text %q, want %q", p.Plain, question)
			}
			if !sameButtons(p.Buttons, tt.buttons) {
				t.Errorf("buttons %+v, want %+v", p.Buttons, tt.buttons)
			}
			if tt.buttons == nil {
				if _, has := p.Form["blocks"]; has {
					t.Errorf("blocks sent without buttons: %q", p.Blocks)
				}
				return
			}
			texts, verbatim := sections(t, p)
			if strings.TrimSpace(strings.Join(texts, "")) != strings.TrimSpace(p.Text) || !verbatim {
				t.Errorf("sections %q (verbatim %v), want the message's escaped text %q, verbatim", texts, verbatim, p.Text)
			}
		})
	}
}

func TestALongQuestionWithChoicesIsCutIntoSectionsSlackTakes(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	for name, text := range map[string]string{
		"lines":            strings.Repeat("a < b & c\n", 300),
		"one word":         strings.Repeat("&", 3000),
		"emoji, no spaces": strings.Repeat("😀&", 1000),
	} {
		t.Run(name, func(t *testing.T) {
			o := out(h.srv.DM(ana.ID), channels.KindDM, text)
			o.Choices = yesNo
			if err := h.a.Send(ctxT(t), o); err != nil {
				t.Fatal(err)
			}
			posts := h.srv.Posts()
			p := posts[len(posts)-1]
			texts, _ := sections(t, p)
			if len(texts) < 2 || strings.TrimSpace(slacktest.Unescape(strings.Join(texts, ""))) != strings.TrimSpace(text) {
				t.Errorf("%d sections do not give the text back", len(texts))
			}
			for _, s := range texts {
				if strings.Count(s, "&")-strings.Count(s, "&amp;")-strings.Count(s, "&lt;")-strings.Count(s, "&gt;") != 0 {
					t.Errorf("a section cuts an escape: …%q", s[max(0, len(s)-8):])
				}
			}
			if !sameButtons(p.Buttons, yesNoButtons) {
				t.Errorf("buttons %+v", p.Buttons)
			}
		})
	}
}

// ask sends the yes/no question in conv (a reply in thread, when set) and
// returns the post.
func ask(t *testing.T, h *harness, conv string, kind channels.Kind, thread string) slacktest.Post {
	t.Helper()
	o := out(conv, kind, "Shall I remind you to take a walk at 6? Reply yes or no.")
	o.Conversation.ThreadID = thread
	o.Choices = yesNo
	if err := h.a.Send(ctxT(t), o); err != nil {
		t.Fatal(err)
	}
	posts := h.srv.Posts()
	return posts[len(posts)-1]
}

// pressMarker asks Cy in their DM and has Cy press Yes: presses are handed
// over in order, so once its Inbound is accepted every press before it
// was handled.
func pressMarker(t *testing.T, h *harness) {
	t.Helper()
	p := ask(t, h, h.srv.DM(cy.ID), channels.KindDM, "")
	if _, err := h.srv.Press(p.Channel, p.TS, cy.ID, "haven_choice_0"); err != nil {
		t.Fatal(err)
	}
	if in := h.sink.next(t); in.Author.ID != ns(cy.ID) || in.Text != "yes" {
		t.Fatalf("accepted %+v, want Cy's marker press (the press before it should have been dropped)", in)
	}
}

func TestAPressBecomesOneInboundFromWhoPressedWhereTheQuestionIs(t *testing.T) {
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, nil, mode, nil).start(t)
			h.srv.SetAdmin(ben.ID, true)
			tests := []struct {
				name     string
				channel  string
				kind     channels.Kind
				thread   string
				who      slacktest.User
				button   string
				text     string
				admin    bool
				display  string
				threadID string
			}{
				{"in a DM", h.srv.DM(ana.ID), channels.KindDM, "", ana, "haven_choice_0", "yes", false, "Ana", ""},
				{"in a channel's thread, by an admin", general.ID, channels.KindChannel, "1690000000.000005", ben, "haven_choice_1", "no", true, "Ben Okoro", "1690000000.000005"},
				{"in a group DM", mpim.ID, channels.KindGroup, "", cy, "haven_choice_0", "yes", false, "Cy", ""},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					p := ask(t, h, tt.channel, tt.kind, tt.thread)
					n := len(h.srv.Updates()) + 1
					pressed, err := h.srv.Press(p.Channel, p.TS, tt.who.ID, tt.button)
					if err != nil {
						t.Fatal(err)
					}
					in := h.sink.next(t)
					want := channels.Inbound{
						Platform: "slack", Workspace: slacktest.DefaultTeam,
						Conversation: channels.Conversation{ID: ns(tt.channel), Kind: tt.kind, ThreadID: tt.threadID},
						MessageID:    ns(tt.channel + ":" + p.TS),
						DeliveryKey:  ns("press:" + pressed.TriggerID),
						Author:       channels.Author{ID: ns(tt.who.ID), Display: tt.display, PlatformAdmin: tt.admin},
						MentionsBot:  true, Text: tt.text, Locale: in.Locale, TimeZone: tt.who.TZ, ReceivedAt: in.ReceivedAt,
					}
					if in != want {
						t.Errorf("accepted\n%+v\nwant\n%+v", in, want)
					}
					if in.ReceivedAt.IsZero() {
						t.Error("no ReceivedAt")
					}
					if err := h.srv.WaitDelivered(ctxT(t)); err != nil || !h.srv.Acked(pressed.EnvelopeID) {
						t.Errorf("the press was not acked: %v", err)
					}
					// The buttons come off the question, its text stays.
					ups, err := h.srv.WaitUpdates(ctxT(t), n)
					if err != nil {
						t.Fatal(err)
					}
					u := ups[n-1]
					texts, _ := sections(t, h.srv.Posts()[len(h.srv.Posts())-1])
					if u.Channel != p.Channel || u.TS != p.TS || len(u.Buttons) != 0 || len(texts) != 1 || texts[0] != p.Text {
						t.Errorf("update %+v, sections %q: want the buttons off %s and its text kept", u, texts, p.TS)
					}
					if _, err := h.srv.Press(p.Channel, p.TS, tt.who.ID, tt.button); err == nil {
						t.Error("the question can still be pressed")
					}
				})
			}
			if got := h.a.Stats(); got.Skipped != 0 || got.Duplicates != 0 {
				t.Errorf("Stats() = %+v, want nothing skipped", got)
			}
		})
	}
}

func TestARedeliveredPressIsOneTurnAlsoAcrossARestart(t *testing.T) {
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			srv := newFake(t)
			h := newHarness(t, srv, mode, nil).start(t)
			p := ask(t, h, srv.DM(ana.ID), channels.KindDM, "")
			pressed, err := srv.Press(p.Channel, p.TS, ana.ID, "haven_choice_0")
			if err != nil {
				t.Fatal(err)
			}
			first := h.sink.next(t)
			srv.Redeliver(pressed.TriggerID)
			pressMarker(t, h)
			if st := h.a.Stats(); st.Duplicates != 1 {
				t.Errorf("Stats().Duplicates = %d, want 1 (the redelivery dropped)", st.Duplicates)
			}
			// A fresh adapter (a restart) hands it on with the same key, which
			// the Hub's durable inbox has answered already.
			if err := srv.WaitDelivered(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			if err := h.stop(t); err != nil {
				t.Fatal(err)
			}
			h2 := newHarness(t, srv, mode, nil).start(t)
			srv.Redeliver(pressed.TriggerID)
			again := h2.sink.next(t)
			if again.DeliveryKey != first.DeliveryKey || again.Text != "yes" {
				t.Errorf("after a restart the press came as %q %q, want the key %q again", again.DeliveryKey, again.Text, first.DeliveryKey)
			}
		})
	}
}

func TestAPressHavenDidNotMakeIsSkipped(t *testing.T) {
	presses := map[string]slacktest.Button{
		"another block":                      {BlockID: "approvals", ActionID: "haven_choice_0", Value: "yes", Label: "Yes"},
		"another action":                     {BlockID: slack.ChoicesBlockID, ActionID: "approve", Value: "yes", Label: "Yes"},
		"an empty value":                     {BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_0", Value: "", Label: "Yes"},
		"a value over 32":                    {BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_0", Value: strings.Repeat("y", 33), Label: "Yes"},
		"an action_id suffix":                {BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_x", Value: "yes", Label: "Yes"},
		"a person who is not a user id":      {BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_0_for_ana", Value: "yes", Label: "Yes"},
		"a bound action_id without a person": {BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_0_for_", Value: "yes", Label: "Yes"},
	}
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		for name, b := range presses {
			t.Run(mode+" "+name, func(t *testing.T) {
				h := newHarness(t, nil, mode, nil).start(t)
				p := ask(t, h, general.ID, channels.KindChannel, "1690000000.000005")
				pressed := h.srv.PressButton(p.Channel, p.TS, ana.ID, b)
				pressMarker(t, h)
				// The adapter writes each ack before it takes the next press,
				// but the fake may not have read it off the socket yet.
				if err := h.srv.WaitDelivered(ctxT(t)); err != nil || !h.srv.Acked(pressed.EnvelopeID) {
					t.Errorf("the foreign press was not acked (%v)", err)
				}
				if st := h.a.Stats(); st.Skipped != 1 {
					t.Errorf("Stats().Skipped = %d, want 1", st.Skipped)
				}
				if u, err := h.srv.WaitUpdates(ctxT(t), 1); err != nil || len(u) != 1 || u[0].Channel != h.srv.DM(cy.ID) {
					t.Errorf("updates %+v (%v), want only the marker's question's", u, err)
				}
				if !containsAll(h.logs.String(), "level=DEBUG", "slack event ignored", "reason=") {
					t.Errorf("the skip is not logged at debug:\n%s", h.logs.String())
				}
			})
		}
	}
}

func TestAPressIsAckedBeforeTheHubTakesIt(t *testing.T) {
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, nil, mode, nil)
			h.sink.block = make(chan struct{})
			h.start(t)
			p := ask(t, h, h.srv.DM(ana.ID), channels.KindDM, "")
			if _, err := h.srv.Press(p.Channel, p.TS, ana.ID, "haven_choice_1"); err != nil {
				t.Fatal(err)
			}
			// The sink holds the press: it was acked (answered 200) anyway.
			if err := h.srv.WaitDelivered(ctxT(t)); err != nil {
				t.Fatalf("%v; %d deliveries still waiting", err, h.srv.Pending())
			}
			if d, r := h.srv.HTTPDeliveries(); mode == slack.ModeHTTP && (d != 1 || r != 0) {
				t.Errorf("over HTTP %d answered 2xx, %d refused; want 1 and 0", d, r)
			}
			close(h.sink.block)
			if in := h.sink.next(t); in.Text != "no" {
				t.Fatalf("accepted %q, want no", in.Text)
			}
		})
	}
}

func TestAnInteractionThatDoesNotParseIsAnswered200AndSkipped(t *testing.T) {
	h := newHarness(t, nil, slack.ModeHTTP, nil).start(t)
	for i, payload := range []string{`{"type":"block_actions","actions":`, `{"type":"block_actions","actions":[{"block_id":7}]}`, `[]`} {
		body := []byte(url.Values{"payload": {payload}}.Encode())
		if code, _ := h.post(t, body, "application/x-www-form-urlencoded", secret, time.Now(), nil); code != http.StatusOK {
			t.Errorf("payload %d answered %d, want 200 so that Slack stops", i, code)
		}
	}
	pressMarker(t, h)
	if st := h.a.Stats(); st.Skipped != 3 {
		t.Errorf("Stats().Skipped = %d, want 3", st.Skipped)
	}
}

// askFor sends the yes/no question in conv's thread, its buttons for the
// person choicesFor names ("" for anyone), and returns the post (the
// last message posted there: an ephemeral note may come in between).
func askFor(t *testing.T, h *harness, conv string, kind channels.Kind, thread, choicesFor string) slacktest.Post {
	t.Helper()
	o := out(conv, kind, "Shall I remind you to take a walk at 6? Reply yes or no.")
	o.Conversation.ThreadID, o.Choices, o.ChoicesFor = thread, yesNo, choicesFor
	if err := h.a.Send(ctxT(t), o); err != nil {
		t.Fatal(err)
	}
	posts := h.srv.Posts()
	for i := len(posts) - 1; ; i-- {
		if posts[i].Method == "chat.postMessage" && posts[i].Channel == conv {
			return posts[i]
		}
	}
}

func TestBoundButtonsAnswerOnlyForThePersonTheyAreFor(t *testing.T) {
	const thread = "1690000000.000005"
	anas := []slacktest.Button{
		{BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_0_for_" + ana.ID, Value: "yes", Label: "Yes"},
		{BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_1_for_" + ana.ID, Value: "no", Label: "No"},
	}
	tests := []struct {
		name       string
		choicesFor string
		buttons    []slacktest.Button // as sent
		who        slacktest.User
		answers    bool // the press is an Inbound saying yes
	}{
		{"Ben presses Ana's buttons", ns(ana.ID), anas, ben, false},
		{"Ana presses her own buttons", ns(ana.ID), anas, ana, true},
		{"Ben presses buttons for anyone (the old form)", "", yesNoButtons, ben, true},
	}
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, nil, mode, nil).start(t)
			skipped := uint64(0)
			for _, tt := range tests {
				p := askFor(t, h, general.ID, channels.KindChannel, thread, tt.choicesFor)
				if !sameButtons(p.Buttons, tt.buttons) {
					t.Fatalf("%s: buttons %+v, want %+v", tt.name, p.Buttons, tt.buttons)
				}
				updates, before := len(h.srv.Updates()), len(h.srv.Posts())
				pressed, err := h.srv.Press(p.Channel, p.TS, tt.who.ID, tt.buttons[0].ActionID)
				if err != nil {
					t.Fatal(err)
				}
				if tt.answers {
					if in := h.sink.next(t); in.Text != "yes" || in.Author.ID != ns(tt.who.ID) || in.DeliveryKey != ns("press:"+pressed.TriggerID) {
						t.Errorf("%s: accepted %+v, want yes from the presser", tt.name, in)
					}
					if _, err := h.srv.WaitUpdates(ctxT(t), updates+1); err != nil {
						t.Errorf("%s: the buttons did not come off: %v", tt.name, err)
					}
					continue
				}
				skipped++
				// Delivered again (Slack retries an interaction it thinks
				// unanswered): refused once.
				h.srv.Redeliver(pressed.TriggerID)
				m := askFor(t, h, h.srv.DM(cy.ID), channels.KindDM, "", "")
				if _, err := h.srv.Press(m.Channel, m.TS, cy.ID, "haven_choice_0"); err != nil {
					t.Fatal(err)
				}
				if in := h.sink.next(t); in.Author.ID != ns(cy.ID) {
					t.Fatalf("%s: accepted %+v, want Cy's marker press (the refused press should have been dropped)", tt.name, in)
				}
				if err := h.srv.WaitDelivered(ctxT(t)); err != nil {
					t.Fatal(err)
				}
				posts, err := h.srv.WaitPosts(ctxT(t), before+2) // the marker's question and the note
				if err != nil {
					t.Fatal(err)
				}
				var notes []slacktest.Post
				for _, q := range posts {
					if q.Ephemeral && q.Plain == channels.NotYourChoices {
						notes = append(notes, q)
					}
				}
				if len(notes) != 1 || notes[0].User != tt.who.ID || notes[0].Channel != general.ID || notes[0].ThreadTS != thread {
					t.Errorf("%s: notes %+v, want one ephemeral %q to the presser in the question's thread", tt.name, notes, channels.NotYourChoices)
				}
				// Only the marker's question lost its buttons; Ana's can still be pressed.
				for _, u := range h.srv.Updates()[updates:] {
					if u.Channel == p.Channel && u.TS == p.TS {
						t.Errorf("%s: the refused press changed the question: %+v", tt.name, u)
					}
				}
				if st := h.a.Stats(); st.Skipped != skipped || st.Duplicates != 1 {
					t.Errorf("%s: Stats() = %+v, want %d skipped and the redelivery a duplicate", tt.name, st, skipped)
				}
				if l := h.logs.String(); !strings.Contains(l, "a press by someone the buttons are not for") || strings.Contains(l, "Ben") || strings.Contains(l, ben.ID) {
					t.Errorf("%s: logs\n%s\nwant the refusal at debug, without names or ids of people", tt.name, l)
				}
			}
		})
	}
}
