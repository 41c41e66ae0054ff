# PauseCam: the two commands of the README are `make demo` and `make test`. Both install what is missing first.
SWIFT ?= swift
OUT ?= $(CURDIR)/demo-output

.PHONY: deps build demo test test-sanitizers bench clean vm-test install uninstall

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

demo: build
	@mkdir -p "$(OUT)"
	$(SWIFT) run pausecam run rigs/virtual.yaml --script demo --output "$(OUT)" --clock real

test: deps
	@scripts/run-tests

# The suite under ThreadSanitizer, then AddressSanitizer (slower: separate build folders).
test-sanitizers: deps
	@scripts/test-sanitizers

bench: deps
	@scripts/bench

# PauseCam against real vivid/snd-aloop drivers in a throw-away QEMU guest (TCG), alone. `make test` runs it too
# (RealDriversVMTests), whenever qemu-system-x86_64 is installed.
vm-test: build
	@scripts/vm/run-vm-test

clean:
	$(SWIFT) package clean

# `make install [PREFIX=~/.local] [BINARY=path/to/pausecam] [RIG=rig.yaml]`: the binary, bash/zsh/fish completions,
# the man page (from the help text) and a .desktop launcher; a manifest lets `make uninstall` remove exactly those.
# Without BINARY, a release build is made first. RIG is what the launcher's "Open shell" opens.
PREFIX ?= $(HOME)/.local
BINARY ?=
RIG ?=

install:
	@if [ -z "$(BINARY)" ]; then $(SWIFT) build -c release --product pausecam; fi
	@scripts/install "$(PREFIX)" "$(if $(BINARY),$(BINARY),$(CURDIR)/.build/release/pausecam)" $(if $(RIG),"$(RIG)")

uninstall:
	@scripts/uninstall "$(PREFIX)"
