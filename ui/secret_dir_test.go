package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// TestSecretPartitionDirRedacted (issue 31): a partition directory named password=Hunter2Secret
// that cannot be listed (a link loop) is redacted in the problem list every surface shows: the
// file and the message, in report -o json (problems and problemDetails), the Markdown report,
// the problems view and its export.
func TestSecretPartitionDirRedacted(t *testing.T) {
	table := testutil.UnzipTable(t, "../testdata/fixtures/incr-1.2.0/table.zip", t.TempDir())
	if err := os.RemoveAll(filepath.Join(table, ".hoodie", "metadata")); err != nil { // list storage
		t.Fatal(err)
	}
	if err := os.Symlink("password=Hunter2Secret", filepath.Join(table, "password=Hunter2Secret")); err != nil {
		t.Fatal(err)
	}
	s, err := model.Load(context.Background(), model.Options{Location: table, ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := view.Build(s)
	found := false
	for _, p := range v.Problems {
		if strings.Contains(p.File, "password=") {
			found = true
			if p.File != table+"/password=***" || p.String() != "password=***: list password=***: open password=***: too many levels of symbolic links" {
				t.Errorf("problem %q / %q", p.File, p.String())
			}
		}
	}
	if !found {
		t.Fatalf("no problem names the directory: %+v", v.Problems)
	}
	var buf bytes.Buffer
	if err := report.JSON(context.Background(), &buf, s); err != nil {
		t.Fatal(err)
	}
	md := report.Markdown(context.Background(), s)
	a := overviewApp(t, s, 120, 40)
	press(a, "p")
	scr := screen(a)
	if a.probs == nil {
		t.Fatal("the problems view did not open")
	}
	_, export := a.probs.Export()
	for what, text := range map[string]string{"report -o json": buf.String(), "Markdown report": md, "problems view": scr, "problems export": export} {
		if strings.Contains(text, "Hunter2Secret") {
			t.Errorf("%s shows the secret:\n%.3000s", what, text)
		}
		if !strings.Contains(text, "password=***") {
			t.Errorf("%s does not name the directory redacted:\n%.3000s", what, text)
		}
	}
}
