package cli

import (
	"io"
	"os"
	"strings"
	"testing"
)

// The explorer takes --apply-all-defaults (with the table flags) into the health step it loads.
func TestOpenApplyAllDefaults(t *testing.T) {
	var cli CLI
	k, err := newParser(&cli, os.Stdout, os.Stderr, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Parse([]string{"t.zip", "--apply-all-defaults", "--hoodie-conf", "hoodie.keep.max.commits=5"}); err != nil {
		t.Fatal(err)
	}
	o := cli.Open.modelOptions(io.Discard)
	if !o.Health.ApplyAllDefaults || o.Location != "t.zip" || len(o.HoodieConf) != 1 {
		t.Errorf("options %+v", o)
	}
	cli = CLI{}
	k, _ = newParser(&cli, os.Stdout, os.Stderr, "")
	if _, err := k.Parse([]string{"t.zip"}); err != nil || cli.Open.modelOptions(io.Discard).Health.ApplyAllDefaults {
		t.Errorf("default: %v", err)
	}
}

// health --help states HoodieTableHealthChecker's exit codes.
func TestHealthHelpExitCodes(t *testing.T) {
	stdout, _, code := runCLI(t, "health", "--help")
	stdout = strings.Join(strings.Fields(stdout), " ") // help text is wrapped
	for _, want := range []string{"0 every check healthy or skipped", "3 at least one check unhealthy", "4 a check failed to run", "2 bad arguments or the table could not be read", "There is no exit 1"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("health --help lacks %q (exit %d):\n%s", want, code, stdout)
		}
	}
}
