package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui"
)

// Exit codes of `timeline --watch --exit-on`: one per alert, so a script can tell them apart.
var exitOnCodes = map[model.AlertKind]int{
	model.AlertInflightOlder:   10,
	model.AlertPendingOlder:    11,
	model.AlertRollback:        12,
	model.AlertArchivalStopped: 13,
	model.AlertNoCommit:        14,
}

// DefaultWatchInterval is the interval of a bare --watch.
const DefaultWatchInterval = 30 * time.Second

// WatchInterval is --watch[=30s]: 0 when absent, DefaultWatchInterval when bare.
type WatchInterval time.Duration

// Decode takes an optional value: `--watch` alone is a bool-style switch, `--watch=1m` sets
// the interval (kong hands `=value` to a bool flag's mapper as a flag-value token).
func (w *WatchInterval) Decode(ctx *kong.DecodeContext) error {
	*w = WatchInterval(DefaultWatchInterval)
	if ctx.Scan.Peek().Type != kong.FlagValueToken {
		return nil
	}
	s := fmt.Sprint(ctx.Scan.Pop().Value)
	switch strings.ToLower(s) {
	case "true", "yes", "1":
		return nil
	case "false", "no", "0":
		*w = 0
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("--watch=%s: not a duration (30s, 2m)", s)
	}
	if d < time.Second {
		return fmt.Errorf("--watch=%s: the interval is at least 1s", s)
	}
	*w = WatchInterval(d)
	return nil
}

// IsBool lets --watch stand without a value.
func (w WatchInterval) IsBool() bool { return true }

// WatchFlags are shared by the explorer and `timeline`.
type WatchFlags struct {
	Watch WatchInterval `name:"watch" placeholder:"INTERVAL" help:"Keep watching: re-read the timeline every INTERVAL (--watch alone: 30s; --watch=1m). Lists only what can have changed; backs off when S3 throttles."`
	Alert string        `name:"alert" default:"rollback,archival-stopped,inflight-older=1h,pending-older=6h" placeholder:"RULES" help:"Alerts a watch reports: inflight-older=D, pending-older=D (compaction/clustering), rollback, archival-stopped, no-commit=D; comma-separated, \"\" for none."`
	// WatchCount stops after this many refreshes (tests, the soak script).
	WatchCount int `name:"watch-count" hidden:"" help:"Stop watching after N refreshes (0: never)."`
}

// watchTimeline follows the timeline of a loaded snapshot, printing changes (text) or one
// JSON line per change and alert, until ctx ends, WatchCount refreshes or an --exit-on alert.
func (c *TimelineCmd) watchTimeline(ctx context.Context, s *model.Snapshot, w io.Writer, format string) error {
	shown, err := model.ParseAlertRules("--alert", c.Alert)
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	exitOn, err := model.ParseAlertRules("--exit-on", c.ExitOn)
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	watcher, err := model.NewWatcher(ctx, s)
	if err != nil {
		return err
	}
	interval := time.Duration(c.Watch)
	wait := interval // backed off while S3 throttles (model.NextWait)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	emit := func(v any) { _ = enc.Encode(v) } // JSON lines; text is printed where it differs
	stamp := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	if format == "json" {
		emit(watchStart{Event: "start", Time: stamp(s.Options.Now()), Table: s.Config.Name, Version: s.Config.Version,
			Instants: len(s.Timeline.Instants), IntervalMs: interval.Milliseconds()})
	} else {
		fmt.Fprintf(w, "watching every %s (ctrl+c to stop)\n", interval)
	}
	raised := map[string]bool{}
	problems := len(readerProblems(s))
	check := func(snap *model.Snapshot, changes []model.Change, at time.Time) error {
		arch := snap.ArchivalSettings()
		for _, set := range []struct {
			rules model.AlertRules
			exit  bool
		}{{shown, false}, {exitOn, true}} {
			for _, a := range model.Alerts(snap.Timeline, changes, at, set.rules, arch) {
				key := string(a.Kind) + "/" + a.Instant
				if !raised[key] {
					raised[key] = true
					if format == "json" {
						emit(watchAlert{Event: "alert", Time: stamp(at), Alert: string(a.Kind), Instant: a.Instant, Message: a.Message})
					} else {
						fmt.Fprintf(w, "%s ALERT %s: %s\n", at.Local().Format("15:04:05"), a.Kind, safetext.Terminal(a.Message))
					}
				}
				if set.exit {
					return codeError{exitOnCodes[a.Kind], fmt.Sprintf("--exit-on %s: %s", a.Kind, a.Message)}
				}
			}
		}
		return nil
	}
	if err := check(s, nil, s.Options.Now()); err != nil {
		return err
	}
	for n := 1; c.WatchCount == 0 || n <= c.WatchCount; n++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		snap, res, err := watcher.Refresh(ctx, false)
		wait = model.NextWait(interval, wait, err)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			msg := redact.Text(err.Error())
			if storage.IsThrottled(err) {
				msg += fmt.Sprintf(" (throttled: next refresh in %s)", wait)
			}
			warn("warning: refresh:", msg)
			continue
		}
		if ps := readerProblems(snap); len(ps) > problems {
			for _, p := range ps[problems:] {
				warn("warning:", p)
			}
			problems = len(ps)
		}
		for _, ch := range res.Changes {
			if format == "json" {
				emit(changeLine(ch, stamp(res.At)))
			} else {
				fmt.Fprintf(w, "%s %s\n", res.At.Local().Format("15:04:05"), safetext.Terminal(ch.String()))
			}
		}
		if err := check(snap, res.Changes, res.At); err != nil {
			return err
		}
	}
	return nil
}

type watchStart struct {
	Event      string `json:"event"`
	Time       string `json:"time"`
	Table      string `json:"table"`
	Version    int    `json:"tableVersion"`
	Instants   int    `json:"instants"`
	IntervalMs int64  `json:"intervalMs"`
}

type watchChange struct {
	Event          string `json:"event"`
	Time           string `json:"time"`
	Change         string `json:"change"`
	RequestedTime  string `json:"requestedTime"`
	Action         string `json:"action"`
	PlanAction     string `json:"planAction,omitempty"`
	State          string `json:"state"`
	From           string `json:"from,omitempty"`
	CompletionTime string `json:"completionTime,omitempty"`
}

type watchAlert struct {
	Event   string `json:"event"`
	Time    string `json:"time"`
	Alert   string `json:"alert"`
	Instant string `json:"instant,omitempty"`
	Message string `json:"message"`
}

func changeLine(c model.Change, at string) watchChange {
	in := c.Instant
	return watchChange{Event: "change", Time: at, Change: string(c.Kind), RequestedTime: in.RequestedTime,
		Action: in.Action, PlanAction: in.PlanAction, State: string(in.State), From: string(c.From),
		CompletionTime: in.CompletionTime}
}

// watchOptions are the explorer's --watch settings (nil without --watch).
func (c *OpenCmd) watchOptions() (*ui.WatchOptions, error) {
	if c.Watch == 0 {
		return nil, nil
	}
	rules, err := model.ParseAlertRules("--alert", c.Alert)
	if err != nil {
		return nil, codeError{exitUsage, err.Error()}
	}
	return &ui.WatchOptions{Interval: time.Duration(c.Watch), Rules: rules}, nil
}
