package catalog

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/internal/testutil/hmsfake"
)

func TestHMSReadsCatalog(t *testing.T) {
	f := hmsfake.New(t, map[string][]hmsfake.Table{
		"sales": {
			{Name: "orders", Location: "s3a://lake/w/orders", InputFormat: "org.apache.hudi.hadoop.HoodieParquetInputFormat",
				Parameters: map[string]string{"last_commit_time_sync": "20240103000000000"}, PartitionKeys: []string{"dt"},
				Partitions: []hmsfake.Partition{{Values: []string{"2024-01-01"}, Location: "s3a://lake/w/orders/dt=2024-01-01"},
					{Values: []string{"2024-01-02"}, Location: "s3a://lake/w/orders/dt=2024-01-02"}}},
			{Name: "csv", Location: "hdfs:///w/csv", InputFormat: "org.apache.hadoop.mapred.TextInputFormat"},
		},
		"default": nil,
	})
	ctx := context.Background()
	h, err := OpenHMS(ctx, f.URI, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dbs, err := h.Databases(ctx)
	if err != nil || !reflect.DeepEqual(dbs, []string{"default", "sales"}) {
		t.Fatalf("databases %q %v", dbs, err)
	}
	tabs, err := h.Tables(ctx, "sales")
	if err != nil || len(tabs) != 2 {
		t.Fatalf("tables %+v %v", tabs, err)
	}
	if o := tabs[1]; o.FullName() != "sales.orders" || o.Location != "s3a://lake/w/orders" || !o.LooksHudi() ||
		!reflect.DeepEqual(o.PartitionKeys, []string{"dt"}) || o.Parameters["last_commit_time_sync"] != "20240103000000000" {
		t.Errorf("orders %+v", o)
	}
	if tabs[0].LooksHudi() {
		t.Errorf("csv looks Hudi")
	}
	ps, err := h.Partitions(ctx, "sales", "orders")
	if err != nil || len(ps) != 2 || RelativePath("s3a://lake/w/orders", ps[1]) != "dt=2024-01-02" {
		t.Fatalf("partitions %+v %v", ps, err)
	}
	if _, err := h.Tables(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "get_all_tables nope") || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing database: %v", err)
	}
	want := map[string]int{"get_all_databases": 1, "get_all_tables": 2, "get_table": 2, "get_partitions": 1}
	if ops := f.Ops(); !reflect.DeepEqual(ops, want) {
		t.Errorf("calls %v, want %v", ops, want)
	}
	if _, err := OpenHMS(ctx, "http://x:1", 0); err == nil || !strings.Contains(err.Error(), "want thrift://HOST:PORT") {
		t.Errorf("bad uri: %v", err)
	}
	if _, err := OpenHMS(ctx, "thrift://127.0.0.1:1", time.Second); err == nil || !strings.Contains(err.Error(), "connect") {
		t.Errorf("refused: %v", err)
	}
}

// TestHMSReadOnlyInterface: the client is held as hmsReader, four reads.
func TestHMSReadOnlyInterface(t *testing.T) {
	rt := reflect.TypeOf((*hmsReader)(nil)).Elem()
	var names []string
	for i := 0; i < rt.NumMethod(); i++ {
		names = append(names, rt.Method(i).Name)
	}
	if !reflect.DeepEqual(names, []string{"GetAllDatabases", "GetAllTables", "GetPartitions", "GetTable"}) {
		t.Errorf("hmsReader methods %q", names)
	}
	f, ok := reflect.TypeOf(HMS{}).FieldByName("api")
	if !ok || f.Type != rt {
		t.Error("HMS holds more than the read-only interface")
	}
}
