package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
)

// OutputFlags are how every command chooses its output: -o/--output FORMAT (the formats the
// command has), --json as a short form of `-o json`, and --output-file instead of stdout.
type OutputFlags struct {
	Output     string `name:"output" short:"o" placeholder:"FORMAT" help:"Output format: text (alias TABLE), json, or md where the command has it (report: md, json)."`
	JSON       bool   `name:"json" help:"Same as --output json."`
	OutputFile string `name:"output-file" placeholder:"FILE" type:"path" help:"Write the output to FILE instead of standard output."`
	// noPager: this output is never paged (a --watch that keeps writing, a one-line version).
	noPager bool `kong:"-"`
}

// format normalises the chosen format: text (alias TABLE, the Java tools' word), json, md
// (alias markdown); def when none was given. Only allowed formats pass.
func (o OutputFlags) format(def string, allowed ...string) (string, error) {
	f := strings.ToLower(strings.TrimSpace(o.Output))
	switch f {
	case "":
		f = def
	case "table":
		f = "text"
	case "markdown":
		f = "md"
	}
	if o.JSON {
		if f != def && f != "json" {
			return "", fmt.Errorf("--json and --output %s contradict each other", o.Output)
		}
		f = "json"
	}
	for _, a := range allowed {
		if f == a {
			return f, nil
		}
	}
	return "", fmt.Errorf("--output must be one of %s (got %s)", strings.Join(allowed, ", "), o.Output)
}

// open returns where to write: the --output-file (created or truncated) or stdout. done closes
// the file and reports a write error that closing revealed.
func (o OutputFlags) open() (w io.Writer, done func() error, err error) {
	if o.OutputFile == "" || o.OutputFile == "-" {
		if !o.noPager {
			if w, done, ok := startPager(os.Stdout); ok {
				return w, done, nil
			}
		}
		return os.Stdout, func() error { return nil }, nil
	}
	f, err := os.Create(o.OutputFile)
	if err != nil {
		return nil, nil, fmt.Errorf("output file: %w", err)
	}
	return f, f.Close, nil
}

// writeOutput opens the destination, runs write and closes it, keeping the first error.
func (o OutputFlags) writeOutput(write func(io.Writer) error) error {
	w, done, err := o.open()
	if err != nil {
		return err
	}
	err = write(w)
	if cerr := done(); err == nil && cerr != nil {
		err = fmt.Errorf("output file: %w", cerr)
	}
	return err
}

// writeOutputAfterWork is writeOutput opening the output at write's first byte (or at its end
// when it wrote none), after before() has cleared the progress line: long work inside write
// (a duplicates scan, a key's slices) counts on a terminal's stderr before a pager takes it.
// write must not ask whether its writer is a terminal (isTerminal): it is not known yet.
func (o OutputFlags) writeOutputAfterWork(before func(), write func(io.Writer) error) error {
	lw := &lazyWriter{o: o, before: before}
	err := write(lw)
	if lw.w == nil {
		if oerr := lw.start(); err == nil {
			err = oerr
		}
	}
	if lw.done != nil {
		if cerr := lw.done(); err == nil && cerr != nil {
			err = fmt.Errorf("output file: %w", cerr)
		}
	}
	return err
}

// lazyWriter opens its output at the first Write.
type lazyWriter struct {
	o      OutputFlags
	before func()
	w      io.Writer
	done   func() error
	err    error
}

func (l *lazyWriter) start() error {
	if l.w != nil || l.err != nil {
		return l.err
	}
	l.before()
	l.w, l.done, l.err = l.o.open()
	if l.err != nil {
		l.w = nil
	}
	return l.err
}

func (l *lazyWriter) Write(p []byte) (int, error) {
	if l.w == nil {
		if err := l.start(); err != nil {
			return 0, err
		}
	}
	return l.w.Write(p)
}

// isTerminal reports whether w is a terminal (stdout not redirected, or --output-file /dev/tty):
// output there must not carry a value's control sequences.
func isTerminal(w io.Writer) bool {
	if _, ok := w.(*pagerWriter); ok {
		return true // the pager shows it on the terminal
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
