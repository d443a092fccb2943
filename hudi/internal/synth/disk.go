package synth

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
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
	return writeDisk(dir, fx, commits, files, parts, false)
}

// WriteDiskMDT is WriteDisk plus a metadata table whose `files` partition lists exactly the
// base files written (one base HFile, as after Hudi's MDT initialisation), so the same table
// can be listed from the MDT and from storage and the two compared.
func WriteDiskMDT(dir string, fx *Fixture, commits, files, parts int) error {
	if err := writeDisk(dir, fx, commits, files, parts, true); err != nil {
		return err
	}
	return WriteMDT(dir, fx, commits, files, parts)
}

// WriteMDT writes (or rewrites) only the metadata table of a table WriteDiskMDT wrote with the
// same counts, leaving the base files alone: a million-file table's metadata table takes about
// a minute to regenerate, relinking its base files far longer.
func WriteMDT(dir string, fx *Fixture, commits, files, parts int) error {
	listing := make(map[string]map[string]int64, parts)
	for p := 0; p < parts; p++ {
		listing[diskPartition(p)] = map[string]int64{}
	}
	for f := 0; f < files; f++ {
		listing[diskPartition(f%parts)][diskBaseName(f, commits)] = int64(len(fx.Parquet))
	}
	for rel, b := range metadataTable("synth", listing) {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}

// diskPartition and diskBaseName name WriteDisk's partitions and base files.
func diskPartition(p int) string { return fmt.Sprintf("dt=2026-01-%04d", p) }

func diskBaseName(f, commits int) string {
	return fmt.Sprintf("%08x-0000-0000-0000-000000000000-0_0-1-1_%s.parquet", f, InstantTime((f%commits)*3+1))
}

func writeDisk(dir string, fx *Fixture, commits, files, parts int, mdt bool) error {
	tdir := filepath.Join(dir, ".hoodie", "timeline")
	if err := os.MkdirAll(tdir, 0o755); err != nil {
		return err
	}
	props := strings.ReplaceAll(string(fx.Props), "hoodie.table.metadata.partitions=", "hoodie.table.metadata.partitions.disabled=")
	if mdt {
		// The metadata table written after has only the `files` partition.
		props = regexp.MustCompile(`(?m)^hoodie\.table\.metadata\.partitions\.disabled=.*$`).ReplaceAllString(props, "hoodie.table.metadata.partitions=files")
	}
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
		pd := filepath.Join(dir, diskPartition(p))
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
			if err := os.Link(tmpl, filepath.Join(pd, diskBaseName(f, commits))); err != nil {
				return err
			}
		}
	}
	return nil
}
