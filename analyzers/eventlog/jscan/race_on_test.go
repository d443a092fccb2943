//go:build race

package jscan

// raceEnabled: the scanner runs no goroutines, so its exhaustive differential tests run in
// `go test` only; under the race detector (2-10x slower) they would check nothing more.
const raceEnabled = true
