package common

import (
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
)

// MarkRefreshes is how many refreshes a new or changed instant stays highlighted.
const MarkRefreshes = 3

// WatchState is a running watch as the panes see it (Common.Watch; nil when not watching).
// It is only touched on the UI goroutine; the refresh itself runs in a Cmd.
type WatchState struct {
	Interval time.Duration
	Wait     time.Duration // the interval, backed off while S3 throttles
	Rules    model.AlertRules

	Watcher *model.Watcher
	Busy    bool // a refresh is running
	// Refreshes done; marks hold, per instant key, the refresh that last changed it.
	Refreshes int
	Marks     map[string]WatchMark
	// Alerts raised by the last refresh (and the start), after the recent rollbacks (events).
	Alerts      []model.Alert
	Events      []model.Alert
	LastRefresh time.Time
	Lists, Gets int // requests of every refresh so far
	LastErr     string
	Seq         int // the sequence number of the watcher snapshot shown
	// Last is the last refresh's changes, for the status message.
	Last []model.Change
	S3   bool
}

type WatchMark struct {
	Kind    model.ChangeKind
	Refresh int
}

// Mark is the glyph marking a recently new or changed instant ("" if none).
func (w *WatchState) Mark(in *timeline.Instant, ascii bool) string {
	if w == nil {
		return ""
	}
	m, ok := w.Marks[in.Key()]
	if !ok || w.Refreshes-m.Refresh >= MarkRefreshes {
		return ""
	}
	if m.Kind == model.ChangeNew {
		return "+"
	}
	if ascii {
		return ">"
	}
	return "»"
}

// WatchElapsed is a pending instant's age for the dur column while watching ("" otherwise).
func (c *Common) WatchElapsed(in *timeline.Instant) string {
	if c.Watch == nil || in.IsCompleted() || in.Started.IsZero() {
		return ""
	}
	d := c.Clock.Current().Sub(in.Started)
	if d < 0 {
		return ""
	}
	return units.Seconds(d.Seconds()) // the state column says it is pending
}
