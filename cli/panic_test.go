package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui"
)

// checkPanicReport asserts the exit-70 report: the error and the hint first, no runtime
// "panic:" dump, and any stack only after the hint.
func checkPanicReport(t *testing.T, stdout, stderr string, code int, value string) {
	t.Helper()
	if code != exitInternal {
		t.Errorf("exit %d, want %d; stderr:\n%.600s", code, exitInternal, stderr)
	}
	if !strings.Contains(stderr, "hudiscope: internal error: "+value) {
		t.Errorf("stderr lacks the error %q:\n%.600s", value, stderr)
	}
	hint := strings.Index(stderr, reportHint)
	if hint < 0 {
		t.Fatalf("stderr lacks the report hint:\n%.600s", stderr)
	}
	if g := strings.Index(stderr, "goroutine "); g >= 0 && g < hint {
		t.Errorf("goroutine dump before the hint:\n%.600s", stderr)
	}
	if strings.Contains(stderr, "panic: ") || strings.Contains(stdout, "goroutine ") {
		t.Errorf("raw Go panic output:\nstdout %.300s\nstderr %.600s", stdout, stderr)
	}
}

// A panic inside any command becomes exit 70 with "internal error", the hint to report it, and
// the stack only after the hint (HUDISCOPE_TEST_PANIC makes the named command panic).
func TestPanicInCommandIsExit70(t *testing.T) {
	table := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
	eventLog := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "eventlog_v2_local-1795968726856")
	for _, args := range [][]string{
		{"timeline", table}, {"files", table}, {"checkpoint", table, "20240101000000000"},
		{"layout", table}, {"health", table}, {"report", table}, {"eventlog", eventLog},
	} {
		t.Run(args[0], func(t *testing.T) {
			t.Setenv(testPanicEnv, args[0])
			stdout, stderr, code := runCLI(t, args...)
			checkPanicReport(t, stdout, stderr, code, "HUDISCOPE_TEST_PANIC in "+args[0])
			if !strings.Contains(stderr, "goroutine ") {
				t.Error("the stack for the bug report is missing after the hint")
			}
		})
	}
	// Without the hook the same command is fine (the hook is inert unless named).
	t.Setenv(testPanicEnv, "files")
	if _, stderr, code := runCLI(t, "timeline", table); code != 0 {
		t.Errorf("timeline with another command's hook: exit %d %s", code, stderr)
	}
}

// panicModel panics in Update, View or a Cmd, on its first message.
type panicModel struct{ where string }

type goMsg struct{}

func (m panicModel) Init() tea.Cmd {
	return func() tea.Msg {
		if m.where == "cmd" {
			panic("boom in cmd")
		}
		return goMsg{}
	}
}

func (m panicModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(goMsg); ok && m.where == "update" {
		panic("boom in update")
	}
	if _, ok := msg.(goMsg); ok && m.where == "view" {
		m.where = "view!"
	}
	return m, nil
}

func (m panicModel) View() tea.View {
	if m.where == "view!" {
		panic("boom in view")
	}
	return tea.NewView("ok")
}

// panicPane is a real App pane that panics when drawn.
type panicPane struct{}

func (panicPane) Title() string                       { return "Boom" }
func (panicPane) SetSnapshot(*model.Snapshot) tea.Cmd { return nil }
func (panicPane) SetSize(int, int)                    {}
func (panicPane) Update(tea.Msg) tea.Cmd              { return nil }
func (panicPane) View(int, int) string                { panic("boom in pane view") }
func (panicPane) Back() bool                          { return false }
func (panicPane) Capturing() bool                     { return false }
func (panicPane) Breadcrumb() []string                { return nil }
func (panicPane) Export() (string, string)            { return "boom", "" }
func (panicPane) Help() []bkey.Binding                { return nil }
func (panicPane) Status() string                      { return "" }

// runTUIQuiet runs runTUI with no terminal, bubbletea's own panic trace going to a file (as
// cmd_open points os.Stderr at the log file or /dev/null); it returns the error and that trace.
func runTUIQuiet(t *testing.T, m tea.Model) (string, error) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = f
	done := make(chan error, 1)
	go func() {
		done <- runTUI(context.Background(), m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(),
			tea.WithWindowSize(120, 40))
	}()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		os.Stderr = old
		t.Fatal("TUI did not return after a panic")
	}
	os.Stderr = old
	b, _ := os.ReadFile(f.Name())
	return string(b), err
}

// A panic in the TUI (in Update, View, a Cmd, or a pane of the real App) is caught by
// bubbletea, which restores the terminal and makes Run return ErrProgramPanic; runTUI turns
// that into the same exit-70 error as any command, with the panic value and the hint first.
func TestPanicInTUIIsExit70(t *testing.T) {
	cases := []struct {
		name  string
		m     tea.Model
		value string
	}{
		{"update", panicModel{"update"}, "boom in update"},
		{"view", panicModel{"view"}, "boom in view"},
		{"cmd", panicModel{"cmd"}, "the interactive explorer panicked"},
		{"app-pane", ui.New(ui.Options{Location: "t", Panes: func(c *ui.Common) []ui.Pane { return []ui.Pane{panicPane{}} }}),
			"boom in pane view"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "app-pane" {
				// The App shows its panes once the timeline is loaded.
				c.m.(*ui.App).Update(ui.ProgressMsg(model.Progress{Finished: true, Snapshot: &model.Snapshot{}}))
			}
			trace, err := runTUIQuiet(t, c.m)
			var ec exitCoder
			if !asExitCoder(err, &ec) || ec.ExitCode() != exitInternal {
				t.Fatalf("runTUI = %v, want an exit-%d error", err, exitInternal)
			}
			checkPanicReport(t, "", "hudiscope: "+ec.Error(), exitInternal, c.value)
			if !strings.Contains(trace, "Caught panic") {
				t.Errorf("bubbletea did not catch the panic itself (trace: %.300s)", trace)
			}
		})
	}
}

// Without a panic runTUI returns what Run returns (nil on quit), and a non-panic error passes
// through unchanged.
func TestRunTUIPassesErrors(t *testing.T) {
	_, err := runTUIQuiet(t, quitModel{})
	if err != nil {
		t.Errorf("runTUI = %v", err)
	}
	if errors.Is(err, tea.ErrProgramPanic) {
		t.Error("quit reported as a panic")
	}
}

type quitModel struct{}

func (quitModel) Init() tea.Cmd                       { return tea.Quit }
func (quitModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return quitModel{}, nil }
func (quitModel) View() tea.View                      { return tea.NewView("") }

// HUDISCOPE_TEST_PANIC=open makes the explorer's guard panic on its first window size, the path
// a scripted terminal session (tmux, a pty) can take end to end.
func TestPanicHookInTUI(t *testing.T) {
	t.Setenv(testPanicEnv, "open")
	_, err := runTUIQuiet(t, panicModel{"none"})
	var ec exitCoder
	if !asExitCoder(err, &ec) || ec.ExitCode() != exitInternal {
		t.Fatalf("runTUI = %v, want an exit-%d error", err, exitInternal)
	}
	checkPanicReport(t, "", "hudiscope: "+ec.Error(), exitInternal, "HUDISCOPE_TEST_PANIC in open")
}
