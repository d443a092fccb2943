package model

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/hudi/catalog"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// CatalogTargets lists the tables of the named catalog databases ("*" alone: every database) and
// keeps those whose location holds a Hudi table, with the catalog's parameters and partitions
// for the meta-sync check. A table the catalog marks as Hudi (Hudi's input format, provider
// hudi, a last_commit_time_sync parameter) whose location is missing or holds no table is a
// failure row; any other table without .hoodie is skipped and named in Skipped. At most
// concurrency (0: DefaultFleetConcurrency) tables are checked at once; found is called as each
// is kept, one at a time. source names the catalog in Discovery.Root ("glue", "hms").
func CatalogTargets(ctx context.Context, g catalog.Reader, source string, dbs []string, so storage.Options, concurrency int, found func(FleetTarget)) (*Discovery, error) {
	if concurrency <= 0 {
		concurrency = DefaultFleetConcurrency
	}
	d := &Discovery{Root: source + ":" + strings.Join(dbs, ",")}
	if len(dbs) == 1 && dbs[0] == "*" {
		all, err := g.Databases(ctx)
		if err != nil {
			return d, err
		}
		dbs = all
	}
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		sem = make(chan struct{}, concurrency)
	)
	keep := func(t FleetTarget) {
		mu.Lock()
		defer mu.Unlock()
		d.Tables = append(d.Tables, t)
		if found != nil {
			found(t)
		}
	}
	for _, db := range dbs {
		tabs, err := g.Tables(ctx, db)
		if err != nil {
			mu.Lock()
			d.Errors = append(d.Errors, err.Error())
			mu.Unlock()
			continue
		}
		d.Entries += int64(len(tabs))
		for _, tab := range tabs {
			wg.Add(1)
			sem <- struct{}{}
			go func(tab catalog.Table) {
				defer wg.Done()
				defer func() { <-sem }()
				t, skip := catalogTarget(ctx, g, tab, so)
				if skip != "" {
					mu.Lock()
					d.Skipped = append(d.Skipped, tab.FullName()+": "+skip)
					mu.Unlock()
					return
				}
				keep(t)
			}(tab)
		}
	}
	wg.Wait()
	sort.Slice(d.Tables, func(i, j int) bool { return d.Tables[i].Name < d.Tables[j].Name })
	sort.Strings(d.Skipped)
	sort.Strings(d.Errors)
	return d, ctx.Err()
}

// catalogTarget checks one catalog table's location; skip says why a non-Hudi table is left out.
func catalogTarget(ctx context.Context, g catalog.Reader, tab catalog.Table, so storage.Options) (t FleetTarget, skip string) {
	t = FleetTarget{Name: tab.FullName(), Location: tab.Location}
	if tab.Location == "" {
		if tab.LooksHudi() {
			t.Err = "the catalog table has no storage location"
			return t, ""
		}
		return t, "no storage location"
	}
	ok, err := IsTable(ctx, tab.Location, so)
	switch {
	case err != nil && tab.LooksHudi():
		t.Err = fmt.Sprintf("catalog location %s cannot be read: %v", tab.Location, err)
		return t, ""
	case err != nil:
		return t, fmt.Sprintf("location %s cannot be read: %v", tab.Location, err)
	case !ok && tab.LooksHudi():
		t.Err = fmt.Sprintf("the catalog marks it as Hudi but %s holds no Hudi table (no .hoodie/hoodie.properties)", tab.Location)
		return t, ""
	case !ok:
		return t, "not a Hudi table (no .hoodie/hoodie.properties at " + tab.Location + ")"
	}
	cat := &health.Catalog{Name: tab.FullName(), Parameters: tab.Parameters, Partitioned: len(tab.PartitionKeys) > 0}
	if cat.Partitioned {
		ps, err := g.Partitions(ctx, tab.Database, tab.Name)
		if err != nil {
			cat.PartitionsErr = err
		} else {
			cat.Partitions = []string{}
			for _, p := range ps {
				cat.Partitions = append(cat.Partitions, catalog.RelativePath(tab.Location, p))
			}
		}
	}
	t.Catalog = cat
	return t, ""
}
