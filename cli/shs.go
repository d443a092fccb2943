package cli

import (
	"context"

	"github.com/alecthomas/kong"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

// shsLimits are the History Server download limits for a command's storage flags: the
// no-progress timeout is --timeout (storage.Options.Timeout); the download cap stays
// source.DefaultSHSMaxBytes (4 GiB), since --max-read-size bounds one file's read and a
// History Server zip holds a whole application's logs.
func (f StorageFlags) shsLimits() source.Limits {
	return source.Limits{Timeout: f.storage(nil).Timeout}
}

// withSHSLimits puts the selected command's History Server limits into ctx, which carries
// them through model.Load to the download (source.Fetch).
func withSHSLimits(ctx context.Context, kctx *kong.Context) context.Context {
	node := kctx.Selected()
	if node == nil || !node.Target.IsValid() || !node.Target.CanAddr() {
		return source.WithLimits(ctx, source.Limits{})
	}
	if sf, ok := node.Target.Addr().Interface().(interface{ shsLimits() source.Limits }); ok {
		return source.WithLimits(ctx, sf.shsLimits())
	}
	return source.WithLimits(ctx, source.Limits{})
}
