package timeline

import (
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/records"
)

// TestRowsTabEscapesControls: the Rows tab shows a key that would turn the terminal red and a
// value that would retitle the window escaped, as the text form prints them (issue 31).
func TestRowsTabEscapesControls(t *testing.T) {
	var tb Dtable
	fillRows(&tb, []records.Record{{Key: "k-\x1b[31mred\x1b[0m-5", Partition: "p", Fields: []string{"name\x1b[1m"},
		Values: map[string]any{"name\x1b[1m": "\x1b]0;pwned\x07"}}})
	if len(tb.Rows) != 1 || len(tb.Headers) != 3 {
		t.Fatalf("headers %q rows %q", tb.Headers, tb.Rows)
	}
	if got := tb.Rows[0][0]; got != `k-\x1b[31mred\x1b[0m-5` {
		t.Errorf("key cell %q", got)
	}
	if got := tb.Rows[0][2]; got != `\x1b]0;pwned\x07` {
		t.Errorf("value cell %q", got)
	}
	if got := tb.Headers[2]; got != `name\x1b[1m` {
		t.Errorf("column %q", got)
	}
	for _, r := range append(tb.Headers, tb.Rows[0]...) {
		if strings.ContainsAny(r, "\x1b\x07") {
			t.Errorf("raw control byte in %q", r)
		}
	}
}
