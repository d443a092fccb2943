package tableconfig_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// A hoodie.properties over the ceiling cannot load the table: the error names the file.
func TestPropertiesOverCeiling(t *testing.T) {
	dir := t.TempDir()
	old := tableconfig.MaxPropertiesBytes
	tableconfig.MaxPropertiesBytes = 1 << 20
	defer func() { tableconfig.MaxPropertiesBytes = old }()
	big := append([]byte("hoodie.table.name=t\nhoodie.table.version=6\npad="), bytes.Repeat([]byte("x"), 2<<20)...)
	if err := os.WriteFile(filepath.Join(dir, "hoodie.properties"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storage.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tableconfig.Read(context.Background(), st, "hoodie.properties")
	want := st.Root() + "/hoodie.properties: 2097199 bytes, more than the 1 MiB a properties file may be (not a hoodie.properties)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	tableconfig.MaxPropertiesBytes = 4 << 20
	cfg, err := tableconfig.Read(context.Background(), st, "hoodie.properties")
	if err != nil || cfg.Name != "t" {
		t.Errorf("under the ceiling: %v, %v", cfg, err)
	}
}
