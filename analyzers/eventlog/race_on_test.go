//go:build race

package eventlog

// raceEnabled: under the race detector (2-10x slower) the log sweeps take a sample; the
// detector needs the reader's goroutines to meet, not every log in every configuration.
const raceEnabled = true
