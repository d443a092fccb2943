package ui

import "github.com/hudiscope/hudiscope/internal/units"

// The TUI's names for the shared formatters in internal/units; every pane uses these.

// humanBytes is a byte count in binary units in at most 6 cells ("512B", "9.5KiB", "55KiB").
func humanBytes(v int64) string { return units.BytesCompact(v) }

// humanCount is a count in at most 5 cells (999, 1.2k, 45k, 3.4M).
func humanCount(v int64) string { return units.Count(v) }

// humanNum is any number for reading: whole numbers as counts, fractions to three
// significant digits.
func humanNum(f float64) string { return units.Num(f) }
