package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/model"
)

// TestFindingsPaneGolden renders the Findings pane (list, a finding's evidence, a durable
// refusal, ASCII) at 80x24 and 120x40 on the cow-services fixture with all three inputs, loaded
// through model.Load with a fixed clock. Refresh with -update.
func TestFindingsPaneGolden(t *testing.T) {
	needFixture(t, fxServices+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: fxServices + "/table.zip",
		Props: fxServices + "/writer.properties", EventLog: eventLogIn(t, fxServices), ClusterDefaults: "-",
		Now: func() time.Time { return fixedNow }}, nil)
	if err != nil || s.Findings == nil {
		t.Fatalf("load: %v %v", err, s.StepErrors)
	}
	cases := []struct {
		name string
		keys []string
		mod  func(*Options)
	}{
		{"findings-services", []string{"6"}, nil},
		{"findings-services-evidence", []string{"6", "enter"}, nil},
		{"findings-services-evidence-link", []string{"6", "enter", "n"}, nil},
		{"findings-services-last", []string{"6", "G", "enter"}, nil},
		{"findings-services-ascii", []string{"6"}, func(o *Options) { o.ASCII = true }},
		{"findings-services-help", []string{"6", "?"}, nil},
		{"findings-services-sorted", []string{"6", "s", "s"}, nil},
		{"findings-services-filter", []string{"6", "/", "g", "a", "t", "e", "d", "enter"}, nil},
		// A capability's evidence: catalog text as text (no ** or backticks), its backlog
		// counter-signal in words a reader can act on.
		{"findings-services-cap003", []string{"6", "/", "C", "A", "P", "-", "0", "0", "3", "enter", "enter", "pgdown"}, nil},
	}
	for _, c := range cases {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				var mods []func(*Options)
				if c.mod != nil {
					mods = append(mods, c.mod)
				}
				a := appWith(t, s, w, h, mods...)
				press(a, c.keys...)
				golden.RequireEqual(t, checkScreen(t, a, w, h))
			})
		}
	}
}
