package metrics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/havenbot/haven/channels"
)

// Transport returns base (http.DefaultTransport when nil) with every call
// to the chat platform named platform counted and timed
// (haven_platform_requests_total and haven_platform_request_duration_seconds,
// by API method and status), and the outcome of the latest call kept for
// PlatformProblem. Give it to the adapter's HTTP client. Labels hold the
// last segment of the URL path (the Bot API's method), never the rest of
// it, which holds Telegram's token.
func (m *Metrics) Transport(platform string, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	// Telegram's token is in the URL path, so a malformed one answers
	// 404; elsewhere a 404 names a message, channel or interaction that
	// is gone, which says nothing of the platform.
	return &transport{base: base, name: platform, m: m, state: m.platforms.get(platform), notFoundIsToken: platform == "telegram"}
}

type transport struct {
	base  http.RoundTripper
	name  string
	m     *Metrics
	state *platform
	// notFoundIsToken: a 404 means the token was refused.
	notFoundIsToken bool
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	method := apiMethod(req.URL.Path)
	start := time.Now()
	resp, err := t.base.RoundTrip(req)
	t.m.platformSeconds.WithLabelValues(t.name, method).Observe(time.Since(start).Seconds())
	status, problem := classify(resp, err, req.Context(), t.notFoundIsToken)
	t.m.platformCalls.WithLabelValues(t.name, method, status).Inc()
	if status != "canceled" {
		t.state.set(method, problem)
	}
	return resp, err
}

// apiMethod returns the last segment of an API path when it looks like a
// method name (letters, dots, underscores; Slack's chat.postMessage),
// else "other": ids and tokens never become labels.
func apiMethod(p string) string {
	m := path.Base(p)
	if len(m) == 0 || len(m) > 40 {
		return "other"
	}
	for _, r := range m {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '_') {
			return "other"
		}
	}
	return m
}

// classify returns a call's status label and, when the answer says the
// platform is down or refuses Haven, the problem: no answer, a 5xx, the
// token refused (401, or 404 for a malformed one where notFoundIsToken)
// or a conflict (409: another instance, or a webhook set while polling). A
// 429 or another 4xx is about one request, not about the platform.
func classify(resp *http.Response, err error, ctx context.Context, notFoundIsToken bool) (string, string) {
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return "canceled", ""
		}
		return "error", "its API did not answer (network error or timeout)"
	}
	c := resp.StatusCode
	switch {
	case c < 300:
		return "ok", ""
	case c == http.StatusTooManyRequests:
		return "429", ""
	case c == http.StatusUnauthorized || (c == http.StatusNotFound && notFoundIsToken):
		return "4xx", fmt.Sprintf("its API refused the token (HTTP %d)", c)
	case c == http.StatusConflict:
		return "4xx", "its API answered 409 Conflict (another instance uses the token, or a webhook is set while polling)"
	case c < 500:
		return "4xx", ""
	default:
		return "5xx", fmt.Sprintf("its API answered HTTP %d", c)
	}
}

// platforms keeps the latest call outcome per platform.
type platforms struct {
	mu     sync.Mutex
	byName map[string]*platform
}

func (ps *platforms) get(name string) *platform {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p, ok := ps.byName[name]
	if !ok {
		p = &platform{}
		ps.byName[name] = p
	}
	return p
}

type platform struct {
	mu      sync.Mutex
	method  string // of the latest call
	problem string // "" when the latest call was healthy
}

func (p *platform) set(method, problem string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.method, p.problem = method, problem
}

// PlatformProblem returns why the platform named name looks down or refuses
// Haven, judged by the latest call to its API that ended (canceled calls
// aside): nil when that call was answered in a way that says nothing of the
// kind (2xx, 429, a 4xx about the request), or when no call has ended yet.
// The error names the method, never the URL or the token.
func (m *Metrics) PlatformProblem(name string) error {
	p := m.platforms.get(name)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.problem == "" {
		return nil
	}
	return fmt.Errorf("%s: the latest call (%s): %s", name, p.method, p.problem)
}

// WatchPlatform exports haven_platform_up{platform="name"}: 1 while live
// returns nil, else 0, read at each scrape. Call it once per platform.
func (m *Metrics) WatchPlatform(name string, live func() error) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "platform_up",
		Help:        "1 while the platform's adapter is connected and its API answers, else 0 (the same check as /readyz).",
		ConstLabels: prometheus.Labels{"platform": name},
	}, func() float64 {
		if live() != nil {
			return 0
		}
		return 1
	}))
}

// WatchLiveness exports how long ago the platform named name was last
// heard from, read from live at each scrape:
// haven_platform_last_event_age_seconds and
// haven_platform_last_heartbeat_age_seconds. A series is absent until the
// thing it measures has first happened. Call it once per platform whose
// adapter reports liveness.
func (m *Metrics) WatchLiveness(name string, live func() channels.Liveness) {
	m.reg.MustRegister(livenessCollector{name: name, live: live, now: time.Now})
}

var (
	livenessEventAge = prometheus.NewDesc(Namespace+"_platform_last_event_age_seconds",
		"Seconds since the platform's adapter last received an event (a message, a command).", []string{"platform"}, nil)
	livenessBeatAge = prometheus.NewDesc(Namespace+"_platform_last_heartbeat_age_seconds",
		"Seconds since the platform last proved it is there (a ping, a heartbeat ack, a long poll's answer, an event).", []string{"platform"}, nil)
)

type livenessCollector struct {
	name string
	live func() channels.Liveness
	now  func() time.Time
}

func (c livenessCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- livenessEventAge
	ch <- livenessBeatAge
}

func (c livenessCollector) Collect(ch chan<- prometheus.Metric) {
	l, now := c.live(), c.now()
	for _, s := range []struct {
		d  *prometheus.Desc
		at time.Time
	}{{livenessEventAge, l.LastEvent}, {livenessBeatAge, l.LastHeartbeat}} {
		if !s.at.IsZero() {
			ch <- prometheus.MustNewConstMetric(s.d, prometheus.GaugeValue, max(0, now.Sub(s.at).Seconds()), c.name)
		}
	}
}

// WatchSkipped exports haven_platform_events_skipped_total{platform="name"}:
// platform events the adapter dropped because they were malformed (each
// was logged without its content), read from skipped at each scrape. Call
// it once per platform whose adapter counts them.
func (m *Metrics) WatchSkipped(name string, skipped func() uint64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Namespace: Namespace, Name: "platform_events_skipped_total",
		Help:        "Platform events dropped because they were malformed; each was logged without its content.",
		ConstLabels: prometheus.Labels{"platform": name},
	}, func() float64 { return float64(skipped()) }))
}
