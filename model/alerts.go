package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// AlertKind names one watch alert; the names are the --exit-on keys.
type AlertKind string

const (
	AlertInflightOlder   AlertKind = "inflight-older"   // a write inflight (or requested) longer than N
	AlertPendingOlder    AlertKind = "pending-older"    // a compaction/clustering plan pending longer than N
	AlertRollback        AlertKind = "rollback"         // a rollback appeared, or a pending write was rolled back
	AlertArchivalStopped AlertKind = "archival-stopped" // the active timeline holds far more commits than archival keeps
	AlertNoCommit        AlertKind = "no-commit"        // no write completed for N
)

// AlertKinds in the order they are checked and reported.
var AlertKinds = []AlertKind{AlertInflightOlder, AlertPendingOlder, AlertRollback, AlertArchivalStopped, AlertNoCommit}

// AlertRules say which alerts are raised; a zero duration turns its alert off.
type AlertRules struct {
	InflightOlder time.Duration
	PendingOlder  time.Duration
	NoCommit      time.Duration
	Rollback      bool
	// ArchivalStopped raises when the completed instants on the active timeline exceed twice
	// hoodie.keep.max.commits (archival trims them to between min and max each run).
	ArchivalStopped bool
}

// Any reports whether some rule is on.
func (r AlertRules) Any() bool {
	return r.InflightOlder > 0 || r.PendingOlder > 0 || r.NoCommit > 0 || r.Rollback || r.ArchivalStopped
}

// ParseAlertRules parses `inflight-older=1h,pending-older=2h,no-commit=30m,rollback,archival-stopped`,
// the value of flag (--alert or --exit-on), which its errors name.
func ParseAlertRules(flag, s string) (AlertRules, error) {
	var r AlertRules
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, hasV := strings.Cut(part, "=")
		var d time.Duration
		if hasV {
			var err error
			if d, err = time.ParseDuration(v); err != nil || d <= 0 {
				return r, fmt.Errorf("%s %s: %q is not a positive duration (30m, 1h)", flag, k, v)
			}
		}
		switch AlertKind(k) {
		case AlertInflightOlder, AlertPendingOlder, AlertNoCommit:
			if !hasV {
				return r, fmt.Errorf("%s %s needs a duration: %s=1h", flag, k, k)
			}
			switch AlertKind(k) {
			case AlertInflightOlder:
				r.InflightOlder = d
			case AlertPendingOlder:
				r.PendingOlder = d
			default:
				r.NoCommit = d
			}
		case AlertRollback, AlertArchivalStopped:
			if hasV {
				return r, fmt.Errorf("%s %s takes no value", flag, k)
			}
			if AlertKind(k) == AlertRollback {
				r.Rollback = true
			} else {
				r.ArchivalStopped = true
			}
		default:
			return r, fmt.Errorf("%s: unknown alert %q (one of inflight-older=D, pending-older=D, rollback, archival-stopped, no-commit=D)", flag, k)
		}
	}
	return r, nil
}

// Alert is one raised alert.
type Alert struct {
	Kind    AlertKind
	Instant string // the instant it is about ("" for no-commit, archival-stopped)
	Message string
}

// isPlannedService: a pending table service with a plan (compaction, log compaction,
// clustering). Pending, so the table type, which only decides completed commits, is not needed.
func isPlannedService(in *timeline.Instant) bool { return in.IsPlannedService("") }

// ArchivalSettings is what the archival-stopped alert measures against: hoodie.keep.max.commits
// (0: the default 30, the same in every release line) and the table version, whose release line
// decides how many commits archival leaves at steady state.
type ArchivalSettings struct {
	KeepMax      int
	TableVersion int
}

// Alerts evaluates the rules on the current timeline and the changes of the last refresh.
func Alerts(tl *timeline.Timeline, changes []Change, now time.Time, r AlertRules, arch ArchivalSettings) []Alert {
	var out []Alert
	if tl == nil {
		return nil
	}
	age := func(in *timeline.Instant) time.Duration {
		if in.Started.IsZero() {
			return 0
		}
		return now.Sub(in.Started)
	}
	lastCommit := time.Time{}
	for _, in := range tl.Instants {
		if in.State == timeline.Completed {
			if timeline.IsWriteAction(in.Action) && in.Ended.After(lastCommit) {
				lastCommit = in.Ended
			}
			continue
		}
		a := age(in)
		switch {
		case isPlannedService(in):
			if r.PendingOlder > 0 && a > r.PendingOlder {
				out = append(out, Alert{AlertPendingOlder, in.RequestedTime,
					fmt.Sprintf("%s %s %s for %s (over %s)", in.Action, in.RequestedTime, strings.ToLower(string(in.State)), Round(a), r.PendingOlder)})
			}
		case timeline.IsWriteAction(in.Action):
			if r.InflightOlder > 0 && a > r.InflightOlder {
				out = append(out, Alert{AlertInflightOlder, in.RequestedTime,
					fmt.Sprintf("%s %s %s for %s (over %s)", in.Action, in.RequestedTime, strings.ToLower(string(in.State)), Round(a), r.InflightOlder)})
			}
		}
	}
	if r.Rollback {
		for _, c := range changes {
			switch {
			case c.Kind == ChangeRolledBack:
				out = append(out, Alert{AlertRollback, c.Instant.RequestedTime, fmt.Sprintf("%s %s was rolled back", c.Instant.Action, c.Instant.RequestedTime)})
			case c.Kind == ChangeNew && (c.Instant.IsRollback() || c.Instant.IsRestore()):
				out = append(out, Alert{AlertRollback, c.Instant.RequestedTime, fmt.Sprintf("%s %s appeared", c.Instant.Action, c.Instant.RequestedTime)})
			}
		}
	}
	if r.ArchivalStopped {
		// The Health pane's archival check, measured the same way: completed commits (not cleans,
		// which 0.x writers add with every commit) against keep.max plus the release line's lag.
		keepMax := arch.KeepMax
		if keepMax <= 0 {
			keepMax = 30
		}
		if m := health.MeasureArchival(tl.Instants, arch.TableVersion, int64(keepMax)); m.Behind() {
			out = append(out, Alert{AlertArchivalStopped, "", fmt.Sprintf("%d completed commits (%d completed instants) on the active timeline, "+
				"archival keeps at most %d (hoodie.keep.max.commits; alert from %d, Hudi %s): archival is not running or is blocked",
				m.Counted, m.Completed, keepMax, m.Threshold, m.Rule)})
		}
	}
	if r.NoCommit > 0 && !lastCommit.IsZero() && now.Sub(lastCommit) > r.NoCommit {
		out = append(out, Alert{AlertNoCommit, "", fmt.Sprintf("no write completed for %s (last at %s, over %s)", Round(now.Sub(lastCommit)), timeline.FormatInstantTime(lastCommit, lastCommit.Location()), r.NoCommit)})
	}
	return out
}

// Round shortens an age for display: seconds under an hour, minutes above.
func Round(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// ArchivalSettings is hoodie.keep.max.commits of the effective configuration (0 if unknown)
// and the table version.
func (s *Snapshot) ArchivalSettings() ArchivalSettings {
	var a ArchivalSettings
	if s == nil {
		return a
	}
	if s.Config != nil {
		a.TableVersion = s.Config.Version
	}
	if s.Effective != nil {
		a.KeepMax, _ = strconv.Atoi(strings.TrimSpace(s.Effective.Get("hoodie.keep.max.commits")))
	}
	return a
}
