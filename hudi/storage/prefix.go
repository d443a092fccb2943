package storage

import (
	"context"
	"strings"
)

// Prefixed is a read-only view of a sub-directory of another storage, e.g. the metadata table
// under `.hoodie/metadata`. Paths given to it are relative to the prefix; Entry.Path values it
// returns are too.
type Prefixed struct {
	Base   Storage
	Prefix string // slash-separated, no leading or trailing slash
}

// NewPrefixed returns a storage rooted at prefix inside base.
func NewPrefixed(base Storage, prefix string) *Prefixed {
	return &Prefixed{Base: base, Prefix: strings.Trim(prefix, "/")}
}

func (p *Prefixed) full(rel string) string { return Join(p.Prefix, rel) }

func (p *Prefixed) strip(e Entry) Entry {
	e.Path = strings.TrimPrefix(strings.TrimPrefix(e.Path, p.Prefix), "/")
	return e
}

func (p *Prefixed) stripAll(es []Entry, err error) ([]Entry, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = p.strip(e)
	}
	return out, nil
}

func (p *Prefixed) Root() string { return p.Base.Root() + "/" + p.Prefix }

func (p *Prefixed) List(ctx context.Context, dir string) ([]Entry, error) {
	return p.stripAll(p.Base.List(ctx, p.full(dir)))
}

func (p *Prefixed) Stat(ctx context.Context, rel string) (Entry, error) {
	e, err := p.Base.Stat(ctx, p.full(rel))
	if err != nil {
		return Entry{}, err
	}
	return p.strip(e), nil
}

func (p *Prefixed) Open(ctx context.Context, rel string) (File, error) {
	return p.Base.Open(ctx, p.full(rel))
}

func (p *Prefixed) ReadFile(ctx context.Context, rel string) ([]byte, error) {
	return p.Base.ReadFile(ctx, p.full(rel))
}

// ListAfter passes StartAfter through to the base (a table inside a zip or bucket prefix).
func (p *Prefixed) ListAfter(ctx context.Context, dir, after string) ([]Entry, error) {
	return p.stripAll(ListAfter(ctx, p.Base, p.full(dir), after))
}
