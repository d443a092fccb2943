package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/model"
)

// propsSnapshot loads the table-services fixture the way the explorer does, with props as --props.
func propsSnapshot(t *testing.T, props string) *model.Snapshot {
	t.Helper()
	needFixture(t, fxServices+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: fxServices + "/table.zip", Props: props,
		ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPropsNotReadIsAProblem: a --props file the load cannot read (gone since the explorer
// checked it) or that is not properties (a zstd event log) is ✗ in the header, a problem on the
// Overview and in the problems view, and "not read" in the Health pane; never props ✓ with
// "problems none". The fixture's writer.properties is props ✓.
func TestPropsNotReadIsAProblem(t *testing.T) {
	zstd := "../testdata/fixtures/cdc-0.15.0/local-1796078932238.zstd"
	needFixture(t, zstd)
	gone := filepath.Join(t.TempDir(), "writer.properties")
	for _, c := range []struct{ name, props, why string }{
		{"zstd", zstd, "not a properties file: binary content (byte 0x00 at offset 4)"},
		{"gone", gone, "read --props: open " + gone + ": no such file or directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := propsSnapshot(t, c.props)
			a := appWith(t, s, 80, 24)
			press(a, "1")
			scr := checkScreen(t, a, 80, 24)
			head := strings.Split(scr, "\n")[0]
			if !strings.Contains(head, "props ✗ (p)") || strings.Contains(head, "props ✓") {
				t.Errorf("header %q: want props ✗ (p)", head)
			}
			if !strings.Contains(scr, "problems     1 problem(s) reading the inputs") {
				t.Errorf("overview does not count the props failure:\n%s", scr)
			}
			press(a, "4")
			scr = checkScreen(t, a, 80, 24)
			if !strings.Contains(scr, "props "+filepath.Base(c.props)+" not read") ||
				!strings.Contains(scr, "overall SKIPPED") {
				t.Errorf("health pane:\n%s", scr)
			}
			if c.name == "zstd" {
				golden.RequireEqual(t, scr)
			}
			press(a, "p")
			scr = strings.Join(strings.Fields(screen(a)), " ")
			if !strings.Contains(scr, "step effective configuration") || !strings.Contains(scr, c.why) {
				t.Errorf("problems view lacks %q:\n%s", c.why, screen(a))
			}
		})
	}
	a := appWith(t, propsSnapshot(t, fxServices+"/writer.properties"), 80, 24)
	if head := strings.Split(screen(a), "\n")[0]; !strings.Contains(head, "props ✓") {
		t.Errorf("writer.properties: header %q, want props ✓", head)
	}
}
