package discord_test

import (
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
)

func TestCheckNamesTheBotOrSaysWhatIsWrong(t *testing.T) {
	t.Parallel()
	srv := discordtest.NewServer(token)
	defer srv.Close()
	a := newAdapter(t, srv, discord.Options{})
	if name, err := a.Check(ctxT(t)); err != nil || name != srv.Bot().Username {
		t.Errorf("Check = %q, %v; want %q", name, err, srv.Bot().Username)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/api/v9/"
	ln.Close()
	b, err := discord.New(discord.Options{Token: token, APIURL: closed, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Check(ctxT(t))
	if err == nil || !strings.Contains(err.Error(), "HAVEN_DISCORD_API_URL") || strings.Contains(err.Error(), token) {
		t.Errorf("Check against nothing = %v, want an error naming HAVEN_DISCORD_API_URL", err)
	}
}
