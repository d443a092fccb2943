package config

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText lists every effective value with its source, secrets redacted.
func (e *Effective) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Effective configuration (engine %s):\n", e.Engine)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, v := range e.All() {
		src := v.SourceLabel()
		if v.AltKey != "" {
			src += " as " + v.AltKey
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Key, v.Display(), src)
	}
	for _, p := range e.Problems {
		fmt.Fprintf(tw, "  warning: %s\n", p)
	}
	return tw.Flush()
}
