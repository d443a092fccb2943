package timeline_test

import (
	"testing"

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
