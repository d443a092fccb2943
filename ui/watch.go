package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui/common"
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

// watchMsg is any message of the watch loop.
type watchMsg interface{ Watch() }

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

func (watchAnalyzedMsg) Watch() {}
func (watchTickMsg) Watch()     {}
func (watchClockMsg) Watch()    {}
func (watchDoneMsg) Watch()     {}

// startWatch begins watching once the load has finished (the first refresh after one interval).
func (a *App) startWatch() tea.Cmd {
	o := a.opts.Watch
	if o == nil || a.c.Watch != nil || a.snap == nil || a.snap.Timeline == nil {
		return nil
	}
	loc := strings.ToLower(a.snap.Options.Location)
	a.c.Watch = &common.WatchState{Interval: o.Interval, Wait: o.Interval, Rules: o.Rules, Marks: map[string]common.WatchMark{},
		S3: strings.HasPrefix(loc, "s3://") || strings.HasPrefix(loc, "s3a://")}
	a.c.Watch.Alerts = model.Alerts(a.snap.Timeline, nil, a.c.Clock.Current(), o.Rules, a.snap.ArchivalSettings())
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
	w.Busy = true
	watcher, snap := w.Watcher, a.snap
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
		if w.Busy {
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
	if s == nil || seq <= w.Seq || s == a.snap {
		return nil
	}
	w.Seq = seq
	return a.publish(s)
}

// applyRefresh shows a refresh's snapshot and changes, and schedules the next one.
func (a *App) applyRefresh(msg watchDoneMsg) tea.Cmd {
	w := a.c.Watch
	w.Busy = false
	if msg.w != nil {
		w.Watcher = msg.w
	}
	w.Wait = model.NextWait(w.Interval, w.Wait, msg.err)
	next := a.watchTick(w.Wait)
	w.LastRefresh = a.c.Clock.Current()
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
		w.Marks[c.Instant.Key()] = common.WatchMark{Kind: c.Kind, Refresh: w.Refreshes}
	}
	for k, m := range w.Marks { // forget old marks: memory stays flat over a long watch
		if w.Refreshes-m.Refresh >= common.MarkRefreshes {
			delete(w.Marks, k)
		}
	}
	// Conditions (an old inflight, no commit) hold while true; a rollback is an event, so it
	// stays in the header (the last few) after the refresh that saw it.
	w.Alerts = nil
	for _, al := range model.Alerts(msg.snap.Timeline, msg.res.Changes, msg.res.At, w.Rules, msg.snap.ArchivalSettings()) {
		if al.Kind == model.AlertRollback {
			w.Events = append([]model.Alert{al}, w.Events...)
			w.Events = w.Events[:min(len(w.Events), 5)]
			continue
		}
		w.Alerts = append(w.Alerts, al)
	}
	w.Alerts = append(w.Events[:len(w.Events):len(w.Events)], w.Alerts...)
	cmds := []tea.Cmd{next, a.showWatched(msg.snap, msg.res.Seq)}
	if msg.res.Reanalyze {
		// The timeline shows now; the file view and analyzers follow when re-run.
		watcher := w.Watcher
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
	return [2]string{st.Bad.Render(common.Clip(s, max(12, w1))), st.Bad.Render(common.Clip(s, max(12, w2)))}
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
		if w.Wait > w.Interval {
			msg = "throttled"
		}
		return st.Warn.Render(fmt.Sprintf("%s %s, next in %s", re, msg, w.Wait))
	}
	app := a.runningStage()
	if w.Refreshes == 0 {
		return app + st.Dim.Render(fmt.Sprintf("%s every %s", re, w.Interval))
	}
	s := fmt.Sprintf("%s %s %d req", re, w.LastRefresh.In(a.c.Clock.Zone(common.TableZone(a.snap))).Format("15:04:05"), w.Lists+w.Gets)
	if w.S3 {
		perRefresh := (float64(w.Lists)*s3ListPer1k + float64(w.Gets)*s3GetPer1k) / 1000 / float64(w.Refreshes)
		s += fmt.Sprintf(" %s$%.4f/h", st.G.Approx, perRefresh*float64(time.Hour)/float64(w.Wait))
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
	return a.c.Styles.OK.Render(common.Clip(s, 40)) + "  "
}

// WatchRefreshMsg asks a watching App for a refresh now (tests driving Manual watches).
func WatchRefreshMsg() tea.Msg { return watchTickMsg{} }
