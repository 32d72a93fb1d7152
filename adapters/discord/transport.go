package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// discordAPI is the API root discordgo builds its URLs from (its
// package-level EndpointAPI, which Haven never changes).
var discordAPI = mustParse(DefaultAPIURL)

func mustParse(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// transport is the RoundTripper of the session's HTTP client. It
//
//   - sends requests for Discord's API root to the configured one (another
//     scheme, host and path prefix), so that discordgo reaches a fake or a
//     proxy while its package-level endpoint variables stay untouched;
//   - gives a request the library made without a context (its /gateway
//     call inside Session.Open) the adapter's context and a deadline, so
//     that shutdown is never held up by it;
//   - records what a 429 said about its scope in the call's rateInfo (the
//     library's RateLimitError keeps only retry_after);
//   - removes the X-RateLimit-* headers before the library reads them:
//     its rate limiter sleeps on them, without a context, in every later
//     call of the bucket (or of all buckets, for a global limit). Haven's
//     Hub paces sends itself and honours each 429's retry_after, holding
//     back only what the limit concerns.
type transport struct {
	next http.RoundTripper
	to   *url.URL
	// base returns the context for requests that have none.
	base func() context.Context
}

// callTimeout bounds a request that came without a context.
const callTimeout = 30 * time.Second

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var cancel context.CancelFunc
	if ctx.Done() == nil {
		ctx, cancel = context.WithTimeout(t.base(), callTimeout)
	}
	r := req.Clone(ctx)
	if u, ok := rewrite(req.URL, t.to); ok {
		r.URL, r.Host = u, ""
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		if cancel != nil {
			cancel()
		}
		return nil, err
	}
	if cancel != nil {
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		if info, ok := ctx.Value(rateInfoKey{}).(*rateInfo); ok {
			info.record(resp)
		}
	}
	for k := range resp.Header {
		if strings.HasPrefix(k, "X-Ratelimit-") {
			resp.Header.Del(k)
		}
	}
	return resp, nil
}

// rewrite maps a URL under Discord's API root to the same path under to.
func rewrite(u, to *url.URL) (*url.URL, bool) {
	if to == nil || u.Scheme != discordAPI.Scheme || u.Host != discordAPI.Host || !strings.HasPrefix(u.Path, discordAPI.Path) {
		return nil, false
	}
	out := *u
	out.Scheme, out.Host = to.Scheme, to.Host
	out.Path = to.Path + strings.TrimPrefix(u.Path, discordAPI.Path)
	if u.RawPath != "" {
		out.RawPath = strings.TrimSuffix(to.EscapedPath(), "/") + "/" + strings.TrimPrefix(u.RawPath, discordAPI.Path)
	}
	return &out, true
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// rateInfo is what the responses of one call said about rate limits.
type rateInfo struct {
	mu         sync.Mutex
	limited    bool
	global     bool
	retryAfter time.Duration
}

type rateInfoKey struct{}

// withRateInfo returns ctx carrying a fresh rateInfo for one call.
func withRateInfo(ctx context.Context) (context.Context, *rateInfo) {
	info := &rateInfo{}
	return context.WithValue(ctx, rateInfoKey{}, info), info
}

// record reads a 429: its scope from the headers (X-RateLimit-Global,
// X-RateLimit-Scope) or the body ("global"), its wait from the body
// (retry_after, seconds with milliseconds) or the headers. A 429 without
// Discord's headers and JSON body comes from Cloudflare, which bans the
// address for everything: global.
func (i *rateInfo) record(resp *http.Response) {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var b struct {
		RetryAfter *float64 `json:"retry_after"`
		Global     bool     `json:"global"`
	}
	jsonErr := json.Unmarshal(body, &b)
	h := resp.Header
	scope := strings.ToLower(h.Get("X-RateLimit-Scope"))
	global := b.Global || strings.EqualFold(h.Get("X-RateLimit-Global"), "true") || scope == "global" ||
		(jsonErr != nil && scope == "" && h.Get("X-RateLimit-Bucket") == "")
	var wait time.Duration
	switch {
	case jsonErr == nil && b.RetryAfter != nil:
		wait = seconds(*b.RetryAfter)
	case h.Get("Retry-After") != "":
		if f, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil {
			wait = seconds(f)
		}
	case h.Get("X-RateLimit-Reset-After") != "":
		if f, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64); err == nil {
			wait = seconds(f)
		}
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.limited, i.global, i.retryAfter = true, global, wait
}

// seconds converts Discord's seconds with milliseconds to a Duration as
// discordgo does (whole seconds plus whole milliseconds), so both agree.
func seconds(f float64) time.Duration {
	if f <= 0 || f > 1e6 {
		return 0
	}
	whole := int64(f)
	ms := int64((f - float64(whole)) * 1000)
	return time.Duration(whole)*time.Second + time.Duration(ms)*time.Millisecond
}

// get returns what was recorded.
func (i *rateInfo) get() (limited, global bool, retryAfter time.Duration) {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.limited, i.global, i.retryAfter
}
