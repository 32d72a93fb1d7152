package channels_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

func TestFileCheckNamesWhatIsWrong(t *testing.T) {
	tests := []struct {
		name string
		f    *channels.File
		want string // "" for fine
	}{
		{"a small json file is fine", &channels.File{Name: "x.json", ContentType: "application/json", Data: []byte("{}")}, ""},
		{"exactly the limit is fine", &channels.File{Name: "big.bin", Data: make([]byte, channels.MaxFileSize)}, ""},
		{"no file", nil, "no file"},
		{"no name", &channels.File{Data: []byte("x")}, "no name"},
		{"a path is not a name", &channels.File{Name: "../etc/passwd", Data: []byte("x")}, "not a base name"},
		{"a windows path is not a name", &channels.File{Name: `a\b.txt`, Data: []byte("x")}, "not a base name"},
		{"dot dot is not a name", &channels.File{Name: "..", Data: []byte("x")}, "not a base name"},
		{"control characters in the name", &channels.File{Name: "a\nb.txt", Data: []byte("x")}, "control characters"},
		{"invalid utf-8 name", &channels.File{Name: "a\xffb", Data: []byte("x")}, "not valid UTF-8"},
		{"long name", &channels.File{Name: strings.Repeat("a", 256), Data: []byte("x")}, "over the limit of 255"},
		{"empty data", &channels.File{Name: "x.json"}, "is empty"},
		{"one byte over the limit", &channels.File{Name: "big.bin", Data: make([]byte, channels.MaxFileSize+1)}, "over the limit of 20.0 MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.f.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Check = %v, want an error containing %q", err, tt.want)
			}
			if tt.f != nil && len(tt.f.Data) > channels.MaxFileSize && !errors.Is(err, channels.ErrFileTooLarge) {
				t.Fatalf("Check = %v, want ErrFileTooLarge", err)
			}
		})
	}
}

// unfence returns the content of a FileText message: between its opening
// and closing fence lines, without the last line feed.
func unfence(t *testing.T, msg string) string {
	t.Helper()
	_, rest, ok := strings.Cut(msg, "\n") // the header
	if !ok {
		t.Fatalf("no header line in %q", msg)
	}
	_, rest, ok = strings.Cut(rest, "\n") // the opening fence
	i := strings.LastIndex(rest, "\n")
	if !ok || i < 0 {
		t.Fatalf("no fence in %q", msg)
	}
	return rest[:i]
}

func TestFileTextIsLosslessAndFitsTheLimit(t *testing.T) {
	js, _ := json.MarshalIndent(map[string]any{
		"facts": []string{strings.Repeat("a long quote with spaces ", 40), "ok"},
		"notes": strings.Repeat("ü😀 ", 300),
	}, "", "  ")
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]rune, 5000)
	alphabet := []rune("ab \n\t`é😀\r")
	for i := range random {
		random[i] = alphabet[rng.IntN(len(alphabet))]
	}
	tests := []struct {
		name, data, ctype, info string
		limit                   int
	}{
		{"indented json", string(js), "application/json", "json", 300},
		{"one long line with no breaks", strings.Repeat("x", 2500), "text/plain", "", 200},
		{"backtick fences inside the content", "a\n```\nb\n````\nc\n", "text/markdown", "", 60},
		{"random runes", string(random), "", "", 150},
		{"json by name only", `{"a":1}`, "", "json", 100},
		{"no limit", string(js), "application/json", "json", 0},
	}
	for _, tt := range tests {
		for _, measure := range []channels.Measure{channels.Runes, channels.UTF16, channels.Bytes} {
			t.Run(tt.name+"/"+measure.String(), func(t *testing.T) {
				checkFileText(t, tt.data, tt.ctype, tt.info, channels.Limit{Max: tt.limit, Measure: measure})
			})
		}
	}
}

// checkFileText checks that FileText renders data within limit, with
// headers and fences, and without loss.
func checkFileText(t *testing.T, data, ctype, info string, limit channels.Limit) {
	t.Helper()
	name := "data.txt"
	if info == "json" {
		name = "data.json"
	}
	f := &channels.File{Name: name, ContentType: ctype, Data: []byte(data)}
	msgs, err := channels.FileText(f, limit)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for i, m := range msgs {
		if !limit.Fits(m) {
			t.Fatalf("message %d has %d %s, over %s", i, limit.Measure.Len(m), limit.Measure, limit)
		}
		header, _, _ := strings.Cut(m, "\n")
		wantHeader := name
		if len(msgs) > 1 {
			wantHeader = fmt.Sprintf("%s (part %d of %d)", name, i+1, len(msgs))
		}
		if header != wantHeader {
			t.Fatalf("message %d header %q, want %q", i, header, wantHeader)
		}
		lines := strings.Split(m, "\n")
		open, closing := lines[1], lines[len(lines)-1]
		ticks := strings.TrimRight(open, "json")
		if len(ticks) < 3 || strings.Trim(ticks, "`") != "" || closing != ticks || open != ticks+info {
			t.Fatalf("message %d fence %q ... %q, want backticks and info %q", i, open, closing, info)
		}
		for _, l := range lines[2 : len(lines)-1] {
			if strings.HasPrefix(strings.TrimLeft(l, " "), ticks) {
				t.Fatalf("content line %q would close the fence %q", l, ticks)
			}
		}
		got.WriteString(unfence(t, m))
	}
	if got.String() != data {
		t.Fatalf("content rebuilt from %d messages differs from the file", len(msgs))
	}
	if limit.Max > 0 && len(data) > 3*limit.Max && len(msgs) < 2 {
		t.Fatalf("long content in %d message", len(msgs))
	}
}

func TestFileTextRefusesBinaryContentAndTinyLimits(t *testing.T) {
	if _, err := channels.FileText(&channels.File{Name: "a.bin", Data: []byte{0x89, 'P', 'N', 'G', 0}}, channels.Limit{Max: 1000}); !errors.Is(err, channels.ErrNotText) {
		t.Fatalf("binary: err = %v, want ErrNotText", err)
	}
	if _, err := channels.FileText(&channels.File{Name: "a.txt", Data: []byte("a\x00b")}, channels.Limit{Max: 1000}); !errors.Is(err, channels.ErrNotText) {
		t.Fatalf("NUL byte: err = %v, want ErrNotText", err)
	}
	if _, err := channels.FileText(&channels.File{Name: "a.txt", Data: []byte("hello")}, channels.Limit{Max: 20}); err == nil || !strings.Contains(err.Error(), "no room") {
		t.Fatalf("tiny limit: err = %v", err)
	}
	// Room for one rune but not for a 4-byte one is no room in bytes.
	if _, err := channels.FileText(&channels.File{Name: "a.txt", Data: []byte("😀")}, channels.Limit{Max: 31, Measure: channels.Bytes}); err == nil || !strings.Contains(err.Error(), "no room") {
		t.Fatalf("room under one rune's bytes: err = %v", err)
	}
}

var exportFile = &channels.File{Name: "export.json", ContentType: "application/json", Data: []byte("{\n  \"name\": \"Sam\"\n}")}

// fileReply answers every message with text and a copy of file.
func fileReply(text string, file *channels.File, private bool) channels.HandlerFunc {
	return func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		f := *file
		out := channels.Outbound{Kind: channels.OutReply, ReplyTo: in.MessageID, Text: text, File: &f}
		if private {
			out.Private, out.Recipient = true, in.Author.ID
		}
		return []channels.Outbound{out}, nil
	}
}

func runFileHub(t *testing.T, h channels.Handler, outbox *channelstest.MemOutbox, a channels.Adapter) *channels.Hub {
	t.Helper()
	hub := channels.NewHub(h, channelstest.NewMemInbox(), outbox, fastOpts())
	hub.Register(a)
	if err := hub.Run(t.Context()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return hub
}

func TestHubSendsAFileThroughAFileSenderWithItsCaption(t *testing.T) {
	long := strings.Repeat("A caption that goes on. ", 20)
	tests := []struct {
		name, text string
		wantSends  int // pieces sent with Send before the file
	}{
		{"short caption goes with the file", "Here is everything I hold about you.", 0},
		{"no caption", "", 0},
		{"long caption is split and its last piece goes with the file", long, len(channels.Split(long, channels.Limit{Max: 100})) - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := channelstest.NewFileAdapter("test", 100)
			in := inbound("test", "g", channels.KindGroup, 1)
			in.MentionsBot = true
			a.Push(in)
			a.End()
			outbox := channelstest.NewMemOutbox()
			hub := runFileHub(t, fileReply(tt.text, exportFile, true), outbox, a)
			sent := a.Sent()
			if len(sent) != tt.wantSends+1 {
				t.Fatalf("sent %d pieces, want %d", len(sent), tt.wantSends+1)
			}
			var text strings.Builder
			for i, s := range sent {
				if !s.Private || s.Recipient != in.Author.ID {
					t.Fatalf("piece %d lost its privacy: %+v", i, s)
				}
				if (s.File != nil) != (i == len(sent)-1) {
					t.Fatalf("piece %d has file %v; only the last should", i, s.File != nil)
				}
				text.WriteString(s.Text + " ")
			}
			f := sent[len(sent)-1].File
			if f.Name != exportFile.Name || f.ContentType != exportFile.ContentType || !bytes.Equal(f.Data, exportFile.Data) {
				t.Fatalf("file delivered as %+v", f)
			}
			if strings.Join(strings.Fields(text.String()), " ") != strings.Join(strings.Fields(tt.text), " ") {
				t.Fatalf("caption delivered as %q, want %q", text.String(), tt.text)
			}
			if st := hub.Stats(); st.Sent != 1 || st.Pieces != int64(len(sent)) {
				t.Fatalf("stats %+v", st)
			}
			if r := outbox.Records(); len(r) != 1 || r[0].State != channelstest.OutSent {
				t.Fatalf("outbox %+v", r)
			}
		})
	}
}

func TestHubSendsAFileAsFencedTextWhenTheAdapterTakesNoFiles(t *testing.T) {
	var js bytes.Buffer
	js.WriteString("{\n")
	for i := range 40 {
		fmt.Fprintf(&js, "  \"fact %d\": \"a line of the export with words in it\",\n", i)
	}
	js.WriteString("  \"end\": true\n}")
	file := &channels.File{Name: "export.json", ContentType: "application/json", Data: js.Bytes()}
	a := channelstest.NewAdapter("test", 300)
	a.Push(dm("c", 1))
	a.End()
	runFileHub(t, fileReply("Here is everything I hold about you.", file, false), channelstest.NewMemOutbox(), a)
	sent := a.Sent()
	if len(sent) < 3 {
		t.Fatalf("sent %d pieces, want the caption and the file in several", len(sent))
	}
	if sent[0].Text != "Here is everything I hold about you." {
		t.Fatalf("first piece %q, want the caption", sent[0].Text)
	}
	var data strings.Builder
	for i, s := range sent[1:] {
		if s.File != nil {
			t.Fatalf("piece %d carries a file to an adapter without FileSender", i+1)
		}
		if !strings.HasPrefix(s.Text, fmt.Sprintf("export.json (part %d of %d)\n```json\n", i+1, len(sent)-1)) {
			t.Fatalf("piece %d = %q, want a header and a json fence", i+1, s.Text)
		}
		data.WriteString(unfence(t, s.Text))
	}
	if data.String() != js.String() {
		t.Fatalf("the file's content was not delivered whole")
	}
	if !json.Valid([]byte(data.String())) {
		t.Fatalf("rebuilt content is not JSON")
	}
}

func TestHubNotesAFileItCannotDeliver(t *testing.T) {
	tests := []struct {
		name    string
		adapter channels.Adapter
		file    *channels.File
		want    string
	}{
		{"binary file without FileSender", channelstest.NewAdapter("test", 500),
			&channels.File{Name: "pic.png", ContentType: "image/png", Data: []byte{0x89, 'P', 'N', 'G', 0, 1}},
			"Caption.|(I couldn't attach pic.png (6 bytes): this chat can't take files and it isn't text.)"},
		{"text file too long to show without FileSender", channelstest.NewAdapter("test", 500),
			&channels.File{Name: "long.txt", Data: bytes.Repeat([]byte("a line of text\n"), 2000)},
			"Caption.|(I couldn't attach long.txt (29.3 KB): this chat can't take files and as text it would take 67 messages.)"},
		{"file over the limit with FileSender", channelstest.NewFileAdapter("test", 500),
			&channels.File{Name: "big.json", Data: make([]byte, channels.MaxFileSize+1)},
			"Caption.\n\n(I couldn't attach big.json (20.0 MB): it is over the 20.0 MB limit.)"},
		{"empty file", channelstest.NewFileAdapter("test", 500),
			&channels.File{Name: "empty.json"},
			"Caption.\n\n(I couldn't attach empty.json (0 bytes): it is empty.)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fake *channelstest.Adapter
			switch a := tt.adapter.(type) {
			case *channelstest.Adapter:
				fake = a
			case *channelstest.FileAdapter:
				fake = a.Adapter
			}
			fake.Push(dm("c", 1))
			fake.End()
			outbox := channelstest.NewMemOutbox()
			runFileHub(t, fileReply("Caption.", tt.file, false), outbox, tt.adapter)
			var got []string
			for _, s := range fake.Sent() {
				if s.File != nil {
					t.Fatalf("a bad file was sent")
				}
				got = append(got, s.Text)
			}
			if strings.Join(got, "|") != tt.want {
				t.Fatalf("sent %q, want %q", got, tt.want)
			}
			for _, r := range outbox.Records() {
				if r.State != channelstest.OutSent {
					t.Fatalf("outbox record %+v", r)
				}
			}
		})
	}
}

func TestHubOutboxKeepsAFileForTheNextRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inbox, outbox := channelstest.NewMemInbox(), channelstest.NewMemOutbox()
		a := channelstest.NewFileAdapter("test", 100)
		a.FailNext(channels.RateLimited(errors.New("429"), time.Minute))
		a.Push(dm("c", 1))
		a.End()
		opts := fastOpts()
		opts.DrainTimeout = 5 * time.Second
		hub := channels.NewHub(fileReply("Your export.", exportFile, false), inbox, outbox, opts)
		hub.Register(a)
		if err := hub.Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		if len(a.Files()) != 0 {
			t.Fatalf("sent during a minute-long pause")
		}
		// The outbox holds the whole message as JSON would carry it.
		recs := outbox.Records()
		if len(recs) != 1 {
			t.Fatalf("outbox %+v", recs)
		}
		b, err := json.Marshal(recs[0].Out)
		if err != nil {
			t.Fatal(err)
		}
		var back channels.Outbound
		if err := json.Unmarshal(b, &back); err != nil || back.File == nil || !bytes.Equal(back.File.Data, exportFile.Data) {
			t.Fatalf("outbound does not survive JSON: %v %+v", err, back.File)
		}

		a2 := channelstest.NewFileAdapter("test", 100)
		a2.End()
		hub2 := channels.NewHub(fileReply("", exportFile, false), inbox, outbox, opts)
		hub2.Register(a2)
		if err := hub2.Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		files := a2.Files()
		if len(files) != 1 || files[0].Text != "Your export." || !bytes.Equal(files[0].File.Data, exportFile.Data) {
			t.Fatalf("next run sent %+v, want the left-over file", files)
		}
	})
}

func TestHubRetriesAFailedFileSendAndAbandonsOnAPermanentError(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		delivered bool
	}{
		{"transient error is retried", errors.New("connection reset"), true},
		{"permanent error is abandoned", channels.Permanent(errors.New("bot blocked")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := channelstest.NewFileAdapter("test", 100)
				a.FailNext(tt.err)
				a.Push(dm("c", 1))
				a.End()
				outbox := channelstest.NewMemOutbox()
				opts := fastOpts()
				opts.DrainTimeout = time.Hour
				hub := channels.NewHub(fileReply("x", exportFile, false), channelstest.NewMemInbox(), outbox, opts)
				hub.Register(a)
				if err := hub.Run(t.Context()); err != nil {
					t.Fatal(err)
				}
				if got := len(a.Files()) == 1; got != tt.delivered {
					t.Fatalf("delivered %v, want %v", got, tt.delivered)
				}
				for _, at := range a.Attempts() {
					if at.File == nil {
						t.Fatalf("an attempt went without the file: %+v", at)
					}
				}
				want := channelstest.OutSent
				if !tt.delivered {
					want = channelstest.OutAbandoned
				}
				if r := outbox.Records(); len(r) != 1 || r[0].State != want {
					t.Fatalf("outbox %+v, want %s", r, want)
				}
			})
		})
	}
}
