package records

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// checkFooter walks a Parquet file's footer (Thrift compact protocol) before parquet-go
// decodes it: parquet-go allocates every list and byte string at the size the footer claims,
// so one corrupt length would take the whole process down (out of memory) instead of failing
// this file. A footer passes when each length fits in the bytes that remain.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes: too short for a Parquet file", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if !bytes.Equal(tail[4:], []byte("PAR1")) {
		return errors.New("no PAR1 magic at the end")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n <= 0 || n > size-12 {
		return fmt.Errorf("footer length %d does not fit in %d bytes", n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	c := compactWalker{b: footer}
	if err := c.skipStruct(0); err != nil {
		return fmt.Errorf("footer at byte %d: %w", size-8-n+int64(c.pos), err)
	}
	return nil
}

// compactWalker skips Thrift compact-protocol values, checking every length against what is left.
type compactWalker struct {
	b   []byte
	pos int
}

var errTruncated = errors.New("truncated")

func (c *compactWalker) byte() (byte, error) {
	if c.pos >= len(c.b) {
		return 0, errTruncated
	}
	c.pos++
	return c.b[c.pos-1], nil
}

func (c *compactWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(c.b[c.pos:])
	if n <= 0 {
		return 0, errors.New("bad varint")
	}
	c.pos += n
	return v, nil
}

func (c *compactWalker) fits(n uint64, what string) error {
	if n > uint64(len(c.b)-c.pos) {
		return fmt.Errorf("%s of %d exceeds the %d bytes left", what, n, len(c.b)-c.pos)
	}
	return nil
}

func (c *compactWalker) skipStruct(depth int) error {
	if depth > 64 {
		return errors.New("nested too deeply")
	}
	for {
		h, err := c.byte()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		if h>>4 == 0 { // long form: the field id follows
			if _, err := c.uvarint(); err != nil {
				return err
			}
		}
		if err := c.skip(h&0x0f, depth); err != nil {
			return err
		}
	}
}

func (c *compactWalker) skip(t byte, depth int) error {
	switch t {
	case 1, 2: // booleans in a field header carry their value
		return nil
	case 3:
		_, err := c.byte()
		return err
	case 4, 5, 6:
		_, err := c.uvarint()
		return err
	case 7:
		if err := c.fits(8, "double"); err != nil {
			return err
		}
		c.pos += 8
		return nil
	case 8:
		n, err := c.uvarint()
		if err != nil {
			return err
		}
		if err := c.fits(n, "byte string"); err != nil {
			return err
		}
		c.pos += int(n)
		return nil
	case 9, 10:
		h, err := c.byte()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = c.uvarint(); err != nil {
				return err
			}
		}
		if err := c.fits(n, "list"); err != nil { // every element takes a byte at least
			return err
		}
		et := h & 0x0f
		for i := uint64(0); i < n; i++ {
			if et == 1 || et == 2 { // list booleans take a byte each
				if _, err := c.byte(); err != nil {
					return err
				}
				continue
			}
			if err := c.skip(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11:
		n, err := c.uvarint()
		if err != nil || n == 0 {
			return err
		}
		if err := c.fits(2*n, "map"); err != nil {
			return err
		}
		kv, err := c.byte()
		if err != nil {
			return err
		}
		for i := uint64(0); i < n; i++ {
			if err := c.skip(kv>>4, depth+1); err != nil {
				return err
			}
			if err := c.skip(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 12:
		return c.skipStruct(depth + 1)
	}
	return fmt.Errorf("unknown compact type %d", t)
}
