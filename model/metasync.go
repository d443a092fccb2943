package model

import "github.com/hudiscope/hudiscope/analyzers/health"

// addCatalog hands the meta-sync check the catalog's view and the table's partitions (those
// with live file groups: a partition whose groups were all replaced is dropped for readers).
func addCatalog(in *health.Input, s *Snapshot) {
	if s.Options.Catalog == nil {
		return
	}
	in.Catalog = s.Options.Catalog
	if s.View == nil {
		return
	}
	in.Partitions = []string{}
	for _, p := range s.View.Partitions {
		if len(p.FileGroups) > 0 {
			in.Partitions = append(in.Partitions, p.Path)
		}
	}
}
