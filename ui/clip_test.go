package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/ui/common"
)

// TestClipMarksCuts: clip, the one line cutter, ends a line that loses text with "…"; one that
// loses only padding or a rule's tail is cut plainly; styles stay balanced.
func TestClipMarksCuts(t *testing.T) {
	st := common.NewStyles(true, false)
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"abcdef", 6, "abcdef"},
		{"abcdef", 4, "abc…"},
		{" defaults assumed: hoodie.compact.inline.trigger.strategy=NUM_COMMITS", 30, " defaults assumed: hoodie.com…"},
		{"ab      ", 4, "ab  "},
		{" ─ compaction ──────────", 14, " ─ compaction "},
		{" ─ compaction ──────────", 12, " ─ compacti…"},
		{" ─ x ────────", 6, " ─ x ─"},
		{" mdt-sync SKIPPED - - -", 18, " mdt-sync SKIPPED…"}, // "-" cells are values
		{"abcdef", 0, ""},
	} {
		if got := common.Clip(c.in, c.w); got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
	styled := st.Warn.Render("defaults assumed: ") + "hoodie.compact.inline.max.delta.seconds=3600"
	got := common.Clip(styled, 24)
	if plain := common.StripSGR(got); plain != "defaults assumed: hoodi…" || common.CellWidth(got) != 24 {
		t.Errorf("styled: %q (%q, %d cells)", got, plain, common.CellWidth(got))
	}
	// --ascii draws the mark with its glyph set.
	if got := common.AsciiCuts(common.ASCIIGlyphs(), common.Clip("abcdef", 4)); got != "abc~" {
		t.Errorf("ascii: %q", got)
	}
}

// TestCutLinesAt80x24: the lines issue 28 found cut without a mark at 80x24 end with "…": the
// Health list's "defaults assumed" line, the export status line; the too-small message picks a
// wording that fits instead of "20x5, needs at least" (TestGolden's too-small/20x5).
func TestCutLinesAt80x24(t *testing.T) {
	// Without --props nothing is known of the writer: d assumes Hudi's defaults for every
	// key the checks read (with --props they are at the writing release's default already).
	a := appWith(t, morSnapshot(t), 80, 24)
	press(a, "4", "d")
	scr := checkScreen(t, a, 80, 24)
	if !strings.Contains(scr, " defaults assumed: hoodie.compact.inline.trigger.strategy=NUM_COMMITS, hoodie.c…\n") {
		t.Errorf("health defaults line not marked:\n%s", scr)
	}

	// The table-services fixture with a zstd event log as --props: the problems badge shares
	// the status line with the export message.
	b := appWith(t, propsSnapshot(t, "../testdata/fixtures/cdc-0.15.0/local-1796078932238.zstd"), 80, 24,
		func(o *Options) { o.ExportDir = t.TempDir() })
	press(b, "1", "e")
	scr = checkScreen(t, b, 80, 24)
	last := strings.Split(scr, "\n")[23]
	if want := " exported overview pane to hudiscope-cow_services-overview-20… ⚠ 1 problem(s)"; !strings.HasPrefix(last, want) {
		t.Errorf("export status line %q, want %q", last, want)
	}
	golden.RequireEqual(t, scr)

	for _, sz := range [][2]int{{20, 5}, {12, 4}, {5, 3}} {
		s := checkScreen(t, newTestApp(sz[0], sz[1]), sz[0], sz[1])
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" && strings.HasSuffix(l, ",") || strings.HasSuffix(l, "least") {
				t.Errorf("%dx%d: cut wording %q", sz[0], sz[1], l)
			}
		}
		if sz[0] >= 12 && !strings.Contains(s, "60x15") {
			t.Errorf("%dx%d: the needed size is not shown:\n%s", sz[0], sz[1], s)
		}
	}
}
