package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui/common"
	problemsui "github.com/hudiscope/hudiscope/ui/problems"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

// TestLayoutHostilePartition draws a partition named with terminal control sequences and a
// bidi override: the pane shows them escaped, never raw.
func TestLayoutHostilePartition(t *testing.T) {
	src := "../testdata/fixtures/cow-v4-0.11.1/table.zip"
	needFixture(t, src)
	root := unzipTo(t, src, t.TempDir())
	const hostile = "x\x1b]0;pwned\x07\x1b[2J\u202ey\nz"
	if err := os.Rename(filepath.Join(root, "2024-01-03"), filepath.Join(root, hostile)); err != nil {
		t.Skip("file system refuses the name:", err)
	}
	a := appWith(t, analysisSnapshot(t, root, "", ""), 120, 40)
	press(a, "3")
	views := []string{a.View().Content}
	for range 3 {
		press(a, "j")
		views = append(views, a.View().Content)
	}
	press(a, "enter")
	views = append(views, a.View().Content)
	seen := false
	for _, v := range views {
		for _, bad := range []string{"\x1b]0;", "\x07", "\x1b[2J", "\u202e", "pwned\n"} {
			if strings.Contains(v, bad) {
				t.Errorf("Layout view contains %q:\n%s", bad, v)
			}
		}
		seen = seen || strings.Contains(ansi.Strip(v), `x\x1b]0;pwned`)
	}
	if !seen {
		t.Errorf("escaped partition name not shown:\n%s", ansi.Strip(views[0]))
	}
}

func unzipTo(t *testing.T, zipPath, dst string) string {
	return testutil.UnzipTable(t, zipPath, dst)
}

const hostileText = "x\x1b]0;pwned\x07\x1b[2J\u202ey\nz"

// checkNoRawHostile fails when a view holds any raw piece of hostileText, and when its escaped
// form is not shown.
func checkNoRawHostile(t *testing.T, what, v string) {
	t.Helper()
	for _, bad := range []string{"\x1b]0;", "\x07", "\x1b[2J", "\u202e", "pwned\n", "y\nz"} {
		if strings.Contains(v, bad) {
			t.Errorf("%s contains %q:\n%s", what, bad, v)
		}
	}
	if !strings.Contains(ansi.Strip(v), `x\x1b]0;pwned\x07\x1b[2J\u202ey\nz`) {
		t.Errorf("%s does not show the escaped text:\n%s", what, ansi.Strip(v))
	}
}

// The event log's scrolling views (a stage's detail, the caveats and warnings) show a hostile
// stage name, caveat and warning escaped.
func TestEventLogDetailHostile(t *testing.T) {
	s := incrSnapshot(t)
	r := *s.EventLog
	r.Stages = append([]eventlog.Stage(nil), r.Stages...)
	for i := range r.Stages {
		r.Stages[i].Name = hostileText
	}
	r.Caveats = append(append([]string(nil), r.Caveats...), hostileText)
	r.Warnings = append(append([]string(nil), r.Warnings...), hostileText)
	c := *s
	c.EventLog = &r
	a := appWith(t, &c, 160, 50)
	press(a, "5", "enter")
	checkNoRawHostile(t, "stage detail", a.View().Content)
	press(a, "esc", "w")
	v := a.View().Content
	checkNoRawHostile(t, "caveats", v)
}

// The pager's backstop: a line that reached it unescaped is escaped, our own SGR styles kept.
func TestSafeLine(t *testing.T) {
	styled := "\x1b[1mbold\x1b[0m " + hostileText
	got := common.SafeLine(styled)
	if !strings.HasPrefix(got, "\x1b[1mbold\x1b[0m ") || strings.Contains(got, "\x07") || strings.Contains(got, "\x1b]") ||
		strings.Contains(got, "\x1b[2J") || !strings.HasSuffix(got, `x\x1b]0;pwned\x07\x1b[2J\u202ey\nz`) {
		t.Errorf("safeLine = %q", got)
	}
	if s := "\x1b[38;2;1;2;3mplain\x1b[m"; common.SafeLine(s) != s {
		t.Errorf("a styled clean line changed: %q", common.SafeLine(s))
	}
	p := common.NewPager()
	p.Set([]string{"ok", hostileText}, 20, 5)
	if p.Lines[1] != common.Clip(`x\x1b]0;pwned\x07\x1b[2J\u202ey\nz`, 20) {
		t.Errorf("pager line %q", p.Lines[1])
	}
}

// The problems view shows a hostile file name and message escaped.
func TestProblemsViewHostile(t *testing.T) {
	a := newTestApp(120, 40)
	s := &model.Snapshot{Options: model.Options{Location: "/t"}, Done: []model.Step{model.StepEventLog},
		StepErrors: map[model.Step]error{model.StepEventLog: errors.New(hostileText)}}
	v := problemsui.NewProblemsView(a.c, s)
	checkNoRawHostile(t, "problems view", v.View(120, 40))
}

// An instant's detail shows hostile info values, notes, errors and table cells escaped.
func TestInstantDetailHostile(t *testing.T) {
	a := newTestApp(120, 40)
	d := &timelineui.InstantDetail{SortCol: -1, Page: 1, Info: [][2]string{{"streamer checkpoint", hostileText}}, Notes: []string{hostileText}}
	d.Tables = []*timelineui.Dtable{{Name: "files", Headers: []string{"file"}, Right: []bool{false}, Rows: [][]string{{hostileText}}}}
	lines, _ := d.Head(a.c, 200, 40)
	checkNoRawHostile(t, "instant detail head", strings.Join(lines, "\n"))
	cell := timelineui.JoinCells([]string{hostileText}, []int{100}, []bool{false}, nil, a.c.Styles.G)
	checkNoRawHostile(t, "instant detail cell", cell)
	d.Err = errors.New(hostileText)
	lines, _ = d.Head(a.c, 200, 40)
	checkNoRawHostile(t, "instant detail error", lines[len(lines)-1])
}
