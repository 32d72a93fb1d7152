package slack

import "testing"

func TestRenderTextStripsTheBotAndNamesOthers(t *testing.T) {
	names := map[string]string{"U0ANA": "Ana", "U0BEN": ""}
	nameOf := func(id string) string { return names[id] }
	tests := []struct {
		in, want  string
		mentioned bool
	}{
		{"<@UBOT> can you help?", "can you help?", true},
		{"hey <@UBOT>, how are you", "hey how are you", true},
		{"<@UBOT>: hi", "hi", true},
		{"thanks <@UBOT>!", "thanks!", true},
		{"so <@UBOT> what now", "so what now", true},
		{"<@UBOT|haven> hi", "hi", true},
		{"<@UBOT>", "", true},
		{"<@UBOT><@UBOT> twice", "twice", true},
		{"ask <@U0ANA> about it", "ask @Ana about it", false},
		{"ask <@U0BEN> or <@U0CY|cy>", "ask @U0BEN or @cy", false},
		{"see <#C0GENERAL|general> and <#C0X>", "see #general and #C0X", false},
		{"<!here> <!channel> <!everyone>", "@here @channel @everyone", false},
		{"<!subteam^S0123|@support> help", "@support help", false},
		{"<!date^1392734382^{date}|Feb 18, 2014>", "Feb 18, 2014", false},
		{"read <https://example.com/a?b=1&amp;c=2|this> or <https://x.org>", "read this (https://example.com/a?b=1&c=2) or https://x.org", false},
		{"mail <mailto:a@b.org|a@b.org>", "mail a@b.org", false},
		{"1 &lt; 2 &amp;&amp; 3 &gt; 2", "1 < 2 && 3 > 2", false},
		{"an open < bracket", "an open < bracket", false},
		{"  spaced  ", "spaced", false},
		{"<@UBOTTOM> not me", "@UBOTTOM not me", false},
	}
	for _, tt := range tests {
		got, mentioned := renderText(tt.in, "UBOT", nameOf)
		if got != tt.want || mentioned != tt.mentioned {
			t.Errorf("renderText(%q) = %q, %v; want %q, %v", tt.in, got, mentioned, tt.want, tt.mentioned)
		}
	}
}

func TestLocaleHintTakesTheCountryFromTheTimeZone(t *testing.T) {
	tests := []struct{ locale, tz, want string }{
		{"en-US", "America/Chicago", "en-US"},
		{"en-US", "Europe/London", "en-GB"},
		{"en-US", "Asia/Calcutta", "en-IN"}, // an old name
		{"fr-FR", "America/Montreal", "fr-CA"},
		{"es-LA", "America/Mexico_City", "es-MX"},
		{"", "Australia/Sydney", "und-AU"},
		{"ja-JP", "", "ja-JP"},
		{"en-GB", "UTC", "en-GB"},
		{"en-US", "Etc/GMT+5", "en-US"},
		{"", "", ""},
		{"pt_BR", "America/Sao_Paulo", "pt-BR"},
	}
	for _, tt := range tests {
		if got := localeHint(tt.locale, tt.tz); got != tt.want {
			t.Errorf("localeHint(%q, %q) = %q, want %q", tt.locale, tt.tz, got, tt.want)
		}
	}
}
