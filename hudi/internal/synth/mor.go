package synth

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/twmb/avro"

	"github.com/hudiscope/hudiscope/hudi/logfile"
)

// MORSpec says how WriteMOR grows one file group of a real merge-on-read fixture.
type MORSpec struct {
	// Zip is the fixture (testdata/fixtures/mor-services-1.2.0/table.zip); Partition the
	// partition whose file group grows (its latest slice must have a base file and logs).
	Zip, Partition string
	// Rows records go in the base file (keys 0..Rows-1); Updates of them (every
	// Rows/Updates-th key, ordering value raised) go in the newest log file's data block.
	Rows, Updates int
	// KeyField and OrderingField are the table's record key and ordering fields.
	KeyField, OrderingField string
}

// WriteMOR extracts the fixture into dir and rewrites one file group's latest slice: the base
// file with spec.Rows records built from its first record (same Parquet schema and footer
// metadata), the newest log file's Avro data block with spec.Updates updates (same header and
// schema). Everything else (timeline, other file groups, properties) stays the fixture's, so
// any Hudi reader can read the result. Returns the table directory.
func WriteMOR(dir string, spec MORSpec) (string, error) {
	top, err := extract(spec.Zip, dir)
	if err != nil {
		return "", err
	}
	pdir := filepath.Join(top, filepath.FromSlash(spec.Partition))
	ents, err := os.ReadDir(pdir)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", pdir, err)
	}
	var bases, logs []string
	for _, e := range ents {
		n := e.Name()
		switch {
		case strings.HasSuffix(n, ".crc"):
		case strings.HasSuffix(n, ".parquet"):
			bases = append(bases, n)
		case strings.HasPrefix(n, ".") && strings.Contains(n, ".log."):
			logs = append(logs, n)
		}
	}
	if len(bases) == 0 || len(logs) == 0 {
		return "", fmt.Errorf("%s: want a base file and log files, found %d and %d", pdir, len(bases), len(logs))
	}
	// Newest by instant: base names end in _<instant>.parquet, log names carry _<instant>.log.
	sort.Slice(bases, func(i, j int) bool { return baseInstant(bases[i]) < baseInstant(bases[j]) })
	sort.Slice(logs, func(i, j int) bool { return logInstant(logs[i]) < logInstant(logs[j]) })
	base, log := filepath.Join(pdir, bases[len(bases)-1]), filepath.Join(pdir, logs[len(logs)-1])
	if err := growBase(base, spec); err != nil {
		return "", err
	}
	if err := growLog(log, spec); err != nil {
		return "", err
	}
	// Hadoop's local file system checks .crc side files: drop the stale ones.
	for _, f := range []string{base, log} {
		os.Remove(filepath.Join(filepath.Dir(f), "."+filepath.Base(f)+".crc"))
	}
	return top, nil
}

func baseInstant(n string) string {
	n = strings.TrimSuffix(n, ".parquet")
	return n[strings.LastIndexByte(n, '_')+1:]
}

func logInstant(n string) string {
	n = n[:strings.Index(n, ".log.")]
	return n[strings.LastIndexByte(n, '_')+1:]
}

// extract unzips z into dir and returns the directory holding .hoodie.
func extract(z, dir string) (string, error) {
	zr, err := zip.OpenReader(z)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", z, err)
	}
	defer zr.Close()
	top := ""
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, filepath.Clean(dir)+string(os.PathSeparator)) {
			return "", fmt.Errorf("%s: entry %q leaves the directory", z, f.Name)
		}
		// The table's own .hoodie is the shallowest (the metadata table has one too).
		if strings.HasSuffix(f.Name, ".hoodie/hoodie.properties") {
			if t := filepath.Dir(filepath.Dir(p)); top == "" || len(t) < len(top) {
				top = t
			}
		}
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return "", err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		r, err := f.Open()
		if err != nil {
			return "", fmt.Errorf("%s: %s: %w", z, f.Name, err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return "", fmt.Errorf("%s: %s: %w", z, f.Name, err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", err
		}
	}
	if top == "" {
		return "", fmt.Errorf("%s: no .hoodie directory", z)
	}
	return top, nil
}

// growBase rewrites the base file with spec.Rows records made from its first one.
func growBase(path string, spec MORSpec) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	schema := f.Schema()
	rd := parquet.NewReader(f)
	first := make([]parquet.Row, 1)
	if n, _ := rd.ReadRows(first); n != 1 {
		return fmt.Errorf("%s: no row to copy", path)
	}
	rd.Close()
	// The file's column encodings may be ones parquet-go does not write (Spark's dictionary
	// encodings): the copy uses a flat schema of the same leaves, plain-encoded. Group orders
	// fields by name, so columns are remapped.
	g := parquet.Group{}
	for _, f := range schema.Fields() {
		if !f.Leaf() {
			return fmt.Errorf("%s: column %s is nested; only flat schemas are grown", path, f.Name())
		}
		g[f.Name()] = parquet.Encoded(f, &parquet.Plain)
	}
	out := parquet.NewSchema(schema.Name(), g)
	remap := map[int]int{}
	col := map[string]int{}
	for i, p := range out.Columns() {
		col[strings.Join(p, ".")] = i
	}
	for i, p := range schema.Columns() {
		remap[i] = col[strings.Join(p, ".")]
	}
	for j, v := range first[0] {
		first[0][j] = v.Level(v.RepetitionLevel(), v.DefinitionLevel(), remap[v.Column()])
	}
	sort.Slice(first[0], func(a, b int) bool { return first[0][a].Column() < first[0][b].Column() })
	schema = out
	for _, c := range []string{"_hoodie_record_key", spec.KeyField, spec.OrderingField} {
		if _, ok := col[c]; !ok {
			return fmt.Errorf("%s: no column %s", path, c)
		}
	}
	var opts []parquet.WriterOption
	for _, kv := range f.Metadata().KeyValueMetadata {
		opts = append(opts, parquet.KeyValueMetadata(kv.Key, kv.Value))
	}
	opts = append(opts, parquet.Compression(&parquet.Snappy))
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, append([]parquet.WriterOption{schema}, opts...)...)
	batch := make([]parquet.Row, 0, 4096)
	for i := 0; i < spec.Rows; i++ {
		r := first[0].Clone()
		key := strconv.Itoa(i)
		for j, v := range r {
			switch v.Column() {
			case col["_hoodie_record_key"]:
				r[j] = setValue(v, key)
			case col["_hoodie_commit_seqno"]:
				r[j] = setValue(v, "s_"+key)
			case col[spec.KeyField]:
				r[j] = setValue(v, key)
			case col[spec.OrderingField]:
				r[j] = setValue(v, "1")
			}
		}
		batch = append(batch, r)
		if len(batch) == cap(batch) || i == spec.Rows-1 {
			if _, err := w.WriteRows(batch); err != nil {
				return fmt.Errorf("write %s: %w", path, err)
			}
			batch = batch[:0]
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// setValue is v with the value s in v's physical type, at v's levels and column.
func setValue(v parquet.Value, s string) parquet.Value {
	var nv parquet.Value
	switch v.Kind() {
	case parquet.Int32:
		n, _ := strconv.ParseInt(s, 10, 32)
		nv = parquet.Int32Value(int32(n))
	case parquet.Int64:
		n, _ := strconv.ParseInt(s, 10, 64)
		nv = parquet.Int64Value(n)
	case parquet.Double:
		n, _ := strconv.ParseFloat(s, 64)
		nv = parquet.DoubleValue(n)
	default:
		nv = parquet.ByteArrayValue([]byte(s))
	}
	return nv.Level(v.RepetitionLevel(), v.DefinitionLevel(), v.Column())
}

// growLog rewrites the log file as one Avro data block of spec.Updates updates, with the
// header (instant, schema) of its first data block.
func growLog(path string, spec MORSpec) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	r := bytes.NewReader(b)
	var blk *logfile.Block
	for _, x := range logfile.ReadBlocks(r, int64(len(b))) {
		if x.Type == logfile.BlockAvroData && !x.Corrupt {
			blk = &x
			break
		}
	}
	if blk == nil {
		return fmt.Errorf("%s: no Avro data block", path)
	}
	content, err := blk.ReadContent(r)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	datums, err := logfile.AvroRecords(content)
	if err != nil || len(datums) == 0 {
		return fmt.Errorf("%s: records: %v", path, err)
	}
	s, err := avro.Parse(blk.Header[logfile.HeaderSchema])
	if err != nil {
		return fmt.Errorf("%s: schema: %w", path, err)
	}
	var rec map[string]any
	if _, err := s.Decode(datums[0], &rec); err != nil {
		return fmt.Errorf("%s: decode: %w", path, err)
	}
	step := max(1, spec.Rows/max(1, spec.Updates))
	body := binary.BigEndian.AppendUint32(nil, binary.BigEndian.Uint32(content[:4]))
	body = binary.BigEndian.AppendUint32(body, uint32(spec.Updates))
	for i := 0; i < spec.Updates; i++ {
		key := strconv.Itoa(i * step % max(1, spec.Rows))
		rec["_hoodie_record_key"] = key
		rec["_hoodie_commit_seqno"] = "u_" + key
		rec[spec.KeyField] = sameKind(rec[spec.KeyField], key)
		rec[spec.OrderingField] = sameKind(rec[spec.OrderingField], "2")
		d, err := s.Encode(rec)
		if err != nil {
			return fmt.Errorf("%s: encode: %w", path, err)
		}
		body = binary.BigEndian.AppendUint32(body, uint32(len(d)))
		body = append(body, d...)
	}
	return os.WriteFile(path, LogBlock(blk.FormatVersion, logfile.BlockAvroData, blk.Header, body), 0o644)
}

// sameKind converts s to the Go type of like (as the Avro decoder produced it).
func sameKind(like any, s string) any {
	switch like.(type) {
	case int32:
		n, _ := strconv.ParseInt(s, 10, 32)
		return int32(n)
	case int64:
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	case int:
		n, _ := strconv.Atoi(s)
		return n
	case float64:
		n, _ := strconv.ParseFloat(s, 64)
		return n
	}
	return s
}

// LogBlock frames one Hudi log block: magic, size, version, type, header, content, empty
// footer, total length.
func LogBlock(version, typ int, header map[int]string, content []byte) []byte {
	kv := func(m map[int]string) []byte {
		keys := make([]int, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		b := binary.BigEndian.AppendUint32(nil, uint32(len(m)))
		for _, k := range keys {
			b = binary.BigEndian.AppendUint32(b, uint32(k))
			b = binary.BigEndian.AppendUint32(b, uint32(len(m[k])))
			b = append(b, m[k]...)
		}
		return b
	}
	body := binary.BigEndian.AppendUint32(nil, uint32(version))
	body = binary.BigEndian.AppendUint32(body, uint32(typ))
	body = append(body, kv(header)...)
	body = binary.BigEndian.AppendUint64(body, uint64(len(content)))
	body = append(body, content...)
	body = append(body, kv(nil)...)
	l := uint64(len(body) + 8)
	out := append([]byte("#HUDI#"), binary.BigEndian.AppendUint64(nil, l)...)
	out = append(out, body...)
	return binary.BigEndian.AppendUint64(out, l+6)
}
