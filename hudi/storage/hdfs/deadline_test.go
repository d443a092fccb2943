package hdfs

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// silentNamenode accepts connections, reads what the client sends and never answers.
func silentNamenode(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	return ln.Addr().String()
}

// TestSilentNamenode: stat, list and read against a namenode that never answers end after
// --timeout with an error naming the path and wrapping storage.ErrNoProgress.
func TestSilentNamenode(t *testing.T) {
	const timeout = 300 * time.Millisecond
	t.Setenv("HADOOP_CONF_DIR", t.TempDir())
	for _, op := range []string{"stat", "list", "read"} {
		t.Run(op, func(t *testing.T) {
			addr := silentNamenode(t) // one per call: a timed-out connection is closed
			st, err := Open("hdfs://"+addr+"/w/t", Options{User: "hudi", Timeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			start := time.Now()
			switch op {
			case "stat":
				_, err = st.Stat(ctx, ".hoodie")
			case "list":
				_, err = st.List(ctx, ".hoodie")
			case "read":
				_, err = st.ReadFile(ctx, ".hoodie/hoodie.properties")
			}
			took := time.Since(start)
			path := "/w/t/.hoodie"
			if op == "read" {
				path += "/hoodie.properties"
			}
			want := op + " hdfs://" + addr + path + ": no progress for 300ms (--timeout)"
			if !errors.Is(err, storage.ErrNoProgress) || err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v, want %q wrapping ErrNoProgress", err, want)
			}
			if took > timeout+time.Second {
				t.Errorf("took %v", took)
			}
			t.Logf("%s ended in %v: %v", op, took.Round(time.Millisecond), err)
		})
	}
}

// TestDialTimeout: a namenode address that does not accept in time is a named timeout.
func TestDialTimeout(t *testing.T) {
	// 10.255.255.1 is unroutable: SYNs go unanswered (or the network is down: then the
	// error is immediate and not a timeout, and the test has nothing to check).
	dial := deadlineDialer(200 * time.Millisecond)
	start := time.Now()
	c, err := dial(context.Background(), "tcp", "10.255.255.1:8020")
	if c != nil {
		c.Close() // a sandbox that answers every address
	}
	if !errors.Is(err, storage.ErrNoProgress) {
		t.Skipf("no timeout to observe: %v", err)
	}
	if took := time.Since(start); took > time.Second || !strings.Contains(err.Error(), "connect 10.255.255.1:8020: no progress for 200ms (--timeout)") {
		t.Errorf("%v after %v", err, took)
	}
}
