package cli

import (
	"context"
	"reflect"
	"time"

	"github.com/alecthomas/kong"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

// shsLimits are the History Server download limits for a command's storage flags: the
// no-progress timeout is storage.Options.Timeout (--timeout) when that field exists; the
// download cap stays source.DefaultSHSMaxBytes (4 GiB), since --max-read-size bounds one
// file's read and a History Server zip holds a whole application's logs.
//
// The field is looked up by name because --timeout lands in storage.Options on another
// branch; once both are merged this can read so.Timeout directly.
func (f StorageFlags) shsLimits() source.Limits {
	so := reflect.ValueOf(f.storage(nil))
	var l source.Limits
	if t := so.FieldByName("Timeout"); t.IsValid() && t.Type() == reflect.TypeFor[time.Duration]() {
		l.Timeout = time.Duration(t.Int())
	}
	return l
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
