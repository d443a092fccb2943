package records

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Text renders a record value for text, CSV and the explorer's Rows tab: strings as they
// are, null as "null", bytes as base64, logical types in their usual notation (Decimal and
// Date are Stringers), timestamps as FormatTimestamp does, nested values as compact JSON.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case time.Time:
		return FormatTimestamp(x)
	case fmt.Stringer:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case map[string]any, []any:
		b, err := json.Marshal(JSONValue(x))
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// FormatTimestamp prints a timestamp in UTC with the precision it has (up to nanoseconds).
func FormatTimestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.999999999Z07:00")
}

// JSONValue makes a value JSON-encodable with its logical meaning: timestamps as strings,
// NaN and infinities (no JSON number) as strings, nested values recursively (copied, so the
// record is left as read).
func JSONValue(v any) any {
	switch x := v.(type) {
	case time.Time:
		return FormatTimestamp(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return strconv.FormatFloat(float64(x), 'g', -1, 32)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = JSONValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = JSONValue(e)
		}
		return out
	}
	return v
}
