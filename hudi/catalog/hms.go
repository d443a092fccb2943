package catalog

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"sort"
	"sync"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/beltran/gohive/hive_metastore"
)

// Reader is what the fleet reads from a catalog: Glue and the Hive Metastore alike.
type Reader interface {
	Databases(ctx context.Context) ([]string, error)
	Tables(ctx context.Context, db string) ([]Table, error)
	Partitions(ctx context.Context, db, table string) ([]Partition, error)
}

var (
	_ Reader = (*Glue)(nil)
	_ Reader = (*HMS)(nil)
)

// hmsReader is the whole of the Hive Metastore Thrift API this package may call: the four
// reads every metastore since Hive 0.x answers (get_all_databases, get_all_tables, get_table,
// get_partitions), none of its many writes.
type hmsReader interface {
	GetAllDatabases(ctx context.Context) ([]string, error)
	GetAllTables(ctx context.Context, db string) ([]string, error)
	GetTable(ctx context.Context, db, table string) (*hive_metastore.Table, error)
	GetPartitions(ctx context.Context, db, table string, max int16) ([]*hive_metastore.Partition, error)
}

// HMS reads a Hive Metastore over Thrift (binary protocol, buffered transport, no SASL: the
// metastore's default, and EMR's without Kerberos). The generated client comes from
// github.com/beltran/gohive.
type HMS struct {
	uri       string
	transport thrift.TTransport
	// mu serializes calls: one Thrift connection carries one call at a time.
	mu  sync.Mutex
	api hmsReader
}

// OpenHMS connects to thrift://HOST:PORT (port 9083 when none is given); timeout bounds the
// connect and each call (0: 30s).
func OpenHMS(ctx context.Context, uri string, timeout time.Duration) (*HMS, error) {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "thrift" || u.Hostname() == "" {
		return nil, fmt.Errorf("hive metastore %q: want thrift://HOST:PORT", uri)
	}
	port := u.Port()
	if port == "" {
		port = "9083"
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	cfg := &thrift.TConfiguration{ConnectTimeout: timeout, SocketTimeout: timeout}
	sock := thrift.NewTSocketConf(addr, cfg)
	if err := sock.Open(); err != nil {
		return nil, fmt.Errorf("hive metastore %s: connect: %w", addr, err)
	}
	tr := thrift.NewTBufferedTransport(sock, 64<<10)
	proto := thrift.NewTBinaryProtocolConf(tr, cfg)
	return &HMS{uri: "thrift://" + addr, transport: tr,
		api: hive_metastore.NewThriftHiveMetastoreClient(thrift.NewTStandardClient(proto, proto))}, nil
}

// Close closes the connection.
func (h *HMS) Close() error { return h.transport.Close() }

func (h *HMS) wrap(call string, err error) error {
	return fmt.Errorf("hive metastore %s %s: %w", h.uri, call, err)
}

// Databases lists every database, sorted.
func (h *HMS) Databases(ctx context.Context) ([]string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	dbs, err := h.api.GetAllDatabases(ctx)
	if err != nil {
		return nil, h.wrap("get_all_databases", err)
	}
	sort.Strings(dbs)
	return dbs, nil
}

// Tables reads every table of a database (get_all_tables, then get_table each), sorted.
func (h *HMS) Tables(ctx context.Context, db string) ([]Table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	names, err := h.api.GetAllTables(ctx, db)
	if err != nil {
		return nil, h.wrap("get_all_tables "+db, err)
	}
	sort.Strings(names)
	out := make([]Table, 0, len(names))
	for _, n := range names {
		t, err := h.api.GetTable(ctx, db, n)
		if err != nil {
			return out, h.wrap("get_table "+db+"."+n, err)
		}
		out = append(out, fromHMS(db, n, t))
	}
	return out, nil
}

func fromHMS(db, name string, t *hive_metastore.Table) Table {
	out := Table{Database: db, Name: name, Parameters: map[string]string{}}
	if t == nil {
		return out
	}
	for k, v := range t.Parameters {
		out.Parameters[k] = v
	}
	if sd := t.Sd; sd != nil {
		out.Location, out.InputFormat = sd.Location, sd.InputFormat
	}
	for _, k := range t.PartitionKeys {
		if k != nil {
			out.PartitionKeys = append(out.PartitionKeys, k.Name)
		}
	}
	return out
}

// Partitions lists a table's partitions (get_partitions with no limit).
func (h *HMS) Partitions(ctx context.Context, db, table string) ([]Partition, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ps, err := h.api.GetPartitions(ctx, db, table, -1)
	if err != nil {
		return nil, h.wrap("get_partitions "+db+"."+table, err)
	}
	out := make([]Partition, 0, len(ps))
	for _, p := range ps {
		if p == nil {
			continue
		}
		q := Partition{Values: p.Values}
		if p.Sd != nil {
			q.Location = p.Sd.Location
		}
		out = append(out, q)
	}
	return out, nil
}
