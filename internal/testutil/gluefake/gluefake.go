// Package gluefake is an in-process AWS Glue endpoint for tests: it speaks Glue's JSON
// protocol (POST /, X-Amz-Target: AWSGlue.<Operation>) for the three read calls hudiscope
// makes, pages every answer two items at a time, and records every operation asked for so a
// test can prove nothing else was called.
package gluefake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Table is one catalog table.
type Table struct {
	Name          string
	Location      string
	InputFormat   string
	Parameters    map[string]string
	PartitionKeys []string
	Partitions    []Partition
}

// Partition is one catalog partition.
type Partition struct {
	Values   []string
	Location string
}

// Fake is the running endpoint.
type Fake struct {
	URL string

	mu  sync.Mutex
	dbs map[string][]Table
	ops map[string]int
}

const pageSize = 2

// New starts a fake holding dbs (database → tables) and stops it when the test ends.
func New(t testing.TB, dbs map[string][]Table) *Fake {
	f := &Fake{dbs: dbs, ops: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// Ops returns how many times each operation was asked for.
func (f *Fake) Ops() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.ops {
		out[k] = v
	}
	return out
}

func fail(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-ErrorType", typ)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": msg})
}

func page[T any](items []T, token string) ([]T, string) {
	start, _ := strconv.Atoi(token)
	if start > len(items) {
		start = len(items)
	}
	end := min(start+pageSize, len(items))
	next := ""
	if end < len(items) {
		next = strconv.Itoa(end)
	}
	return items[start:end], next
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "AWSGlue.")
	f.mu.Lock()
	f.ops[op]++
	f.mu.Unlock()
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256") {
		fail(w, 400, "InvalidRequestException", "unsigned or not a POST")
		return
	}
	var in struct{ DatabaseName, TableName, NextToken string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		fail(w, 400, "SerializationException", err.Error())
		return
	}
	var out map[string]any
	switch op {
	case "GetDatabases":
		var names []string
		for n := range f.dbs {
			names = append(names, n)
		}
		sort.Strings(names)
		p, next := page(names, in.NextToken)
		var list []map[string]any
		for _, n := range p {
			list = append(list, map[string]any{"Name": n, "CatalogId": "123456789012"})
		}
		out = map[string]any{"DatabaseList": list}
		if next != "" {
			out["NextToken"] = next
		}
	case "GetTables":
		tables, ok := f.dbs[in.DatabaseName]
		if !ok {
			fail(w, 400, "EntityNotFoundException", fmt.Sprintf("Database %s not found.", in.DatabaseName))
			return
		}
		p, next := page(tables, in.NextToken)
		var list []map[string]any
		for _, t := range p {
			var keys []map[string]string
			for _, k := range t.PartitionKeys {
				keys = append(keys, map[string]string{"Name": k, "Type": "string"})
			}
			list = append(list, map[string]any{"Name": t.Name, "DatabaseName": in.DatabaseName, "Parameters": t.Parameters,
				"PartitionKeys": keys, "TableType": "EXTERNAL_TABLE",
				"StorageDescriptor": map[string]any{"Location": t.Location, "InputFormat": t.InputFormat}})
		}
		out = map[string]any{"TableList": list}
		if next != "" {
			out["NextToken"] = next
		}
	case "GetPartitions":
		var tab *Table
		for i, t := range f.dbs[in.DatabaseName] {
			if t.Name == in.TableName {
				tab = &f.dbs[in.DatabaseName][i]
			}
		}
		if tab == nil {
			fail(w, 400, "EntityNotFoundException", fmt.Sprintf("Table %s.%s not found.", in.DatabaseName, in.TableName))
			return
		}
		p, next := page(tab.Partitions, in.NextToken)
		var list []map[string]any
		for _, q := range p {
			list = append(list, map[string]any{"Values": q.Values, "DatabaseName": in.DatabaseName, "TableName": in.TableName,
				"StorageDescriptor": map[string]any{"Location": q.Location}})
		}
		out = map[string]any{"Partitions": list}
		if next != "" {
			out["NextToken"] = next
		}
	default:
		fail(w, 400, "AccessDeniedException", "hudiscope may only read: "+op)
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	json.NewEncoder(w).Encode(out)
}
