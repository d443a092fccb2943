package view_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

func describeFixture(t *testing.T, fx string, o model.Options) *view.Describe {
	t.Helper()
	o.Location = filepath.Join("..", "testdata", "fixtures", fx, "table.zip")
	o.Steps, o.LazyCommits, o.Archived = []model.Step{model.StepTimeline, model.StepConfig}, true, true
	if o.ClusterDefaults == "" {
		o.ClusterDefaults = "-"
	}
	ctx := context.Background()
	s, err := model.Load(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := s.Timeline.All()
	return view.BuildDescribe(s, all, s.WriterSchemas(ctx, all))
}

func configRow(d *view.Describe, key string) (view.DescribeConfig, bool) {
	for _, c := range d.Config {
		if c.Key == key {
			return c, true
		}
	}
	return view.DescribeConfig{}, false
}

// A table version 5 table is described with Hudi 0.12's keys and defaults: keys that came in
// 1.x (hoodie.record.merge.mode, hoodie.table.format) are no rows of its configuration; a key
// hoodie.properties leaves unset has 0.12's declared default; a value from hudi-defaults.conf
// and one from --hoodie-conf say so; the 0.13 caveat is told.
func TestDescribeConfigOfWritingRelease(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "hudi-defaults.conf")
	if err := os.WriteFile(conf, []byte("hoodie.table.log.file.format=HFILE_LOG\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := describeFixture(t, "cow-services-0.12.2", model.Options{ClusterDefaults: conf,
		HoodieConf: []string{"hoodie.bootstrap.index.enable=false"}})
	if len(d.WriterReleases) != 2 || d.WriterReleases[0] != "0.12" || d.WriterReleases[1] != "0.13" || d.ReleaseCaveat == "" {
		t.Fatalf("releases %v, caveat %q", d.WriterReleases, d.ReleaseCaveat)
	}
	for _, k := range []string{"hoodie.record.merge.mode", "hoodie.table.format", "hoodie.table.ordering.fields"} {
		if c, ok := configRow(d, k); ok {
			t.Errorf("%s is not a Hudi 0.12 key, but is a row: %+v", k, c)
		}
	}
	want := map[string][3]string{ // key → value, source, origin
		"hoodie.table.name":              {"cow_services", "table", "hoodie.properties"},
		"hoodie.table.precombine.field":  {"ts", "table", "hoodie.properties"},
		"hoodie.table.log.file.format":   {"HFILE_LOG", "cluster defaults", conf},
		"hoodie.bootstrap.index.enable":  {"false", "props", "--hoodie-conf"},
		"hoodie.table.timeline.timezone": {"LOCAL", "default", "Hudi 0.12/0.13"},
	}
	for k, w := range want {
		c, ok := configRow(d, k)
		if !ok || c.Value != w[0] || c.Source != w[1] || c.Origin != w[2] {
			t.Errorf("%s: %+v, want %v", k, c, w)
		}
	}
	// 0.12's writer schema is in every write's JSON metadata, the first write archived or not
	if d.Schema == nil || len(d.History) != 1 || !d.History[0].Initial {
		t.Errorf("schema %+v history %+v", d.Schema, d.History)
	}
}
