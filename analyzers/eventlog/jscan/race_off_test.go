//go:build !race

package jscan

const raceEnabled = false
