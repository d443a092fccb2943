package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
	"github.com/hudiscope/hudiscope/view"
)

// TestTimelinePaneLateMarkIsTheView's: the Timeline pane marks ↯ exactly the instant the view
// layer's rows mark late (the one `timeline -o text` notes): 20261129155610512 on the corpus
// table whose first commit completes after the second (TestTimelineTextLateMark).
func TestTimelinePaneLateMarkIsTheViews(t *testing.T) {
	dir := testutil.LateTable(t, "..")
	s, err := model.Load(context.Background(), model.Options{Location: dir, ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := appWith(t, s, 100, 24) // below 120 columns the pane shows raw instant strings
	press(a, "2")
	var marked []string
	for _, l := range strings.Split(screen(a), "\n") {
		if strings.Contains(l, "↯") {
			if f := strings.Fields(strings.NewReplacer("↯", " ", "▶", " ").Replace(l)); len(f) > 0 && len(f[0]) == 17 {
				marked = append(marked, f[0])
			}
		}
	}
	if strings.Join(marked, ",") != "20261129155610512" {
		t.Errorf("pane marks %v, want [20261129155610512]:\n%s", marked, screen(a))
	}
}

// TestGanttKindsAreTheViews: the Gantt's glyph table is indexed by view.Kind.
func TestGanttKindsAreTheViews(t *testing.T) {
	if len(timelineui.GanttKinds) != len(view.Kinds) {
		t.Fatalf("%d gantt kinds, %d view kinds", len(timelineui.GanttKinds), len(view.Kinds))
	}
	for i, k := range timelineui.GanttKinds {
		if k.Name != view.Kinds[i] {
			t.Errorf("gantt kind %d is %q, view's %q", i, k.Name, view.Kinds[i])
		}
	}
}
