package core

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
)

func TestForgettingInPlainWordsIsACommandAndFeelingsAreNot(t *testing.T) {
	forget := func(arg string) *Command { return &Command{Name: "forget", Args: arg, Plain: true} }
	tests := []struct {
		in   string
		want *Command
	}{
		{"forget that I have a dog", forget("i have a dog")},
		{"please forget that I have a dog", forget("i have a dog")},
		{"Actually, please forget about my ADHD too.", forget("my adhd")},
		{"could you forget my ADHD as well?", forget("my adhd")},
		{"please forget what I said about my sister", forget("my sister")},
		{"can you delete what I told you about my job", forget("my job")},
		{"forget everything you know about my ex", forget("my ex")},
		{"forget the fact that I live in Leeds", forget("i live in leeds")},
		{"don't remember that", forget(forgetThat)},
		{"Please don't remember that!", forget(forgetThat)},
		{"do not keep what I just said", forget(forgetThat)},
		{"forget what I just said", forget(forgetThat)},
		{"please forget that", forget(forgetThat)},
		{"oh and forget my last message please", forget(forgetThat)},
		// Said as feelings, or as conversation.
		{"I forgot my keys", nil},
		{"I forgot my keys at work again today", nil},
		{"I want to forget him", nil},
		{"I just want to forget him and move on", nil},
		{"I wish I could forget about the whole relationship", nil},
		{"forget him", nil},
		{"forget about him", nil},
		{"ugh, forget it", nil},
		{"forget that", nil},
		{"forget about it, it doesn't matter", nil},
		{"forget about my ex, he never cared anyway", nil},
		{"forgot my best friend's birthday. nailing this friendship thing", nil},
		{"I don't remember that", nil},
		{"don't forget to remind me about my dentist appointment", nil},
	}
	for _, tt := range tests {
		got := plainMemoryCommand(tt.in)
		if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
			t.Errorf("plainMemoryCommand(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// Forgetting a detail also forgets the lines of our conversations that
// quoted it: the person's message that told it and Haven's replies that
// named it, even where they do not use the words the person forgot by.
func TestForgettingADetailForgetsHavensRepliesThatQuotedIt(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "eve", "my dog Pepper is my best friend")
	m.say(t, "eve", "Pepper has been limping since Sunday")
	m.say(t, "eve", "work was long today")
	if lines := transcriptMentioning(t, m, "eve", "Pepper"); len(lines) < 2 {
		t.Fatalf("before forgetting, the transcript should mention Pepper: %q", lines)
	}
	reply := texts(m.say(t, "eve", "please forget that I have a dog"))
	if !strings.Contains(reply, "forgotten 1 memory") {
		t.Errorf("reply = %q", reply)
	}
	if lines := transcriptMentioning(t, m, "eve", "Pepper"); len(lines) > 0 {
		t.Errorf("after forgetting, the transcript still mentions Pepper: %q", lines)
	}
	if lines := transcriptMentioning(t, m, "eve", "work was long"); len(lines) != 1 {
		t.Errorf("an unrelated line was forgotten too: %q", lines)
	}
}

// "Don't remember that" forgets what the last message said: its facts, the
// message and Haven's reply to it; earlier messages stay.
func TestDontRememberThatForgetsTheLastMessage(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "fay", "my sister Maya lives in Bristol")
	m.say(t, "fay", "my partner's name is Alex")
	reply := texts(m.say(t, "fay", "don't remember that"))
	if !strings.Contains(reply, "forgotten 1 memory") || !strings.Contains(reply, "2 lines") {
		t.Errorf("reply = %q", reply)
	}
	if lines := transcriptMentioning(t, m, "fay", "Alex"); len(lines) > 0 {
		t.Errorf("the transcript still mentions Alex: %q", lines)
	}
	recs, err := m.store.Records(context.Background(), m.person(t, "fay").ID)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, r := range recs {
		kept = append(kept, r.Text())
	}
	if all := strings.Join(kept, "\n"); strings.Contains(all, "Alex") || !strings.Contains(all, "Maya") {
		t.Errorf("records after forgetting the last message: %q, want Maya and not Alex", kept)
	}
	// Nothing said yet in a new conversation: nothing to forget.
	m.say(t, "fay", "/reset")
	if reply := texts(m.say(t, "fay", "don't remember that")); !strings.Contains(reply, "don't have anything") {
		t.Errorf("with no earlier message, reply = %q", reply)
	}
}

// transcriptMentioning returns the person's transcript lines that contain
// s, ignoring case.
func transcriptMentioning(t *testing.T, m *memEnv, author, s string) []string {
	t.Helper()
	ids, err := m.store.MatchTranscript(context.Background(), m.person(t, author).ID, func(line string) bool {
		return strings.Contains(strings.ToLower(line), strings.ToLower(s))
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ids))
	for i := range ids {
		out[i] = s
	}
	return out
}

// "Don't remember that" said before the background worker has read the
// message: the message's pending extraction goes with it, so the fact is
// never made afterwards.
func TestDontRememberThatBeforeExtractionRanMakesNoMemory(t *testing.T) {
	m := newMemEnv(t, nil)
	ctx := context.Background()
	send := func(text string) {
		t.Helper()
		seq++
		in := channels.Inbound{
			Platform: "test", Conversation: channels.Conversation{ID: "test::dm-sam", Kind: channels.KindDM},
			MessageID: fmt.Sprintf("test::m%d", seq), DeliveryKey: fmt.Sprintf("k%d", seq),
			Author: channels.Author{ID: "test::sam", Display: "Sam"}, Text: text, ReceivedAt: time.Now(),
		}
		if _, err := m.e.Handle(ctx, in); err != nil { // the worker does not run between turns
			t.Fatalf("Handle(%q): %v", text, err)
		}
	}
	send("I have a dog called Biscuit and he keeps me going")
	send("don't remember that")
	if err := m.worker.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	recs, err := m.store.Records(ctx, m.person(t, "sam").ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Fact != nil && strings.Contains(strings.ToLower(r.Fact.Object+" "+r.Fact.Subject+" "+r.Fact.Evidence), "biscuit") {
			t.Fatalf("a fact from the forgotten message was made after it: %+v", r.Fact)
		}
	}
}
