package channels

import (
	"context"
	"strings"
)

// Policy says when Haven answers in a shared conversation (a group or a
// channel). DMs are always answered.
type Policy string

// The channel policies. The zero Policy is PolicyMentions.
const (
	// PolicyMentions answers messages that mention Haven or reply to it.
	PolicyMentions Policy = "mentions"
	// PolicyAll answers every message in the conversation.
	PolicyAll Policy = "all"
	// PolicyDMOnly answers only in DMs: a message addressed to Haven here
	// gets a pointer to a DM (and a crisis message still its crisis reply).
	PolicyDMOnly Policy = "dm-only"
)

// ParsePolicy reads a policy name as an operator types it ("mentions",
// "all", "dm-only"); ok is false for anything else.
func ParsePolicy(s string) (p Policy, ok bool) {
	switch Policy(strings.ToLower(strings.TrimSpace(s))) {
	case PolicyMentions:
		return PolicyMentions, true
	case PolicyAll:
		return PolicyAll, true
	case PolicyDMOnly, "dmonly", "dm_only", "dms":
		return PolicyDMOnly, true
	}
	return "", false
}

// Or returns p, or PolicyMentions when p is empty.
func (p Policy) Or() Policy {
	if p == "" {
		return PolicyMentions
	}
	return p
}

// ChannelSettings are what operators set for one conversation with admin
// commands. The zero value is the default: not paused, PolicyMentions.
type ChannelSettings struct {
	// Paused is true when Haven answers nothing in the conversation but a
	// crisis.
	Paused bool
	// Policy says when Haven answers there; empty means PolicyMentions.
	Policy Policy
}

// ChannelPolicies reads a conversation's settings (memory/sqlite's Store
// implements it). The Hub uses it to admit every message of a conversation
// whose policy is PolicyAll.
type ChannelPolicies interface {
	// ChannelSettings returns the settings of the conversation with the
	// namespaced id, the zero value when none were set.
	ChannelSettings(ctx context.Context, conversationID string) (ChannelSettings, error)
}
