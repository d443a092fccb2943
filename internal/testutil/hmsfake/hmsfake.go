// Package hmsfake is an in-process Hive Metastore for tests: a Thrift server (binary protocol,
// buffered transport, no SASL) answering get_all_databases, get_all_tables, get_table and
// get_partitions from memory, with the processor generated from Hive's IDL
// (github.com/beltran/gohive). Any other call fails, and every call is counted.
package hmsfake

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/beltran/gohive/hive_metastore"

	"github.com/hudiscope/hudiscope/internal/testutil/gluefake"
)

// Table and Partition are gluefake's, so one fleet can be served from either catalog.
type (
	Table     = gluefake.Table
	Partition = gluefake.Partition
)

// Fake is the running metastore.
type Fake struct {
	URI string

	mu  sync.Mutex
	dbs map[string][]Table
	ops map[string]int
}

// handler implements the four reads; the embedded nil interface makes any other call panic,
// which the Thrift processor turns into an error answer.
type handler struct {
	hive_metastore.ThriftHiveMetastore
	f *Fake
}

// New starts a metastore holding dbs and stops it when the test ends.
func New(t testing.TB, dbs map[string][]Table) *Fake {
	t.Helper()
	f := &Fake{dbs: dbs, ops: map[string]int{}}
	sock, err := thrift.NewTServerSocket("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := sock.Listen(); err != nil {
		t.Fatal(err)
	}
	srv := thrift.NewTSimpleServer4(hive_metastore.NewThriftHiveMetastoreProcessor(&handler{f: f}), sock,
		thrift.NewTBufferedTransportFactory(64<<10), thrift.NewTBinaryProtocolFactoryConf(nil))
	go srv.Serve()
	t.Cleanup(func() { srv.Stop() })
	f.URI = "thrift://" + sock.Addr().String()
	return f
}

// Ops returns how many times each call was made.
func (f *Fake) Ops() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.ops {
		out[k] = v
	}
	return out
}

func (f *Fake) count(op string) {
	f.mu.Lock()
	f.ops[op]++
	f.mu.Unlock()
}

func (h *handler) GetAllDatabases(ctx context.Context) ([]string, error) {
	h.f.count("get_all_databases")
	var out []string
	for n := range h.f.dbs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

func (h *handler) GetAllTables(ctx context.Context, db string) ([]string, error) {
	h.f.count("get_all_tables")
	tabs, ok := h.f.dbs[db]
	if !ok {
		return nil, &hive_metastore.MetaException{Message: fmt.Sprintf("Database %s does not exist", db)}
	}
	var out []string
	for _, t := range tabs {
		out = append(out, t.Name)
	}
	return out, nil
}

func (h *handler) find(db, name string) *Table {
	for i, t := range h.f.dbs[db] {
		if t.Name == name {
			return &h.f.dbs[db][i]
		}
	}
	return nil
}

func (h *handler) GetTable(ctx context.Context, db, name string) (*hive_metastore.Table, error) {
	h.f.count("get_table")
	t := h.find(db, name)
	if t == nil {
		return nil, &hive_metastore.NoSuchObjectException{Message: db + "." + name + " table not found"}
	}
	var keys []*hive_metastore.FieldSchema
	for _, k := range t.PartitionKeys {
		keys = append(keys, &hive_metastore.FieldSchema{Name: k, Type: "string"})
	}
	return &hive_metastore.Table{TableName: t.Name, DbName: db, TableType: "EXTERNAL_TABLE", Parameters: t.Parameters, PartitionKeys: keys,
		Sd: &hive_metastore.StorageDescriptor{Location: t.Location, InputFormat: t.InputFormat, SerdeInfo: &hive_metastore.SerDeInfo{}}}, nil
}

func (h *handler) GetPartitions(ctx context.Context, db, name string, max int16) ([]*hive_metastore.Partition, error) {
	h.f.count("get_partitions")
	t := h.find(db, name)
	if t == nil {
		return nil, &hive_metastore.NoSuchObjectException{Message: db + "." + name + " table not found"}
	}
	var out []*hive_metastore.Partition
	for _, p := range t.Partitions {
		out = append(out, &hive_metastore.Partition{Values: p.Values, DbName: db, TableName: name,
			Sd: &hive_metastore.StorageDescriptor{Location: p.Location, SerdeInfo: &hive_metastore.SerDeInfo{}}})
	}
	return out, nil
}
