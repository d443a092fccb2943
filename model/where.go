package model

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Predicate is one `COLUMN=VALUE` row filter of a snapshot read (snapshot --where): the column's
// typed value compared with VALUE (numbers numerically, `null` a null).
type Predicate struct {
	Column, Value string
}

// ParsePredicate parses COLUMN=VALUE (split at the first =).
func ParsePredicate(s string) (Predicate, error) {
	c, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(c) == "" {
		return Predicate{}, fmt.Errorf("%q: want COLUMN=VALUE", s)
	}
	return Predicate{Column: strings.TrimSpace(c), Value: v}, nil
}

// Matches says whether value v (a row's column, as records returns it) equals p's value.
func (p Predicate) Matches(v any) bool {
	if v == nil {
		return p.Value == "null"
	}
	switch v.(type) {
	case int32, int64, int, float32, float64:
		a, ok1 := new(big.Float).SetString(records.Text(v))
		b, ok2 := new(big.Float).SetString(strings.TrimSpace(p.Value))
		return ok1 && ok2 && a.Cmp(b) == 0
	}
	return records.Text(v) == p.Value
}

// WherePlan is what a --where read prunes before reading rows.
type WherePlan struct {
	// PartitionsPruned and GroupsPruned count what the partition fields and the record key's
	// index ruled out; KeyMethod is how the key was located ("" when no predicate is on the key).
	PartitionsPruned, GroupsPruned int
	KeyMethod                      string
}

// whereView prunes view for preds: partitions whose path disagrees with a predicate on a
// partition field (Hive-style `f=v` or plain segments, one per partition field, in order), then,
// for a predicate on the (single) record key field, the file groups its index rules out.
//
// byKey false skips the key pruning (a time-travel read: the index knows the latest location only).
func whereView(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, noMDT, byKey bool, preds []Predicate) (*filegroup.View, WherePlan, error) {
	var plan WherePlan
	fields := t.Config.PartitionFieldNames()
	out := &filegroup.View{Source: view.Source}
	for _, p := range view.Partitions {
		keep := true
		segs := strings.Split(p.Path, "/")
		for _, pr := range preds {
			i := slices.Index(fields, pr.Column)
			if i < 0 || len(segs) != len(fields) {
				continue
			}
			seg := segs[i]
			seg = strings.TrimPrefix(seg, pr.Column+"=")
			if seg != pr.Value {
				keep = false
			}
		}
		if keep {
			out.Partitions = append(out.Partitions, p)
		} else {
			plan.PartitionsPruned++
		}
	}
	keys := t.Config.RecordKeys
	for _, pr := range preds {
		if !byKey || len(keys) != 1 || pr.Column != keys[0] && pr.Column != records.RecordKey {
			continue
		}
		// A number not in its shortest form ("8.0", "08") matches a numeric key column's 8,
		// whose record key is "8": the index is asked only for the key as written.
		if f, ok := new(big.Float).SetString(pr.Value); ok && f.Text('f', -1) != pr.Value {
			continue
		}
		var all []*filegroup.FileGroup
		for _, p := range out.Partitions {
			all = append(all, p.FileGroups...)
		}
		st := &KeyStory{}
		var ignored problem.Log // a footer that cannot be read keeps its group: the scan reports it
		groups, err := locateKey(ctx, t, tl, all, noMDT, KeyQuery{Key: pr.Value}, st, &ignored)
		if err != nil {
			return nil, plan, err
		}
		plan.KeyMethod, plan.GroupsPruned = st.Method, len(all)-len(groups)
		pruned := &filegroup.View{Source: out.Source}
		for _, p := range out.Partitions {
			cp := *p
			cp.FileGroups = nil
			for _, g := range p.FileGroups {
				if slices.Contains(groups, g) {
					cp.FileGroups = append(cp.FileGroups, g)
				}
			}
			if len(cp.FileGroups) > 0 {
				pruned.Partitions = append(pruned.Partitions, &cp)
			}
		}
		out = pruned
		break
	}
	return out, plan, nil
}

// WhereView is the file view a --where snapshot read of preds scans (as of asOf when set: then
// partitions are pruned, not file groups), and what it pruned.
func (s *Snapshot) WhereView(ctx context.Context, asOf string, preds []Predicate) (*filegroup.View, WherePlan, error) {
	if s.table == nil || s.Timeline == nil || s.View == nil {
		return nil, WherePlan{}, fmt.Errorf("the table's timeline and file view were not loaded")
	}
	return whereView(ctx, s.table, s.Timeline, s.View, s.Options.NoMDT, asOf == "", preds)
}

// whereFilter wraps fn so it sees only the rows every predicate matches.
func whereFilter(preds []Predicate, fn func(*records.Batch) error) func(*records.Batch) error {
	return func(b *records.Batch) error {
		b.Filter(func(i int) bool {
			for _, p := range preds {
				v := b.Get(i, p.Column)
				if p.Column == records.RecordKey {
					v = b.Key(i)
				}
				if !p.Matches(v) {
					return false
				}
			}
			return true
		})
		if b.Len() == 0 {
			return nil
		}
		return fn(b)
	}
}
