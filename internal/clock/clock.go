// Package clock is hudiscope's one source of the wall-clock time. model.Options.Now defaults
// to Now, and every analyzer, fleet row and pane measures ages against the clock the model was
// loaded with, so one setting moves them all.
package clock

import (
	"os"
	"strings"
	"time"
)

// Env names the variable that sets the clock. An RFC 3339 time pins it (reproducible reports
// and goldens); a signed Go duration such as "+8760h" shifts the real clock, which CI uses to
// prove that no test depends on today's date.
const Env = "HUDISCOPE_NOW"

// Now is the time ages are measured against: HUDISCOPE_NOW when set and valid, else the
// system clock.
func Now() time.Time {
	return parse(os.Getenv(Env), time.Now())
}

// parse applies a HUDISCOPE_NOW value to the real time; an empty or invalid value leaves it.
func parse(v string, real time.Time) time.Time {
	v = strings.TrimSpace(v)
	if v == "" {
		return real
	}
	if v[0] == '+' || v[0] == '-' {
		if d, err := time.ParseDuration(v); err == nil {
			return real.Add(d)
		}
		return real
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t
	}
	return real
}
