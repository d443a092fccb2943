package model

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/health"
)

// mor-services-1.2.0 (`hudiscope timeline --archived`): five compactions, all archived, the last
// one requested at 20261129163015967 (completed 20261129163018211). The delta commit before it,
// 20261129163010585, completed at 20261129163015781, before that request, so it is not counted.
// The active timeline holds six completed delta commits after it (20261129163018347 …
// 20261129163127401) and a requested compaction 20261129163053361: 6 since the last compaction,
// which is archived. With max.delta.commits=3 (writer.properties) the threshold is 6 → HEALTHY,
// behind but not stopped.
func TestHealthCompactionMorServicesFixture(t *testing.T) {
	dir := ownFixture(t, "mor-services-1.2.0")
	s, err := Load(context.Background(), Options{Location: filepath.Join(dir, "table.zip"), Props: filepath.Join(dir, "writer.properties"),
		ClusterDefaults: "-", Steps: []Step{StepHealth}, Health: health.Options{Checks: []string{"compaction"}, ApplyAllDefaults: true}}, nil)
	if err != nil || s.Health == nil {
		t.Fatalf("load: %v %v", err, s.StepErrors)
	}
	c := s.Health.Check("compaction")
	if c.Status != health.Healthy || c.EffectiveConfigs.Get("observed.delta.commits.since.last.compaction") != "6" ||
		c.EffectiveConfigs.Get("observed.last.compaction.instant") != "20261129163015967" ||
		c.EffectiveConfigs.Get("observed.pending.compactions") != "1" ||
		!strings.Contains(c.Summary, "since compaction at 20261129163015967 (archived)") {
		t.Errorf("compaction %+v", c)
	}
	if b := s.Health.Hudiscope.Checks[0]; b.State != health.Behind || *b.Observed != 6 || *b.Threshold != 6 {
		t.Errorf("band %+v", b)
	}
	// Re-judged without --apply-all-defaults from the same read: writer.properties were given,
	// so the trigger strategy they leave unset is at Hudi 1.x's default and the verdict stands.
	if r := s.RunHealth(false); r.Check("compaction").Status != health.Healthy || s.Health.Check("compaction").Status != health.Healthy {
		t.Errorf("RunHealth(false): %+v", r.Check("compaction"))
	}
}
