package storage

import (
	"context"
	"sync/atomic"
)

// Counting wraps a Storage and counts its calls by S3 price class: listings (LIST) and
// reads (Stat, ReadFile, each ranged read of an opened file: GET/HEAD). A watch shows the
// figures and their cost; on local disk they are system calls, on S3 requests (a listing of
// more than 1,000 keys is several LIST pages but counts once).
type Counting struct {
	Storage
	lists, gets atomic.Int64
}

// NewCounting counts the calls made through base.
func NewCounting(base Storage) *Counting { return &Counting{Storage: base} }

// Counts returns the listings and reads so far.
func (c *Counting) Counts() (lists, gets int64) { return c.lists.Load(), c.gets.Load() }

func (c *Counting) List(ctx context.Context, dir string) ([]Entry, error) {
	c.lists.Add(1)
	return c.Storage.List(ctx, dir)
}

func (c *Counting) ListNames(ctx context.Context, dir string) ([]Entry, error) {
	c.lists.Add(1)
	return ListNames(ctx, c.Storage, dir)
}

func (c *Counting) ListNameBlock(ctx context.Context, dir string) (NameBlock, bool, error) {
	b, ok, err := ListNameBlock(ctx, c.Storage, dir)
	if ok {
		c.lists.Add(1) // else the caller lists through ListNames, which counts
	}
	return b, ok, err
}

func (c *Counting) ListAfter(ctx context.Context, dir, after string) ([]Entry, error) {
	c.lists.Add(1)
	return ListAfter(ctx, c.Storage, dir, after)
}

func (c *Counting) Stat(ctx context.Context, p string) (Entry, error) {
	c.gets.Add(1)
	return c.Storage.Stat(ctx, p)
}

func (c *Counting) ReadFile(ctx context.Context, p string) ([]byte, error) {
	c.gets.Add(1)
	return c.Storage.ReadFile(ctx, p)
}

// ReadFileBuf keeps the base's buffer reuse (BufferReader is not promoted through Storage).
func (c *Counting) ReadFileBuf(ctx context.Context, p string, buf []byte) ([]byte, error) {
	c.gets.Add(1)
	return ReadFileBuf(ctx, c.Storage, p, buf)
}

// ReadEntryBuf keeps the base's stat-free read of listed files.
func (c *Counting) ReadEntryBuf(ctx context.Context, e Entry, buf []byte) ([]byte, error) {
	c.gets.Add(1)
	return ReadEntryBuf(ctx, c.Storage, e, buf)
}

// OpenDir keeps the base's directory reader, counting each file it reads.
func (c *Counting) OpenDir(ctx context.Context, dir string) (DirReader, error) {
	return countingDir{OpenDir(ctx, c.Storage, dir), &c.gets}, nil
}

type countingDir struct {
	DirReader
	gets *atomic.Int64
}

func (d countingDir) ReadEntryBuf(ctx context.Context, e Entry, buf []byte) ([]byte, error) {
	d.gets.Add(1)
	return d.DirReader.ReadEntryBuf(ctx, e, buf)
}

func (c *Counting) Open(ctx context.Context, p string) (File, error) {
	f, err := c.Storage.Open(ctx, p)
	if err != nil {
		c.gets.Add(1)
		return nil, err
	}
	return &countingFile{File: f, gets: &c.gets}, nil
}

type countingFile struct {
	File
	gets *atomic.Int64
}

func (f *countingFile) ReadAt(b []byte, off int64) (int, error) {
	f.gets.Add(1)
	return f.File.ReadAt(b, off)
}
