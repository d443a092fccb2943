package report

import (
	"strconv"
)

// appendInstantJSON appends ij as the stream's value at depth would write it (encoding/json,
// no HTML escaping, indented by two spaces, first line unindented), without reflection or
// an allocation: a 50k-commit timeline writes 50k of these, and encoding then re-indenting
// each was a seventh of `timeline --json`'s CPU time. TestAppendInstantJSON holds it to
// encoding/json's output byte for byte.
func appendInstantJSON(dst []byte, depth int, ij *InstantJSON) []byte {
	first := true
	key := func(name string) {
		if first {
			dst = append(dst, '{')
			first = false
		} else {
			dst = append(dst, ',')
		}
		dst = append(dst, '\n')
		for range depth + 1 {
			dst = append(dst, "  "...)
		}
		dst = append(dst, '"')
		dst = append(dst, name...)
		dst = append(dst, `": `...)
	}
	str := func(name, s string) {
		key(name)
		dst = appendJSONString(dst, s)
	}
	num := func(name string, n int64) {
		key(name)
		dst = strconv.AppendInt(dst, n, 10)
	}
	boolean := func(name string, b bool) {
		key(name)
		dst = strconv.AppendBool(dst, b)
	}
	str("requestedTime", ij.RequestedTime)
	if ij.CompletionTime != nil {
		str("completionTime", *ij.CompletionTime)
	} else {
		key("completionTime")
		dst = append(dst, "null"...)
	}
	boolean("completionTimeDerived", ij.Derived)
	if ij.PrecisionMs != nil {
		num("completionTimePrecisionMs", *ij.PrecisionMs)
	}
	str("action", ij.Action)
	str("state", string(ij.State))
	boolean("archived", ij.Archived)
	if ij.Operation != nil {
		str("operation", *ij.Operation)
	} else {
		key("operation")
		dst = append(dst, "null"...)
	}
	num("numWrites", ij.NumWrites)
	num("numInserts", ij.NumInserts)
	num("numUpdateWrites", ij.NumUpdateWrites)
	num("numDeletes", ij.NumDeletes)
	num("totalBytesWritten", ij.TotalBytesWritten)
	num("totalWriteErrors", ij.TotalWriteErrors)
	num("fileCount", int64(ij.FileCount))
	num("partitionCount", int64(ij.PartitionCount))
	if ij.DurationMs != nil {
		num("durationMs", *ij.DurationMs)
	} else {
		key("durationMs")
		dst = append(dst, "null"...)
	}
	if ij.PlanAction != "" {
		str("planAction", ij.PlanAction)
	}
	if ij.Error != "" {
		str("error", ij.Error)
	}
	boolean("completedAfterLaterStart", ij.CompletedAfterLaterStart)
	boolean("stalled", ij.Stalled)
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, "  "...)
	}
	return append(dst, '}')
}
