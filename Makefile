# PauseCam: the two commands of the README are `make demo` and `make test`. Both install what is missing first.
SWIFT ?= swift
OUT ?= $(CURDIR)/demo-output

.PHONY: deps build demo test test-sanitizers bench clean vm-test

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

# Opt-in, not part of `test`: PauseCam against real vivid/snd-aloop drivers in a throw-away QEMU guest (TCG).
vm-test: build
	@scripts/vm/run-vm-test

clean:
	$(SWIFT) package clean
