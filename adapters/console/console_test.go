package console

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/havenbot/haven/channels"
)

// recorder is a Sink that keeps what it was given.
type recorder struct {
	mu sync.Mutex
	in []channels.Inbound
}

func (r *recorder) Accept(_ context.Context, in channels.Inbound) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.in = append(r.in, in)
	return nil
}

func TestRunHandsEachNonEmptyLineToTheSinkAndReturnsAtEndOfInput(t *testing.T) {
	a := New(Options{In: strings.NewReader("hi\n\n  \r\nsecond line\r\nno newline at end"), Out: io.Discard})
	var r recorder
	if err := a.Run(context.Background(), &r); err != nil {
		t.Fatal(err)
	}
	var texts []string
	keys := map[string]bool{}
	for _, in := range r.in {
		texts = append(texts, in.Text)
		if keys[in.DeliveryKey] {
			t.Errorf("delivery key %q repeated", in.DeliveryKey)
		}
		keys[in.DeliveryKey] = true
		if in.Conversation.Kind != channels.KindDM || !in.MentionsBot || in.Author.ID != "console::local" {
			t.Errorf("inbound not a DM from the local user: %+v", in)
		}
	}
	if got := strings.Join(texts, "|"); got != "hi|second line|no newline at end" {
		t.Fatalf("lines = %q", got)
	}
}

func TestDeliveryKeysDifferAcrossRuns(t *testing.T) {
	var r1, r2 recorder
	_ = New(Options{In: strings.NewReader("hi\n"), Out: io.Discard}).Run(context.Background(), &r1)
	_ = New(Options{In: strings.NewReader("hi\n"), Out: io.Discard}).Run(context.Background(), &r2)
	if r1.in[0].DeliveryKey == r2.in[0].DeliveryKey {
		t.Fatal("two runs produced the same delivery key: the second run's first line would be dropped as a duplicate")
	}
}

func TestVeryLongLineIsDeliveredWholeInPieces(t *testing.T) {
	line := strings.Repeat("é", maxLine) // 2 MB of text, one line
	a := New(Options{In: strings.NewReader(line + "\nnext\n"), Out: io.Discard})
	var r recorder
	if err := a.Run(context.Background(), &r); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, in := range r.in[:len(r.in)-1] {
		b.WriteString(in.Text)
	}
	if b.String() != line {
		t.Fatalf("long line not delivered whole: got %d bytes in %d pieces, want %d bytes", b.Len(), len(r.in)-1, len(line))
	}
	if r.in[len(r.in)-1].Text != "next" {
		t.Fatalf("line after the long one = %q", r.in[len(r.in)-1].Text)
	}
}

func TestSendPrintsTheReplyWithContinuationLinesIndented(t *testing.T) {
	var out bytes.Buffer
	a := New(Options{Out: &out})
	if err := a.Send(context.Background(), channels.Outbound{Text: "one\ntwo"}); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "haven> one\n       two\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestSendToAClosedOutputIsPermanent(t *testing.T) {
	err := New(Options{Out: failWriter{}}).Send(context.Background(), channels.Outbound{Text: "x"})
	if !channels.IsPermanent(err) {
		t.Fatalf("err = %v, want a permanent send error", err)
	}
}

func TestRunStopsWhenTheContextIsDone(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(Options{In: pr, Out: io.Discard}).Run(ctx, &recorder{}) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel = %v, want nil", err)
	}
}
