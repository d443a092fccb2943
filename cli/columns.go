package cli

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hudiscope/hudiscope/internal/safetext"
)

// columns writes rows aligned as text/tabwriter (padding 2, spaces, no flags or AlignRight)
// does for rows with the same number of cells, without holding the text: rows runs twice,
// once to measure the columns and once to write. Each row's last cell is not aligned.
// Cells are escaped with safetext.Terminal.
type columns struct {
	right bool
	rows  func(row func(cells ...string))
}

// safeCells escapes cells, copying the slice only when a cell changes.
func safeCells(cells []string) []string {
	out := cells
	for j, s := range cells {
		if t := safetext.Terminal(s); t != s {
			if &out[0] == &cells[0] {
				out = append([]string(nil), cells...)
			}
			out[j] = t
		}
	}
	return out
}

func (c columns) write(w io.Writer) error {
	var widths []int
	c.rows(func(cells ...string) {
		cells = safeCells(cells)
		for j, s := range cells[:len(cells)-1] {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(s)+2)
		}
	})
	bw := bufio.NewWriterSize(w, 64<<10)
	c.rows(func(cells ...string) {
		cells = safeCells(cells)
		last := len(cells) - 1
		for j, s := range cells[:last] {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(s))
			if c.right && s != "" {
				bw.WriteString(pad)
				bw.WriteString(s)
			} else {
				bw.WriteString(s)
				bw.WriteString(pad)
			}
		}
		bw.WriteString(cells[last])
		bw.WriteByte('\n')
	})
	return bw.Flush()
}

func itoa[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }
