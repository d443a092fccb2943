package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// WatchOptions turn on --watch in the explorer.
type WatchOptions struct {
	Interval time.Duration
	Rules    model.AlertRules
	// Manual starts no timers: the caller sends the refresh ticks (tests, golden frames).
	Manual bool
}

// S3 Standard request prices, us-east-1, public list prices (USD per 1,000 requests): LIST
// (and PUT, COPY, POST) $0.005, GET (and HEAD, all other requests) $0.0004.
const (
	s3ListPer1k = 0.005
	s3GetPer1k  = 0.0004
)

// markRefreshes is how many refreshes a new or changed instant stays highlighted.
const markRefreshes = 3

// WatchState is a running watch as the panes see it (Common.Watch; nil when not watching).
// It is only touched on the UI goroutine; the refresh itself runs in a Cmd.
type WatchState struct {
	Interval time.Duration
	wait     time.Duration // the interval, backed off while S3 throttles
	Rules    model.AlertRules

	watcher *model.Watcher
	busy    bool // a refresh is running
	// Refreshes done; marks hold, per instant key, the refresh that last changed it.
	Refreshes int
	marks     map[string]watchMark
	// Alerts raised by the last refresh (and the start), after the recent rollbacks (events).
	Alerts      []model.Alert
	events      []model.Alert
	LastRefresh time.Time
	Lists, Gets int // requests of every refresh so far
	LastErr     string
	seq         int // the sequence number of the watcher snapshot shown
	// Last is the last refresh's changes, for the status message.
	Last []model.Change
	s3   bool
}

type watchMark struct {
	kind    model.ChangeKind
	refresh int
}

// Mark is the glyph marking a recently new or changed instant ("" if none).
func (w *WatchState) Mark(in *timeline.Instant, ascii bool) string {
	if w == nil {
		return ""
	}
	m, ok := w.marks[in.Key()]
	if !ok || w.Refreshes-m.refresh >= markRefreshes {
		return ""
	}
	if m.kind == model.ChangeNew {
		return "+"
	}
	if ascii {
		return ">"
	}
	return "»"
}

// watchMsg is any message of the watch loop.
type watchMsg interface{ watch() }

type watchTickMsg struct{}  // time for a refresh
type watchClockMsg struct{} // a second passed: pending instants' elapsed time ticks
type watchDoneMsg struct {
	w    *model.Watcher
	snap *model.Snapshot
	res  model.Refresh
	err  error
}

// watchAnalyzedMsg carries the snapshot re-analysed after a new completed instant.
type watchAnalyzedMsg struct {
	snap *model.Snapshot
	seq  int
}

func (watchAnalyzedMsg) watch() {}
func (watchTickMsg) watch()     {}
func (watchClockMsg) watch()    {}
func (watchDoneMsg) watch()     {}

// startWatch begins watching once the load has finished (the first refresh after one interval).
func (a *App) startWatch() tea.Cmd {
	o := a.opts.Watch
	if o == nil || a.c.Watch != nil || a.snap == nil || a.snap.Timeline == nil {
		return nil
	}
	loc := strings.ToLower(a.snap.Options.Location)
	a.c.Watch = &WatchState{Interval: o.Interval, wait: o.Interval, Rules: o.Rules, marks: map[string]watchMark{},
		s3: strings.HasPrefix(loc, "s3://") || strings.HasPrefix(loc, "s3a://")}
	a.c.Watch.Alerts = model.Alerts(a.snap.Timeline, nil, a.c.Clock.now(), o.Rules, a.snap.ArchivalSettings())
	return tea.Batch(a.watchTick(o.Interval), a.watchClock())
}

func (a *App) watchTick(d time.Duration) tea.Cmd {
	if a.opts.Watch.Manual {
		return nil
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return watchTickMsg{} })
}

func (a *App) watchClock() tea.Cmd {
	if a.opts.Watch.Manual {
		return nil
	}
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return watchClockMsg{} })
}

// refreshCmd runs one refresh off the UI goroutine.
func (a *App) refreshCmd() tea.Cmd {
	w := a.c.Watch
	w.busy = true
	watcher, snap := w.watcher, a.snap
	return func() tea.Msg {
		ctx := context.Background()
		if watcher == nil {
			var err error
			if watcher, err = model.NewWatcher(ctx, snap); err != nil {
				return watchDoneMsg{err: err}
			}
		}
		s, res, err := watcher.Refresh(ctx, false)
		return watchDoneMsg{w: watcher, snap: s, res: res, err: err}
	}
}

// watchUpdate handles the watch loop's messages.
func (a *App) watchUpdate(msg watchMsg) tea.Cmd {
	w := a.c.Watch
	if w == nil {
		return nil
	}
	switch msg := msg.(type) {
	case watchClockMsg:
		return a.watchClock() // the re-render after this message is the tick
	case watchTickMsg:
		if w.busy {
			return nil
		}
		return a.refreshCmd()
	case watchDoneMsg:
		return a.applyRefresh(msg)
	case watchAnalyzedMsg:
		return a.showWatched(msg.snap, msg.seq)
	}
	return nil
}

// showWatched shows a watcher snapshot unless a newer one is shown already.
func (a *App) showWatched(s *model.Snapshot, seq int) tea.Cmd {
	w := a.c.Watch
	if s == nil || seq <= w.seq || s == a.snap {
		return nil
	}
	w.seq = seq
	return a.publish(s)
}

// applyRefresh shows a refresh's snapshot and changes, and schedules the next one.
func (a *App) applyRefresh(msg watchDoneMsg) tea.Cmd {
	w := a.c.Watch
	w.busy = false
	if msg.w != nil {
		w.watcher = msg.w
	}
	w.wait = model.NextWait(w.Interval, w.wait, msg.err)
	next := a.watchTick(w.wait)
	w.LastRefresh = a.c.Clock.now()
	if msg.err != nil {
		w.LastErr = msg.err.Error()
		return next
	}
	w.LastErr = ""
	w.Refreshes++
	w.Lists += msg.res.Lists
	w.Gets += msg.res.Gets
	if msg.res.Lists+msg.res.Gets == 0 {
		w.Lists += msg.res.Stats.Lists
		w.Gets += msg.res.Stats.Gets
	}
	w.Last = msg.res.Changes
	for _, c := range msg.res.Changes {
		w.marks[c.Instant.Key()] = watchMark{kind: c.Kind, refresh: w.Refreshes}
	}
	for k, m := range w.marks { // forget old marks: memory stays flat over a long watch
		if w.Refreshes-m.refresh >= markRefreshes {
			delete(w.marks, k)
		}
	}
	// Conditions (an old inflight, no commit) hold while true; a rollback is an event, so it
	// stays in the header (the last few) after the refresh that saw it.
	w.Alerts = nil
	for _, al := range model.Alerts(msg.snap.Timeline, msg.res.Changes, msg.res.At, w.Rules, msg.snap.ArchivalSettings()) {
		if al.Kind == model.AlertRollback {
			w.events = append([]model.Alert{al}, w.events...)
			w.events = w.events[:min(len(w.events), 5)]
			continue
		}
		w.Alerts = append(w.Alerts, al)
	}
	w.Alerts = append(w.events[:len(w.events):len(w.events)], w.Alerts...)
	cmds := []tea.Cmd{next, a.showWatched(msg.snap, msg.res.Seq)}
	if msg.res.Reanalyze {
		// The timeline shows now; the file view and analyzers follow when re-run.
		watcher := w.watcher
		cmds = append(cmds, func() tea.Msg {
			s, seq := watcher.Reanalyze(context.Background())
			return watchAnalyzedMsg{snap: s, seq: seq}
		})
	}
	return tea.Batch(cmds...)
}

// watchHeader is the header's alert mark, the first alert and how many more, clipped to
// two widths: beside the inputs, and alone ("" if none).
func (a *App) watchHeader(w1, w2 int) [2]string {
	w := a.c.Watch
	if w == nil || len(w.Alerts) == 0 {
		return [2]string{}
	}
	st := a.c.Styles
	// The alert's kind first: on a narrow screen it is what survives the clipping.
	s := fmt.Sprintf("%s %s: %s", st.G.Warn, w.Alerts[0].Kind, w.Alerts[0].Message)
	if n := len(w.Alerts) - 1; n > 0 {
		s = fmt.Sprintf("%s %d alerts · %s: %s", st.G.Warn, n+1, w.Alerts[0].Kind, w.Alerts[0].Message)
	}
	return [2]string{st.Bad.Render(clip(s, max(12, w1))), st.Bad.Render(clip(s, max(12, w2)))}
}

// watchStatus is the status line's watch part: the last refresh, the requests made and, on
// S3, their cost per hour at the current interval.
func (a *App) watchStatus() string {
	w := a.c.Watch
	if w == nil {
		return ""
	}
	st := a.c.Styles
	re := "↻"
	if st.G.Cursor == ">" { // --ascii
		re = "@"
	}
	if w.LastErr != "" {
		msg := "refresh failed"
		if w.wait > w.Interval {
			msg = "throttled"
		}
		return st.Warn.Render(fmt.Sprintf("%s %s, next in %s", re, msg, w.wait))
	}
	app := a.runningStage()
	if w.Refreshes == 0 {
		return app + st.Dim.Render(fmt.Sprintf("%s every %s", re, w.Interval))
	}
	s := fmt.Sprintf("%s %s %d req", re, w.LastRefresh.In(a.c.Clock.zone(tableZone(a.snap))).Format("15:04:05"), w.Lists+w.Gets)
	if w.s3 {
		perRefresh := (float64(w.Lists)*s3ListPer1k + float64(w.Gets)*s3GetPer1k) / 1000 / float64(w.Refreshes)
		s += fmt.Sprintf(" %s$%.4f/h", st.G.Approx, perRefresh*float64(time.Hour)/float64(w.wait))
	}
	return app + st.Dim.Render(s)
}

// runningStage names the followed application's current job and stage with its Hudi phase
// while the event log is in progress ("" otherwise).
func (a *App) runningStage() string {
	if !a.snap.Following() {
		return ""
	}
	cur, running := model.CurrentStage(a.snap.EventLog)
	if cur == nil {
		return ""
	}
	s := fmt.Sprintf("stage %d", cur.StageID)
	if cur.JobID != nil {
		s = fmt.Sprintf("job %d %s", *cur.JobID, s)
	}
	if cur.Phase != "" {
		s += " " + cur.Phase
	}
	if !running {
		s += " (done)"
	}
	return a.c.Styles.OK.Render(clip(s, 40)) + "  "
}

// watchElapsed is a pending instant's age for the dur column while watching ("" otherwise).
func (c *Common) watchElapsed(in *timeline.Instant) string {
	if c.Watch == nil || in.IsCompleted() || in.Started.IsZero() {
		return ""
	}
	d := c.Clock.now().Sub(in.Started)
	if d < 0 {
		return ""
	}
	return shortDur(d.Seconds()) // the state column says it is pending
}

// WatchRefreshMsg asks a watching App for a refresh now (tests driving Manual watches).
func WatchRefreshMsg() tea.Msg { return watchTickMsg{} }
