package slacktest

import (
	"context"
	"io"
	"log"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// EchoBot starts a bare echo bot built on slack-go's Socket Mode client
// against s: it acks every envelope and answers every person's message
// with its text, one chat.postMessage at a time. It is the baseline
// Haven's Slack benchmark compares with. stop ends the bot and waits for
// its goroutines.
func (s *Server) EchoBot() (stop func()) {
	api := slack.New(s.botToken, slack.OptionAPIURL(s.APIURL()), slack.OptionAppLevelToken(s.appToken))
	client := socketmode.New(api, socketmode.OptionLog(log.New(io.Discard, "", 0)))
	ctx, cancel := context.WithCancel(context.Background())
	run := make(chan struct{})
	loop := make(chan struct{})
	go func() {
		defer close(run)
		_ = client.RunContext(ctx)
	}()
	go func() {
		defer close(loop)
		for {
			select {
			case <-ctx.Done():
				return
			case evt := <-client.Events:
				if evt.Type != socketmode.EventTypeEventsAPI || evt.Request == nil {
					continue
				}
				_ = client.AckCtx(ctx, evt.Request.EnvelopeID, nil)
				ev, _ := evt.Data.(slackevents.EventsAPIEvent)
				if m, ok := ev.InnerEvent.Data.(*slackevents.MessageEvent); ok && m.BotID == "" && m.SubType == "" {
					_, _, _ = api.PostMessageContext(ctx, m.Channel, slack.MsgOptionText(m.Text, false))
				}
			}
		}
	}()
	return func() {
		cancel()
		<-loop
		<-run
	}
}
