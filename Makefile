# Static release binaries for Linux (EMR Graviton = arm64, x86 instances = amd64).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
GOFLAGS_DIST = -trimpath -ldflags='-s -w'

.PHONY: dist build test clean

build:
	go build ./...

dist: dist/hudiscope-linux-amd64 dist/hudiscope-linux-arm64

dist/hudiscope-linux-%:
	mkdir -p dist
	CGO_ENABLED=0 GOOS=linux GOARCH=$* go build $(GOFLAGS_DIST) -o $@ .

test:
	go test ./...

clean:
	rm -rf dist
