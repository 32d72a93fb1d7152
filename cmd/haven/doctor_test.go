package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/llm/llmtest"
)

// closedURL returns an http URL on 127.0.0.1 where nothing listens.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "http://" + ln.Addr().String()
}

func TestDoctorNamesAWrongTokenAnUnreachableModelAndAReadOnlyDatabase(t *testing.T) {
	if !unprivileged(t) {
		return
	}
	const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"
	const wrong = "654321:wrong-token-abcdefghijklmnopqrstuvw"
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "h.db")
	makeReadOnly(t, db)
	modelURL := closedURL(t) + "/v1"
	env := envOf(map[string]string{
		"HAVEN_TELEGRAM_TOKEN":   wrong,
		"HAVEN_TELEGRAM_API_URL": srv.APIEndpoint(),
		"HAVEN_LLM_BASE_URL":     modelURL,
		"HAVEN_LLM_MODEL":        "llama3.1:8b",
		"HAVEN_DATABASE_PATH":    db,
	})
	code, out, errOut := haven(t, "", env, "doctor")
	if code != 1 || !strings.Contains(errOut, "doctor found 3 problem(s)") {
		t.Errorf("exit %d, stderr %q; want 1 and three problems", code, errOut)
	}
	for _, want := range []string{
		"FAIL  telegram      telegram: the Bot API rejected the bot token; check HAVEN_TELEGRAM_TOKEN",
		"FAIL  model         nothing answers at llm.base_url " + modelURL,
		"start the model server, or correct llm.base_url (HAVEN_LLM_BASE_URL)",
		"FAIL  database      " + db + " is read-only for this user",
		"give that user write permission on the file and its folder",
		"ok    disk",
		"warn  safety        safety.default_country is empty",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor's report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errOut, wrong) {
		t.Errorf("doctor quotes the token:\n%s", out)
	}
}

func TestDoctorPassesAWorkingSetupAndNamesUnknownVariables(t *testing.T) {
	const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	model := llmtest.NewServer(t)
	defer model.Close()
	m := map[string]string{
		"HAVEN_TELEGRAM_TOKEN":         token,
		"HAVEN_TELEGRAM_API_URL":       srv.APIEndpoint(),
		"HAVEN_LLM_BASE_URL":           model.URL(),
		"HAVEN_LLM_MODEL":              "test-model",
		"HAVEN_DATABASE_PATH":          filepath.Join(t.TempDir(), "data", "h.db"),
		"HAVEN_SAFETY_DEFAULT_COUNTRY": "GB",
	}
	code, out, errOut := haven(t, "", envOf(m), "doctor")
	if code != 0 || !strings.Contains(out, "ok    telegram      the token works: the bot is @") ||
		!strings.Contains(out, "ok    model         test-model at "+model.URL()+" answered") || !strings.Contains(out, "does not exist yet") {
		t.Fatalf("exit %d; want 0 and every check fine:\n%s%s", code, out, errOut)
	}

	var environ []string
	for k, v := range m {
		environ = append(environ, k+"="+v)
	}
	var outb, errb strings.Builder
	code = run(t.Context(), []string{"doctor"}, stdio{in: strings.NewReader(""), out: &outb, err: &errb,
		environ: append(environ, "HAVEN_LLM_MODLE=x")}, envOf(m)) //nolint:misspell // the misspelt variable is the test's input
	if code != 1 || !strings.Contains(outb.String(), "FAIL  environment   environment variable HAVEN_LLM_MODLE is not one Haven reads; did you mean HAVEN_LLM_MODEL?") { //nolint:misspell // the input, quoted back
		t.Fatalf("with a misspelt variable: exit %d\n%s%s", code, outb.String(), errb.String())
	}
}
