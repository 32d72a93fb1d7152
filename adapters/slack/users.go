package slack

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// person is what Haven uses from users.info.
type person struct {
	// known is false when users.info could not be read: then admin is
	// false (fail closed) and the rest is empty.
	known   bool
	display string
	// admin is Slack's is_admin, is_owner or is_primary_owner.
	admin bool
	isBot bool
	// locale is the hint for channels.Inbound.Locale (see localeHint).
	locale string
	// tz is Slack's IANA time zone of the user, for channels.Inbound.TimeZone.
	tz string
}

type userEntry struct {
	p       person
	expires time.Time
}

// userCache keeps users.info answers for ttl, failures for less.
type userCache struct {
	ttl     time.Duration
	mu      sync.Mutex
	entries map[[2]string]userEntry // {team, user}
}

// maxCachedUsers bounds the cache; past it, expired entries are dropped,
// and if that is not enough, everything.
const maxCachedUsers = 10000

// failedLookupTTL is how long a failed users.info is remembered, so that a
// Slack outage does not cost one call per event.
const failedLookupTTL = 30 * time.Second

// person returns what Slack says about user, from the cache or from
// users.info (bounded by LookupTimeout). On failure it logs a warning,
// without the person's name, and returns an unknown person.
func (a *Adapter) person(ctx context.Context, team, user string) person {
	key := [2]string{team, user}
	now := a.now()
	c := &a.users
	c.mu.Lock()
	if e, ok := c.entries[key]; ok && now.Before(e.expires) {
		c.mu.Unlock()
		return e.p
	}
	c.mu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, a.opts.LookupTimeout)
	u, err := a.api.GetUserInfoContext(cctx, user)
	cancel()
	var p person
	ttl := c.ttl
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("slack users.info failed; the person counts as no admin and their time zone is unknown", slog.String("user", user), slog.Any("err", err))
		}
		ttl = min(ttl, failedLookupTTL)
	} else {
		p = person{
			known:  true,
			admin:  u.IsAdmin || u.IsOwner || u.IsPrimaryOwner,
			isBot:  u.IsBot,
			locale: localeHint(u.Locale, u.TZ),
			tz:     strings.TrimSpace(u.TZ),
		}
		for _, n := range []string{u.Profile.DisplayName, u.RealName, u.Profile.RealName, u.Name} {
			if n = strings.TrimSpace(n); n != "" {
				p.display = n
				break
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedUsers {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= maxCachedUsers {
			clear(c.entries)
		}
	}
	c.entries[key] = userEntry{p: p, expires: now.Add(ttl)}
	return p
}

// localeHint turns Slack's locale (the language of the person's Slack,
// "en-US") and time zone ("America/Chicago") into the Inbound.Locale hint
// the core reads the person's country from, for the crisis line it
// offers.
//
// The time zone decides the region when it names one country: it is set
// from the person's device, so it says where they are, while the locale's
// region is only the variant of the language they picked, and Slack's
// default English is en-US wherever a person lives. So en-US with
// Europe/London gives "en-GB", and "en" or no locale at all with
// America/Chicago gives "en-US" or "und-US". A time zone that names no
// single country (UTC, Etc/GMT+5) leaves the locale as it is, region and
// all.
func localeHint(locale, tz string) string {
	locale = strings.TrimSpace(locale)
	country, ok := zoneCountry[strings.TrimSpace(tz)]
	if !ok {
		return locale
	}
	lang, _, _ := strings.Cut(strings.ReplaceAll(locale, "_", "-"), "-")
	if lang == "" || !isLetters(lang) {
		lang = "und"
	}
	return strings.ToLower(lang) + "-" + country
}

func isLetters(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
