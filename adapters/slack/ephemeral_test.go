package slack_test

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
)

// boundTo is Haven's yes/no buttons bound to user.
func boundTo(user string) []slacktest.Button {
	return []slacktest.Button{
		{BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_0_for_" + user, Value: "yes", Label: "Yes"},
		{BlockID: slack.ChoicesBlockID, ActionID: "haven_choice_1_for_" + user, Value: "no", Label: "No"},
	}
}

// lastEphemeral returns the last chat.postEphemeral the bot made.
func lastEphemeral(t *testing.T, h *harness) slacktest.Post {
	t.Helper()
	posts := h.srv.Posts()
	for i := len(posts) - 1; i >= 0; i-- {
		if posts[i].Method == "chat.postEphemeral" {
			return posts[i]
		}
	}
	t.Fatal("no ephemeral message posted")
	return slacktest.Post{}
}

func TestButtonsOnAnEphemeralMessageAnswerForTheirPersonAndComeOffThroughTheResponseURL(t *testing.T) {
	const question = "Shall I forget everything I hold about you? Reply yes or no."
	slash := func(user string) channels.Outbound { // the answer to user's slash command
		o := out(general.ID, channels.KindChannel, question)
		o.ReplyTo = ns(general.ID + ":cmd:" + user + ":1.2.trigger")
		o.Choices, o.ChoicesFor = yesNo, ns(user)
		return o
	}
	private := func(user string) channels.Outbound { // DM refused: ephemeral instead
		o := out(general.ID, channels.KindChannel, question)
		o.Private, o.Recipient = true, ns(user)
		o.Choices, o.ChoicesFor = yesNo, ns(user)
		return o
	}
	tests := []struct {
		name    string
		out     channels.Outbound
		to, who slacktest.User
		answers bool
	}{
		{"the answer to a slash command, pressed by its person", slash(ana.ID), ana, ana, true},
		{"a private message whose DM cannot be opened, pressed by its person", private(ben.ID), ben, ben, true},
		{"the answer to a slash command, pressed by someone else", slash(ana.ID), ana, ben, false},
	}
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, nil, mode, nil).start(t)
			h.srv.CannotDM(ben.ID)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if err := h.a.Send(ctxT(t), tt.out); err != nil {
						t.Fatal(err)
					}
					p := lastEphemeral(t, h)
					if p.User != tt.to.ID || p.Plain != question || !sameButtons(p.Buttons, boundTo(tt.to.ID)) {
						t.Fatalf("posted %+v, want the question ephemerally to %s with buttons bound to them", p, tt.to.ID)
					}
					if texts, verbatim := sections(t, p); strings.Join(texts, "") != p.Text || !verbatim {
						t.Errorf("sections %q, want the escaped text, verbatim", texts)
					}
					responses, posts := len(h.srv.Responses()), len(h.srv.Posts())
					pressed, err := h.srv.Press(p.Channel, p.TS, tt.who.ID, boundTo(tt.to.ID)[0].ActionID)
					if err != nil {
						t.Fatal(err)
					}
					if !tt.answers {
						// Presses are handled in order: once Cy's is accepted,
						// the refused one was handled.
						m := askFor(t, h, h.srv.DM(cy.ID), channels.KindDM, "", "")
						if _, err := h.srv.Press(m.Channel, m.TS, cy.ID, "haven_choice_0"); err != nil {
							t.Fatal(err)
						}
						if in := h.sink.next(t); in.Author.ID != ns(cy.ID) {
							t.Fatalf("accepted %+v, want Cy's marker press (the refused press should have been dropped)", in)
						}
						all, err := h.srv.WaitPosts(ctxT(t), posts+2) // the marker's question and the note
						if err != nil {
							t.Fatal(err)
						}
						notes := 0
						for _, q := range all[posts:] {
							if q.Ephemeral && q.User == tt.who.ID && q.Plain == channels.NotYourChoices {
								notes++
							}
						}
						if notes != 1 {
							t.Errorf("%d notes to the presser, want one %q", notes, channels.NotYourChoices)
						}
						if n := len(h.srv.Responses()); n != responses {
							t.Errorf("the refused press used a response_url: %+v", h.srv.Responses()[responses:])
						}
						// The buttons stay for their person.
						if _, err := h.srv.Press(p.Channel, p.TS, tt.to.ID, boundTo(tt.to.ID)[0].ActionID); err != nil {
							t.Fatalf("the buttons are gone after a refused press: %v", err)
						}
						if in := h.sink.next(t); in.Author.ID != ns(tt.to.ID) || in.Text != "yes" {
							t.Errorf("accepted %+v, want the press of the person the buttons are for", in)
						}
						if _, err := h.srv.WaitResponses(ctxT(t), responses+1); err != nil {
							t.Error(err)
						}
						return
					}
					in := h.sink.next(t)
					want := channels.Inbound{
						Platform: "slack", Workspace: slacktest.DefaultTeam,
						Conversation: channels.Conversation{ID: ns(general.ID), Kind: channels.KindChannel},
						MessageID:    ns(general.ID + ":" + p.TS), DeliveryKey: ns("press:" + pressed.TriggerID),
						Author:      channels.Author{ID: ns(tt.who.ID), Display: in.Author.Display},
						MentionsBot: true, Text: "yes", Locale: in.Locale, TimeZone: tt.who.TZ, ReceivedAt: in.ReceivedAt,
					}
					if in != want {
						t.Errorf("accepted\n%+v\nwant\n%+v", in, want)
					}
					rs, err := h.srv.WaitResponses(ctxT(t), responses+1)
					if err != nil {
						t.Fatal(err)
					}
					r := rs[responses]
					if r.Trigger != pressed.TriggerID || !r.ReplaceOriginal || r.Text != p.Text || len(r.Buttons) != 0 {
						t.Errorf("response_url got %+v, want the question's text, replacing it, without buttons", r)
					}
					if texts, _ := sections(t, slacktest.Post{Blocks: r.Blocks}); strings.Join(texts, "") != p.Text {
						t.Errorf("the replaced message's sections are %q, want its text", texts)
					}
					if _, err := h.srv.Press(p.Channel, p.TS, tt.who.ID, boundTo(tt.to.ID)[0].ActionID); err == nil {
						t.Error("the ephemeral question can still be pressed")
					}
				})
			}
			if _, err := h.srv.WaitUpdates(ctxT(t), 1); err != nil {
				t.Fatal(err)
			}
			if n := h.srv.Calls("chat.update"); n != 1 {
				t.Errorf("chat.update called %d times, want only for the marker (it cannot change an ephemeral message)", n)
			}
		})
	}
}

func TestAPressOnAnEphemeralMessageAfterARestartIsATurnAndTheButtonsStay(t *testing.T) {
	srv := newFake(t)
	h := newHarness(t, srv, slack.ModeSocket, nil).start(t)
	o := out(general.ID, channels.KindChannel, "Forget everything? Reply yes or no.")
	o.ReplyTo = ns(general.ID + ":cmd:" + ana.ID + ":1.2.trigger")
	o.Choices, o.ChoicesFor = yesNo, ns(ana.ID)
	if err := h.a.Send(ctxT(t), o); err != nil {
		t.Fatal(err)
	}
	p := lastEphemeral(t, h)
	if err := h.stop(t); err != nil {
		t.Fatal(err)
	}
	h2 := newHarness(t, srv, slack.ModeSocket, nil).start(t)
	if _, err := srv.Press(p.Channel, p.TS, ana.ID, boundTo(ana.ID)[1].ActionID); err != nil {
		t.Fatal(err)
	}
	if in := h2.sink.next(t); in.Text != "no" || in.Author.ID != ns(ana.ID) {
		t.Errorf("accepted %+v, want Ana's no", in)
	}
	pressMarker(t, h2)
	if _, err := srv.WaitUpdates(ctxT(t), 1); err != nil { // the marker's buttons came off: the press before it was handled
		t.Fatal(err)
	}
	if rs := srv.Responses(); len(rs) != 0 {
		t.Errorf("response_url got %+v, want nothing: the restarted adapter does not know the text", rs)
	}
}
