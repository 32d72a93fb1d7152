// Package configs is Haven's configuration: the schema of Haven's own keys,
// their defaults, the loader and validation. One YAML file
// (haven.example.yaml is the annotated reference) is parsed strictly: an
// unknown key is an error naming its full path and its line. Every key can
// be overridden by an environment variable named HAVEN_ plus the key's path
// in upper snake case (telegram.api_url is HAVEN_TELEGRAM_API_URL). Secrets
// are read only from the environment.
//
// Each chat platform's section belongs to its adapter package, which
// defines the settings struct, its defaults and its rules (Settings);
// cmd/haven passes one Section per platform to Load, which reads the
// section's keys from the file and the environment by the same rules as
// Haven's own. A platform section in the file without its secrets is an
// error.
//
// Load parses; Validate reports every problem at once with what to fix.
package configs
