package hudi

import (
	"context"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// NewRefresher watches the active timeline tl (loaded from this table) for changes; see
// timeline.Refresher. Problems met while refreshing go to the table's log.
func (t *Table) NewRefresher(tl *timeline.Timeline) *timeline.Refresher {
	return timeline.NewRefresher(t.timeline(), tl)
}

// HistoryVersion reads the 1.x LSM history's version file, which changes whenever archival
// writes a new manifest; "" for 0.x tables or when there is none. One small GET.
func (t *Table) HistoryVersion(ctx context.Context) string {
	if t.Config.HistoryDir == "" {
		return ""
	}
	b, err := t.Store.ReadFile(ctx, t.Config.HistoryDir+"/_version_")
	if err != nil || len(b) > 64 {
		return ""
	}
	return string(b)
}
