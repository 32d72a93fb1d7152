package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord/discordtest"
)

const discordToken = "MTAwMDAx.serve-test.token_abcdefghijklmnopqrstuvwxyz"

// discordServed is `haven serve` on a fake Discord with one server
// (#general) where Ana and Ben are members.
type discordServed struct {
	srv      *discordtest.Server
	guild    string
	general  string
	ana, ben discordgo.User
	logs     *watch
	done     <-chan int
	cancel   context.CancelFunc
}

func serveDiscord(t *testing.T) *discordServed {
	t.Helper()
	srv := discordtest.NewServer(discordToken)
	t.Cleanup(srv.Close)
	d := &discordServed{srv: srv}
	d.guild = srv.AddGuild("Haven test server")
	d.general = srv.AddChannel(d.guild, "general", discordgo.ChannelTypeGuildText)
	d.ana, d.ben = srv.AddUser("Ana"), srv.AddUser("Ben")
	srv.AddMember(d.guild, d.ana.ID)
	srv.AddMember(d.guild, d.ben.ID)
	env := envOf(map[string]string{
		"HAVEN_DISCORD_TOKEN":   discordToken,
		"HAVEN_DISCORD_API_URL": srv.APIURL(),
		"HAVEN_DATABASE_PATH":   filepath.Join(t.TempDir(), "h.db"),
	})
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	d.logs, d.done = serveConnectedTo(t, ctx, env, "discord")
	t.Cleanup(func() { d.stop(t) })
	return d
}

// stop ends serve and checks it exited cleanly (once).
func (d *discordServed) stop(t *testing.T) {
	if d.cancel == nil {
		return
	}
	d.cancel()
	d.cancel = nil
	if code := <-d.done; code != 0 {
		t.Errorf("serve exited %d; stderr:\n%s", code, d.logs)
	}
}

func (d *discordServed) posts(t *testing.T, n int) []discordtest.Post {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := d.srv.WaitPosts(ctx, n)
	if err != nil {
		t.Fatalf("waiting for %d posts: %v; posts %+v; stderr:\n%s", n, err, p, d.logs)
	}
	return p
}

func TestServeAnswersOnDiscordThroughTheFake(t *testing.T) {
	d := serveDiscord(t)
	dm := d.srv.DMChannel(d.ana.ID)
	d.srv.Post(d.srv.NewMessage(dm, d.ana.ID, "I have been so stressed about work"))
	first := d.posts(t, 1)[0]
	d.srv.Post(d.srv.NewMessage(dm, d.ana.ID, crisisText))
	crisis := d.posts(t, 2)[1]
	if first.ChannelID != dm || !strings.Contains(first.Content, "work") {
		t.Errorf("first reply %+v does not attend to the message in the DM", first)
	}
	if crisis.ChannelID != dm || !namesResource(crisis.Content) {
		t.Errorf("crisis reply %q names no emergency resource", crisis.Content)
	}
	for _, p := range []discordtest.Post{first, crisis} {
		if p.Pings() {
			t.Errorf("a reply pings: %+v", p.AllowedMentions)
		}
	}
	d.stop(t)
	if strings.Contains(d.logs.String(), "stressed") || strings.Contains(d.logs.String(), crisisText) {
		t.Error("the log holds what the person said")
	}
}

func TestServeAnswersACrisisInAServerByDMWithAPublicNote(t *testing.T) {
	d := serveDiscord(t)
	d.srv.CloseDMs(d.ben.ID)
	mention := discordtest.Mention(d.srv.Bot().ID) + " "
	ana := d.srv.NewMessage(d.general, d.ana.ID, mention+crisisText)
	d.srv.Post(ana)
	p := d.posts(t, 2)
	var inDM, note discordtest.Post
	for _, x := range p {
		if x.ChannelID == d.general {
			note = x
		} else {
			inDM = x
		}
	}
	if inDM.ChannelID != d.srv.DMChannel(d.ana.ID) || !namesResource(inDM.Content) {
		t.Errorf("the crisis reply %+v did not go to Ana's DM with a resource", inDM)
	}
	if note.ReplyTo != ana.ID || namesResource(note.Content) || !strings.Contains(strings.ToLower(note.Content), "message") {
		t.Errorf("public note %+v: want a short reply pointing to messages, without the resources", note)
	}
	// Ben does not take DMs: his details cannot go privately, and the
	// public note, which tells him to write directly, still goes.
	d.srv.Post(d.srv.NewMessage(d.general, d.ben.ID, mention+crisisText))
	p = d.posts(t, 3)
	if p[2].ChannelID != d.general || namesResource(p[2].Content) {
		t.Errorf("the note to Ben %+v, want a public note without resources", p[2])
	}
	// Ana steps back; her answer comes to the channel, after the note to Ben.
	d.srv.Post(d.srv.NewMessage(d.general, d.ana.ID, mention+"thanks, I'm okay now, my sister is with me"))
	if p := d.posts(t, 4); p[3].ChannelID != d.general || len(p) != 4 {
		t.Errorf("after Ben's note: %+v", p[3:])
	}
}

func TestServeCarriesASlashCommandBothWays(t *testing.T) {
	d := serveDiscord(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmds, err := d.srv.WaitCommands(ctx, "")
	if err != nil || len(cmds) != 1 || cmds[0].Name != "haven" {
		t.Fatalf("registered %+v (%v), want /haven", cmds, err)
	}
	id := d.srv.Invoke(discordtest.Invocation{ChannelID: d.general, UserID: d.ana.ID, Name: "haven",
		Options: []discordtest.CommandOption{{Name: "command", Value: "help"}}})
	p := d.posts(t, 1)[0]
	if p.InteractionID != id || !p.Ephemeral || p.Content == "" {
		t.Errorf("answer %+v, want an ephemeral follow-up to the command", p)
	}
}

func TestDoctorChecksTheDiscordToken(t *testing.T) {
	srv := discordtest.NewServer(discordToken)
	defer srv.Close()
	for _, tt := range []struct {
		token, want string
	}{
		{discordToken, "ok    discord       the token works: the bot is @Haven"},
		{"wrong.token", "FAIL  discord       discord: Discord refused the bot token; check HAVEN_DISCORD_TOKEN"},
	} {
		env := envOf(map[string]string{"HAVEN_DISCORD_TOKEN": tt.token, "HAVEN_DISCORD_API_URL": srv.APIURL(),
			"HAVEN_DATABASE_PATH": filepath.Join(t.TempDir(), "h.db")})
		_, out, _ := haven(t, "", env, "doctor")
		if !strings.Contains(out, tt.want) || strings.Contains(out, tt.token) {
			t.Errorf("doctor's report lacks %q (or quotes the token):\n%s", tt.want, out)
		}
	}
}
