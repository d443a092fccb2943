package report

import (
	"bufio"
	"io"
	"runtime"
	"strconv"
	"sync"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/internal/ordered"
)

// WriteFilesJSON writes NewFilesDocument(view) byte for byte as WriteJSON would. The document
// is appended by hand, indentation included (a million-file table is 360 MB of JSON, and
// encoding/json's reflection plus an indent pass were a quarter of `files --json`), in chunks
// of at most filesChunk file groups encoded on every core and written in order, so memory
// holds a few chunks whatever the size of one partition.
func WriteFilesJSON(w io.Writer, view *filegroup.View) error {
	// The head and tail are FilesJSONWriter's; only the partitions are written differently.
	f := NewFilesJSONWriter(w)
	if err := f.Begin(view.Source); err != nil {
		return err
	}
	if len(view.Partitions) > 0 {
		if err := f.write([]byte{'['}); err != nil {
			return err
		}
		if err := writeFilesChunks(f.w, view, filesChunks(view), runtime.GOMAXPROCS(0)); err != nil {
			return err
		}
		f.n = len(view.Partitions)
	}
	return f.Close()
}

// FilesJSONWriter writes the same document as WriteFilesJSON one partition at a time, for a
// view that is being listed (model.Snapshot.EachPartition): Begin, Partition for each in path order,
// then Close.
type FilesJSONWriter struct {
	// Filter, when set before Begin, is written as the document's "filter" member.
	Filter *FilesFilterJSON
	w      *bufio.Writer
	buf    []byte
	n      int
	err    error
}

// NewFilesJSONWriter writes to w.
func NewFilesJSONWriter(w io.Writer) *FilesJSONWriter {
	return &FilesJSONWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// Begin writes the document's head.
func (f *FilesJSONWriter) Begin(source string) error {
	b := append(f.buf[:0], "{\n  \"schemaVersion\": "...)
	b = appendJSONString(b, SchemaVersion)
	b = append(b, ",\n  \"listingSource\": "...)
	b = appendJSONString(b, source)
	if f.Filter != nil {
		b = append(b, ",\n  \"filter\": {\n    \"partition\": "...)
		if f.Filter.Partition == "" {
			b = append(b, "null"...)
		} else {
			b = appendJSONString(b, f.Filter.Partition)
		}
		b = append(b, ",\n    \"limit\": "...)
		b = strconv.AppendInt(b, int64(f.Filter.Limit), 10)
		b = append(b, "\n  }"...)
	}
	b = append(b, ",\n  \"partitions\": "...)
	f.buf = b
	return f.write(b)
}

// FilesFilterJSON is the "filter" object of `files -o json --partition P --limit N`.
type FilesFilterJSON struct {
	Partition string // "" is written null
	Limit     int
}

// Partition writes one partition, filesChunk file groups at a time.
func (f *FilesJSONWriter) Partition(p *filegroup.Partition) error {
	if f.n == 0 {
		if err := f.write([]byte{'['}); err != nil {
			return err
		}
	}
	for from := 0; from == 0 || from < len(p.FileGroups); from += filesChunk {
		f.buf = appendFilesPartition(f.buf[:0], p, f.n > 0, from, min(len(p.FileGroups), from+filesChunk))
		if err := f.write(f.buf); err != nil {
			return err
		}
	}
	f.n++
	return nil
}

// Close ends the document and flushes it.
func (f *FilesJSONWriter) Close() error {
	tail := "\n  ]\n}\n"
	if f.n == 0 {
		tail = "[]\n}\n"
	}
	if err := f.write([]byte(tail)); err != nil {
		return err
	}
	if err := f.w.Flush(); err != nil {
		f.err = err
	}
	return f.err
}

func (f *FilesJSONWriter) write(b []byte) error {
	if f.err == nil {
		_, f.err = f.w.Write(b)
	}
	return f.err
}

// filesChunk is the most file groups one chunk holds (about 1.5 MB of JSON).
const filesChunk = 4096

// filesUnit is file groups [from, to) of partition part; the first unit of a partition opens
// it and the last closes it.
type filesUnit struct{ part, from, to int }

func filesChunks(view *filegroup.View) []filesUnit {
	var units []filesUnit
	for i, p := range view.Partitions {
		n := len(p.FileGroups)
		for from := 0; from == 0 || from < n; from += filesChunk {
			units = append(units, filesUnit{i, from, min(n, from+filesChunk)})
		}
	}
	return units
}

// writeFilesChunks encodes units on workers goroutines and writes them to w in order, with at
// most 2×workers encoded chunks waiting.
func writeFilesChunks(w io.Writer, view *filegroup.View, units []filesUnit, workers int) error {
	if len(units) < 2 {
		workers = 1 // ordered.Range runs one worker in line
	}
	pool := sync.Pool{New: func() any { return new([]byte) }}
	return ordered.Range(len(units), workers, func(i int) *[]byte {
		b := pool.Get().(*[]byte)
		*b = appendFilesUnit((*b)[:0], view, units[i])
		return b
	}, func(b *[]byte) error {
		defer pool.Put(b)
		_, err := w.Write(*b)
		return err
	})
}

// appendFilesUnit appends one unit of the partitions array (depth 2 and below).
func appendFilesUnit(b []byte, view *filegroup.View, u filesUnit) []byte {
	return appendFilesPartition(b, view.Partitions[u.part], u.part > 0, u.from, u.to)
}

// appendFilesPartition appends file groups [from, to) of p, opening the partition's object
// when from is 0 (after a comma when it is not the first) and closing it when to is the end.
func appendFilesPartition(b []byte, p *filegroup.Partition, notFirst bool, from, to int) []byte {
	if from == 0 {
		if notFirst {
			b = append(b, ',')
		}
		b = append(b, "\n    {\n      \"path\": "...)
		b = appendJSONString(b, p.Path)
		b = append(b, ",\n      \"fileGroups\": "...)
		if len(p.FileGroups) == 0 {
			b = append(b, "[]"...)
		} else {
			b = append(b, '[')
		}
	}
	for k := from; k < to; k++ {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendFilesFileGroup(b, p.FileGroups[k])
	}
	if to < len(p.FileGroups) {
		return b
	}
	if len(p.FileGroups) > 0 {
		b = append(b, "\n      ]"...)
	}
	if len(p.Replaced) > 0 {
		b = append(b, ",\n      \"replacedFileGroups\": ["...)
		for k, g := range p.Replaced {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n        "...)
			b = appendJSONString(b, g.FileID)
		}
		b = append(b, "\n      ]"...)
	}
	return append(b, "\n    }"...)
}

// appendFilesFileGroup appends filesFileGroup(g) as an element of fileGroups (depth 4).
func appendFilesFileGroup(b []byte, g *filegroup.FileGroup) []byte {
	s := g.Latest()
	b = append(b, "\n        {\n          \"fileId\": "...)
	b = appendJSONString(b, g.FileID)
	b = append(b, ",\n          \"baseFile\": "...)
	if s.Base == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, "{\n            \"name\": "...)
		b = appendJSONString(b, s.Base.Name)
		b = append(b, ",\n            \"size\": "...)
		b = strconv.AppendInt(b, s.Base.Size, 10)
		b = append(b, ",\n            \"instant\": "...)
		b = appendJSONString(b, s.Base.Instant)
		if bf := s.Base.Bootstrap; bf != nil {
			b = append(b, ",\n            \"bootstrapFile\": {\n              \"path\": "...)
			b = appendJSONString(b, bf.Path)
			b = append(b, ",\n              \"name\": "...)
			b = appendJSONString(b, bf.Name)
			b = append(b, ",\n              \"size\": "...)
			b = strconv.AppendInt(b, bf.Size, 10)
			b = append(b, "\n            }"...)
		}
		b = append(b, "\n          }"...)
	}
	b = append(b, ",\n          \"logFiles\": "...)
	if len(s.Logs) == 0 {
		b = append(b, "[]"...)
	} else {
		b = append(b, '[')
		for k, l := range s.Logs {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n            {\n              \"name\": "...)
			b = appendJSONString(b, l.Name)
			b = append(b, ",\n              \"size\": "...)
			b = strconv.AppendInt(b, l.Size, 10)
			b = append(b, "\n            }"...)
		}
		b = append(b, "\n          ]"...)
	}
	b = append(b, ",\n          \"pending\": "...)
	switch {
	case g.PendingCompaction == "" && g.PendingClustering == "":
		b = append(b, "null"...)
	case g.PendingClustering == "":
		b = append(b, "{\n            \"compaction\": "...)
		b = appendJSONString(b, g.PendingCompaction)
		b = append(b, "\n          }"...)
	case g.PendingCompaction == "":
		b = append(b, "{\n            \"clustering\": "...)
		b = appendJSONString(b, g.PendingClustering)
		b = append(b, "\n          }"...)
	default:
		b = append(b, "{\n            \"compaction\": "...)
		b = appendJSONString(b, g.PendingCompaction)
		b = append(b, ",\n            \"clustering\": "...)
		b = appendJSONString(b, g.PendingClustering)
		b = append(b, "\n          }"...)
	}
	b = append(b, ",\n          \"sliceCount\": "...)
	b = strconv.AppendInt(b, int64(len(g.Slices)), 10)
	return append(b, "\n        }"...)
}
