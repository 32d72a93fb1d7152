package core

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/channels"
)

// TestMessagesInOtherLanguages: with no model, a Spanish greeting gets the
// plain notice that Haven reads Spanish only partly, with the
// international directory; a Spanish disclosure gets the crisis reply in
// Spanish with Spain's lines; an English message is answered as before.
func TestMessagesInOtherLanguages(t *testing.T) {
	e, _, _ := newEngine(t, func(o *Options) { o.DefaultCountry = "ES" })
	out := handle(t, e, dm("hola, ¿qué tal?"))
	if out.Kind != channels.OutReply || !strings.Contains(out.Text, "Leo el español solo en parte") || !strings.Contains(out.Text, "findahelpline.com") {
		t.Errorf("Spanish greeting: %s %q", out.Kind, out.Text)
	}
	out = handle(t, e, dm("ya no quiero vivir"))
	if out.Kind != channels.OutCrisis || !strings.Contains(out.Text, "024") || !strings.Contains(out.Text, "?") || strings.Contains(out.Text, "I'm an AI") {
		t.Errorf("Spanish disclosure: %s %q", out.Kind, out.Text)
	}
	e2, _, _ := newEngine(t)
	out = handle(t, e2, dm("hello, how are you?"))
	if out.Kind != channels.OutReply || strings.Contains(out.Text, "only in part") || strings.Contains(out.Text, "findahelpline") {
		t.Errorf("English greeting: %s %q", out.Kind, out.Text)
	}
}
