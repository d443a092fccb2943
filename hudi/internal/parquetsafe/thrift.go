package parquetsafe

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Thrift compact-protocol wire types.
const (
	tStop = iota
	tTrue
	tFalse
	tByte
	tI16
	tI32
	tI64
	tDouble
	tBinary
	tList
	tSet
	tMap
	tStruct
)

// maxDepth bounds struct/list nesting: parquet's own structs nest a handful of levels, and
// parquet-go skips unknown fields recursively, so a deep one could exhaust the stack.
const maxDepth = 32

var errShort = errors.New("thrift: truncated")

// walker checks thrift compact bytes before parquet-go decodes them. parquet-go's decoder
// allocates a list's elements from its declared size (up to 2^31) before reading any, and
// sizes nothing by the bytes left; the walker reads every element, so a list is only as
// long as the bytes that back it, and charges what decoding into the Go type will allocate.
type walker struct {
	b    []byte
	off  int
	cost int64 // estimated bytes parquet-go's decode allocates
}

func (w *walker) byte1() (byte, error) {
	if w.off >= len(w.b) {
		return 0, errShort
	}
	c := w.b[w.off]
	w.off++
	return c, nil
}

func (w *walker) uvarint() (uint64, error) {
	var x uint64
	for s := uint(0); s < 70; s += 7 {
		c, err := w.byte1()
		if err != nil {
			return 0, err
		}
		x |= uint64(c&0x7f) << s
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("thrift: varint overflows 64 bits")
}

func (w *walker) skip(n uint64) error {
	if n > uint64(len(w.b)-w.off) {
		return errShort
	}
	w.off += int(n)
	return nil
}

// fieldTypes maps a struct's thrift field ids to their Go types (cached per type).
var fieldTypes sync.Map // reflect.Type → map[int16]reflect.Type

func fieldsOf(t reflect.Type) map[int16]reflect.Type {
	if m, ok := fieldTypes.Load(t); ok {
		return m.(map[int16]reflect.Type)
	}
	m := map[int16]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("thrift")
		if tag == "" {
			continue
		}
		id, err := strconv.ParseInt(strings.SplitN(tag, ",", 2)[0], 10, 16)
		if err == nil {
			m[int16(id)] = f.Type
		}
	}
	fieldTypes.Store(t, m)
	return m
}

// unwrap follows thrift.Null[T] (a struct {V T; Valid bool}, decoded inline) to T.
func unwrap(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Struct && t.NumField() == 2 && t.Field(0).Name == "V" && t.Field(1).Name == "Valid" {
		t = t.Field(0).Type
	}
	return t
}

// value walks one value of wire type typ that decodes into t (nil when parquet-go skips it).
func (w *walker) value(typ byte, t reflect.Type, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("thrift: nested deeper than %d", maxDepth)
	}
	t = unwrap(t)
	if t != nil && t.Kind() == reflect.Pointer {
		w.cost += int64(t.Elem().Size())
		t = unwrap(t.Elem())
	}
	switch typ {
	case tTrue, tFalse:
		return nil
	case tByte:
		return w.skip(1)
	case tI16, tI32, tI64:
		_, err := w.uvarint()
		return err
	case tDouble:
		return w.skip(8)
	case tBinary:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		if t != nil && t.Kind() == reflect.Slice {
			w.cost += int64(min(n, uint64(len(w.b)))) // []byte may be copied
		}
		return w.skip(n)
	case tList, tSet:
		h, err := w.byte1()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		// Every element takes at least one byte: refuse a size the bytes cannot back
		// before charging for it.
		if n > uint64(len(w.b)-w.off) {
			return fmt.Errorf("thrift: list of %d elements in %d bytes: %w", n, len(w.b)-w.off, errShort)
		}
		var et reflect.Type
		if t != nil && t.Kind() == reflect.Slice {
			et = t.Elem()
			w.cost += int64(n) * int64(et.Size())
		}
		etyp := h & 0x0f
		for range n {
			if etyp == tTrue || etyp == tFalse { // bools in lists take a byte each
				if err := w.skip(1); err != nil {
					return err
				}
				continue
			}
			if err := w.value(etyp, et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		if n > uint64(len(w.b)-w.off) {
			return fmt.Errorf("thrift: map of %d entries in %d bytes: %w", n, len(w.b)-w.off, errShort)
		}
		kv, err := w.byte1()
		if err != nil {
			return err
		}
		w.cost += int64(n) * 64 // no map in parquet's format; charge a generous entry
		for range n {
			if err := w.value(kv>>4, nil, depth+1); err != nil {
				return err
			}
			if err := w.value(kv&0x0f, nil, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tStruct:
		var fields map[int16]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = fieldsOf(t)
		}
		var id int16
		for {
			h, err := w.byte1()
			if err != nil {
				return err
			}
			ft := h & 0x0f
			if ft == tStop {
				return nil
			}
			if d := h >> 4; d != 0 {
				id += int16(d)
			} else {
				z, err := w.uvarint()
				if err != nil {
					return err
				}
				id = int16(int64(z>>1) ^ -int64(z&1))
			}
			if err := w.value(ft, fields[id], depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("thrift: unknown wire type %d", typ)
	}
}

// walkStruct checks one struct at the start of b decoding into a T, returning the bytes it
// takes and the estimated bytes decoding allocates.
func walkStruct(b []byte, t reflect.Type) (n int, cost int64, err error) {
	w := &walker{b: b}
	err = w.value(tStruct, t, 0)
	return w.off, w.cost + int64(t.Size()), err
}
