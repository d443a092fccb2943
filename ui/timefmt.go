package ui

import (
	"fmt"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/clock"
)

// TimeMode is how instant times are shown; the global zone key cycles it.
type TimeMode int

const (
	TimeWriter TimeMode = iota // the writer's zone (tableconfig.Config.Zone)
	TimeUTC
	TimeLocal
	TimeRaw // the instant string as stored
)

func (m TimeMode) String() string {
	return [...]string{"writer's zone", "UTC", "local zone", "raw instant strings"}[m]
}

// Clock renders instants, ages and durations for every pane (Common.Clock).
type Clock struct {
	Mode  TimeMode
	Now   func() time.Time
	Local *time.Location // this machine's zone (time.Local unless a test sets it)
}

func (c *Clock) now() time.Time {
	if c == nil || c.Now == nil {
		return clock.Now()
	}
	return c.Now()
}

// zone is the zone times are shown in; writer is the table's zone.
func (c *Clock) zone(writer *time.Location) *time.Location {
	switch c.Mode {
	case TimeUTC:
		return time.UTC
	case TimeLocal:
		if c.Local != nil {
			return c.Local
		}
		return time.Local
	}
	if writer == nil {
		return time.UTC
	}
	return writer
}

// Instant renders an instant string written in zone writer as "2006-01-02 15:04:05.000 MST"
// in the shown zone; raw mode and strings that are no date (MDT instants) stay as they are.
func (c *Clock) Instant(raw string, writer *time.Location) string {
	if c.Mode == TimeRaw {
		return raw
	}
	t, ok := timeline.ParseInstantTime(raw, writer)
	if !ok {
		return raw
	}
	return c.Time(t, writer)
}

// Time renders t in the shown zone (raw mode: as an instant string in the writer's zone).
func (c *Clock) Time(t time.Time, writer *time.Location) string {
	if c.Mode == TimeRaw {
		return timeline.FormatInstantTime(t, writer)
	}
	return t.In(c.zone(writer)).Format("2006-01-02 15:04:05.000 MST")
}

// Age is how long ago t was ("3h ago"; "in 5m" for a time ahead of now).
func (c *Clock) Age(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := c.now().Sub(t)
	switch {
	case d < 0:
		return "in " + ageUnit(-d)
	case d < time.Second:
		return "just now"
	}
	return ageUnit(d) + " ago"
}

// ageUnit is a duration in its largest unit (45s, 12m, 3h, 4d).
func ageUnit(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours())/24)
}

// Dur renders a duration in two units at most: 850ms, 4.2s, 3m05s, 2h13m, 3d4h.
func Dur(d time.Duration) string {
	switch {
	case d < 0:
		return "-" + Dur(-d)
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
}
