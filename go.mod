module github.com/havenbot/haven

go 1.26.0

require (
	go.mau.fi/util v0.9.4
	golang.org/x/text v0.43.0
)
