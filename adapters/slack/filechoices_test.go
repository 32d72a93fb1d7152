package slack_test

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
)

func TestAFileWithChoicesIsFollowedByItsButtonsInTheSamePlace(t *testing.T) {
	const caption = "Here is everything I hold about you. Delete it now? Reply yes or no."
	file := func(conv string, kind channels.Kind, cs []channels.Choice) channels.Outbound {
		o := out(conv, kind, caption)
		o.File = &channels.File{Name: "haven-export.json", ContentType: "application/json", Data: []byte(`{"facts":[]}`)}
		o.Choices, o.ChoicesFor = cs, ns(ana.ID)
		return o
	}
	private := file(general.ID, channels.KindChannel, yesNo)
	private.Private, private.Recipient = true, ns(ana.ID)
	thread := file(general.ID, channels.KindChannel, yesNo)
	thread.ReplyTo = ns(general.ID + ":1690000000.000005")
	tooMany := append(append([]channels.Choice{}, yesNo...), channels.Choice{Label: "Yes again", Text: "yes"})
	tests := []struct {
		name             string
		out              channels.Outbound
		fail             bool // chat.postMessage fails for the buttons
		channel, thread  string
		buttons          bool
		postsAfterUpload int
	}{
		{"a private file in a channel: buttons in the DM", private, false, "D0ANA", "", true, 1},
		{"a reply in a channel: buttons in its thread", thread, false, general.ID, "1690000000.000005", true, 1},
		{"a file in a DM", file("D0ANA", channels.KindDM, yesNo), false, "D0ANA", "", true, 1},
		{"choices that do not fit: no buttons", file("D0ANA", channels.KindDM, tooMany), false, "D0ANA", "", false, 0},
		{"the buttons cannot be posted: the file still counts as sent", file("D0ANA", channels.KindDM, yesNo), true, "D0ANA", "", false, 0},
	}
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, nil, mode, nil).start(t)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					files, posts := len(h.srv.Files()), len(h.srv.Posts())
					if tt.fail {
						h.srv.FailNext("chat.postMessage", slacktest.Failure{Status: 500})
					}
					if err := h.a.SendFile(ctxT(t), tt.out); err != nil {
						t.Fatal(err)
					}
					if f := h.srv.Files(); len(f) != files+1 || f[files].Channel != tt.channel || f[files].ThreadTS != tt.thread {
						t.Fatalf("files %+v, want one more in %s (thread %q)", f[files:], tt.channel, tt.thread)
					}
					added := h.srv.Posts()[posts:]
					if len(added) != tt.postsAfterUpload {
						t.Fatalf("%d messages posted with the file, want %d", len(added), tt.postsAfterUpload)
					}
					if !tt.buttons {
						if tt.fail && !strings.Contains(h.logs.String(), "not the buttons that go with it") {
							t.Errorf("the lost buttons are not logged:\n%s", h.logs.String())
						}
						return
					}
					p := added[0]
					if p.Ephemeral || p.Channel != tt.channel || p.ThreadTS != tt.thread || p.Plain != "Yes / No" || !sameButtons(p.Buttons, boundTo(ana.ID)) {
						t.Fatalf("posted %+v, want \"Yes / No\" with Ana's buttons next to the file", p)
					}
					if strings.Contains(p.Blocks, "everything") {
						t.Errorf("the buttons' message repeats the caption: %s", p.Blocks)
					}
					updates := len(h.srv.Updates())
					pressed, err := h.srv.Press(p.Channel, p.TS, ana.ID, boundTo(ana.ID)[0].ActionID)
					if err != nil {
						t.Fatal(err)
					}
					if in := h.sink.next(t); in.Text != "yes" || in.Author.ID != ns(ana.ID) || in.DeliveryKey != ns("press:"+pressed.TriggerID) {
						t.Errorf("accepted %+v, want Ana's yes", in)
					}
					if u, err := h.srv.WaitUpdates(ctxT(t), updates+1); err != nil || len(u[updates].Buttons) != 0 || u[updates].TS != p.TS {
						t.Errorf("updates %+v (%v), want the buttons off the message", u[updates:], err)
					}
				})
			}
		})
	}
}
