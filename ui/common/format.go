package common

import (
	"time"

	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// The TUI's names for the shared formatters in internal/units; every pane uses these.

// HumanBytes is a byte count in binary units in at most 6 cells ("512B", "9.5KiB", "55KiB").
func HumanBytes(v int64) string { return units.BytesCompact(v) }

// HumanCount is a count in at most 5 cells (999, 1.2k, 45k, 3.4M).
func HumanCount(v int64) string { return units.Count(v) }

// HumanNum is any number for reading: whole numbers as counts, fractions to three
// significant digits.
func HumanNum(f float64) string { return units.Num(f) }

// DashIf is s, or "-" for an empty cell.
func DashIf(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ShortDur renders seconds in at most 5 cells.
func ShortDur(s float64) string { return units.Seconds(s) }

// MsDur renders milliseconds as ShortDur does; "-" for none (negative).
func MsDur(ms int64) string {
	if ms < 0 {
		return "-"
	}
	return ShortDur(float64(ms) / 1000)
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
func PartLabel(p string) string { return safetext.Terminal(report.PartitionName(p)) }

// TableZone is the zone the table's instant strings are written in.
func TableZone(s *model.Snapshot) *time.Location {
	if s != nil && s.Config != nil && s.Config.Zone != nil {
		return s.Config.Zone
	}
	return time.UTC
}
