package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/hudiscope/hudiscope/internal/redact"
)

// warn prints one line to stderr, "hudiscope: " and the parts joined by spaces, each part
// redacted: an error or a problem may name a table URI with credentials, or a configured value.
// os.Stderr is read at each call: the explorer points it at its log file while it runs.
func warn(parts ...string) {
	for i, p := range parts {
		parts[i] = redact.Text(p)
	}
	fmt.Fprintln(os.Stderr, "hudiscope: "+strings.Join(parts, " "))
}

// warnf is warn of one formatted message.
func warnf(format string, args ...any) { warn(fmt.Sprintf(format, args...)) }
