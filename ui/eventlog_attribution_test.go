package ui

import (
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/model"
)

// The Event log pane at 80 columns shows the time no job covers, the largest fact of these
// logs, and leads its phases with hudiscope's attribution, the Java tool's share labelled.
// cow-services-1.2.0's log: 207177 ms of 605028 ms in no job (34%); DEDUP_AND_INDEX_TAGGING
// 35% in hudiscope's attribution, 51% in the Java tool's; METADATA_TABLE_WRITE 30% against 2%.
// incr-1.2.0's: 43260 ms of 68040 ms (64%).
func TestEventLogPaneUncoveredAndAttribution(t *testing.T) {
	for _, c := range []struct {
		name string
		snap func(testing.TB) *model.Snapshot
		want []string
	}{
		{"services", servicesSnapshot, []string{
			" no Spark job ran for 3m27s of the app's 10m5s (34%)",
			" phases, hudiscope's attribution:",
			"35%   2m39 (Java tool: 51%)",
			"30%   2m12 (Java tool: 2%)",
		}},
		{"incr", incrSnapshot, []string{
			" no Spark job ran for 43.26s of the app's 1m8s (64%)",
		}},
	} {
		a := appWith(t, c.snap(t), 80, 24)
		press(a, "5")
		s := checkScreen(t, a, 80, 24)
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: the 80x24 Event log pane lacks %q:\n%s", c.name, w, s)
			}
		}
	}
}
