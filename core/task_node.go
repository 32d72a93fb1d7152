package core

import (
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/reply"
)

// This file is the task branch: the person asked Haven to do something.
// Until its capabilities exist (core/tasks), it answers honestly that it
// cannot do that from here yet and points to the commands it knows.

// taskUnavailable is the task branch's answer while it has no capabilities.
const taskUnavailable = "That sounds like something for me to do rather than talk through, and I can't do that from here yet. Type /help to see the commands I know."

// task answers a request to do something. Its reply is assembled like
// every ordinary reply: with a remembered thing in a DM and the emergency
// number when the gate flagged danger.
func (e *Engine) task(t *Turn) {
	t.replied = true
	a := reply.Assemble(reply.Draft{
		Body:   []reply.Part{{Text: taskUnavailable, Key: "task/unavailable", Essential: true}},
		Recall: recall(t),
		Notice: reply.Part{Text: e.dangerNotice(t), Essential: true},
	}, e.replyLimit())
	t.Reply, t.ReplyKind, t.ReplyKeys = a.Text, channels.OutReply, a.Keys
	t.Out = append(t.Out, t.reply(channels.OutReply, a.Text))
}
