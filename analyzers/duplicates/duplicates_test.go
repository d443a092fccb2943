package duplicates

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"testing"
)

// naive is the answer by a map: key -> sorted locations, for keys held more than once.
func naive(keys []string, locs []Location) map[string][]Location {
	m := map[string][]Location{}
	for i, k := range keys {
		m[k] = append(m[k], locs[i])
	}
	for k, l := range m {
		if len(l) < 2 {
			delete(m, k)
			continue
		}
		sort.Slice(l, func(a, b int) bool { return compareLocations(l[a], l[b]) < 0 })
	}
	return m
}

// 20,000 tuples over 15,000 keys, 12 locations: in memory, spilled into a few runs, and spilled
// into so many runs (past maxRuns) that they are merged into one on the way; every budget gives
// the map's answer, counts included, and Close leaves no directory.
func TestFinderAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var keys []string
	var locs []Location
	for range 20000 {
		keys = append(keys, fmt.Sprintf("k%05d", r.IntN(15000)))
		p := r.IntN(3)
		locs = append(locs, Location{Partition: fmt.Sprintf("p%d", p), FileID: fmt.Sprintf("f%d", r.IntN(4)), FileName: "x.parquet", CommitTime: "20240101000000000"})
	}
	want := naive(keys, locs)
	distinct := map[string]bool{}
	for _, k := range keys {
		distinct[k] = true
	}
	for _, budget := range []int64{0, 200 << 10, 8 << 10} {
		tmp := t.TempDir()
		f := NewFinder(Options{MemBudget: budget, TempDir: tmp})
		for i := range keys {
			if err := f.Add(keys[i], locs[i]); err != nil {
				t.Fatal(err)
			}
		}
		res, err := f.Finish()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]Location{}
		var extra int64
		for _, d := range res.Duplicates {
			got[d.Key] = d.Locations
			extra += int64(d.Copies - 1)
			if d.Kind != kindOf(d.Locations) {
				t.Errorf("key %s kind %s", d.Key, d.Kind)
			}
		}
		if !reflect.DeepEqual(got, want) || res.DuplicateKeys != int64(len(want)) || res.ExtraCopies != extra ||
			res.DistinctKeys != int64(len(distinct)) || res.Rows != 20000 {
			t.Errorf("budget %d: %d duplicated keys (want %d), distinct %d (want %d)", budget, len(got), len(want), res.DistinctKeys, len(distinct))
		}
		switch {
		case budget == 0 && res.SpilledRuns != 0, budget == 200<<10 && (res.SpilledRuns < 2 || res.SpilledRuns >= maxRuns),
			budget == 8<<10 && res.SpilledRuns <= maxRuns:
			t.Errorf("budget %d: %d runs", budget, res.SpilledRuns)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("budget %d: left %v", budget, left)
		}
	}
}

// Limit lists the first keys in key order and counts the rest.
func TestFinderLimitAndKinds(t *testing.T) {
	f := NewFinder(Options{Limit: 2})
	defer f.Close()
	a := Location{Partition: "p1", FileID: "f1"}
	for _, x := range []struct {
		key string
		loc Location
	}{{"c", a}, {"c", a}, {"a", a}, {"a", Location{Partition: "p2", FileID: "f9"}}, {"b", a}, {"b", Location{Partition: "p1", FileID: "f2"}}, {"d", a}} {
		if err := f.Add(x.key, x.loc); err != nil {
			t.Fatal(err)
		}
	}
	res, err := f.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Duplicates) != 2 || res.Duplicates[0].Key != "a" || res.Duplicates[0].Kind != KindPartitions ||
		res.Duplicates[1].Key != "b" || res.Duplicates[1].Kind != KindFileGroups || !res.Truncated ||
		res.DuplicateKeys != 3 || res.ByKind[KindFileGroup] != 1 || res.DistinctKeys != 4 {
		t.Errorf("%+v", res)
	}
}

// FuzzRunSource: a damaged run file is an error, never a panic or a huge allocation.
func FuzzRunSource(f *testing.F) {
	var ok bytes.Buffer
	ok.Write([]byte{3, 'a', 'b', 'c', 1, 1, 'z', 0})
	f.Add(ok.Bytes(), 2)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x7f}, 1)
	f.Add([]byte{5, 'a'}, 1)
	f.Fuzz(func(t *testing.T, data []byte, nloc int) {
		s := &runSource{name: "fuzz", r: bufio.NewReader(bytes.NewReader(data)), nloc: max(nloc%1000, 0)}
		for range 10000 {
			tu, more, err := s.next()
			if err != nil || !more {
				return
			}
			if int(tu.loc) >= s.nloc {
				t.Fatalf("location %d of %d", tu.loc, s.nloc)
			}
		}
	})
}
