package timeline

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/ui/common"
)

// FocusCmd is Focus, and for a JumpInstantDetail opens the instant's detail as Enter on its
// row does (the Cmd reads it).
func (t *Timeline) FocusCmd(j common.Jump) (bool, tea.Cmd) {
	d, ok := j.(common.JumpInstantDetail)
	if !ok {
		return t.Focus(j), nil
	}
	if !t.Focus(common.JumpInstant(d)) {
		return false, nil
	}
	return true, t.openDetail()
}

// Focus selects the instant a JumpInstant names, or lists the instants that wrote a
// JumpPartitionWrites partition; any other jump only shows the pane.
func (t *Timeline) Focus(j common.Jump) bool {
	if t.Snap == nil || t.Snap.Timeline == nil {
		return false
	}
	var instant, part string
	switch j := j.(type) {
	case common.JumpInstant:
		instant = j.Requested
	case common.JumpPartitionWrites:
		part = j.Path
	}
	if part == "" && instant == "" {
		return true
	}
	t.Detail, t.ckpt = nil, nil
	if part != "" {
		t.ListView.Filtering = false
		t.ListView.Filter = "part:" + part
		t.ListView.Input.SetValue(t.ListView.Filter)
		t.ListView.Apply(t.ListView.Selected())
		t.Reflow()
		return true
	}
	for i, r := range t.byComp {
		if r.In.RequestedTime != instant {
			continue
		}
		if !t.ListView.Match(t.ListView.Filter)(i) {
			t.ListView.CloseFilter()
		}
		t.ListView.Apply(i)
		t.Reflow()
		return true
	}
	return false
}

// wrotePartition reports whether a commit's write stats name partition p.
func wrotePartition(r tlRow, p string) bool {
	c := r.In.Commit
	if c == nil {
		return false
	}
	for k := range c.PartitionToWriteStats {
		if strings.EqualFold(k, p) {
			return true
		}
	}
	return false
}
