//go:build !race

package lr

const raceEnabled = false
