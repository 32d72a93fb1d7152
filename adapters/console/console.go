// Package console is the terminal adapter: a chat with Haven on standard
// input and output, with no account anywhere. It is interactive in a
// terminal (a prompt before each line) and scriptable when input is piped:
// it reads lines, and the Hub prints each reply; at the end of input Run
// returns and the Hub drains, so every reply is printed before Haven exits.
package console

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/havenbot/haven/channels"
)

// Platform is the console's platform name.
const Platform = "console"

// maxLine bounds one input line. Longer lines are not cut: they are
// delivered in pieces of this size, in order, so nothing is lost.
const maxLine = 1 << 20

// Options configure the console adapter.
type Options struct {
	// In is read line by line; Out receives replies and the prompt.
	In  io.Reader
	Out io.Writer
	// User is the local user's stable id (default "local").
	User string
	// Name is how Haven may address the user; empty for none.
	Name string
	// Interactive shows a prompt before each line and a blank line between
	// replies. Set it when In is a terminal.
	Interactive bool
	// Clock returns the current time; nil means time.Now.
	Clock func() time.Time
}

// Adapter is the console adapter.
type Adapter struct {
	opts Options
	run  string // random per process, so delivery keys never repeat across runs
	mu   sync.Mutex
	seq  int
	now  func() time.Time
}

// New returns a console adapter.
func New(opts Options) *Adapter {
	if opts.User == "" {
		opts.User = "local"
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return &Adapter{opts: opts, run: hex.EncodeToString(b), now: opts.Clock}
}

// Conversation is the console's one conversation: a DM with the local user.
func (a *Adapter) Conversation() channels.Conversation {
	return channels.Conversation{ID: channels.NamespacedID(Platform, "", "local"), Kind: channels.KindDM}
}

// Platform returns "console".
func (a *Adapter) Platform() string { return Platform }

// MaxMessageLen is generous: a terminal has no message limit, but the Hub
// still splits very long replies into readable pieces.
func (a *Adapter) MaxMessageLen() int { return 8000 }

// Run reads lines until the end of input or until ctx is done, and hands each
// non-empty line to sink. It returns nil at the end of input.
func (a *Adapter) Run(ctx context.Context, sink channels.Sink) error {
	lines := make(chan string)
	errc := make(chan error, 1)
	// The reader goroutine is owned by Run: it ends at end of input or on a
	// read error. A blocked read on a terminal cannot be interrupted; when
	// ctx is done Run returns and the goroutine ends with the process or its
	// next line.
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(a.opts.In, 64*1024)
		for {
			line, err := readLine(r)
			if line != "" || err == nil {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					errc <- fmt.Errorf("console: read input: %w", err)
				}
				return
			}
		}
	}()
	a.prompt()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				select {
				case err := <-errc:
					return err
				default:
					return nil
				}
			}
			if strings.TrimSpace(line) == "" {
				a.prompt()
				continue
			}
			if err := sink.Accept(ctx, a.inbound(line)); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("console: hand message to hub: %w", err)
			}
		}
	}
}

// readLine reads one line of any length, without its line ending. Lines
// longer than maxLine are returned in maxLine pieces.
func readLine(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		frag, err := r.ReadSlice('\n')
		b.Write(frag)
		if err == bufio.ErrBufferFull && b.Len() < maxLine {
			continue
		}
		s := strings.TrimRight(b.String(), "\r\n")
		if err == bufio.ErrBufferFull {
			err = nil
		}
		return s, err
	}
}

func (a *Adapter) inbound(text string) channels.Inbound {
	a.mu.Lock()
	a.seq++
	seq := a.seq
	a.mu.Unlock()
	id := a.run + "-" + strconv.Itoa(seq)
	return channels.Inbound{
		Platform:     Platform,
		Conversation: a.Conversation(),
		MessageID:    channels.NamespacedID(Platform, "", id),
		DeliveryKey:  channels.NamespacedID(Platform, "", id),
		Author:       channels.Author{ID: channels.NamespacedID(Platform, "", a.opts.User), Display: a.opts.Name},
		MentionsBot:  true,
		Text:         text,
		ReceivedAt:   a.now(),
	}
}

// Send prints one message.
func (a *Adapter) Send(_ context.Context, out channels.Outbound) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	var err error
	if a.opts.Interactive {
		// The prompt follows each reply: the person may type again.
		_, err = fmt.Fprintf(a.opts.Out, "\rhaven> %s\n\nyou> ", indent(out.Text))
	} else {
		_, err = fmt.Fprintf(a.opts.Out, "haven> %s\n", indent(out.Text))
	}
	if err != nil {
		return channels.Permanent(fmt.Errorf("console: write reply: %w", err))
	}
	return nil
}

func (a *Adapter) prompt() {
	if !a.opts.Interactive {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprint(a.opts.Out, "you> ")
}

// indent aligns continuation lines under the first line's text.
func indent(s string) string {
	return strings.ReplaceAll(s, "\n", "\n       ")
}

// Close does nothing: the console holds no resources.
func (a *Adapter) Close() error { return nil }

var _ channels.Adapter = (*Adapter)(nil)
