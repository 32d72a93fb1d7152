package metrics

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core"
)

// Namespace starts every metric name Haven exports.
const Namespace = "haven"

// Buckets of the latency histograms, in seconds.
var (
	// turnBuckets reach from a quarter millisecond (a scripted turn) to
	// about eight seconds (a turn waiting on a model).
	turnBuckets = prometheus.ExponentialBuckets(0.00025, 2, 16)
	// modelBuckets reach from 50 ms to the longest model timeouts.
	modelBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60}
	// platformBuckets include long polls (Telegram's getUpdates waits 30 s).
	platformBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}
)

// Metrics holds Haven's metrics in a registry of its own (never the global
// one), so that two in one process (tests) do not collide. Create it with
// New; its methods are safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	turns       *prometheus.CounterVec
	turnSeconds *prometheus.HistogramVec
	nodeSeconds *prometheus.HistogramVec
	crisis      *prometheus.CounterVec
	replies     *prometheus.CounterVec
	guard       *prometheus.CounterVec

	modelCalls   *prometheus.CounterVec
	modelSeconds *prometheus.HistogramVec
	modelTokens  *prometheus.CounterVec

	platformCalls   *prometheus.CounterVec
	platformSeconds *prometheus.HistogramVec
	platforms       *platforms
}

// New returns Metrics with every series registered, and Go's runtime and
// process metrics beside them.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "turns_total",
			Help: "Turns run, by platform, route (crisis, therapeutic, task, command, approval, none) and therapeutic mode (none off that branch)."},
			[]string{"platform", "route", "mode"}),
		turnSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "turn_duration_seconds",
			Help: "How long a turn took in the engine, by route.", Buckets: turnBuckets}, []string{"route"}),
		nodeSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "node_duration_seconds",
			Help: "How long one node of the turn graph took, by node.", Buckets: turnBuckets}, []string{"node"}),
		crisis: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "crisis_assessments_total",
			Help: "Crisis gate assessments by level (0 no signal, 1 warning signs, 2 ideation, 3 imminent)."}, []string{"level"}),
		replies: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "therapeutic_replies_total",
			Help: "Therapeutic replies by who wrote them: scripted, llm, fallback (the model failed) or guarded (the output guard replaced it)."},
			[]string{"source"}),
		guard: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "guard_replacements_total",
			Help: "Generated replies the output guard replaced with the scripted one, by the rule they failed."}, []string{"rule"}),
		modelCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "model_requests_total",
			Help: "Model calls by use (crisis: the gate's assessor; turn: dispatch and replies; memory: extraction) and outcome (ok, error, timeout, canceled)."},
			[]string{"use", "outcome"}),
		modelSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "model_request_duration_seconds",
			Help: "How long a model call took, whatever its outcome, by use.", Buckets: modelBuckets}, []string{"use"}),
		modelTokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "model_tokens_total",
			Help: "Tokens the model server reported, by use and kind (prompt, completion)."}, []string{"use", "kind"}),
		platformCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "platform_requests_total",
			Help: "HTTP calls to a chat platform's API by platform, API method and status: ok (2xx), 429 (rate limited), 4xx, 5xx, error (no answer) or canceled."},
			[]string{"platform", "method", "status"}),
		platformSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "platform_request_duration_seconds",
			Help: "How long a call to a chat platform's API took, by platform and method (long polls included).", Buckets: platformBuckets},
			[]string{"platform", "method"}),
		platforms: &platforms{byName: map[string]*platform{}},
	}
	m.reg.MustRegister(m.turns, m.turnSeconds, m.nodeSeconds, m.crisis, m.replies, m.guard,
		m.modelCalls, m.modelSeconds, m.modelTokens, m.platformCalls, m.platformSeconds,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in Prometheus's text format (or OpenMetrics,
// when asked for).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// ObserveTurn counts one turn from its report; core.Options.Observe takes
// it.
func (m *Metrics) ObserveTurn(r core.TurnReport) {
	mode := r.Mode
	if mode == "" {
		mode = "none"
	}
	route := string(r.Route)
	m.turns.WithLabelValues(r.Platform, route, mode).Inc()
	m.turnSeconds.WithLabelValues(route).Observe(r.Duration.Seconds())
	for _, n := range r.Nodes {
		m.nodeSeconds.WithLabelValues(string(n.Node)).Observe(n.Duration.Seconds())
	}
	if r.Level >= 0 {
		m.crisis.WithLabelValues(strconv.Itoa(r.Level)).Inc()
	}
	if r.ReplySource != "" {
		m.replies.WithLabelValues(r.ReplySource).Inc()
	}
	if r.GuardRule != "" {
		m.guard.WithLabelValues(r.GuardRule).Inc()
	}
}

// HubStats is what WatchHub reads: channels.Hub implements it.
type HubStats interface {
	Stats() channels.Stats
}

// WatchHub exports the Hub's counters and gauges, read at each scrape:
// queued turns and undelivered replies (the outbox backlog), inbound
// messages by outcome, turn errors, sends, retries and abandoned replies.
// Call it once.
func (m *Metrics) WatchHub(h HubStats) {
	m.reg.MustRegister(hubCollector{h})
}

// hubCollector turns a Stats snapshot into metrics at each scrape.
type hubCollector struct{ h HubStats }

var (
	hubQueued = prometheus.NewDesc(Namespace+"_hub_queued_turns",
		"Turns accepted and not yet finished, across conversations.", nil, nil)
	hubPending = prometheus.NewDesc(Namespace+"_outbox_pending",
		"Replies not yet delivered nor given up on (the outbox backlog).", nil, nil)
	hubInbound = prometheus.NewDesc(Namespace+"_inbound_total",
		"Inbound messages by outcome: accepted (queued for a turn), duplicate (a redelivery dropped), ignored (the channel policy dropped it), replayed (an unfinished turn run again at start).",
		[]string{"outcome"}, nil)
	hubTurnErrors = prometheus.NewDesc(Namespace+"_hub_turn_errors_total",
		"Turns whose engine call failed; the person got the apology notice.", nil, nil)
	hubSent = prometheus.NewDesc(Namespace+"_outbound_sent_total",
		"Replies fully delivered.", nil, nil)
	hubPieces = prometheus.NewDesc(Namespace+"_outbound_pieces_total",
		"Pieces sent (a reply split in three counts three).", nil, nil)
	hubRetries = prometheus.NewDesc(Namespace+"_send_retries_total",
		"Failed send attempts that will be retried.", nil, nil)
	hubAbandoned = prometheus.NewDesc(Namespace+"_outbound_abandoned_total",
		"Replies given up on, for any reason; each is also logged.", nil, nil)
	hubRateLimited = prometheus.NewDesc(Namespace+"_send_rate_limited_total",
		"Send attempts the platform refused with a Retry-After (429).", nil, nil)
	hubGivenUp = prometheus.NewDesc(Namespace+"_outbound_given_up_total",
		"Replies given up on after failing past their maximum age (also in outbound_abandoned_total).", nil, nil)
)

func (c hubCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{hubQueued, hubPending, hubInbound, hubTurnErrors, hubSent, hubPieces, hubRetries, hubAbandoned, hubRateLimited, hubGivenUp} {
		ch <- d
	}
}

func (c hubCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.h.Stats()
	gauge := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v), labels...)
	}
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	gauge(hubQueued, s.Queued)
	gauge(hubPending, s.Pending)
	counter(hubInbound, s.Accepted, "accepted")
	counter(hubInbound, s.Duplicates, "duplicate")
	counter(hubInbound, s.Ignored, "ignored")
	counter(hubInbound, s.Replayed, "replayed")
	counter(hubTurnErrors, s.TurnErrors)
	counter(hubSent, s.Sent)
	counter(hubPieces, s.Pieces)
	counter(hubRetries, s.Retries)
	counter(hubAbandoned, s.Abandoned)
	counter(hubRateLimited, s.RateLimited)
	counter(hubGivenUp, s.GivenUp)
}
