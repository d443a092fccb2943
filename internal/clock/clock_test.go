package clock

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	real := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		v    string
		want time.Time
	}{
		{"", real},
		{"2027-01-02T03:04:05Z", time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)},
		{"+8760h", time.Date(2027, 12, 1, 20, 0, 0, 0, time.UTC)},
		{"-24h", time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)},
		{"+tomorrow", real},
		{"yesterday", real},
	} {
		if got := parse(c.v, real); !got.Equal(c.want) {
			t.Errorf("parse(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestNowFollowsEnv(t *testing.T) {
	t.Setenv(Env, "2030-06-01T00:00:00Z")
	if got := Now(); !got.Equal(time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("pinned: %v", got)
	}
	t.Setenv(Env, "+8760h")
	if d := time.Until(Now()); d < 8759*time.Hour || d > 8761*time.Hour {
		t.Errorf("shifted by %v, want a year", d)
	}
}
