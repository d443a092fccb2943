package health

import (
	"fmt"
	"testing"
)

// analyzers.md §4.3: ≤ 20 partitions are all compared (sorted); above that the first 2 and the
// last 20 — 60 partitions give 22.
func TestSamplePartitions(t *testing.T) {
	var parts []string
	for i := 59; i >= 0; i-- {
		parts = append(parts, fmt.Sprintf("dt=2024-01-%02d", i))
	}
	s := SamplePartitions(parts)
	if len(s) != 22 || s[0] != "dt=2024-01-00" || s[1] != "dt=2024-01-01" || s[2] != "dt=2024-01-40" || s[21] != "dt=2024-01-59" {
		t.Errorf("sample of 60 = %d: %v", len(s), s)
	}
	if s := SamplePartitions(parts[:20]); len(s) != 20 || s[0] != "dt=2024-01-40" {
		t.Errorf("sample of 20 = %v", s)
	}
}
