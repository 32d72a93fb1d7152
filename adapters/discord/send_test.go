package discord_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

func conv(id string, kind channels.Kind) channels.Conversation {
	return channels.Conversation{ID: "discord::" + id, Kind: kind}
}

func TestRepliesReferenceTheMessageInGuildsAndPingNobody(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := newAdapter(t, w.srv, discord.Options{}) // sending needs no gateway
	asked := w.say(w.general, w.ana, w.mention("hi @everyone"))
	dmAsked := w.dm(w.ana, "hi")
	outs := []channels.Outbound{
		{Conversation: conv(w.general, channels.KindChannel), ReplyTo: "discord::" + w.general + ":" + asked.ID, Text: "echo: hi @everyone <@" + w.ben.ID + ">"},
		{Conversation: conv(dmAsked.ChannelID, channels.KindDM), ReplyTo: "discord::" + dmAsked.ChannelID + ":" + dmAsked.ID, Text: "hello"},
	}
	for _, out := range outs {
		if err := a.Send(ctxT(t), out); err != nil {
			t.Fatal(err)
		}
	}
	p := w.srv.Posts()
	if p[0].ReplyTo != asked.ID || p[0].Pings() || p[0].Flags&discordgo.MessageFlagsSuppressEmbeds == 0 {
		t.Errorf("guild reply %+v (allowed mentions %+v), want it to reference %s, ping nobody, show no previews", p[0], p[0].AllowedMentions, asked.ID)
	}
	if p[1].ReplyTo != "" || p[1].ChannelID != dmAsked.ChannelID {
		t.Errorf("DM reply %+v, want it in the DM without a reference", p[1])
	}
}

func TestAMentionInsideAThreadIsAnsweredInTheThread(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	runHub(t, w, discord.Options{}, nil)
	for _, ch := range []string{w.thread, w.post} {
		m := w.say(ch, w.ana, w.mention("in here"))
		posts := w.srv.Posts()
		p := w.posts(t, len(posts)+1)[len(posts)]
		if p.ChannelID != ch || p.ReplyTo != m.ID || p.Content != "echo: in here" {
			t.Errorf("answer %+v, want it in thread %s replying to %s", p, ch, m.ID)
		}
	}
	if ty := w.srv.Typing(); len(ty) != 2 || ty[0] != w.thread || ty[1] != w.post {
		t.Errorf("typing shown in %v, want the thread and the forum post", ty)
	}
}

func TestA429IsReturnedWithItsWaitAndScope(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := newAdapter(t, w.srv, discord.Options{})
	out := channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Text: "hello"}
	tests := []struct {
		name   string
		f      discordtest.Failure
		wait   time.Duration
		global bool
	}{
		{"per route", discordtest.Failure{Status: 429, RetryAfter: 1500 * time.Millisecond}, 1500 * time.Millisecond, false},
		{"global", discordtest.Failure{Status: 429, RetryAfter: 2 * time.Second, Global: true}, 2 * time.Second, true},
		{"Cloudflare's ban page", discordtest.Failure{Status: 429, RetryAfter: 30 * time.Second, Body: "<html>Access denied</html>"}, 30 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.srv.FailNext(discordtest.OpCreateMessage, tt.f)
			err := a.Send(ctxT(t), out)
			if channels.RetryAfter(err) != tt.wait || channels.IsGlobalRateLimit(err) != tt.global || channels.IsPermanent(err) {
				t.Errorf("Send = %v: retry after %s global %v, want %s and %v", err, channels.RetryAfter(err), channels.IsGlobalRateLimit(err), tt.wait, tt.global)
			}
		})
	}
}

func TestA429IsHonouredWithNothingLost(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := runHub(t, w, discord.Options{}, nil)
	for range 2 {
		w.srv.FailNext(discordtest.OpCreateMessage, discordtest.Failure{Status: 429, RetryAfter: 100 * time.Millisecond})
	}
	w.dm(w.ana, "long")
	want := channels.Split(channelstest.LongReply(h.a.MessageLimit().Max), h.a.MessageLimit())
	got := w.posts(t, len(want))
	for i, p := range got {
		if p.Content != want[i] {
			t.Errorf("piece %d differs from the split reply", i)
		}
	}
	if n := w.srv.Calls(discordtest.OpCreateMessage); n != len(want)+2 {
		t.Errorf("%d calls for %d pieces and two 429s", n, len(want))
	}
	w.dm(w.ana, "marker")
	if p := w.posts(t, len(want)+1); len(p) != len(want)+1 || p[len(want)].Content != "echo: marker" {
		t.Errorf("after the long reply: %d posts, want %d and the marker's answer", len(p), len(want)+1)
	}
}

func TestSendErrorsAreMappedPermanentOrTransient(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := newAdapter(t, w.srv, discord.Options{})
	tests := []struct {
		name      string
		f         discordtest.Failure
		permanent bool
		is        error
	}{
		{"Missing Access", discordtest.MissingAccess, true, nil},
		{"Unknown Channel", discordtest.UnknownChannel, true, nil},
		{"Missing Permissions", discordtest.MissingPermissions, true, nil},
		{"Cannot send messages to this user", discordtest.CannotDM, true, discord.ErrCannotDM},
		{"a refused token", discordtest.Failure{Status: http.StatusUnauthorized}, true, discord.ErrUnauthorized},
		{"a bad request", discordtest.Failure{Status: http.StatusBadRequest, Code: 50035}, true, nil},
		{"an internal error", discordtest.Failure{Status: http.StatusInternalServerError}, false, nil},
		{"a bad gateway", discordtest.Failure{Status: http.StatusBadGateway}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.srv.FailNext(discordtest.OpCreateMessage, tt.f)
			err := a.Send(ctxT(t), channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Text: "hello"})
			var se *channels.SendError
			if !errors.As(err, &se) || se.Permanent != tt.permanent || (tt.is != nil && !errors.Is(err, tt.is)) || se.RetryAfter != 0 {
				t.Errorf("Send = %v, want a SendError with Permanent %v wrapping %v", err, tt.permanent, tt.is)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("the error holds the token: %v", err)
			}
		})
	}
	calls := w.srv.Calls(discordtest.OpCreateMessage)
	if err := a.Send(ctxT(t), channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Text: strings.Repeat("x", 2001)}); !channels.IsPermanent(err) {
		t.Errorf("an overlong message: %v, want a permanent error", err)
	}
	if w.srv.Calls(discordtest.OpCreateMessage) != calls {
		t.Error("an overlong message was sent to Discord")
	}
}

func TestAPrivateMessageInAGuildGoesToTheRecipientsDM(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := newAdapter(t, w.srv, discord.Options{})
	out := channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Kind: channels.OutCrisis, Private: true,
		Recipient: "discord::" + w.ana.ID, ReplyTo: "discord::" + w.general + ":1", Text: "just for you"}
	for range 2 {
		if err := a.Send(ctxT(t), out); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range w.srv.Posts() {
		if p.ChannelID != w.srv.DMChannel(w.ana.ID) || p.ReplyTo != "" || p.Content != "just for you" {
			t.Errorf("post %+v, want it in Ana's DM", p)
		}
	}
	if n := w.srv.Calls(discordtest.OpCreateDM); n != 1 {
		t.Errorf("the DM channel was opened %d times, want once", n)
	}
	w.srv.CloseDMs(w.ana.ID)
	if err := a.Send(ctxT(t), out); !errors.Is(err, discord.ErrCannotDM) || !channels.IsPermanent(err) {
		t.Errorf("to closed DMs: %v, want a permanent ErrCannotDM", err)
	}
	if err := a.Send(ctxT(t), channels.Outbound{Conversation: out.Conversation, Private: true, Text: "x"}); !channels.IsPermanent(err) {
		t.Errorf("a private message without a recipient: %v, want a permanent error", err)
	}
}

func TestAFileGoesAsAnAttachmentWhereItsTextWould(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := run(t, w, discord.Options{})
	file := &channels.File{Name: "haven-export.json", ContentType: "application/json", Data: []byte(`{"facts":[]}`)}
	// An export asked for in a guild: privately, to the DM.
	if err := r.a.SendFile(ctxT(t), channels.Outbound{Conversation: conv(w.general, channels.KindChannel), Private: true,
		Recipient: "discord::" + w.ana.ID, Text: "Here is everything I hold about you.", File: file}); err != nil {
		t.Fatal(err)
	}
	// Asked for with /haven: ephemerally, on the interaction.
	invoke(w, w.general, w.ben, "export", "")
	in := r.sink.next(t)
	if err := r.a.SendFile(ctxT(t), channels.Outbound{Conversation: in.Conversation, ReplyTo: in.MessageID, File: file}); err != nil {
		t.Fatal(err)
	}
	p := w.posts(t, 2)
	for i, want := range []struct {
		channel   string
		ephemeral bool
		text      string
	}{{w.srv.DMChannel(w.ana.ID), false, "Here is everything I hold about you."}, {w.general, true, ""}} {
		f := p[i].Files
		if p[i].ChannelID != want.channel || p[i].Ephemeral != want.ephemeral || p[i].Content != want.text ||
			len(f) != 1 || f[0].Name != file.Name || f[0].ContentType != file.ContentType || string(f[0].Data) != string(file.Data) {
			t.Errorf("post %d: %+v, want the file in %s (ephemeral %v)", i, p[i], want.channel, want.ephemeral)
		}
	}
	if err := r.a.Send(ctxT(t), channels.Outbound{Conversation: conv(w.general, channels.KindChannel), File: file}); !channels.IsPermanent(err) {
		t.Errorf("Send with a file: %v, want a permanent error (files go to SendFile)", err)
	}
}
