package units

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The variants below keep formats that goldens, flag defaults or messages already pin; each
// says where it is used. New output uses Bytes, BytesCompact, Millis or Duration.

// BytesSetting renders a size as a size setting is written back (the read ceiling's flag
// default and its messages): binary units, one decimal with ".0" dropped: "700 B", "256 MiB",
// "1.5 KiB", "46.6 GiB".
func BytesSetting(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + string("KMGTP"[exp]) + "iB"
}

// BytesMessage renders a size in a reader's over-the-limit message: "12 bytes", "3 KiB",
// "82 MiB", "1.5 GiB".
func BytesMessage(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// BytesFloor renders a size truncated to its largest binary unit, letter only: "512", "3K",
// "82M", "1G" (the layout's file-size bucket edges).
func BytesFloor(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatInt(n>>30, 10) + "G"
	case n >= 1<<20:
		return strconv.FormatInt(n>>20, 10) + "M"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + "K"
	}
	return strconv.FormatInt(n, 10)
}

// BytesExact renders a size in the largest binary unit that divides it, letter only, else in
// bytes: "64M", "1T", "1000" (configured sizes in the layout report).
func BytesExact(n int64) string {
	switch {
	case n >= 1<<40 && n%(1<<40) == 0:
		return strconv.FormatInt(n>>40, 10) + "T"
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "G"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "M"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "K"
	}
	return strconv.FormatInt(n, 10)
}

// ParseBytes parses a size: a whole number of bytes, optionally with a unit, binary (K, KiB,
// M, MiB, G, GiB, T, TiB, any case) or decimal (KB, MB, GB, TB): "512MiB", "1g", "64KB",
// "2 MB". Every size flag (--max-read-size, --max-scan-bytes) reads through it.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9') {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("size %q: want a number of bytes, optionally with a unit (512MiB, 1GiB)", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %w", s, err)
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	mult := int64(1)
	if unit != "" && unit != "b" {
		exp := strings.IndexByte("kmgt", unit[0]) + 1
		if exp == 0 {
			return 0, fmt.Errorf("size %q: unknown unit %q (use B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)", s, t[i:])
		}
		base := int64(1024)
		switch unit[1:] {
		case "", "i", "ib":
		case "b":
			base = 1000
		default:
			return 0, fmt.Errorf("size %q: unknown unit %q (use B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)", s, t[i:])
		}
		for range exp {
			mult *= base
		}
	}
	if n > (1<<63-1)/mult {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return n * mult, nil
}

// Duration renders a duration in two units at most: 850ms, 4.2s, 3m05s, 2h13m, 3d4h.
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return "-" + Duration(-d)
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

// Seconds renders seconds in at most 5 cells (the Timeline's and Event log's duration
// columns): 850ms, 4.2s, 42s, 3m05, 42m, 2h13, 3d.
func Seconds(s float64) string {
	switch {
	case s < 1:
		return fmt.Sprintf("%dms", int(s*1000))
	case s < 9.95:
		return fmt.Sprintf("%.1fs", s)
	case s < 59.5:
		return fmt.Sprintf("%.0fs", s)
	case s < 600:
		return fmt.Sprintf("%dm%02d", int(s)/60, int(s)%60)
	case s < 6000:
		return fmt.Sprintf("%dm", int(s)/60)
	case s < 86400:
		return fmt.Sprintf("%dh%02d", int(s)/3600, int(s)%3600/60)
	}
	return fmt.Sprintf("%dd", int(s)/86400)
}

// Age renders a duration in its largest whole unit, days from 48 hours: 45s, 12m, 47h, 4d
// (the TUI's "3h ago").
func Age(d time.Duration) string {
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

// AgeDays renders seconds in their largest whole unit, days from 24 hours: 40s, 12m, 5h, 3d
// (the fleet table's ages).
func AgeDays(sec int64) string {
	switch {
	case sec >= 86400:
		return fmt.Sprintf("%dd", sec/86400)
	case sec >= 3600:
		return fmt.Sprintf("%dh", sec/3600)
	case sec >= 60:
		return fmt.Sprintf("%dm", sec/60)
	}
	return fmt.Sprintf("%ds", sec)
}
