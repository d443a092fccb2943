package model

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/hudi/catalog"
)

// Fleet catalogs a FleetSource reads instead of walking a location.
const (
	FleetGlue = "glue"
	FleetHMS  = "hms"
)

// FleetSource says where a fleet's tables come from: a location walked for tables, or the
// databases of a catalog (AWS Glue or a Hive Metastore). The command line fills it from flags;
// RunFleet opens the catalog and runs discovery with it.
type FleetSource struct {
	// Location is walked for tables when Catalog is "".
	Location string
	// Catalog is FleetGlue, FleetHMS or "" (walk Location).
	Catalog string
	// Databases are the catalog's databases to read ("*" alone: every database).
	Databases []string
	// GlueEndpoint and GlueRegion reach a Glue (or Glue-compatible) API; "" is the SDK's.
	GlueEndpoint, GlueRegion string
	// HMS is the metastore's thrift://HOST:PORT URI.
	HMS string
	// Depth and MaxEntries bound a walk (DiscoverOptions); Parallel is how many tables are
	// checked and read at once (0: DefaultFleetConcurrency).
	Depth, MaxEntries, Parallel int
}

// Name is the source as the Fleet view titles it: the location, or "glue:DB,…" / "hms:DB,…".
func (s FleetSource) Name() string {
	if s.Catalog != "" {
		return s.Catalog + ":" + strings.Join(s.Databases, ",")
	}
	return s.Location
}

// RunFleet discovers the source's tables and reads each with base's options; row (if non-nil)
// sees each row as it is read. Discovery streams into the reads, so the first rows come while
// a long walk or catalog listing is still going. The discovery (what was found, skipped or
// stopped) is returned with its error beside the rows read so far.
func RunFleet(ctx context.Context, src FleetSource, base Options, row func(int, FleetRow)) (*Discovery, []FleetRow, error) {
	ch, wait := fleetTargets(ctx, src, base)
	var rows []FleetRow
	LoadFleet(ctx, base, ch, src.Parallel, func(i int, r FleetRow) {
		rows = append(rows, r)
		if row != nil {
			row(i, r)
		}
	})
	d, err := wait()
	return d, rows, err
}

// fleetTargets starts discovery (a walk or the catalog) and streams what it finds on the
// returned channel, closed when it is done; wait returns the discovery and its error.
func fleetTargets(ctx context.Context, src FleetSource, base Options) (<-chan FleetTarget, func() (*Discovery, error)) {
	ch := make(chan FleetTarget, 64)
	var d *Discovery
	var err error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(ch)
		send := func(t FleetTarget) {
			select {
			case ch <- t:
			case <-ctx.Done():
			}
		}
		switch src.Catalog {
		case FleetGlue:
			var g *catalog.Glue
			g, err = catalog.OpenGlue(ctx, catalog.Options{Endpoint: src.GlueEndpoint, Region: src.GlueRegion,
				Timeout: base.Storage.NoProgressTimeout(), Log: base.Storage.Log})
			if err != nil {
				return
			}
			d, err = CatalogTargets(ctx, g, FleetGlue, src.Databases, base.Storage, src.Parallel, send)
		case FleetHMS:
			var h *catalog.HMS
			if h, err = catalog.OpenHMS(ctx, src.HMS, base.Storage.NoProgressTimeout()); err != nil {
				return
			}
			defer h.Close()
			d, err = CatalogTargets(ctx, h, FleetHMS, src.Databases, base.Storage, src.Parallel, send)
		case "":
			d, err = Discover(ctx, src.Location, DiscoverOptions{Depth: src.Depth, MaxEntries: src.MaxEntries, Storage: base.Storage}, send)
		default:
			err = fmt.Errorf("fleet: unknown catalog %q (want %q or %q)", src.Catalog, FleetGlue, FleetHMS)
		}
	}()
	return ch, func() (*Discovery, error) { wg.Wait(); return d, err }
}
