package timeline

import (
	"testing"
	"time"
)

// daysIn's table agrees with the calendar (leap years by the Gregorian rules).
func TestDaysIn(t *testing.T) {
	for y := 1600; y <= 2500; y++ {
		for m := time.January; m <= time.December; m++ {
			if got, want := daysIn(m, y), time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day(); got != want {
				t.Fatalf("%d-%02d: %d days, want %d", y, m, got, want)
			}
		}
	}
}
