package model

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/health"
)

// Issue 29 item 8: every key a health check reads is looked up under the name the writing
// release gives it. cow-services-0.15.0 (table version 6: Hudi 0.14/0.15) calls the cleaner's
// trigger hoodie.clean.max.commits; 1.x calls it hoodie.clean.trigger.max.commits and accepts
// the 0.x name as an alternative (HoodieCleanConfig withAlternatives); 0.14/0.15 do not know
// the 1.x name, and silently ignore it in the writer's props.
func TestHealthCleanerKeyNamedByWritingRelease(t *testing.T) {
	// Nothing supplied: the skip asks for the writing release's name.
	for fx, want := range map[string]string{
		"bootstrap-0.14.0":    "'hoodie.clean.max.commits' was not supplied",
		"cow-services-0.15.0": "'hoodie.clean.max.commits' was not supplied",
		"cow-services-0.12.2": "'hoodie.clean.max.commits' was not supplied",
		"cow-services-1.2.0":  "'hoodie.clean.trigger.max.commits' was not supplied",
	} {
		t.Run(fx, func(t *testing.T) { // bootstrap-0.14.0 comes with the fixtures branch: skipped without it
			cl := loadHealth(t, fx, false).Health.Check("cleaner")
			if cl.Status != health.Skipped || !strings.Contains(cl.Summary, want) {
				t.Errorf("%s: cleaner %s %q, want SKIPPED naming %s", fx, cl.Status, cl.Summary, want)
			}
		})
	}
	// The 0.x name supplied: judged, on 0.15.0 (its own name) and on 1.2.0 (an alternative).
	// 0.15.0: 2 commits since the clean at 20261129165721657, threshold max(2×1, 5).
	s := loadHealth(t, "cow-services-0.15.0", false, "hoodie.clean.max.commits=1")
	cl := s.Health.Check("cleaner")
	if cl.Status != health.Healthy || cl.EffectiveConfigs.Get("hoodie.clean.trigger.max.commits") != "1" ||
		cl.EffectiveConfigs.Get("observed.commits.since.last.clean") != "2" || cl.EffectiveConfigs.Get("observed.last.clean.instant") != "20261129165721657" {
		t.Errorf("0.15.0 with hoodie.clean.max.commits=1: cleaner %+v", cl)
	}
	if got := propSource(s.Health, "cleaner", "hoodie.clean.trigger.max.commits"); got != "1 props (--hoodie-conf) as hoodie.clean.max.commits" {
		t.Errorf("0.15.0 trigger source %q", got)
	}
	if cl := loadHealth(t, "cow-services-1.2.0", false, "hoodie.clean.max.commits=1").Health.Check("cleaner"); cl.Status == health.Skipped {
		t.Errorf("1.2.0 with the 0.x alternative: cleaner %s %q", cl.Status, cl.Summary)
	}
	// Real Hudi 0.14.0 (bootstrap-0.14.0: the bootstrap and two upserts, never cleaned): its
	// own names judge it; the 1.x spellings of policy and retention are not read, and noted.
	t.Run("bootstrap-0.14.0 judged", func(t *testing.T) {
		r0 := loadHealth(t, "bootstrap-0.14.0", false, "hoodie.clean.max.commits=1", "hoodie.clean.policy=KEEP_LATEST_COMMITS", "hoodie.cleaner.commits.retained=10").Health
		if cl := r0.Check("cleaner"); cl.Status != health.Healthy || cl.Summary != "3 commit(s) and no clean yet, within the threshold of 5" ||
			cl.EffectiveConfigs.Get("hoodie.clean.commits.retained") != "10" || cl.EffectiveConfigs.Get("hoodie.clean.policy") != "" {
			t.Errorf("0.14.0: cleaner %+v", cl)
		}
		if !hasNote(r0, "'hoodie.clean.policy' (--hoodie-conf) is ignored by Hudi 0.14/0.15, which writes this table: it reads 'hoodie.cleaner.policy'") {
			t.Errorf("0.14.0 notes %q", r0.Hudiscope.Notes)
		}
	})
	// The 1.x name on a 0.15.0 table does nothing in its writer: not taken, and said so.
	r := loadHealth(t, "cow-services-0.15.0", false, "hoodie.clean.trigger.max.commits=1").Health
	cl = r.Check("cleaner")
	if cl.Status != health.Skipped || !strings.Contains(cl.Summary, "'hoodie.clean.max.commits' was not supplied") {
		t.Errorf("0.15.0 with the 1.x name: cleaner %s %q", cl.Status, cl.Summary)
	}
	if !hasNote(r, "'hoodie.clean.trigger.max.commits' (--hoodie-conf) is ignored by Hudi 0.14/0.15, which writes this table: it reads 'hoodie.clean.max.commits'") {
		t.Errorf("notes %q", r.Hudiscope.Notes)
	}
}

func hasNote(r *health.Result, prefix string) bool {
	for _, n := range r.Hudiscope.Notes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// Writer properties with 1.x spellings on a 0.15.0 table: the writer ran with 0.14/0.15's
// defaults for them (hoodie.clean.max.commits 1, not the 7 the props say under the 1.x name;
// retention KEEP_LATEST_COMMITS/10, not 2), the health notes say which keys were ignored, and
// each is a problem naming the props file.
func TestHealthReleaseModeIgnoresKeysTheWriterIgnores(t *testing.T) {
	dir := ownFixture(t, "cow-services-0.15.0")
	props := filepath.Join(t.TempDir(), "writer.properties")
	if err := os.WriteFile(props, []byte("hoodie.clean.trigger.max.commits=7\nhoodie.clean.commits.retained=2\nhoodie.cleaner.policy=KEEP_LATEST_COMMITS\nhoodie.keep.max.commits=6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(context.Background(), Options{Location: filepath.Join(dir, "table.zip"), ClusterDefaults: "-", Steps: []Step{StepHealth}, Props: props}, nil)
	if err != nil || s.Health == nil {
		t.Fatalf("load: %v %v", err, s.StepErrors)
	}
	r := s.Health
	if got := propSource(r, "cleaner", "hoodie.clean.trigger.max.commits"); got != "1 Hudi 0.14/0.15 default as hoodie.clean.max.commits" {
		t.Errorf("trigger source %q", got)
	}
	cl := r.Check("cleaner")
	if cl.EffectiveConfigs.Get("hoodie.clean.trigger.max.commits") != "1" || cl.EffectiveConfigs.Get("hoodie.clean.policy") != "KEEP_LATEST_COMMITS" {
		t.Errorf("cleaner %+v", cl)
	}
	if !hasNote(r, "'hoodie.clean.trigger.max.commits' ("+props+") is ignored by Hudi 0.14/0.15") {
		t.Errorf("notes %q", r.Hudiscope.Notes)
	}
	var ignored []string
	for _, p := range s.ProblemList() {
		if p.Source == SourceConfig {
			ignored = append(ignored, p.Message)
		}
	}
	want := []string{
		"ignored: hoodie.clean.commits.retained is not in Hudi 0.14/0.15 (from Hudi 1.0), which wrote this table: it does nothing; there it is hoodie.cleaner.commits.retained",
		"ignored: hoodie.clean.trigger.max.commits is not in Hudi 0.14/0.15 (from Hudi 1.0), which wrote this table: it does nothing; there it is hoodie.clean.max.commits",
	}
	if strings.Join(ignored, "\n") != strings.Join(want, "\n") {
		t.Errorf("config problems:\n%s\nwant\n%s", strings.Join(ignored, "\n"), strings.Join(want, "\n"))
	}
}
