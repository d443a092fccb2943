package checkpoint

import (
	"encoding/json"
	"testing"
)

// An uncounted read writes null counts beside its error (it wrote 0 before: "nothing
// re-read" from a read that was never counted).
func TestRowsJSONUnknownIsNull(t *testing.T) {
	for _, tc := range []struct {
		rows Rows
		want string
	}{
		{Rows{Total: 12, ReRead: 3}, `{"total":12,"reRead":3}`},
		{Rows{Total: 0, ReRead: 0}, `{"total":0,"reRead":0}`},
		{Rows{Error: "read part-0001.parquet: EOF"}, `{"total":null,"reRead":null,"error":"read part-0001.parquet: EOF"}`},
	} {
		b, err := json.Marshal(&Report{Rows: &tc.rows})
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Rows json.RawMessage `json:"rows"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if string(got.Rows) != tc.want {
			t.Errorf("rows %+v: got %s, want %s", tc.rows, got.Rows, tc.want)
		}
	}
}
