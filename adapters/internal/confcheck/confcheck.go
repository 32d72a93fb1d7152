package confcheck

import (
	"fmt"
	"net"
	"net/url"
)

// HTTPURL returns an error naming key and env unless s is an absolute
// http or https URL with a host; example is a value of the right form.
func HTTPURL(key, env, s, example string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s %q is not an http(s) URL: use the form %s (%s)", key, s, example, env)
	}
	return nil
}

// Listen returns an error naming key and env unless s is a listen address
// with a port, host:port or :port.
func Listen(key, env, s string) error {
	if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
		return fmt.Errorf("%s %q is not a listen address: use host:port or :port, e.g. :8443 (%s)", key, s, env)
	}
	return nil
}
