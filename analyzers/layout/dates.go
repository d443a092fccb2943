package layout

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

// Interval is the partition date filter of --num-days / --start-date / --end-date: dates d with
// Start ≤ d < End; a zero bound is open. Dates are calendar days (UTC midnight).
type Interval struct {
	Start, End time.Time
}

// String is Java's Arrays.toString of the LocalDate pair: "[2023-01-01, null]".
func (iv *Interval) String() string {
	f := func(t time.Time) string {
		if t.IsZero() {
			return "null"
		}
		return t.Format("2006-01-02")
	}
	return "[" + f(iv.Start) + ", " + f(iv.End) + "]"
}

// Contains is Java's isPartitionInRange for a dated partition.
func (iv *Interval) Contains(d time.Time) bool {
	return (iv.Start.IsZero() || !d.Before(iv.Start)) && (iv.End.IsZero() || d.Before(iv.End))
}

// DateInterval is Java's getUserSpecifiedDateInterval: --end-date is parsed first; --start-date
// beats --num-days; --num-days N (> 0) sets [today−N, today) and replaces --end-date; a negative
// N, an unparseable date or start ≥ end is an error. It returns nil when no bound is set.
// today is the current local date.
func DateInterval(numDays int64, start, end string, today time.Time) (*Interval, error) {
	var iv Interval
	if end != "" {
		d, ok := ParseDate(end)
		if !ok {
			return nil, fmt.Errorf("unable to parse --end-date %q (expected yyyy/M/d or yyyy-M-d)", end)
		}
		iv.End = d
	}
	switch {
	case start != "":
		d, ok := ParseDate(start)
		if !ok {
			return nil, fmt.Errorf("unable to parse --start-date %q (expected yyyy/M/d or yyyy-M-d)", start)
		}
		iv.Start = d
	case numDays > 0:
		iv.End = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
		iv.Start = iv.End.AddDate(0, 0, -int(numDays))
	case numDays < 0:
		return nil, fmt.Errorf("--num-days must specify a positive value")
	}
	if !iv.Start.IsZero() && !iv.End.IsZero() && !iv.Start.Before(iv.End) {
		return nil, fmt.Errorf("starting date must be before ending date. Start Date: %s, End Date: %s",
			iv.Start.Format("2006-01-02"), iv.End.Format("2006-01-02"))
	}
	if iv.Start.IsZero() && iv.End.IsZero() {
		return nil, nil
	}
	return &iv, nil
}

// ParseDate parses Java's DATE_FORMATTER (optional "yyyy/M/d" then optional "yyyy-M-d", whole
// text, SMART resolver): four-digit year, 1+ digit month and day; a day past the month's end
// (≤ 31) is clamped to its last day as SMART does.
func ParseDate(s string) (time.Time, bool) {
	for _, sep := range []string{"/", "-"} {
		parts := strings.Split(s, sep)
		if len(parts) != 3 || len(parts[0]) != 4 || !digits(parts[0]) || !digits(parts[1]) || !digits(parts[2]) ||
			len(parts[1]) > 19 || len(parts[2]) > 19 {
			continue
		}
		y, _ := strconv.Atoi(parts[0])
		m, err1 := strconv.Atoi(parts[1])
		d, err2 := strconv.Atoi(parts[2])
		if err1 != nil || err2 != nil || y < 1 || m < 1 || m > 12 || d < 1 || d > 31 {
			return time.Time{}, false
		}
		last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
		if d > last {
			d = last
		}
		return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), true
	}
	return time.Time{}, false
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// PartitionDate is Java's getPartitionDate: the whole name, or the value of "col=value" when
// the name splits on "=" into exactly two parts (Java's split drops trailing empty strings,
// so "dt=…/hr=…" never parses).
func PartitionDate(partition string) (time.Time, bool) {
	s := partition
	if strings.Contains(partition, "=") {
		parts := strings.Split(partition, "=")
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		if len(parts) == 2 {
			s = strings.TrimFunc(parts[1], func(r rune) bool { return r <= ' ' })
		}
	}
	return ParseDate(s)
}

// FilterPartitions applies a date interval the way the Java tool does: only the first
// partition is required to carry a date (else an error); later partitions without a date are
// kept; dated ones are kept when inside the interval. A nil interval keeps everything.
func FilterPartitions(parts []*filegroup.Partition, iv *Interval) ([]*filegroup.Partition, error) {
	if iv == nil || len(parts) == 0 {
		return parts, nil
	}
	if _, ok := PartitionDate(parts[0].Path); !ok {
		return nil, fmt.Errorf("cannot apply --start-date, --end-date, or --num-days when partition does not contain date. Interval: %s, Partition Name: %s",
			iv, parts[0].Path)
	}
	var out []*filegroup.Partition
	for _, p := range parts {
		if d, ok := PartitionDate(p.Path); !ok || iv.Contains(d) {
			out = append(out, p)
		}
	}
	return out, nil
}
