package report

import (
	"bytes"
	"strings"
	"testing"
)

// The direct appender writes what encoding/json and the re-indent wrote, byte for byte, for
// every optional field present or absent and strings that need escaping.
func TestAppendInstantJSON(t *testing.T) {
	ct, op := "20260101000000123", "UPSERT"
	ms, dur := int64(2000), int64(-5)
	odd := []string{"", "plain", `quo"te`, `back\slash`, "tab\tnew\nline", "<html>&amp;", "ünïcödé", "bad\xffutf8",
		"line\u2028sep", "ctl\x01\x1f"}
	var cases []InstantJSON
	for i, s := range odd {
		ij := InstantJSON{RequestedTime: "20260101000000001", Action: "commit", State: "COMPLETED",
			NumWrites: int64(i), NumInserts: -1, NumUpdateWrites: 1 << 40, TotalBytesWritten: 12345, FileCount: 3, PartitionCount: i,
			Derived: i%2 == 0, Archived: i%3 == 0, CompletedAfterLaterStart: i%4 == 0, Error: s, PlanAction: strings.ToUpper(s),
			TotalWriteErrors: int64(29 * i), Stalled: i%5 == 0}
		if i%2 == 0 {
			ij.CompletionTime, ij.PrecisionMs, ij.DurationMs = &ct, &ms, &dur
		}
		if i%3 != 0 {
			o := op + s
			ij.Operation = &o
		}
		cases = append(cases, ij)
	}
	cases = append(cases, InstantJSON{})
	for _, depth := range []int{0, 2} {
		for i := range cases {
			var want bytes.Buffer
			j := newJSONStream(&want)
			j.value(depth, &cases[i])
			if err := j.w.Flush(); err != nil || j.err != nil {
				t.Fatal(err, j.err)
			}
			got := appendInstantJSON(nil, depth, &cases[i])
			if string(got) != want.String() {
				t.Errorf("case %d depth %d:\n%s\nwant\n%s", i, depth, got, want.String())
			}
		}
	}
}

func BenchmarkAppendInstantJSON(b *testing.B) {
	ct, op, ms := "20260101000000123", "UPSERT", int64(10)
	ij := InstantJSON{RequestedTime: "20260101000000001", CompletionTime: &ct, Action: "commit", State: "COMPLETED",
		Operation: &op, NumWrites: 10, DurationMs: &ms}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = appendInstantJSON(buf[:0], 2, &ij)
	}
}
