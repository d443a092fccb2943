package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListAfterLocal(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"1.commit", "2.commit", "2.commit.inflight", "3.commit.requested", "hoodie.properties"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct{ after, want string }{
		{"", "1.commit 2.commit 2.commit.inflight 3.commit.requested hoodie.properties"},
		{"2", "2.commit 2.commit.inflight 3.commit.requested hoodie.properties"},
		{"2.commit", "2.commit.inflight 3.commit.requested hoodie.properties"},
		{"z", ""},
	} {
		for name, s := range map[string]Storage{"local": l, "fallback": listOnly{l}, "prefixed": NewPrefixed(l, "")} {
			es, err := ListAfter(ctx, s, "", c.after)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range es {
				names = append(names, e.Name)
				if e.Size != int64(len(e.Name)) || e.ModTime.IsZero() {
					t.Errorf("%s after %q: %s has size %d, time %v; want its stat", name, c.after, e.Name, e.Size, e.ModTime)
				}
			}
			if got := strings.Join(names, " "); got != c.want {
				t.Errorf("%s after %q: %q, want %q", name, c.after, got, c.want)
			}
		}
	}
}

// listOnly hides Local's AfterLister, so ListAfter takes the filtering fallback.
type listOnly struct{ Storage }
