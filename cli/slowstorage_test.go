package cli

import (
	"context"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// registerSlowStorage, given a duration (the child's HUDISCOPE_TEST_SLOW_LIST), adds the
// slow:// scheme: slow:///dir is the local table dir whose every directory listing and file
// opened for ranged reads (parquet, log files) takes that long, so a small table's listing and
// records reads last long enough for the progress line.
func registerSlowStorage(d string) {
	delay, err := time.ParseDuration(d)
	if err != nil {
		return
	}
	storage.Register("slow", func(location string, o storage.Options) (storage.Storage, error) {
		st, err := storage.Open(strings.TrimPrefix(location, "slow://"), o)
		if err != nil {
			return nil, err
		}
		return slowList{st, delay}, nil
	})
}

type slowList struct {
	storage.Storage
	delay time.Duration
}

func (s slowList) List(ctx context.Context, dir string) ([]storage.Entry, error) {
	time.Sleep(s.delay)
	return s.Storage.List(ctx, dir)
}

func (s slowList) Open(ctx context.Context, p string) (storage.File, error) {
	time.Sleep(s.delay)
	return s.Storage.Open(ctx, p)
}
