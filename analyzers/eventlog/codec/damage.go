// Package codec decodes the byte streams Spark writes for event logs: plain
// text, gzip, Spark's LZ4Block framing (lz4-java), the lz4 tool's LZ4 frames, snappy-java streams, zstd
// (many concatenated frames) and compress-lzf. Every decoder keeps going past
// recoverable damage and stops cleanly at a truncated end, recording what it
// saw as Damage so callers can use everything readable and say where the
// stream broke.
package codec

import "fmt"

// Damage kinds.
const (
	KindTruncated = "truncated" // the stream ends inside a block/frame/member or without its end mark
	KindCorrupt   = "corrupt"   // bytes that do not decode; the rest of that block is lost
	KindChecksum  = "checksum"  // a block decoded but its checksum does not match; its bytes are dropped
)

// Damage describes one place where a compressed stream could not be fully decoded.
type Damage struct {
	Kind string `json:"kind"`
	// Offset is the byte offset in the encoded (on-disk) stream where the damaged
	// unit starts, or -1 when the decoder cannot tell.
	Offset int64 `json:"offset"`
	// DecodedOffset is the number of decoded bytes delivered before the damage.
	DecodedOffset int64  `json:"decodedOffset"`
	Detail        string `json:"detail"`
}

func (d Damage) String() string {
	if d.Offset >= 0 {
		return fmt.Sprintf("%s at byte %d (decoded byte %d): %s", d.Kind, d.Offset, d.DecodedOffset, d.Detail)
	}
	return fmt.Sprintf("%s after decoded byte %d: %s", d.Kind, d.DecodedOffset, d.Detail)
}

// damages is embedded by every decoder.
type damages struct{ list []Damage }

func (d *damages) Damages() []Damage { return d.list }

func (d *damages) add(kind string, off, decoded int64, format string, args ...any) {
	d.list = append(d.list, Damage{Kind: kind, Offset: off, DecodedOffset: decoded, Detail: fmt.Sprintf(format, args...)})
}
