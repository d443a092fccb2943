// Package problem records bad input met while reading a table. Readers record a problem and
// carry on, so one corrupt file never hides the rest of a table.
package problem

import "sync"

// Problem is one piece of bad input: the file and what is wrong with it.
type Problem struct {
	File string `json:"file"`
	Err  string `json:"error"`
}

func (p Problem) String() string { return p.File + ": " + p.Err }

// Log collects problems in the order found; safe for concurrent use. The zero value is ready;
// a nil Log discards.
type Log struct {
	mu   sync.Mutex
	list []Problem
}

// Add records a problem.
func (l *Log) Add(file, msg string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.list = append(l.list, Problem{File: file, Err: msg})
	l.mu.Unlock()
}

// AddOnce records a problem unless the same one is already recorded (details of an instant
// may be read more than once).
func (l *Log) AddOnce(file, msg string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.list {
		if p.File == file && p.Err == msg {
			return
		}
	}
	l.list = append(l.list, Problem{File: file, Err: msg})
}

// List returns a copy of the problems recorded so far.
func (l *Log) List() []Problem {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Problem(nil), l.list...)
}
