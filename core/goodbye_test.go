package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/safety"
)

// A goodbye the therapeutic branch answers with a closing reply also ends
// the session, so its episode is written at once (before, a thank-you in
// front of the goodbye got the closing reply but left the session open
// until the idle sweep).
func TestAGoodbyeAfterThanksEndsTheSessionAndWritesTheEpisode(t *testing.T) {
	tests := []struct {
		bye  string
		ends bool
	}{
		{"thanks, that helped. bye!", true},
		{"thank you. I think I'll go to bed now, good night", true},
		{"ok bye, talk later", true},
		{"I said bye to my sister at the station and cried", false},
	}
	for _, tt := range tests {
		t.Run(tt.bye, func(t *testing.T) {
			ctx := context.Background()
			m := newMemEnv(t, nil)
			m.say(t, "ana", "work has been so stressful, my manager keeps piling things on")
			before := m.session(t, "ana")
			m.say(t, "ana", tt.bye)
			pid := m.person(t, "ana").ID
			eps, err := m.store.Episodes(ctx, pid, 5)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(eps) == 1; got != tt.ends {
				t.Fatalf("episodes after %q = %d, want ended=%t", tt.bye, len(eps), tt.ends)
			}
			// The next message opens a new session only after a goodbye.
			m.say(t, "ana", "hi again")
			if after := m.session(t, "ana"); (after != before) != tt.ends {
				t.Errorf("session %s then %s, want a new one: %t", before, after, tt.ends)
			}
		})
	}
}

// A goodbye said with warning signs gets the one safety question, and the
// session stays open for the answer.
func TestAGoodbyeWithWarningSignsKeepsTheSessionOpen(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "bo", "I feel like such a burden to everyone")
	out := m.say(t, "bo", "anyway bye, I'm a burden to everyone")
	if len(out) != 1 {
		t.Fatalf("%d messages", len(out))
	}
	eps, _ := m.store.Episodes(context.Background(), m.person(t, "bo").ID, 5)
	if len(eps) != 0 {
		t.Errorf("the session ended on a goodbye that got a safety question: %d episodes", len(eps))
	}
}

// session returns the id of author's open session in their DM (opening one
// when none is open, as the next message would).
func (m *memEnv) session(t *testing.T, author string) string {
	t.Helper()
	s, err := m.store.OpenSession(context.Background(), m.person(t, author).ID, "test::dm-"+author, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// A goodbye in a session where Haven gave crisis resources names the line
// again, so the person leaves knowing where help is; an ordinary goodbye
// does not.
func TestAGoodbyeAfterACrisisNamesTheLineAgain(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "cy", "I want to kill myself")
	for _, msg := range []string{"yes, I'm safe, my sister is with me", "no, I'm not thinking of doing it tonight", "work was the worst part of it, my manager keeps shouting", "yes, I'm okay"} {
		m.say(t, "cy", msg)
	}
	outs := m.say(t, "cy", "thanks, that helped. bye!")
	if len(outs) != 1 || outs[0].Kind != channels.OutReply {
		t.Fatalf("goodbye got %d messages (%v), want one ordinary reply", len(outs), outs)
	}
	if want := safety.ReminderLine("GB"); want == "" || !strings.Contains(outs[0].Text, want) {
		t.Errorf("goodbye after a crisis = %q, want it to carry %q", outs[0].Text, want)
	}
	m2 := newMemEnv(t, nil)
	m2.say(t, "di", "work has been so stressful")
	if out := texts(m2.say(t, "di", "thanks, that helped. bye!")); strings.Contains(out, "line I shared") {
		t.Errorf("an ordinary goodbye named a crisis line: %q", out)
	}
}
