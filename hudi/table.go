// Package hudi reads Apache Hudi tables (table versions 4–9, copy-on-write and merge-on-read)
// without ever writing to them: properties, the active and archived timelines, instant
// metadata in JSON and Avro, the file-system view and log-block headers.
package hudi

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Problem is one piece of bad input found while reading: the file and what is wrong with it.
// Readers record problems and carry on, so one corrupt file never hides the rest of a table.
type Problem struct {
	File string `json:"file"`
	Err  string `json:"error"`
}

func (p Problem) String() string { return p.File + ": " + p.Err }

// Table is an opened Hudi table.
type Table struct {
	Store  storage.Storage
	Config *TableConfig

	mu       sync.Mutex
	problems []Problem
}

// ErrNotHudiTable is returned when the location has no .hoodie directory.
var ErrNotHudiTable = errors.New("not a Hudi table")

// Open opens the table at location (a local directory, a .zip archive or a registered URI
// scheme, configured by o) and reads hoodie.properties, falling back to
// hoodie.properties.backup when the main file is missing, unreadable or fails its checksum.
func Open(ctx context.Context, location string, o storage.Options) (*Table, error) {
	st, err := storage.Open(location, o)
	if err != nil {
		return nil, err
	}
	return OpenStorage(ctx, st)
}

// OpenStorage opens a table on an already opened storage root.
func OpenStorage(ctx context.Context, st storage.Storage) (*Table, error) {
	if _, err := st.Stat(ctx, ".hoodie"); err != nil {
		if storage.IsNotExist(err) {
			return nil, fmt.Errorf("%s: no .hoodie directory: %w", st.Root(), ErrNotHudiTable)
		}
		return nil, fmt.Errorf("%s: %w", st.Root(), err)
	}
	t := &Table{Store: st}
	main := ".hoodie/hoodie.properties"
	cfg, mainErr := t.readConfig(ctx, main)
	if mainErr == nil && cfg.ChecksumOK {
		t.Config = cfg
		return t, nil
	}
	backup, backupErr := t.readConfig(ctx, main+".backup")
	switch {
	case backupErr == nil:
		if mainErr != nil {
			t.addProblem(t.Path(main), mainErr.Error()+"; using hoodie.properties.backup")
		} else {
			t.addProblem(t.Path(main), "hoodie.table.checksum is missing or does not match; using hoodie.properties.backup")
		}
		t.Config = backup
		return t, nil
	case mainErr == nil:
		t.addProblem(t.Path(main), "hoodie.table.checksum is missing or does not match the table name (file may be truncated)")
		t.Config = cfg
		return t, nil
	}
	return nil, mainErr
}

func (t *Table) readConfig(ctx context.Context, p string) (*TableConfig, error) {
	b, err := t.Store.ReadFile(ctx, p)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%s: empty file", t.Path(p))
	}
	return ParseTableConfig(b, t.Path(p))
}

func (t *Table) addProblem(file, msg string) {
	t.mu.Lock()
	t.problems = append(t.problems, Problem{File: file, Err: msg})
	t.mu.Unlock()
}

// addProblemOnce records a problem unless the same one is already recorded (details of an
// instant may be read more than once).
func (t *Table) addProblemOnce(file, msg string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range t.problems {
		if p.File == file && p.Err == msg {
			return
		}
	}
	t.problems = append(t.problems, Problem{File: file, Err: msg})
}

// Problems returns the bad input met so far, in the order found.
func (t *Table) Problems() []Problem {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Problem(nil), t.problems...)
}

// IsMOR reports whether the table is merge-on-read.
func (t *Table) IsMOR() bool { return t.Config.Type == MergeOnRead }

// Path names a table-relative path for messages, prefixed with the table root.
func (t *Table) Path(p string) string { return t.Store.Root() + "/" + p }

func isNotExist(err error) bool { return storage.IsNotExist(err) }
