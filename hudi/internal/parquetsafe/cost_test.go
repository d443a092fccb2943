package parquetsafe

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/internal/testutil"
)

// TestFooterCostCoversOpen checks the footer estimate against what parquet-go's OpenFile
// really allocates for a wide file with many row groups.
func TestFooterCostCoversOpen(t *testing.T) {
	fields := parquet.Group{}
	for i := range 200 {
		fields[fmt.Sprintf("c%03d", i)] = parquet.Optional(parquet.String())
	}
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, parquet.NewSchema("r", fields))
	for range 50 {
		row := make(parquet.Row, 0, 200)
		for i := range 200 {
			row = append(row, parquet.ByteArrayValue([]byte("x")).Level(0, 1, i))
		}
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	n := binary.LittleEndian.Uint32(b[len(b)-8:])
	cost, err := footerCost(b[len(b)-8-int(n) : len(b)-8])
	if err != nil {
		t.Fatal(err)
	}
	var pf *parquet.File
	actual := int64(testutil.Allocated(func() {
		pf, err = parquet.OpenFile(bytes.NewReader(b), int64(len(b)), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(pf.RowGroups()) != 50 || len(pf.Metadata().RowGroups[0].Columns) != 200 {
		t.Fatalf("%d row groups, %d columns", len(pf.RowGroups()), len(pf.Metadata().RowGroups[0].Columns))
	}
	if cost < actual || cost > 4*actual {
		t.Fatalf("footer of %d bytes: estimate %d, OpenFile allocated %d", n, cost, actual)
	}
	t.Logf("footer of %d bytes: estimate %d, OpenFile allocated %d", n, cost, actual)
}
