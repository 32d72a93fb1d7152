// Package metrics is Haven's Prometheus instrumentation: one registry of its
// own, fed by hooks that keep the rest of Haven free of any metrics library.
// core's Options.Observe reports each turn (ObserveTurn); the Hub's Stats are
// read at each scrape (WatchHub); the model client is wrapped (Model); each
// chat platform's HTTP client gets a counting RoundTripper (Transport), whose
// latest outcome also tells whether the platform answers (PlatformProblem).
//
// No label ever holds message text, a person's or conversation's id, a URL or
// a token: labels are platform names, routes, modes, nodes, levels, guard
// rules, API method names and status classes.
//
// metrics imports core, channels and llm; only cmd imports metrics.
package metrics
