package cli

import (
	"context"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

// Every command that can read a History Server log gets the download limits in its context:
// the defaults (30 s without progress, 4 GiB) until --timeout sets storage.Options.Timeout.
func TestSHSLimitsReachCommands(t *testing.T) {
	for _, args := range [][]string{
		{"eventlog", "shs://h:18080/app"},
		{"report", "t.zip", "--event-log", "shs://h:18080/app"},
		{"open", "t.zip", "--event-log", "shs://h:18080/app"},
	} {
		var cli CLI
		p, err := newParser(&cli, nil, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := p.Parse(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if _, ok := kctx.Selected().Target.Addr().Interface().(interface{ shsLimits() source.Limits }); !ok {
			t.Errorf("%v: the command does not carry the storage flags' limits", args)
		}
		l := source.LimitsFrom(withSHSLimits(context.Background(), kctx))
		if l.Timeout != 30*time.Second || l.MaxBytes != 4<<30 {
			t.Errorf("%v: limits %+v", args, l)
		}
		// The defaults above are also source's own: only a set --timeout shows the flags reach
		// the download.
		kctx, err = p.Parse(append(args, "--timeout", "7s"))
		if err != nil {
			t.Fatalf("%v --timeout 7s: %v", args, err)
		}
		if l := source.LimitsFrom(withSHSLimits(context.Background(), kctx)); l.Timeout != 7*time.Second || l.MaxBytes != 4<<30 {
			t.Errorf("%v --timeout 7s: limits %+v", args, l)
		}
	}
}
