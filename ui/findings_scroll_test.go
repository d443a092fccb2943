package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/ui/common"
	findingsui "github.com/hudiscope/hudiscope/ui/findings"
)

// TestFindingsLegendReachable: the text after the last finding (what is missing, the labels'
// legend) scrolls into view at 80x24: G shows the end, j past the last finding scrolls on, k
// scrolls back before it moves the cursor, g is the top again. Before, the list scrolled only
// to keep the cursor in view, and the legend below the last finding could not be reached.
func TestFindingsLegendReachable(t *testing.T) {
	s := fullSnapshot(t)
	legend := "default release default, not set" // the legend's last line
	a := keyTestApp(t, s, []string{"6"})
	if strings.Contains(screen(a), "What the labels mean") {
		t.Fatal("the legend fits at the top: the test shows nothing")
	}
	p := a.view().(*findingsui.Findings)
	n := len(p.Sel)
	press(a, "G")
	scr := checkScreen(t, a, 80, 24)
	if !strings.Contains(scr, "What the labels mean") || !strings.Contains(scr, legend) {
		t.Fatalf("G does not show the legend:\n%s", scr)
	}
	if p.Cursor != n-1 || !strings.HasSuffix(strings.TrimSpace(strings.Split(scr, "\n")[23]), common.Itoa(n)+"/"+common.Itoa(n)) {
		t.Errorf("G: cursor %d of %d, status line %q", p.Cursor, n, strings.Split(scr, "\n")[23])
	}
	golden.RequireEqual(t, scr)

	// Line by line: from the last finding, j scrolls until the legend's end is on screen.
	b := keyTestApp(t, s, []string{"6"})
	for i := 0; i < n-1; i++ {
		press(b, "j")
	}
	for i := 0; i < 60 && !strings.Contains(screen(b), legend); i++ {
		press(b, "j")
	}
	if !strings.Contains(screen(b), legend) {
		t.Fatalf("j never reaches the legend:\n%s", screen(b))
	}
	q := b.view().(*findingsui.Findings)
	past := q.Past
	press(b, "j") // at the end: nothing more
	if q.Past != past || q.Cursor != n-1 {
		t.Errorf("j at the end: past %d (was %d), cursor %d", q.Past, past, q.Cursor)
	}
	press(b, "k")
	if q.Past != past-1 || q.Cursor != n-1 {
		t.Errorf("k below the last finding: past %d, cursor %d; want %d, %d", q.Past, q.Cursor, past-1, n-1)
	}
	press(b, "g")
	if q.Past != 0 || q.Cursor != 0 || strings.Contains(screen(b), legend) {
		t.Errorf("g: past %d cursor %d", q.Past, q.Cursor)
	}
}
