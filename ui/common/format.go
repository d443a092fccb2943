package common

import (
	"time"

	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// DashIf is s, or "-" for an empty cell.
func DashIf(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// MsDur renders milliseconds as ShortDur does; "-" for none (negative).
func MsDur(ms int64) string {
	if ms < 0 {
		return "-"
	}
	return units.Seconds(float64(ms) / 1000)
}

// PackFacts lays facts out on lines of at most width cells, joined by sep, breaking only
// between facts (a fact longer than the width is cut); every line starts with a space.
func PackFacts(facts []string, sep string, width int) []string {
	var out []string
	line := ""
	for _, f := range facts {
		switch {
		case line == "":
			line = " " + f
		case CellWidth(line)+CellWidth(sep)+CellWidth(f) <= width:
			line += sep + f
		default:
			out = append(out, Clip(line, width))
			line = " " + f
		}
	}
	if line != "" {
		out = append(out, Clip(line, width))
	}
	return out
}

// PartLabel is a partition's display name, escaped for the terminal.
func PartLabel(p string) string { return safetext.Terminal(view.PartitionName(p)) }

// TableZone is the zone the table's instant strings are written in.
func TableZone(s *model.Snapshot) *time.Location {
	if s != nil && s.Config != nil && s.Config.Zone != nil {
		return s.Config.Zone
	}
	return time.UTC
}
