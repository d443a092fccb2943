package ui

import (
	"math"
	"strconv"
)

// The TUI's one byte formatter and one number formatter; every pane uses these.

// humanBytes renders a byte count in binary units in at most 6 cells ("512B", "9.5KiB",
// "55KiB", "1.2MiB").
func humanBytes(v int64) string {
	if v < 1000 {
		return strconv.FormatInt(v, 10) + "B"
	}
	f := float64(v)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		f /= 1024
		switch {
		case f < 9.95:
			return strconv.FormatFloat(f, 'f', 1, 64) + u
		case f < 999.5:
			return strconv.FormatFloat(f, 'f', 0, 64) + u
		}
	}
	return strconv.FormatFloat(f/1024, 'f', 0, 64) + "EiB"
}

// humanCount renders a count in at most 5 cells (999, 1.2k, 45k, 3.4M).
func humanCount(v int64) string {
	if v < 0 {
		return "-" + humanCount(-v)
	}
	f := float64(v)
	switch {
	case v < 1000:
		return strconv.FormatInt(v, 10)
	case v < 10_000:
		return strconv.FormatFloat(f/1e3, 'f', 1, 64) + "k"
	case v < 1_000_000:
		return strconv.FormatInt(v/1000, 10) + "k"
	case v < 10_000_000:
		return strconv.FormatFloat(f/1e6, 'f', 1, 64) + "M"
	case v < 1_000_000_000:
		return strconv.FormatInt(v/1_000_000, 10) + "M"
	case v < 10_000_000_000:
		return strconv.FormatFloat(f/1e9, 'f', 1, 64) + "G"
	}
	return strconv.FormatInt(v/1_000_000_000, 10) + "G"
}

// humanNum renders any number for reading: whole numbers as counts, fractions to three
// significant digits (41938845.696 → 42M, 0.0024089 → 0.00241).
func humanNum(f float64) string {
	switch a := math.Abs(f); {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "-"
	case a >= 1000 || f == math.Trunc(f):
		return humanCount(int64(math.Round(f)))
	case a >= 100:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(f, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}
