package layout

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/internal/units"
)

// Stats is HoodieTableLayoutAnalyzer's snapshot object: every field cast to long.
type Stats struct {
	Count  int64 `json:"count"`
	Min    int64 `json:"min"`
	Max    int64 `json:"max"`
	Mean   int64 `json:"mean"`
	Median int64 `json:"median"`
	P50    int64 `json:"p50"`
	P90    int64 `json:"p90"`
	P95    int64 `json:"p95"`
	P99    int64 `json:"p99"`
}

// ComputeStats sorts vals in place and computes exact statistics with Codahale's
// UniformSnapshot quantile rule (pos = q·(n+1)); Java samples above 1,000,000 values, we never do.
func ComputeStats(vals []int64) Stats {
	n := len(vals)
	if n == 0 {
		return Stats{}
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	var sum float64
	for _, v := range vals {
		sum += float64(v)
	}
	med := Quantile(vals, 0.5)
	return Stats{
		Count: int64(n), Min: vals[0], Max: vals[n-1], Mean: int64(sum / float64(n)),
		Median: med, P50: med, P90: Quantile(vals, 0.9), P95: Quantile(vals, 0.95), P99: Quantile(vals, 0.99),
	}
}

// Quantile is UniformSnapshot.getValue over sorted values, cast to long.
func Quantile(sorted []int64, q float64) int64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	pos := q * float64(n+1)
	i := int(pos)
	if i < 1 {
		return sorted[0]
	}
	if i >= n {
		return sorted[n-1]
	}
	lo, hi := float64(sorted[i-1]), float64(sorted[i])
	return int64(lo + (pos-math.Floor(pos))*(hi-lo))
}

// Dec4 is a number Java prints with "%.4f".
type Dec4 float64

func (d Dec4) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(float64(d), 'f', 4, 64)), nil
}

// Dbl is a double Java appends with StringBuilder.append(double) (Double.toString).
type Dbl float64

func (d Dbl) MarshalJSON() ([]byte, error) { return []byte(javaDouble(float64(d))), nil }

func javaDouble(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e7 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// KV is one entry of an insertion-ordered JSON object.
type KV struct {
	Key   string
	Value any
}

// Ordered is a JSON object that keeps insertion order (Java's hand-built and LinkedHashMap
// objects).
type Ordered []KV

func (o Ordered) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.Key)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(kv.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Get returns the value of key, or nil.
func (o Ordered) Get(key string) any {
	for _, kv := range o {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

// Bucket is one log-scale histogram bucket: files with Lo ≤ size < Hi (Hi 0 = unbounded).
type Bucket struct {
	Lo    int64  `json:"lo"`
	Hi    int64  `json:"hi,omitempty"`
	Label string `json:"label"`
	Count int    `json:"count"`
	Bytes int64  `json:"bytes"`
}

// bucketEdges are powers of 4 from 1 KiB to 1 GiB: <1K, 1K–4K, …, 256M–1G, ≥1G.
var bucketEdges = func() []int64 {
	var e []int64
	for v := int64(1024); v <= 1<<30; v *= 4 {
		e = append(e, v)
	}
	return e
}()

// NewHistogram returns the empty log-scale buckets.
func NewHistogram() []Bucket {
	out := make([]Bucket, 0, len(bucketEdges)+1)
	var lo int64
	for _, hi := range bucketEdges {
		out = append(out, Bucket{Lo: lo, Hi: hi, Label: "<" + units.BytesFloor(hi)})
		lo = hi
	}
	out = append(out, Bucket{Lo: lo, Label: "≥" + units.BytesFloor(lo)})
	return out
}

// BucketIndex is the bucket a size falls in.
func BucketIndex(size int64) int {
	i := sort.Search(len(bucketEdges), func(i int) bool { return bucketEdges[i] > size })
	return i
}
