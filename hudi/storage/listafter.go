package storage

import (
	"context"
	"errors"
	"sort"
)

// AfterLister is implemented by backends that can list only the children of dir whose names
// sort after a given name: S3's ListObjectsV2 StartAfter, local disk by filtering names
// before stat-ing the rest. A watched timeline re-lists just its newest part this way.
type AfterLister interface {
	ListAfter(ctx context.Context, dir, after string) ([]Entry, error)
}

// ListAfter lists the children of dir whose names sort strictly after `after` (byte order),
// with sizes and times, sorted by name. Backends without AfterLister are listed whole and
// filtered (HDFS: one getListing either way). An empty after lists everything. Unlike List,
// nothing after `after` is not an error: the result is empty.
func ListAfter(ctx context.Context, s Storage, dir, after string) ([]Entry, error) {
	if al, ok := s.(AfterLister); ok {
		return al.ListAfter(ctx, dir, after)
	}
	es, err := s.List(ctx, dir)
	if err != nil {
		return nil, err
	}
	return entriesAfter(es, after), nil
}

// entriesAfter keeps the entries named after `after`; es is sorted by name.
func entriesAfter(es []Entry, after string) []Entry {
	if after == "" {
		return es
	}
	i := sort.Search(len(es), func(i int) bool { return es[i].Name > after })
	return es[i:]
}

// ListAfter lists the names of dir (one getdents) and stats only those after `after`, so a
// refresh of a 1,000-instant timeline stats the few new files, not all of them.
func (l *Local) ListAfter(ctx context.Context, dir, after string) ([]Entry, error) {
	names, err := l.ListNames(ctx, dir)
	if err != nil {
		return nil, err
	}
	names = entriesAfter(names, after)
	out := make([]Entry, 0, len(names))
	for _, e := range names {
		st, err := l.Stat(ctx, e.Path)
		if err != nil {
			if IsNotExist(err) {
				continue // removed between the listing and the stat (a rollback deleting it)
			}
			e.Err = err
			out = append(out, e)
			continue
		}
		st.Name, st.Path = e.Name, e.Path
		out = append(out, st)
	}
	return out, nil
}

// IsThrottled reports whether err says the store asked for fewer requests (S3 503 SlowDown
// after the backend's own retries): a watch then backs off.
func IsThrottled(err error) bool {
	var t interface{ Throttled() bool }
	return errors.As(err, &t) && t.Throttled()
}
