package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixtures = "../../testdata/fixtures/"

// TestReadPropsRefusesWhatIsNotProperties: a missing file, a zstd event log, a plain JSON event
// log and a text file with no key=value line are refused (each with why); the fixture's real
// writer.properties, a spark-defaults.conf style file and an empty file are read.
func TestReadPropsRefusesWhatIsNotProperties(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	zstd := fixtures + "cdc-0.15.0/local-1796078932238.zstd"
	plain := fixtures + "incr-1.2.0/local-1795967754886"
	for _, p := range []string{zstd, plain} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("fixture %s not present: %v", p, err)
		}
	}
	missing := filepath.Join(dir, "missing.properties")
	refused := []struct {
		path, want string
	}{
		{missing, "read --props: open " + missing + ": no such file or directory"},
		// The zstd frame starts 28 b5 2f fd 00: the NUL at offset 4.
		{zstd, "read --props: " + zstd + ": not a properties file: binary content (byte 0x00 at offset 4)"},
		// One JSON object per line: ':' inside `{"Event"`, never after a key.
		{plain, "read --props: " + plain + ": not a properties file: no key=value line"},
		{write("notes.txt", "# writer settings\n\nsee the wiki\n"), "not a properties file: no key=value line"},
	}
	for _, c := range refused {
		_, err := ReadProps(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadProps(%s) = %v, want an error containing %q", c.path, err, c.want)
		}
		if c.path == missing && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing file: %v does not wrap fs.ErrNotExist", err)
		}
		if c.path != missing && !errors.Is(err, ErrNotProperties) {
			t.Errorf("ReadProps(%s): %v does not wrap ErrNotProperties", c.path, err)
		}
		// Load, which every command and the explorer's config step use, refuses the same way.
		if _, lerr := Load(Files{PropsFile: c.path, ClusterDefaults: "-"}); lerr == nil || lerr.Error() != err.Error() {
			t.Errorf("Load(%s) = %v, want %v", c.path, lerr, err)
		}
	}

	props, err := ReadProps(fixtures + "cow-services-1.2.0/writer.properties")
	if err != nil {
		t.Fatal(err)
	}
	if len(props) != 29 || props["hoodie.table.name"] != "cow_services" {
		t.Errorf("writer.properties: %d keys, hoodie.table.name=%q; want 29, cow_services", len(props), props["hoodie.table.name"])
	}
	// Empty or comments only: valid properties that set nothing (findings treat them as no evidence).
	for _, body := range []string{"", "# nothing set yet\n\n! legacy comment\n"} {
		if props, err := ReadProps(write("empty.properties", body)); err != nil || len(props) != 0 {
			t.Errorf("empty props %q: %v %v", body, props, err)
		}
	}
	spark := write("spark-defaults.conf", "# cluster\nspark.hoodie.keep.max.commits   40\r\n")
	if props, err := ReadProps(spark); err != nil || props["spark.hoodie.keep.max.commits"] != "40" {
		t.Errorf("spark-defaults style: %v %v", props, err)
	}
}
