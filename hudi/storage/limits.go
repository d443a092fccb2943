package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hudiscope/hudiscope/internal/units"
)

// Defaults of the bounds every backend applies (Options.MaxReadBytes, Options.Timeout).
const (
	DefaultMaxReadBytes int64         = 256 << 20
	DefaultTimeout      time.Duration = 30 * time.Second
)

// ErrTooLarge is returned (wrapped) when a file is over the read ceiling
// (Options.MaxReadBytes, --max-read-size): callers report it as a named problem and go on.
var ErrTooLarge = errors.New("file too large")

// ErrNoProgress is returned (wrapped) when a remote call made no progress for
// Options.Timeout (--timeout): no connection, no answer, or a body that stopped arriving.
var ErrNoProgress = errors.New("no progress")

// ReadLimit is the effective per-read ceiling.
func (o Options) ReadLimit() int64 {
	if o.MaxReadBytes <= 0 {
		return DefaultMaxReadBytes
	}
	return o.MaxReadBytes
}

// NoProgressTimeout is the effective no-progress deadline of remote calls.
func (o Options) NoProgressTimeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// TooLargeError is a file over the read ceiling; errors.Is(err, ErrTooLarge) holds.
type TooLargeError struct {
	Name string // the file as messages show it
	Size int64  // -1: unknown (more than Max arrived)
	Max  int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("read %s: more than %s, the read ceiling (--max-read-size)", e.Name, units.BytesSetting(e.Max))
	}
	return fmt.Sprintf("read %s: %s (%d bytes) is over the read ceiling of %s (--max-read-size)",
		e.Name, units.BytesSetting(e.Size), e.Size, units.BytesSetting(e.Max))
}

func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// TooLarge is the error for a file of size bytes (-1: unknown) over the ceiling max.
func TooLarge(name string, size, max int64) error {
	return &TooLargeError{Name: name, Size: size, Max: max}
}

// NoProgressError is a remote call that made no progress for Timeout; errors.Is(err,
// ErrNoProgress) holds. Backends wrap it with the operation and path.
type NoProgressError struct{ Timeout time.Duration }

func (e *NoProgressError) Error() string {
	return fmt.Sprintf("no progress for %s (--timeout)", e.Timeout)
}

func (e *NoProgressError) Is(target error) bool { return target == ErrNoProgress }

// ReadLimited reads r to its end but never more than max bytes: one byte more is
// ErrTooLarge naming name. The buffer grows as bytes arrive (never from a length the source
// announces): sizeHint only pre-sizes it when it is trusted (a local stat) and within max.
func ReadLimited(r io.Reader, name string, sizeHint, max int64) ([]byte, error) {
	var buf bytes.Buffer
	if sizeHint > 0 && sizeHint <= max {
		buf.Grow(int(sizeHint) + 1) // +1: the EOF probe must not force a doubling
	}
	n, err := buf.ReadFrom(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, TooLarge(name, -1, max)
	}
	return buf.Bytes(), nil
}

// ByteSize is a byte count given on the command line as a plain number or with a unit:
// 512MiB, 1GiB, 64KB, 1g (K/M/G/T; "iB" and bare letters are powers of 1024, "B" after a
// decimal prefix is a power of 1000).
type ByteSize int64

// UnmarshalText parses a size (kong uses it for flags).
func (b *ByteSize) UnmarshalText(text []byte) error {
	n, err := units.ParseBytes(string(text))
	if err != nil {
		return err
	}
	*b = ByteSize(n)
	return nil
}

func (b ByteSize) String() string { return units.BytesSetting(int64(b)) }
