//go:build !unix

package ui

// jobControl: ctrl+z suspends only on Unix.
func jobControl() (bool, string) { return false, "no job control on this system" }
