package telegram_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

func TestCheckSaysWhetherTheTokenWorksWithoutQuotingIt(t *testing.T) {
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	// A port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/bot%s/%s"
	ln.Close()
	const wrong = "654321:wrong-token-abcdefghijklmnopqrstuvw"
	tests := []struct {
		name, token, endpoint string
		want                  string // "" for the bot's username
		unauthorized          bool
	}{
		{"right token", token, srv.APIEndpoint(), "", false},
		{"wrong token", wrong, srv.APIEndpoint(), "HAVEN_TELEGRAM_TOKEN", true},
		{"no Bot API there", token, closed, "cannot reach the Bot API at http://" + ln.Addr().String(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := telegram.New(telegram.Options{Token: tt.token, APIEndpoint: tt.endpoint})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			name, err := a.Check(context.Background())
			if tt.want == "" {
				if err != nil || name != srv.Bot().UserName {
					t.Fatalf("Check = %q, %v; want the bot's username %q", name, err, srv.Bot().UserName)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, telegram.ErrUnauthorized) != tt.unauthorized {
				t.Fatalf("Check = %v; want an error saying %q (unauthorized: %v)", err, tt.want, tt.unauthorized)
			}
			if strings.Contains(err.Error(), tt.token) {
				t.Errorf("the error quotes the token: %v", err)
			}
		})
	}
}
