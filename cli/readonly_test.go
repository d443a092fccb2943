package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui"
)

// People point hudiscope at production tables: nothing it does may change one. Every command
// and a scripted TUI session with exports run over read-only copies of fixture tables; every
// file's bytes, size, mode and modification time are hashed before and after, and no file may
// appear or disappear.
func TestReadOnlyProof(t *testing.T) {
	for _, fx := range []string{"cow-services-1.2.0", "incr-1.2.0", "cdc-1.2.0"} {
		t.Run(fx, func(t *testing.T) {
			src := filepath.Join("..", "testdata", "fixtures", fx)
			if _, err := os.Stat(filepath.Join(src, "table.zip")); err != nil {
				t.Skipf("fixture %s: %v", fx, err)
			}
			work := t.TempDir()
			table := unzipTable(t, filepath.Join(src, "table.zip"), filepath.Join(work, "tables"))
			zipCopy := filepath.Join(work, "table.zip")
			copyFile(t, filepath.Join(src, "table.zip"), zipCopy)
			props := filepath.Join(work, "writer.properties")
			copyFile(t, filepath.Join(src, "writer.properties"), props)
			logs, _ := filepath.Glob(filepath.Join(src, "local-*"))
			more, _ := filepath.Glob(filepath.Join(src, "eventlog_v2_*"))
			var eventLog string
			if l := append(logs, more...); len(l) > 0 {
				eventLog = filepath.Join(work, filepath.Base(l[0]))
				copyTree(t, l[0], eventLog)
			}
			inputs := filepath.Join(work)
			makeReadOnly(t, inputs)
			before := hashTree(t, inputs)
			out := t.TempDir() // exports and -o files go here, never next to the inputs

			var firstCompleted string
			for _, target := range []string{table, zipCopy} {
				cmds := [][]string{
					{"timeline", target}, {"timeline", "--archived", "--json", target},
					{"files", target}, {"files", "--json", target},
					// A watch is reads only too: two refreshes, text and JSON lines.
					{"timeline", target, "--watch=1s", "--watch-count", "2"},
					{"timeline", target, "--watch=1s", "--watch-count", "2", "-o", "json"},
					{"layout", target, "--output", "JSON"}, {"health", target, "--props", props, "--output", "JSON"},
					{"report", target, "--props", props, "--format", "md", "--output-file", filepath.Join(out, "r.md")},
					{"report", target, "--props", props, "--format", "json", "--output-file", filepath.Join(out, "r.json")},
				}
				if eventLog != "" {
					cmds = append(cmds, []string{"report", target, "--props", props, "--event-log", eventLog, "--output-file", filepath.Join(out, "r2.md")})
				}
				for _, args := range cmds {
					stdout, stderr, code := runCLI(t, args...)
					if code != 0 && !(args[0] == "health" && code == 3) { // health exits 3 for UNHEALTHY
						t.Errorf("%v: exit %d: %.300s", args, code, stderr)
					}
					if args[0] == "timeline" && args[1] == "--archived" && firstCompleted == "" {
						if i := strings.Index(stdout, `"completionTime": "`); i >= 0 {
							firstCompleted = stdout[i+19 : i+36]
						}
					}
				}
				if firstCompleted != "" {
					if _, stderr, code := runCLI(t, "checkpoint", target, firstCompleted); code != 0 && code != 3 && code != 4 {
						t.Errorf("checkpoint: exit %d %s", code, stderr)
					}
				}
			}
			if eventLog != "" {
				for _, o := range []string{"JSON", "text"} {
					if _, stderr, code := runCLI(t, "eventlog", eventLog, "--output", o); code != 0 {
						t.Errorf("eventlog: exit %d %.300s", code, stderr)
					}
				}
			}
			tuiSession(t, table, props, eventLog, out)
			exports, _ := filepath.Glob(filepath.Join(out, "hudiscope-*.md"))
			if len(exports) < 7 {
				t.Errorf("TUI session exported %d files, want at least 7 (6 panes + report)", len(exports))
			}
			changed := treeChanges(t, before, hashTree(t, inputs))
			t.Logf("%d input files hashed before and after, %d changed", len(before), changed)
		})
	}
}

// tuiSession drives the real App through every pane with the keys a user presses, exporting
// each pane and the full report.
func tuiSession(t *testing.T, table, props, eventLog, exportDir string) {
	// Watching (--watch) too: refreshes, an event log followed, re-analysis after each.
	opts := model.Options{Location: table, Archived: true, Props: props, EventLog: eventLog, CountRequests: true, FollowEventLog: true}
	rules, _ := model.ParseAlertRules("--alert", "rollback,archival-stopped,inflight-older=1h,pending-older=6h,no-commit=1h")
	app := ui.New(ui.Options{Location: table, ExportDir: exportDir, Now: func() time.Time { return time.Unix(1800000000, 0) },
		Watch: &ui.WatchOptions{Interval: time.Second, Rules: rules, Manual: true}})
	var a tea.Model = app
	a, _ = a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	_, _ = model.Load(context.Background(), opts, func(p model.Progress) {
		var cmd tea.Cmd
		a, cmd = a.Update(ui.ProgressMsg(p))
		drive(&a, cmd, 0)
	})
	for range 3 {
		var cmd tea.Cmd
		a, cmd = a.Update(ui.WatchRefreshMsg())
		drive(&a, cmd, 0)
	}
	if !strings.Contains(app.Render(), "req") {
		t.Errorf("no watch status after three refreshes:\n%s", app.Render())
	}
	keys := []tea.KeyPressMsg{}
	for _, pane := range "123456" {
		// (Enter on the Overview jumps to another pane: the digit comes back before e.)
		keys = append(keys, key(string(pane)), key("j"), tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEscape},
			key(string(pane)), key("e"))
	}
	keys = append(keys, key("2"), key("c"), tea.KeyPressMsg{Code: tea.KeyTab}, tea.KeyPressMsg{Code: tea.KeyEnter},
		tea.KeyPressMsg{Code: tea.KeyEscape}, key("E"), key("q"))
	for _, k := range keys {
		var cmd tea.Cmd
		a, cmd = a.Update(k)
		drive(&a, cmd, 0)
	}
}

func key(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(s)[0], Text: s} }

// drive runs a Cmd and feeds its messages back, as the bubbletea runtime does.
func drive(a *tea.Model, cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 20 {
		return
	}
	switch m := cmd().(type) {
	case nil, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range m {
			drive(a, c, depth+1)
		}
	default:
		var next tea.Cmd
		*a, next = (*a).Update(m)
		drive(a, next, depth+1)
	}
}

func unzipTable(t *testing.T, zipPath, dst string) string {
	return testutil.UnzipTable(t, zipPath, dst)
}

func copyFile(t *testing.T, src, dst string) {
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, src, dst string) {
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		copyFile(t, p, filepath.Join(dst, rel))
		return nil
	})
}

func makeReadOnly(t *testing.T, root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chmod(p, 0o444)
		}
		return nil
	})
}

// hashTree maps every path under root to sha256(content) + size + mode + mtime.
// treeChanges reports every path of the after tree (hashTree) that changed or appeared since
// before, and returns how many.
func treeChanges(t *testing.T, before, after map[string]string) int {
	t.Helper()
	changed := 0
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed", p)
			changed++
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
			changed++
		}
	}
	return changed
}

func hashTree(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, _ := d.Info()
		sig := info.Mode().String() + " " + info.ModTime().UTC().Format(time.RFC3339Nano)
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			s := sha256.Sum256(b)
			sig += " " + hex.EncodeToString(s[:])
		}
		out[p] = sig
		return nil
	})
	return out
}
