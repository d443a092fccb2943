package records

import (
	"math"
	"testing"
	"time"
)

// Text is what `snapshot -o text`/csv and the explorer's Rows tab print; nested NaN and
// timestamps go through JSONValue, so a map holding them still prints as JSON.
func TestText(t *testing.T) {
	ts := time.Date(2026, 11, 29, 15, 56, 10, 512000000, time.FixedZone("x", 3600))
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{"a b", "a b"},
		{[]byte{0xff, 0}, "/wA="},
		{ts, "2026-11-29T14:56:10.512Z"},
		{Decimal("-1.50"), "-1.50"},
		{Date{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)}, "2024-02-29"},
		{0.1, "0.1"},
		{float32(0.1), "0.1"},
		{int64(7), "7"},
		{map[string]any{"f": math.NaN(), "t": ts}, `{"f":"NaN","t":"2026-11-29T14:56:10.512Z"}`},
		{[]any{math.Inf(-1), nil}, `["-Inf",null]`},
	} {
		if got := Text(c.v); got != c.want {
			t.Errorf("Text(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}
