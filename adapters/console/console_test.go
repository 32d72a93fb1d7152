package console

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
		if in.Conversation.Kind != channels.KindDM || !in.MentionsBot || in.Author.ID != "console::local" || !in.Author.PlatformAdmin {
			t.Errorf("inbound not a DM from the local user, its operator: %+v", in)
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

func export(name string) *channels.File {
	return &channels.File{Name: name, ContentType: "application/json", Data: []byte(`{"facts":["likes tea"]}`)}
}

func TestSendFileSavesTheFilePrivatelyAndSaysWhere(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exports")
	var out bytes.Buffer
	a := New(Options{Out: &out, FileDir: dir})
	f := export("haven-export-2026-01-31.json")
	if err := a.SendFile(context.Background(), channels.Outbound{Text: "Here is everything I hold about you.", File: f}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, f.Name)
	if got, want := out.String(), "haven> Here is everything I hold about you.\n       saved to "+path+"\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(data, f.Data) {
		t.Fatalf("saved file = %q, %v", data, err)
	}
	for p, want := range map[string]fs.FileMode{dir: 0o700, path: 0o600} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
}

func TestSendFileNeverOverwritesAFile(t *testing.T) {
	dir := t.TempDir()
	a := New(Options{Out: io.Discard, FileDir: dir})
	first := export("export.json")
	if err := os.WriteFile(filepath.Join(dir, "export-1.json"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	second := &channels.File{Name: "export.json", Data: []byte("second")}
	third := &channels.File{Name: "export.json", Data: []byte("third")}
	for _, f := range []*channels.File{first, second, third} {
		if err := a.SendFile(context.Background(), channels.Outbound{File: f}); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"export.json": string(first.Data), "export-1.json": "mine", "export-2.json": "second", "export-3.json": "third"}
	for name, content := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != content {
			t.Errorf("%s = %q, %v; want %q", name, got, err, content)
		}
	}
}

func TestSanitizeNameKeepsFilesInsideTheFolder(t *testing.T) {
	tests := []struct{ in, want string }{
		{"haven-export-2026-01-31.json", "haven-export-2026-01-31.json"},
		{".bashrc", "bashrc"},
		{"-rf.json", "rf.json"},
		{"my export (1).json", "my_export__1_.json"},
		{"Müller.json", "M_ller.json"},
		{"..", "file"},
		{"???", "file"},
		{strings.Repeat("a", 150) + ".json", strings.Repeat("a", 95) + ".json"},
	}
	for _, tt := range tests {
		if got := sanitizeName(tt.in); got != tt.want {
			t.Errorf("sanitizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSendFileDefaultsToAFolderInTheCurrentDirectory(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	var out bytes.Buffer
	a := New(Options{Out: &out})
	if err := a.SendFile(context.Background(), channels.Outbound{File: export("e.json")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wd, DefaultFileDir, "e.json")); err != nil {
		t.Fatalf("file not in ./%s: %v", DefaultFileDir, err)
	}
	if !strings.HasPrefix(out.String(), "haven> saved to ") {
		t.Errorf("printed %q", out.String())
	}
}

func TestSendFileThatCannotBeSavedSaysWhyAndIsPermanent(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(notDir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	a := New(Options{Out: &out, FileDir: notDir})
	err := a.SendFile(context.Background(), channels.Outbound{Text: "Your export.", File: export("e.json")})
	if !channels.IsPermanent(err) {
		t.Fatalf("SendFile = %v, want a permanent error", err)
	}
	if !strings.HasPrefix(out.String(), "haven> Your export.\n       (I couldn't save e.json: create folder") {
		t.Errorf("printed %q", out.String())
	}
	if err := a.SendFile(context.Background(), channels.Outbound{File: &channels.File{Name: "e.json"}}); !channels.IsPermanent(err) {
		t.Errorf("SendFile of an empty file = %v, want a permanent error", err)
	}
}

func TestSendFileSavesAnImageByteForByteUnderItsName(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 8, 4))
	img.Set(3, 2, color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out bytes.Buffer
	a := New(Options{Out: &out, FileDir: dir})
	f := &channels.File{Name: "mood-2026-11-24.png", ContentType: "image/png", Data: buf.Bytes()}
	if err := a.SendFile(context.Background(), channels.Outbound{Text: "Your mood over the last 30 days.", File: f}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mood-2026-11-24.png")
	if !strings.HasSuffix(out.String(), "saved to "+path+"\n") {
		t.Fatalf("printed %q, want it to say where the image was saved (%s)", out.String(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil || !bytes.Equal(data, f.Data) {
		t.Fatalf("saved image is not the PNG sent: %v", err)
	}
	if r, g, b, _ := got.At(3, 2).RGBA(); r>>8 != 0x1f || g>>8 != 0x5f || b>>8 != 0xbf {
		t.Fatalf("saved image pixel = %v, want the one drawn", got.At(3, 2))
	}
}
