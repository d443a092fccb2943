package cli

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"text/tabwriter"
)

// columns writes what tabwriter writes for uniform rows.
func TestColumnsMatchTabwriter(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"", "a", "≈12s", "commit (archived)", "20260101000000000", "-", "x≈y"}
	for _, right := range []bool{false, true} {
		for n := 0; n < 30; n++ {
			ncell := 1 + rng.Intn(6)
			rows := make([][]string, rng.Intn(5))
			for i := range rows {
				for j := 0; j < ncell; j++ {
					rows[i] = append(rows[i], words[rng.Intn(len(words))])
				}
			}
			var want, got bytes.Buffer
			flags := uint(0)
			if right {
				flags = tabwriter.AlignRight
			}
			tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', flags)
			for _, r := range rows {
				fmt.Fprintln(tw, strings.Join(r, "\t"))
			}
			tw.Flush()
			c := columns{right: right, rows: func(row func(...string)) {
				for _, r := range rows {
					row(r...)
				}
			}}
			if err := c.write(&got); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Fatalf("right=%v rows=%q\ngot:\n%s\nwant:\n%s", right, rows, got.String(), want.String())
			}
		}
	}
}
