# Release binaries: Linux for EMR (Graviton = arm64, x86 instances = amd64) and macOS for
# laptops; static (CGO off), stripped, stamped with the version, commit and build date that
# `hudiscope --version` and the exit-70 bug report print.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
PKG      = github.com/hudiscope/hudiscope/cli
LDFLAGS  = -s -w -X $(PKG).version=$(VERSION) -X $(PKG).commit=$(COMMIT) -X $(PKG).date=$(DATE)
PLATFORMS = linux-amd64 linux-arm64 darwin-amd64 darwin-arm64

.PHONY: build test check dist man completions clean

build:
	go build -trimpath -ldflags '$(LDFLAGS)' -o hudiscope .

test:
	go test ./...

# What CI checks besides the tests.
check:
	test -z "$$(gofmt -l .)"
	go vet ./...
	go mod tidy -diff

dist: $(addprefix dist/hudiscope-,$(PLATFORMS))
	cd dist && sha256sum hudiscope-* > SHA256SUMS

dist/hudiscope-%:
	mkdir -p dist
	CGO_ENABLED=0 GOOS=$(word 1,$(subst -, ,$*)) GOARCH=$(word 2,$(subst -, ,$*)) \
		go build -trimpath -ldflags '$(LDFLAGS)' -o $@ .

man: build
	mkdir -p dist && ./hudiscope man > dist/hudiscope.1

completions: build
	mkdir -p dist && for s in bash zsh fish; do ./hudiscope completion $$s > dist/hudiscope.$$s; done

clean:
	rm -rf dist hudiscope
