package console

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
	// FileDir is the folder files Haven sends are saved in (default
	// DefaultFileDir, relative to the current directory, next to the
	// default ./data database). It is created with mode 0700 when missing
	// (an existing folder's mode is left as it is); each file is created
	// with mode 0600 and never overwrites another: a taken name gets a
	// suffix ("export-1.json").
	FileDir string
}

// DefaultFileDir is where files are saved when Options.FileDir is empty:
// a folder in the current directory, where the person running the console
// finds it, rather than the shared temporary directory (an export holds
// everything Haven keeps about them).
const DefaultFileDir = "haven-exports"

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
	if opts.FileDir == "" {
		opts.FileDir = DefaultFileDir
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

// MessageLimit is generous, 8,000 runes: a terminal has no message limit,
// but the Hub still splits very long replies into readable pieces.
func (a *Adapter) MessageLimit() channels.Limit {
	return channels.Limit{Max: 8000, Measure: channels.Runes}
}

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
		if errors.Is(err, bufio.ErrBufferFull) && b.Len() < maxLine {
			continue
		}
		s := strings.TrimRight(b.String(), "\r\n")
		if errors.Is(err, bufio.ErrBufferFull) {
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
		// The person at the keyboard runs this Haven: they are its operator.
		Author:      channels.Author{ID: channels.NamespacedID(Platform, "", a.opts.User), Display: a.opts.Name, PlatformAdmin: true},
		MentionsBot: true,
		Text:        text,
		ReceivedAt:  a.now(),
	}
}

// Send prints one message.
func (a *Adapter) Send(_ context.Context, out channels.Outbound) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.print(out.Text)
}

// print writes one reply; a.mu is held.
func (a *Adapter) print(text string) error {
	var err error
	if a.opts.Interactive {
		// The prompt follows each reply: the person may type again.
		_, err = fmt.Fprintf(a.opts.Out, "\rhaven> %s\n\nyou> ", indent(text))
	} else {
		_, err = fmt.Fprintf(a.opts.Out, "haven> %s\n", indent(text))
	}
	if err != nil {
		return channels.Permanent(fmt.Errorf("console: write reply: %w", err))
	}
	return nil
}

// SendFile saves out.File in Options.FileDir and prints the caption
// (out.Text) and where the file is:
//
//	haven> Here is everything I hold about you.
//	       saved to /home/sam/haven-exports/haven-export-2026-01-31.json
//
// When the file cannot be saved it prints the caption and why, and returns
// a permanent error.
func (a *Adapter) SendFile(_ context.Context, out channels.Outbound) error {
	if err := out.File.Check(); err != nil {
		return channels.Permanent(fmt.Errorf("console: send file: %w", err))
	}
	path, saveErr := saveFile(a.opts.FileDir, out.File)
	a.mu.Lock()
	defer a.mu.Unlock()
	lines := make([]string, 0, 2)
	if strings.TrimSpace(out.Text) != "" {
		lines = append(lines, out.Text)
	}
	if saveErr != nil {
		lines = append(lines, fmt.Sprintf("(I couldn't save %s: %v)", out.File.Name, saveErr))
	} else {
		lines = append(lines, "saved to "+path)
	}
	if err := a.print(strings.Join(lines, "\n")); err != nil {
		return err
	}
	if saveErr != nil {
		return channels.Permanent(fmt.Errorf("console: save file: %w", saveErr))
	}
	return nil
}

// maxSaveTries bounds the suffixes tried for a free file name.
const maxSaveTries = 1000

// saveFile writes f into dir under its sanitized name, or the first free
// name with a suffix, and returns the file's absolute path.
func saveFile(dir string, f *channels.File) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create folder %s: %w", dir, err)
	}
	name := sanitizeName(f.Name)
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := range maxSaveTries {
		n := name
		if i > 0 {
			n = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		p := filepath.Join(dir, n)
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("create %s: %w", p, err)
		}
		_, werr := fh.Write(f.Data)
		cerr := fh.Close()
		if err := errors.Join(werr, cerr); err != nil {
			_ = os.Remove(p) // a partial file is no export
			return "", fmt.Errorf("write %s: %w", p, err)
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return p, nil
	}
	return "", fmt.Errorf("save %s in %s: %d files of that name already exist", name, dir, maxSaveTries)
}

// sanitizeName makes a file name safe on every file system: ASCII letters,
// digits, '.', '-' and '_' are kept, any other character becomes '_';
// leading dots and dashes are dropped (no hidden files, no options); at
// most 100 bytes, keeping the extension; "file" when nothing is left.
func sanitizeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.TrimLeft(b.String(), ".-")
	if len(s) > 100 {
		ext := filepath.Ext(s)
		if len(ext) > 20 {
			ext = ""
		}
		s = s[:100-len(ext)] + ext
	}
	if s == "" || strings.Trim(s, "_") == "" {
		return "file"
	}
	return s
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

var (
	_ channels.Adapter    = (*Adapter)(nil)
	_ channels.FileSender = (*Adapter)(nil)
)
