package common

import (
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/clock"
	"github.com/hudiscope/hudiscope/view"
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

func (c *Clock) Current() time.Time {
	if c == nil || c.Now == nil {
		return clock.Now()
	}
	return c.Now()
}

// Zone is the zone times are shown in; writer is the table's zone.
func (c *Clock) Zone(writer *time.Location) *time.Location {
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
	return t.In(c.Zone(writer)).Format("2006-01-02 15:04:05.000 MST")
}

// Age is how long ago t was ("3h ago"; "in 5m" for a time ahead of now).
func (c *Clock) Age(t time.Time) string { return view.Age(c.Current(), t) }
