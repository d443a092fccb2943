package synth

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Fixture is the real files a disk table is built from: hoodie.properties, one completed
// commit's metadata (Avro for table version 9) and one parquet base file.
type Fixture struct {
	Props, Commit, Parquet []byte
}

// ReadFixture takes the files from a fixture zip (testdata/fixtures/incr-1.2.0/table.zip).
func ReadFixture(zipPath string) (*Fixture, error) {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	fx := &Fixture{}
	for _, f := range zr.File {
		var dst *[]byte
		switch {
		case strings.HasSuffix(f.Name, ".hoodie/hoodie.properties") && !strings.Contains(f.Name, "metadata/"):
			dst = &fx.Props
		case strings.HasSuffix(f.Name, "_20261129155631861.commit"):
			dst = &fx.Commit
		case strings.HasSuffix(f.Name, ".parquet") && fx.Parquet == nil:
			dst = &fx.Parquet
		default:
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		*dst, err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
	}
	if fx.Props == nil || fx.Commit == nil || fx.Parquet == nil {
		return nil, errors.New("fixture files not found in " + zipPath)
	}
	return fx, nil
}

// InstantTime is the i-th synthetic instant time (increasing with i).
func InstantTime(i int) string {
	return fmt.Sprintf("2026%02d%02d%02d%02d%02d%03d", 1+i/100000%12, 1+i/10000%28, i/1000%24, i/100%60, i%60, i%1000)
}

// WriteDisk writes a table version 9 COW table into dir: commits completed instants (every
// 100th a replacecommit, the rest commits, all carrying fx.Commit) and files base files (hard
// links to fx.Parquet) spread over parts partitions. No metadata table: list with --no-mdt.
func WriteDisk(dir string, fx *Fixture, commits, files, parts int) error {
	tdir := filepath.Join(dir, ".hoodie", "timeline")
	if err := os.MkdirAll(tdir, 0o755); err != nil {
		return err
	}
	props := strings.ReplaceAll(string(fx.Props), "hoodie.table.metadata.partitions=", "hoodie.table.metadata.partitions.disabled=")
	if err := os.WriteFile(filepath.Join(dir, ".hoodie", "hoodie.properties"), []byte(props), 0o644); err != nil {
		return err
	}
	for i := 0; i < commits; i++ {
		req, comp := InstantTime(i*3+1), InstantTime(i*3+2)
		action := "commit"
		if i%100 == 99 {
			action = "replacecommit"
		}
		for name, b := range map[string][]byte{req + "." + action + ".requested": nil, req + ".inflight": nil,
			req + "_" + comp + "." + action: fx.Commit} {
			if action == "replacecommit" && strings.HasSuffix(name, ".inflight") {
				name = req + ".replacecommit.inflight"
			}
			if err := os.WriteFile(filepath.Join(tdir, name), b, 0o644); err != nil {
				return err
			}
		}
	}
	for p := 0; p < parts; p++ {
		pd := filepath.Join(dir, fmt.Sprintf("dt=2026-01-%04d", p))
		if err := os.MkdirAll(pd, 0o755); err != nil {
			return err
		}
		// One template per partition keeps hard-link counts under the file system's limit.
		tmpl := filepath.Join(dir, fmt.Sprintf("template-%04d.bin", p))
		if err := os.WriteFile(tmpl, fx.Parquet, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(pd, ".hoodie_partition_metadata"), []byte("commitTime=1\npartitionDepth=1\n"), 0o644); err != nil {
			return err
		}
		for f := p; f < files; f += parts {
			name := fmt.Sprintf("%08x-0000-0000-0000-000000000000-0_0-1-1_%s.parquet", f, InstantTime((f%commits)*3+1))
			if err := os.Link(tmpl, filepath.Join(pd, name)); err != nil {
				return err
			}
		}
	}
	return nil
}
