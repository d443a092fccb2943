package view

import (
	"context"
	"testing"

	"github.com/hudiscope/hudiscope/model"
)

// TestBuildNil: a nil snapshot (nothing loaded yet) gives an empty view, and any view is stale
// for another snapshot.
func TestBuildNil(t *testing.T) {
	v := Build(nil)
	if v == nil || v.Model != nil {
		t.Fatalf("Build(nil) = %+v", v)
	}
	s, err := model.Load(context.Background(), model.Options{Location: "../testdata/bad/instant-invalid-json/table", ClusterDefaults: "-", Steps: []model.Step{model.StepProperties}}, nil)
	if err != nil {
		t.Skipf("fixture: %v", err)
	}
	if !v.Stale(s) || Build(s).Stale(s) {
		t.Errorf("stale: want a view stale for another snapshot and fresh for its own")
	}
}
