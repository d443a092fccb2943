package timeline_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func TestParseInstantFileName(t *testing.T) {
	cases := []struct {
		name              string
		req, comp, action string
		state             timeline.State
		ok                bool
	}{
		{"20240418173213674.commit", "20240418173213674", "", "commit", timeline.Completed, true},
		{"20240418173213674.inflight", "20240418173213674", "", "commit", timeline.Inflight, true},
		{"20240418173213674.commit.requested", "20240418173213674", "", "commit", timeline.Requested, true},
		{"20251220210130942_20251220210131219.deltacommit", "20251220210130942", "20251220210131219", "deltacommit", timeline.Completed, true},
		{"20251220210130942.compaction.requested", "20251220210130942", "", "compaction", timeline.Requested, true},
		{"20251220210130942.savepoint.inflight", "20251220210130942", "", "savepoint", timeline.Inflight, true},
		{"00000000000000000001.deltacommit", "00000000000000000001", "", "deltacommit", timeline.Completed, true},
		{"hoodie.properties", "", "", "", "", false},
		{".20240418173213674.commit.crc", "", "", "", "", false},
		{"20240418173213674.commit.done", "", "", "", "", false},
		{"20240418173213674.unknown", "", "", "", "", false},
		{"20240418173213674_20240418173213675.commit.requested", "", "", "", "", false},
	}
	for _, c := range cases {
		f, ok := timeline.ParseInstantFileName(c.name)
		if ok != c.ok || (ok && (f.RequestedTime != c.req || f.CompletionTime != c.comp || f.Action != c.action || f.State != c.state)) {
			t.Errorf("%s: got %+v %v", c.name, f, ok)
		}
	}
}

func FuzzParseInstantFileName(f *testing.F) {
	for _, s := range []string{"20240418173213674.commit", "1_2.deltacommit", "3.inflight", "4.compaction.requested", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if in, ok := timeline.ParseInstantFileName(s); ok && in.RequestedTime == "" {
			t.Errorf("%q parsed without a requested time", s)
		}
		filegroup.ParseBaseFileName(s)
		filegroup.ParseLogFileName(s)
		timeline.ParseInstantTime(s, nil)
	})
}

// parseInstantTimeLayout is ParseInstantTime as it was, with time's layout parser.
func parseInstantTimeLayout(s string, zone *time.Location) (time.Time, bool) {
	switch len(s) {
	case 14:
		t, err := time.ParseInLocation("20060102150405", s, zone)
		return t, err == nil && t.Year() > 1970
	case 17:
		t, err := time.ParseInLocation("20060102150405", s[:14], zone)
		if err != nil || t.Year() <= 1970 {
			return time.Time{}, false
		}
		ms := 0
		for _, c := range s[14:] {
			ms = ms*10 + int(c-'0')
		}
		return t.Add(time.Duration(ms) * time.Millisecond), true
	}
	return time.Time{}, false
}

// The hand-written parser accepts and returns what the layout parser did: random digits in
// every field (out-of-range months, days, leap days, hours), DST gaps, non-digits, lengths.
func TestParseInstantTimeMatchesLayout(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zoneinfo")
	}
	zones := []*time.Location{time.UTC, ny, time.FixedZone("IST", 5*3600+1800)}
	rng := rand.New(rand.NewPCG(1, 17))
	cases := []string{"20240229123456789", "20230229123456789", "20240310023000000", "20241103013000000",
		"19700101000000", "19710101000000", "00000000000000000", "2024013112345", "2024013112345x",
		"20240131123456-89", "202401311234567890", "20241301000000", "20240100000000", "20240431000000",
		"20240101240000", "20240101006000", "20240101000060", "99991231235959999", "20240131123456é9", "2024013112345é9"}
	for i := 0; i < 20000; i++ {
		b := []byte(fmt.Sprintf("%04d%02d%02d%02d%02d%02d%03d", 1960+rng.IntN(80), rng.IntN(14), rng.IntN(33),
			rng.IntN(26), rng.IntN(62), rng.IntN(62), rng.IntN(1000)))
		if rng.IntN(2) == 0 {
			b = b[:14]
		}
		cases = append(cases, string(b))
	}
	for _, z := range zones {
		for _, s := range cases {
			got, gok := timeline.ParseInstantTime(s, z)
			want, wok := parseInstantTimeLayout(s, z)
			if gok != wok || !got.Equal(want) || got.Location() != want.Location() {
				t.Fatalf("%q in %s: %v %v, layout parser %v %v", s, z, got, gok, want, wok)
			}
		}
	}
}
