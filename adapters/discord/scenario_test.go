package discord_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

// token is the fake's bot token.
const token = "MTAwMDAx.fake-test.token_abcdefghijklmnopqrstuvwxyz"

// dcPlatform drives the scenario suite on the fake Discord.
type dcPlatform struct {
	srv     *discordtest.Server
	a       *discord.Adapter
	guild   string
	channel string
	admins  string // a role with Administrator
	people  []discordgo.User

	mu   sync.Mutex
	msgs map[string]*discordgo.Message // by namespaced message id
}

var _ channelstest.Platform = (*dcPlatform)(nil)

func newDCPlatform(t *testing.T) channelstest.Platform {
	srv := discordtest.NewServer(token)
	t.Cleanup(srv.Close)
	a := newAdapter(t, srv, discord.Options{})
	p := &dcPlatform{srv: srv, a: a, msgs: map[string]*discordgo.Message{}}
	p.guild = srv.AddGuild("Scenario guild")
	p.channel = srv.AddChannel(p.guild, "general", discordgo.ChannelTypeGuildText)
	p.admins = srv.AddRole(p.guild, "Admins", discordtest.PermAdministrator)
	for _, name := range []string{"Ana", "Ben", "Cy"} {
		u := srv.AddUser(name)
		srv.AddMember(p.guild, u.ID)
		p.people = append(p.people, u)
	}
	return p
}

// newAdapter makes an adapter on srv that logs nowhere and retries at
// once; opts adds to the defaults.
func newAdapter(t testing.TB, srv *discordtest.Server, opts discord.Options) *discord.Adapter {
	t.Helper()
	opts.Token, opts.APIURL = srv.Token(), srv.APIURL()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	a, err := discord.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	discord.SetSleep(a, func(ctx context.Context, d time.Duration) error { return ctx.Err() })
	return a
}

func (p *dcPlatform) Adapter() channels.Adapter { return p.a }

func (p *dcPlatform) post(m *discordgo.Message) channelstest.Message {
	p.srv.Post(m)
	msg := channelstest.Message{Conversation: "discord::" + m.ChannelID, ID: "discord::" + m.ChannelID + ":" + m.ID}
	p.mu.Lock()
	p.msgs[msg.ID] = m
	p.mu.Unlock()
	return msg
}

func (p *dcPlatform) DM(t testing.TB, person int, text string) channelstest.Message {
	u := p.people[person]
	return p.post(p.srv.NewMessage(p.srv.DMChannel(u.ID), u.ID, text))
}

func (p *dcPlatform) Group(t testing.TB, person int, text string, mention bool) channelstest.Message {
	if mention {
		text = discordtest.Mention(p.srv.Bot().ID) + " " + text
	}
	return p.post(p.srv.NewMessage(p.channel, p.people[person].ID, text))
}

func (p *dcPlatform) message(t testing.TB, m channelstest.Message) *discordgo.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	msg, ok := p.msgs[m.ID]
	if !ok {
		t.Fatalf("unknown message %s", m.ID)
	}
	return msg
}

func (p *dcPlatform) Edit(t testing.TB, m channelstest.Message, text string) {
	p.srv.Edit(p.message(t, m), text)
}

func (p *dcPlatform) Redeliver(t testing.TB, m channelstest.Message) {
	p.srv.Redeliver(p.message(t, m))
}

func (p *dcPlatform) OwnMessage(t testing.TB, text string) {
	bot := p.srv.Bot()
	p.srv.Post(p.srv.NewMessage(p.channel, bot.ID, discordtest.Mention(bot.ID)+" "+text))
}

func (p *dcPlatform) MakeAdmin(t testing.TB, person int) {
	p.srv.GrantRole(p.guild, p.people[person].ID, p.admins)
}

func (p *dcPlatform) DropConnection(t testing.TB) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.srv.WaitLive(ctx); err != nil {
		t.Fatal(err)
	}
	if n := p.srv.DropConnections(); n == 0 {
		t.Fatal("no gateway connection was open to drop")
	}
}

func (p *dcPlatform) RateLimitNextSend(t testing.TB, d time.Duration) {
	p.srv.FailNext(discordtest.OpCreateMessage, discordtest.Failure{Status: 429, RetryAfter: d})
}

func (p *dcPlatform) WaitPosted(ctx context.Context, n int) ([]channelstest.Posted, error) {
	posts, err := p.srv.WaitPosts(ctx, n)
	return posted(posts), err
}

// posted is how people see the bot's posts.
func posted(posts []discordtest.Post) []channelstest.Posted {
	out := make([]channelstest.Posted, len(posts))
	for i, s := range posts {
		out[i] = channelstest.Posted{Conversation: "discord::" + s.ChannelID, Text: s.Content}
		if s.ReplyTo != "" {
			out[i].ReplyTo = "discord::" + s.ChannelID + ":" + s.ReplyTo
		}
	}
	return out
}

func TestScenarios(t *testing.T) {
	t.Parallel()
	channelstest.RunScenarios(t, newDCPlatform)
}
