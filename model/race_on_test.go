//go:build race

package model

// raceEnabled: timing assertions only log under the race detector (it slows code 2-10x).
const raceEnabled = true
