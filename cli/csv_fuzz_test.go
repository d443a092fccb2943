package cli

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/internal/safetext"
)

// FuzzCSVRow: the row writer's CSV to a file or pipe reads back as the exact values (RFC 4180
// quoting of commas, quotes, CR and LF); to a terminal it carries no control byte but the
// record separator and reads back as the values escaped as text prints them.
func FuzzCSVRow(f *testing.F) {
	f.Add("k-\x1b[31mred\x1b[0m-5", "\x1b]0;pwned\x07") // issue 31: recolour, retitle
	f.Add(`a,"b"`, "line1\r\nline2")                    // RFC 4180 quoting
	f.Add(" lead", "\u202eevil\xff")                    // bidi override, invalid UTF-8
	f.Add("", "\x9b31m")                                // C1 CSI
	f.Fuzz(func(t *testing.T, key, value string) {
		if strings.ContainsRune(key+value, '\r') {
			// encoding/csv reads a quoted \r\n back as \n (and a lone \r in a quoted field too).
			key, value = strings.ReplaceAll(key, "\r", ""), strings.ReplaceAll(value, "\r", "")
		}
		r := records.Record{Fields: []string{"_hoodie_record_key", "v"}, Values: map[string]any{"_hoodie_record_key": key, "v": value}}
		for _, term := range []bool{false, true} {
			var buf bytes.Buffer
			rw := newRowWriter(&buf, "csv", nil)
			rw.escape = term
			if err := rw.write(r); err != nil {
				t.Fatal(err)
			}
			if err := rw.flush(); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&buf).ReadAll()
			if err != nil || len(rows) != 2 || len(rows[1]) != 2 {
				t.Fatalf("term=%v: %q does not read back: %v %q", term, buf.String(), err, rows)
			}
			want := []string{key, value}
			if term {
				want = []string{safetext.Terminal(key), safetext.Terminal(value)}
			}
			if rows[1][0] != want[0] || rows[1][1] != want[1] { // encoding/csv keeps bytes: equal
				t.Errorf("term=%v: read back %q, want %q", term, rows[1], want)
			}
		}
		var buf bytes.Buffer
		rw := newRowWriter(&buf, "csv", nil)
		rw.escape = true
		_ = rw.write(r)
		_ = rw.flush()
		for _, c := range strings.TrimSuffix(buf.String(), "\n") {
			if c != '\n' && safetext.Unsafe(c) {
				t.Fatalf("terminal CSV carries %U: %q", c, buf.String())
			}
		}
	})
}

// TestRowsTextAndJSONEscaped: the text and JSON Lines forms of a row never carry a value's raw
// control bytes (text escapes as \x1b, JSON as \u001b), wherever they go.
func TestRowsTextAndJSONEscaped(t *testing.T) {
	r := records.Record{Fields: []string{"_hoodie_record_key", "name"}, Values: map[string]any{
		"_hoodie_record_key": "k-\x1b[31mred\x1b[0m-5", "name": "\x1b]0;pwned\x07"}}
	for f, want := range map[string]string{"text": `k-\x1b[31mred\x1b[0m-5  \x1b]0;pwned\x07`, "json": `{"_hoodie_record_key":"k-\u001b[31mred\u001b[0m-5","name":"\u001b]0;pwned\u0007"}`} {
		var buf bytes.Buffer
		rw := newRowWriter(&buf, f, nil)
		if err := rw.write(r); err != nil {
			t.Fatal(err)
		}
		if err := rw.flush(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), want) || strings.ContainsAny(buf.String(), "\x1b\x07") {
			t.Errorf("%s: %q, want it to hold %q and no raw control byte", f, buf.String(), want)
		}
	}
}
