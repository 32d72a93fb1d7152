package configs_test

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/configs"
)

func TestUnknownHavenVariablesAreErrorsNamingTheClosestKnownOne(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin",
		"HAVEN_LOG_LEVEL=debug",
		"HAVEN_CHAT_TOKEN=tok-1",
		"HAVEN_CHAT_TOKN=tok-secret-value",
		"HAVEN_DATABSE_PATH=/tmp/x.db",
		"HAVEN_FROBNICATE=1",
		"HAVENLY=1",
	}
	err := configs.CheckEnviron(environ, chatSection(defaultChat()))
	if err == nil {
		t.Fatal("CheckEnviron accepted unknown HAVEN_ variables")
	}
	msg := err.Error()
	for _, want := range []string{
		"HAVEN_CHAT_TOKN is not one Haven reads; did you mean HAVEN_CHAT_TOKEN?",
		"HAVEN_DATABSE_PATH is not one Haven reads; did you mean HAVEN_DATABASE_PATH?",
		"HAVEN_FROBNICATE is not one Haven reads: unset it",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not contain %q:\n%s", want, msg)
		}
	}
	for _, never := range []string{"tok-secret-value", "HAVEN_LOG_LEVEL", "HAVEN_CHAT_TOKEN is", "PATH=", "HAVENLY"} {
		if strings.Contains(msg, never) {
			t.Errorf("error mentions %q:\n%s", never, msg)
		}
	}
}

func TestKnownHavenVariablesPassTheEnvironmentCheck(t *testing.T) {
	var environ []string
	for _, k := range configs.Keys(chatSection(defaultChat())) {
		environ = append(environ, k.Env+"=x")
	}
	if err := configs.CheckEnviron(environ, chatSection(defaultChat())); err != nil {
		t.Fatalf("CheckEnviron refused known variables: %v", err)
	}
}

func TestDefaultCountryMustBeACountryCode(t *testing.T) {
	tests := []struct {
		code, want string // want "" means valid
	}{
		{"GB", ""},
		{"US", ""},
		{"DE", ""},
		{"XK", ""}, // Kosovo: user-assigned, but a country
		{"ZZ", "is not a country in ISO 3166-1"},
		{"EU", "is not a country in ISO 3166-1"},
		{"QO", "is not a country in ISO 3166-1"},
		{"UK", "write GB"},
		{"gb", "is not an ISO 3166-1 alpha-2 code"},
		{"GBR", "is not an ISO 3166-1 alpha-2 code"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			c := valid()
			c.Safety.DefaultCountry = tt.code
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate = %v, want %s accepted", err, tt.code)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "HAVEN_SAFETY_DEFAULT_COUNTRY")):
				t.Fatalf("Validate = %v, want it to say %q and name the variable", err, tt.want)
			}
		})
	}
}

func TestMetricsListenMustBeAnAddress(t *testing.T) {
	for _, tt := range []struct {
		addr string
		ok   bool
	}{
		{"", true}, {":9464", true}, {"127.0.0.1:9464", true}, {"[::1]:0", true},
		{"9464", false}, {"localhost:http", false}, {"127.0.0.1:99999", false},
	} {
		c := valid()
		c.Metrics.Listen = tt.addr
		err := c.Validate()
		if ok := err == nil; ok != tt.ok {
			t.Errorf("metrics.listen %q: Validate = %v, want ok=%v", tt.addr, err, tt.ok)
		} else if !ok && !strings.Contains(err.Error(), "HAVEN_METRICS_LISTEN") {
			t.Errorf("metrics.listen %q: error %v does not name HAVEN_METRICS_LISTEN", tt.addr, err)
		}
	}
}
