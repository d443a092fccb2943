// Package units is hudiscope's one place for sizes, numbers and durations: the byte and
// number formatters the Markdown report, the text outputs and the TUI use, the one size parser
// every size flag reads through, and (variants.go) the few older formats goldens and messages
// pin. The Java-compatible JSON keeps raw numbers.
package units

import (
	"math"
	"strconv"
	"time"
)

var binary = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// Bytes renders a byte count in binary units, three significant digits at most:
// "512 B", "1.5 KiB", "50 MiB", "1.0 TiB", "-2.0 KiB".
func Bytes(n int64) string { return bytes(n, " ") }

// BytesCompact is Bytes without the space, at most 6 cells up to 999 EiB: "512B", "9.5KiB".
func BytesCompact(n int64) string { return bytes(n, "") }

func bytes(n int64, sep string) string {
	if n < 0 {
		return "-" + ubytes(uint64(-n), sep) // uint64(-MinInt64) is still the magnitude
	}
	return ubytes(uint64(n), sep)
}

// ubytes switches unit at 1000 so the figure never takes four digits.
func ubytes(v uint64, sep string) string {
	if v < 1000 {
		return strconv.FormatUint(v, 10) + sep + "B"
	}
	f := float64(v)
	for i, u := range binary {
		f /= 1024
		switch {
		case f < 9.95:
			return strconv.FormatFloat(f, 'f', 1, 64) + sep + u
		case f < 999.5 || i == len(binary)-1:
			return strconv.FormatFloat(f, 'f', 0, 64) + sep + u
		}
	}
	return "" // unreachable
}

// Count renders a count in at most 5 cells (a minus sign aside), whole units truncated:
// 999, 1.2k, 45k, 3.5M, 12G.
func Count(n int64) string {
	if n < 0 {
		return "-" + ucount(uint64(-n))
	}
	return ucount(uint64(n))
}

func ucount(v uint64) string {
	f := float64(v)
	switch {
	case v < 1000:
		return strconv.FormatUint(v, 10)
	case v < 10_000:
		return strconv.FormatFloat(f/1e3, 'f', 1, 64) + "k"
	case v < 1_000_000:
		return strconv.FormatUint(v/1000, 10) + "k"
	case v < 10_000_000:
		return strconv.FormatFloat(f/1e6, 'f', 1, 64) + "M"
	case v < 1_000_000_000:
		return strconv.FormatUint(v/1_000_000, 10) + "M"
	case v < 10_000_000_000:
		return strconv.FormatFloat(f/1e9, 'f', 1, 64) + "G"
	}
	return strconv.FormatUint(v/1_000_000_000, 10) + "G"
}

// Num renders any number for reading: whole numbers as Count, fractions to three
// significant digits (41938845.696 → 41M, 0.0024089 → 0.00241); "-" for NaN and ±Inf.
func Num(f float64) string {
	switch a := math.Abs(f); {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "-"
	case a >= 9e18:
		return strconv.FormatFloat(f, 'g', 3, 64)
	case a >= 1000 || f == math.Trunc(f):
		return Count(int64(math.Round(f)))
	case a >= 100:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(f, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}

// Millis renders a duration given in milliseconds, whole seconds from a minute up
// ("1.234s", "2m3s"); "-" when negative (undefined).
func Millis(ms int64) string {
	if ms < 0 {
		return "-"
	}
	d := time.Duration(ms) * time.Millisecond
	if d >= time.Minute {
		d = d.Round(time.Second)
	}
	return d.String()
}
