package main

import (
	"fmt"
	"runtime/debug"
)

// runGuarded runs a command and turns a panic into an error, so no input can take the process
// down with a Go stack trace on the user's terminal. (The TUI restores the terminal before it
// returns; bubbletea recovers panics in its own goroutines.)
func runGuarded(run func(...any) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = codeError{code: exitInternal, msg: fmt.Sprintf("internal error: %v\n%s\n"+
				"This is a bug in hudiscope. Please report it with the command you ran and the lines above.", r, debug.Stack())}
		}
	}()
	return run()
}
