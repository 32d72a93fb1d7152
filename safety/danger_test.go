package safety

import (
	"strings"
	"testing"
)

func TestDangerLineNamesTheEmergencyNumberOnlyForDangerFlags(t *testing.T) {
	d := DefaultDirectory()
	tests := []struct {
		name    string
		flags   Flags
		country string
		want    string
	}{
		{"abuse in GB", Flags{AbuseOrDanger: true}, "GB", "999"},
		{"harm to others in US", Flags{HarmToOthers: true}, "US", "911"},
		{"abuse with no country", Flags{AbuseOrDanger: true}, "", "local emergency number"},
		{"third party alone", Flags{ThirdParty: true}, "GB", ""},
		{"no flags", Flags{}, "GB", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DangerLine(Assessment{Flags: tt.flags}.Finish(), tt.country)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Fatalf("DangerLine = %q, want it to contain %q", got, tt.want)
			}
			if got != "" {
				checkReplyRules(t, tt.name, got, tt.country, d)
				if strings.Contains(got, "?") {
					t.Errorf("the danger line asks a question: %q", got)
				}
			}
		})
	}
}
