package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/config"
)

// ConfigText lists every effective value with its source, secrets redacted.
func ConfigText(w io.Writer, e *config.Effective) error {
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
