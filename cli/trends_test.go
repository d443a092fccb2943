package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// trendsDoc is the part of `trends -o json` the tests read.
type trendsDoc struct {
	Archived bool `json:"archived"`
	Points   []struct {
		Requested    string `json:"requestedTime"`
		Completed    string `json:"completionTime"`
		Action       string `json:"action"`
		Archived     bool   `json:"archived"`
		Bytes        int64  `json:"bytesWritten"`
		FilesAdded   int    `json:"filesAdded"`
		FilesUpdated int    `json:"filesUpdated"`
	} `json:"points"`
	Changes []struct {
		Series string `json:"series"`
		Note   string `json:"note"`
	} `json:"changes"`
}

func trendsJSON(t *testing.T, args ...string) trendsDoc {
	t.Helper()
	stdout, stderr, code := runCLI(t, append([]string{"trends", "-o", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("trends %v: exit %d: %s", args, code, stderr)
	}
	var d trendsDoc
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// The trends of two fixtures as text, JSON and Markdown, against goldens (-update rewrites
// them); the JSON's points are the completed instants of both timelines.
func TestTrendsGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-02T00:00:00Z")
	// cow-services-1.2.0: 84 completed instants, 56 of them archived (43 writes: 14 rows of
	// show_commits, 30 of show_archived_commits, one of them the clustering replacecommit).
	// mor-archived-0.14.0: 24 completed, 15 archived.
	want := map[string][2]int{"cow-services-1.2.0": {84, 56}, "mor-archived-0.14.0": {24, 15}}
	for fx, n := range want {
		for _, format := range []string{"text", "json", "md"} {
			stdout, stderr, code := runCLI(t, "trends", fixture(fx), "-o", format, "--cluster-defaults", "-")
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", fx, format, code, stderr)
			}
			ext := map[string]string{"text": "txt", "json": "json", "md": "md"}[format]
			golden := filepath.Join("testdata", "golden", fx+"-trends."+ext)
			assertGolden(t, golden, stdout)
		}
		d := trendsJSON(t, fixture(fx), "--cluster-defaults", "-")
		archived := 0
		for _, p := range d.Points {
			if p.Archived {
				archived++
			}
		}
		if !d.Archived || len(d.Points) != n[0] || archived != n[1] {
			t.Errorf("%s: %d points, %d archived; want %v", fx, len(d.Points), archived, n)
		}
	}
}

// --last keeps the newest points, --since those completed within the age before now (the
// clock pinned), a bad age is a usage error.
func TestTrendsChoose(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-11-29T16:20:00Z")
	d := trendsJSON(t, fixture("cow-services-1.2.0"), "--last", "5")
	if len(d.Points) != 5 || d.Points[4].Requested != "20261129162134323" {
		t.Fatalf("--last 5: %+v", d.Points)
	}
	// Completed within 5 minutes before 16:20:00: from 16:15:00 on, by completion time.
	d = trendsJSON(t, fixture("cow-services-1.2.0"), "--since", "5m")
	all := trendsJSON(t, fixture("cow-services-1.2.0"))
	n := 0
	for _, p := range all.Points {
		if p.Completed >= "20261129161500000" {
			n++
		}
	}
	if len(d.Points) != n || n == 0 || n == len(all.Points) {
		t.Errorf("--since 5m: %d points, %d of %d completed from 16:15", len(d.Points), n, len(all.Points))
	}
	_, stderr, code := runCLI(t, "trends", fixture("cow-services-1.2.0"), "--since", "soon")
	if code != exitUsage || !strings.Contains(stderr, "--since") {
		t.Errorf("--since soon: exit %d %s", code, stderr)
	}
}
