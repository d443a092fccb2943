package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// reportHint follows every internal error; tests look for it.
const reportHint = "This is a bug in hudiscope. Please report it with the command you ran and the lines below."

// internalError is the exit-70 error for a recovered panic: the message and the hint come first,
// the stack (for the bug report) after them, so the first thing a user reads is what to do.
func internalError(r any, stack []byte) error {
	msg := fmt.Sprintf("internal error: %v\n%s\n%s", r, reportHint, currentBuild())
	if len(stack) > 0 {
		msg += "\n\n" + strings.TrimRight(string(stack), "\n")
	}
	return codeError{code: exitInternal, msg: msg}
}

// runGuarded runs a command and turns a panic into an error, so no input can take the process
// down with a Go stack trace on the user's terminal. (The TUI restores the terminal before it
// returns; see runTUI.)
func runGuarded(run func(...any) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r, debug.Stack())
		}
	}()
	return run()
}

// testPanicEnv names a command that panics on purpose (tests of the panic path only:
// HUDISCOPE_TEST_PANIC=timeline). For `open` the panic happens inside the TUI's Update.
const testPanicEnv = "HUDISCOPE_TEST_PANIC"

// panicForTest panics when HUDISCOPE_TEST_PANIC names command (its first word).
func panicForTest(command string) {
	if want := os.Getenv(testPanicEnv); want != "" && want != "open" && want == firstWord(command) {
		panic("HUDISCOPE_TEST_PANIC in " + want)
	}
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// panicRecord keeps the first panic the TUI model raised, for the exit-70 message.
type panicRecord struct {
	once  sync.Once
	value any
	stack []byte
}

func (p *panicRecord) note(r any) {
	p.once.Do(func() { p.value, p.stack = r, debug.Stack() })
}

// tuiGuard wraps the root model: a panic in Update or View is recorded and re-raised, so that
// bubbletea still catches it, restores the terminal and makes Run return ErrProgramPanic.
type tuiGuard struct {
	m   tea.Model
	rec *panicRecord
}

func (g tuiGuard) Init() tea.Cmd { return g.m.Init() }

func (g tuiGuard) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			g.rec.note(r)
			panic(r)
		}
	}()
	if os.Getenv(testPanicEnv) == "open" {
		if _, ok := msg.(tea.WindowSizeMsg); ok {
			panic("HUDISCOPE_TEST_PANIC in open")
		}
	}
	g.m, cmd = g.m.Update(msg)
	return g, cmd
}

func (g tuiGuard) View() tea.View {
	defer func() {
		if r := recover(); r != nil {
			g.rec.note(r)
			panic(r)
		}
	}()
	return g.m.View()
}

// runTUI runs m as a bubbletea program. A panic anywhere in it (Update, View, a Cmd) leaves
// bubbletea to restore the terminal; it is then reported like a panic in any other command:
// exit 70 with the hint. (bubbletea prints its own trace to os.Stderr, which the caller points
// at the log file or /dev/null while the TUI runs.)
//
// ctx is Main's signal context: SIGHUP, SIGTERM or SIGQUIT quits the program as q does, so the
// terminal is restored (alternate screen left, cursor shown) before Main exits 130 (issue 31:
// SIGHUP left the screen alternate and the cursor hidden).
func runTUI(ctx context.Context, m tea.Model, opts ...tea.ProgramOption) error {
	rec := &panicRecord{}
	p := tea.NewProgram(tuiGuard{m: m, rec: rec}, opts...)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			p.Quit()
		case <-done:
		}
	}()
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramPanic) {
		if rec.value == nil {
			return internalError("the interactive explorer panicked (a background task)", nil)
		}
		return internalError(rec.value, rec.stack)
	}
	return err
}
