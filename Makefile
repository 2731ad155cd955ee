# airlock - one static musl binary. `make` builds ./airlock, `make check`
# builds and runs every test, `make fuzz` runs the libFuzzer targets,
# `make bench` the benchmarks, `make repro` proves the build reproducible.

VERSION := $(shell cat VERSION)
DEPS    := build/deps
OBJ     := build/obj
CC      := musl-gcc
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wformat-nonliteral -Werror
CFLAGS  := -std=c11 -O2 $(WARN) -D_GNU_SOURCE -fno-common \
           -ffile-prefix-map=$(CURDIR)=. -isystem $(DEPS)/include -I.
LDFLAGS := -static -s -Wl,--build-id=none
LIBS    := -L$(DEPS)/lib -lseccomp -lbearssl
DEPSTAMP := $(DEPS)/.stamp-bearssl $(DEPS)/.stamp-libseccomp

# Source lists follow the tree: one file per applet, per common module,
# per unit test and per fuzz target.
COMMON  := $(basename $(wildcard common/*/*.c))
APPLETS := $(basename $(notdir $(wildcard applets/*.c)))
UNITS   := $(patsubst %_test,%,$(basename $(notdir $(wildcard test/unit/*_test.c))))
HELPERS := $(basename $(notdir $(wildcard test/helpers/*.c)))
FUZZERS := $(patsubst fuzz_%,%,$(basename $(notdir $(wildcard test/fuzz/fuzz_*.c))))

COMMON_OBJ := $(COMMON:%=$(OBJ)/%.o) $(OBJ)/gen/seccomp_bpf.o
APPLET_OBJ := $(APPLETS:%=$(OBJ)/applets/%.o)
UNIT_BIN   := $(UNITS:%=build/test/%_test)
REPLAY_BIN := $(FUZZERS:%=build/test/replay_%)
HELPER_BIN := $(HELPERS:%=build/test/helpers/%)

all: airlock

# one recipe makes both stamps (grouped: make -j runs it once)
$(DEPSTAMP) &: scripts/deps.sh scripts/packages.list
	sh scripts/deps.sh $(DEPS)
	touch $(DEPSTAMP)

$(OBJ)/%.o: %.c | $(DEPSTAMP)
	@mkdir -p $(@D)
	@echo "CC $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/main.o: main.c VERSION $(DEPSTAMP)
	@mkdir -p $(@D)
	@echo "CC main.c"
	@$(CC) $(CFLAGS) -MMD -MP -DAIRLOCK_VERSION='"$(VERSION)"' \
	  -DSECCOMP_DEB_VERSION="\"$$(cat $(DEPS)/.stamp-libseccomp)\"" \
	  -DBEARSSL_DEB_VERSION="\"$$(cat $(DEPS)/.stamp-bearssl)\"" \
	  -c main.c -o $@

# The seccomp policy is compiled once, here, into C data (a jail then
# loads a constant instead of running libseccomp at every start).
build/seccomp-compile: $(OBJ)/seccomp/compile.o $(OBJ)/common/jail/seccomp_policy.o \
    $(OBJ)/common/base/json.o $(OBJ)/common/base/utf8.o \
    $(OBJ)/common/base/errbuf.o $(DEPS)/lib/libseccomp.a
	@echo "LD $@"
	@$(CC) $(LDFLAGS) $(filter %.o,$^) $(LIBS) -o $@

build/gen/seccomp_bpf.c: build/seccomp-compile
	@mkdir -p $(@D)
	@echo "GEN $@"
	@build/seccomp-compile $@.tmp && mv $@.tmp $@

$(OBJ)/gen/seccomp_bpf.o: build/gen/seccomp_bpf.c
	@mkdir -p $(@D)
	@echo "CC $<"
	@$(CC) $(CFLAGS) -c $< -o $@

# relinks when a library changes (LGPL-2.1: users may swap libseccomp)
$(DEPS)/lib/libseccomp.a $(DEPS)/lib/libbearssl.a: $(DEPSTAMP) ;

airlock: $(OBJ)/main.o $(APPLET_OBJ) $(COMMON_OBJ) $(DEPS)/lib/libseccomp.a $(DEPS)/lib/libbearssl.a
	@echo "LD $@"
	@$(CC) $(LDFLAGS) $(filter %.o,$^) $(LIBS) -o $@

build/test/%_test: $(OBJ)/test/unit/%_test.o $(COMMON_OBJ)
	@mkdir -p $(@D)
	@echo "LD $@"
	@$(CC) $(LDFLAGS) $^ $(LIBS) -o $@

build/test/replay_%: $(OBJ)/test/fuzz/fuzz_%.o $(OBJ)/test/fuzz/replay.o $(COMMON_OBJ)
	@mkdir -p $(@D)
	@echo "LD $@"
	@$(CC) $(LDFLAGS) $^ $(LIBS) -o $@

# Small static programs the shell tests run (syscall probes, hostile
# "MCP servers"); each is one file in test/helpers/.
build/test/helpers/%: $(OBJ)/test/helpers/%.o $(COMMON_OBJ)
	@mkdir -p $(@D)
	@echo "LD $@"
	@$(CC) $(LDFLAGS) $^ $(LIBS) -o $@

# The tests' Debian packages (scripts/packages.list) are installed first, as
# the build installs its own; then the pinned npm packages the live MCP tests
# need (a no-op once done; without them those tests skip, saying why).
check: airlock $(UNIT_BIN) $(REPLAY_BIN) $(HELPER_BIN)
	sh scripts/packages.sh install test
	@if command -v npm >/dev/null 2>&1; then sh scripts/e2e-setup.sh || \
	  echo "check: the MCP packages could not be installed; e2e tests will skip"; fi
	sh test/check.sh

# The container images (podman; docs/DEPLOY.md), rebuilt only when what
# they are built from changed; deploy-check boots them as deploy/ does.
images: airlock
	sh scripts/images.sh

deploy-check: airlock
	sh test/check.sh test/deploy.test

# The guest cases (test/vm/) under qemu on Debian 12's own kernel, a cgroup
# v2 host; the kernel and the root image are cached in build/vm.
vm-check: airlock $(HELPER_BIN)
	sh test/check.sh test/vm.test

# Two clean builds in separate trees must give the same bytes.
repro:
	sh scripts/repro.sh

fuzz:
	sh scripts/fuzz.sh $(FUZZERS)

# The README's first command: build, then MCP servers run through a relay
# and a jailing runner on loopback, with the official SDK as the client.
demo: airlock
	sh scripts/demo.sh

# Every bench/*.sh; non-zero when a row did not run (BENCHMARKS.md).
bench: airlock $(HELPER_BIN)
	sh bench/all.sh

clean:
	rm -rf $(OBJ) build/test build/fuzz build/gen build/seccomp-compile airlock

distclean:
	rm -rf build airlock

.PHONY: all check repro fuzz bench demo images deploy-check vm-check clean distclean
-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
.SECONDARY:
