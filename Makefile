# Interlude. The two set-up commands are `make run` and `make test` (README.md).
SHELL := /bin/bash
SWIFT ?= swift
SWIFT_FLAGS ?=
# Release: the Swift standard library linked in (5.9 MB resident for `help`
# instead of 8.7 MB with the shared one), as a position-independent executable
# so the kernel loads it at a random address (ASLR) like every other program
# on the system. Linking it -no-pie saved resident memory: a PIE carries
# 22,600 R_X86_64_RELATIVE relocations (a 540 KB .rela.dyn, most of them
# for Swift metadata in .data.rel.ro and .data) that the loader reads and
# applies, dirtying about 70 data pages. Measured with BENCH_ARGS='--only cpu
# --play-runs 3' (medians): playing 60 s peaked at 10.6 MB as a PIE against
# 10.3 MB -no-pie (mpg123 7.3-7.4 MB), CPU unchanged (0.187 s against 0.192 s,
# mpg123 0.19-0.22 s): well inside the 12 MB the benchmark allows.
# libstdc++ (which the Swift runtime needs) is linked in too: the toolchain's
# link line asks for -lstdc++, and a directory holding only the static archive,
# searched first, answers it. Its shared copy cost 0.9 MB resident; the parts
# linked in cost about 0.1 MB. Without g++'s archive the shared one is used.
# --no-export-dynamic undoes the -export-dynamic of the toolchain's
# static-stdlib-args.lnk: 4,000 exported symbols whose tables the dynamic
# linker reads on every lookup cost about 0.15 MB resident.
STATIC_CXX_DIR := build/static-cxx
STATIC_CXX := $(shell g++ -print-file-name=libstdc++.a 2>/dev/null)
# Each function gets its own section, and gold lays out first the ones that
# playback runs, headless and then in the full-screen player
# (scripts/link-order.txt, made by `make link-order`): the kernel maps code
# 64 KB around each page touched, so the ~150 KB that headless playback runs
# kept 3.4 MB of text resident while spread over the binary and keeps about
# 1.8 MB gathered (most of that is the standard library's one unsectioned block).
LINK_ORDER := scripts/link-order.txt
# -z now: relocations resolved at start and the GOT then read-only (full RELRO; lintian's
# hardening-no-bindnow): the binary links few libraries, the rest are dlopen()ed.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xlinker --no-export-dynamic -Xlinker -z -Xlinker now \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xlinker --section-ordering-file=$(CURDIR)/$(LINK_ORDER) \
	$(if $(filter /%,$(STATIC_CXX)),-Xlinker -L$(CURDIR)/$(STATIC_CXX_DIR))
BIN_DEBUG := .build/debug/interlude
BIN_RELEASE := .build/release/interlude
DEMO := build/demo/demo.mp3
# A small library for the full-screen player when the user has no music folder:
# two albums of generated tones with ID3v2 tags (UTF-16, so CJK titles survive).
DEMO_LIBRARY := build/demo/library
MUSIC_DIR := $(shell d=$$(sed -n 's/^XDG_MUSIC_DIR="\(.*\)"/\1/p' "$${XDG_CONFIG_HOME:-$$HOME/.config}/user-dirs.dirs" 2>/dev/null | sed "s|\$$HOME|$$HOME|"); \
	for c in "$$d" "$$HOME/Music"; do [ -n "$$c" ] && [ -d "$$c" ] && { echo "$$c"; break; }; done)

.PHONY: all deps python-tools build release release-noop-check run soak test test-tsan test-sanitize bench fuzz clean demo demo-library link-order \
	version docs install uninstall deb

all: build

# Installs missing Debian packages when run as root; quiet when all are present.
deps:
	@scripts/install-deps.sh

build: deps version
	$(SWIFT) build $(SWIFT_FLAGS)

# The player and interlude-docgen (which prints what `make install` installs
# beside it), not the fuzzers or the benchmark: `make test` pays for this build.
RELEASE_PRODUCTS := interlude interlude-docgen
release: deps version
	@mkdir -p $(STATIC_CXX_DIR)
	@cxx=$$(g++ -print-file-name=libstdc++.a 2>/dev/null); \
	  case "$$cxx" in /*) ln -sf "$$cxx" $(STATIC_CXX_DIR)/libstdc++.a ;; esac
	@for product in $(RELEASE_PRODUCTS); do echo "$(SWIFT) build $(RELEASE_FLAGS) --product $$product $(SWIFT_FLAGS)"; \
	  $(SWIFT) build $(RELEASE_FLAGS) --product $$product $(SWIFT_FLAGS) || exit 1; done

# With nothing changed, a second build must leave the binary alone (no relink:
# `make run` would pay for it each time): its inode and modification time are
# compared around a no-op build. `make bench` runs it after its release build.
release-noop-check: release
	@before=$$(stat -c '%i %y' $(BIN_RELEASE)); \
	$(SWIFT) build $(RELEASE_FLAGS) --product interlude $(SWIFT_FLAGS) >/dev/null || exit 1; \
	after=$$(stat -c '%i %y' $(BIN_RELEASE)); \
	if [ "$$before" != "$$after" ]; then \
		echo "release-noop-check: a build with nothing changed relinked $(BIN_RELEASE) ($$before -> $$after)" >&2; exit 1; fi; \
	echo "release-noop-check: a second release build left $(BIN_RELEASE) untouched"

# Regenerates $(LINK_ORDER) by profiling the release build under valgrind
# (about 30 s, the full-screen part in a private tmux); commit the result.
# Relinks afterwards.
link-order: release
	scripts/link-order.sh $(BIN_RELEASE)
	@# SwiftPM does not see the ordering file change: remove the binary so it relinks.
	rm -f $(BIN_RELEASE)
	$(SWIFT) build $(RELEASE_FLAGS) --product interlude $(SWIFT_FLAGS)

# A demo file made at build time, so nothing copyrighted is committed.
$(DEMO): | deps
	@mkdir -p $(dir $@)
	@sox -q -n -r 44100 -c 2 -b 16 build/demo/demo.wav synth 3 pluck C4 pluck E4 fade 0 3 0.5 : synth 3 pluck G4 pluck C5 fade 0 3 0.5 : synth 4 pluck E4 pluck G4 pluck C5 fade 0 4 1
	@lame --quiet -b 160 build/demo/demo.wav $@

demo: $(DEMO)

$(DEMO_LIBRARY)/.done: | deps
	@mkdir -p "$(DEMO_LIBRARY)/Tones" "$(DEMO_LIBRARY)/東方の音"
	@n=0; for spec in "Morning:C4:E4" "Noon:D4:F4" "Evening:E4:G4"; do \
		n=$$((n+1)); IFS=: read -r title a b <<< "$$spec"; \
		sox -q -n -r 44100 -c 2 -b 16 build/demo/tone.wav synth 20 pluck $$a pluck $$b fade 0 20 2; \
		lame --quiet -b 128 --id3v2-only --id3v2-utf16 --tt "$$title" --ta "Interlude demo" --tl "Tones" --tn $$n \
			build/demo/tone.wav "$(DEMO_LIBRARY)/Tones/$$n $$title.mp3"; done
	@n=0; for spec in "静夜思:李白:A3:C4" "さくらさくら:日本古謡:B3:D4" "月光 🌙:作者不詳:C4:E4"; do \
		n=$$((n+1)); IFS=: read -r title artist a b <<< "$$spec"; \
		sox -q -n -r 44100 -c 2 -b 16 build/demo/tone.wav synth 20 pluck $$a pluck $$b fade 0 20 2; \
		lame --quiet -b 128 --id3v2-only --id3v2-utf16 --tt "$$title" --ta "$$artist" --tl "東方の音" --tn $$n \
			build/demo/tone.wav "$(DEMO_LIBRARY)/東方の音/$$n.mp3"; done
	@rm -f build/demo/tone.wav
	@touch $@

demo-library: $(DEMO_LIBRARY)/.done

# The full-screen player on the music folder (XDG_MUSIC_DIR, else ~/Music), or on
# the generated demo library when there is none. Options: make run ARGS="--theme light".
run: release $(DEMO_LIBRARY)/.done
	$(BIN_RELEASE) $(if $(MUSIC_DIR),"$(MUSIC_DIR)",$(DEMO_LIBRARY)) $(ARGS)

# The whole suite: unit tests, end-to-end tests against the real binary through
# a private PulseAudio server, and the engine's tests under ThreadSanitizer. The
# desktop-interruption and other-players tests also run against a private PipeWire
# with WirePlumber and pipewire-pulse (Tests/TestSupport/PipeWireServer.swift;
# `deps` installs them), their runs named "server → PipeWire" in the output.
# The release build comes first, once: InstallTests install it and package it.
# The tests run as TEST_JOBS test processes at once (scripts/run-tests.py says why);
# TEST_JOBS=1 runs one at a time. TEST_FILTER (a regex over test ids) runs a part.
TEST_JOBS ?= 4
test: release build python-tools
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	INTERLUDE_BIN=$(CURDIR)/$(BIN_DEBUG) scripts/run-tests.py --jobs $(TEST_JOBS) $(if $(TEST_FILTER),--filter '$(TEST_FILTER)')
	$(MAKE) --no-print-directory test-tsan

# Every engine test under ThreadSanitizer (the ring and writer stress tests, the
# engine on a real writer thread and over recording outputs, renders, seeks):
# 71 tests in 23 suites, clean, about 95 s of tests on two shared cores.
# AllocationCountingTests turns itself off there (TSan's allocator must see every malloc).
# INTERLUDE_TEST_TARGETS (Package.swift) keeps the instrumented build to the engine's
# tests and what they import: 16 of the package's 62 targets.
test-tsan: deps
	INTERLUDE_TEST_TARGETS=AudioEngineTests $(SWIFT) test --sanitize=thread --scratch-path .build/tsan --filter 'AudioEngineTests' $(SWIFT_FLAGS)

# The whole suite under AddressSanitizer with LeakSanitizer on, in the test
# process and in every instrumented player the end-to-end tests start (in
# tmux too, where no test reads the exit status): each process writes its
# report to $(ASAN_REPORTS)/report.PID, and any report there fails the run
# after the tests, printed. LeakSanitizer reports only blocks no pointer
# reaches at exit, so objects still held when the player or XCTest exits are
# not reported; a reference cycle is. scripts/lsan.supp names the leaks inside
# Foundation and XCTest, each with its stack. Then the engine tests under
# ThreadSanitizer. Measured: 755 tests in 187 suites passed, no report, 7.4
# minutes of tests (12 minutes in all with the two instrumented builds). The
# first run with leak checks on found one leak of ours in the player (a
# notification chime's timer kept the session arbiter in a cycle, `play
# --notify-at`), two in tests (MixerTests' control block, a test closure
# holding its harness) and the library ones now suppressed; a deliberate
# cycle in the full-screen player made 44 reports and failed the run.
# Not part of `make test`.
ASAN_REPORTS := build/asan-reports
test-sanitize: build python-tools
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan $(SWIFT_FLAGS)
	@rm -rf $(ASAN_REPORTS) && mkdir -p $(ASAN_REPORTS)
	@status=0; \
	INTERLUDE_BIN=$(CURDIR)/.build/asan/debug/interlude \
	ASAN_OPTIONS=detect_leaks=1:log_path=$(CURDIR)/$(ASAN_REPORTS)/report \
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0 \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan $(SWIFT_FLAGS) || status=1; \
	reports=$$(find $(ASAN_REPORTS) -type f | sort); \
	if [ -n "$$reports" ]; then \
		for report in $$reports; do echo "== $$report"; cat "$$report"; done; \
		echo "test-sanitize: $$(echo "$$reports" | wc -l) sanitizer report(s), above and in $(ASAN_REPORTS)/" >&2; \
		status=1; \
	fi; \
	exit $$status
	$(MAKE) --no-print-directory test-tsan

# Benchmarks (issue 2): interlude next to the mpg123 program and the lean C references in
# bench/c, through a private PulseAudio null sink. About 6 minutes; BENCH_ARGS=--quick for
# a short run, BENCH_ARGS=--stand-in to exercise the harness with the C player in
# interlude's place. Fixtures are kept in build/bench/fixtures between runs. Exits
# non-zero, naming the rows, when a row misses its target or could not be measured.
BENCH_DIR := build/bench
BENCH_CFLAGS := -O2 -Wall -Wextra
BENCH_REFS := $(BENCH_DIR)/ref_decode $(BENCH_DIR)/ref_play $(BENCH_DIR)/ref_drop $(BENCH_DIR)/measure

$(BENCH_DIR)/ref_decode: bench/c/ref_decode.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $$(pkg-config --cflags --libs libmpg123)

$(BENCH_DIR)/ref_play: bench/c/ref_play.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $$(pkg-config --cflags --libs libmpg123 alsa)

$(BENCH_DIR)/ref_drop: bench/c/ref_drop.c | deps
	@mkdir -p $(dir $@)
	cc $(BENCH_CFLAGS) -o $@ $< $$(pkg-config --cflags --libs libmpg123 alsa)

# Runs a program and records its own peak RSS (see the comment in measure.c).
$(BENCH_DIR)/measure: bench/c/measure.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -o $@ $<

bench: release release-noop-check python-tools $(BENCH_REFS)
	@scripts/install-deps.sh --bench
	$(SWIFT) build $(RELEASE_FLAGS) --product interlude-bench $(SWIFT_FLAGS)
	INTERLUDE_BIN=$(CURDIR)/$(BIN_RELEASE) INTERLUDE_BENCH_DIR=$(CURDIR)/$(BENCH_DIR) \
		.build/release/interlude-bench $(BENCH_ARGS)
# Issue 16's long runs (bench/Sources/interlude-bench/Soak.swift): SOAK_SECONDS of
# real-time playback through a PulseAudio null sink under a seeded random schedule
# of alarms, notifications, calls, suspends and seeks (100 in 30 minutes), then the
# sound server killed SOAK_KILLS times with SOAK_KILL_WINDOW seconds of waiting each,
# then an alarm after SOAK_IDLE_ALARM seconds of playback beside three after 2 s.
# Prints its figures; fails when a rule breaks. Not part of `make test`.
SOAK_SECONDS ?= 1800
SOAK_SEED ?= 16
SOAK_KILLS ?= 20
SOAK_KILL_WINDOW ?= 10
SOAK_IDLE_ALARM ?= 600
soak: release
	$(SWIFT) build $(RELEASE_FLAGS) --product interlude-bench $(SWIFT_FLAGS)
	INTERLUDE_BIN=$(CURDIR)/$(BIN_RELEASE) INTERLUDE_BENCH_DIR=$(CURDIR)/$(BENCH_DIR) \
		.build/release/interlude-bench --soak $(SOAK_SECONDS) --seed $(SOAK_SEED) --kills $(SOAK_KILLS) \
		--kill-window $(SOAK_KILL_WINDOW) --idle-alarm $(SOAK_IDLE_ALARM)

# Python tools the tests drive (mutagen, to write chapter fixtures with a
# tool we did not write), installed into build/python.
python-tools:
	@scripts/install-python-tools.sh

# libFuzzer over the chapter parser, the socket's requests and the cue-sheet parser, each for FUZZ_SECONDS (default 3 minutes),
# corpus kept in build/fuzz/corpus between runs; crashes land in build/fuzz/.
# FUZZING swaps the replayer's main for libFuzzer's driver (see
# Sources/ChapterFuzzer); a separate scratch path keeps the instrumented
# objects away from the normal build.
FUZZ_SECONDS ?= 180
FUZZ_BIN := .build/fuzz/release/ChapterFuzzer
# Then the theme, keys, alarms and book state parsers, M3U and player.json
# (Sources/ConfigFuzzer), CONFIG_FUZZ_SECONDS each, from the seeds in
# fuzz/seeds/TARGET into a corpus kept in build/fuzz/TARGET/corpus; a crash
# is saved as build/fuzz/TARGET-crash-*. The tag reader of FLAC, Ogg and MP4
# (ChapterFuzzer's container target), a running player's dispatcher
# (RemoteRequestFuzzer's dispatch target), the decoders (DecodeFuzzer:
# mpg123, flac, ffmpeg), a station's answer read by the player's reader over
# loopback (StreamFuzzer's headers) and a feed with its entities (FeedFuzzer)
# run the same way, each INPUT_FUZZ_SECONDS.
CONFIG_FUZZ_SECONDS ?= 180
CONFIG_FUZZ_TARGETS := theme keys alarms book m3u player
CONFIG_FUZZ_BIN := .build/fuzz/release/ConfigFuzzer
INPUT_FUZZ_SECONDS ?= 180
DECODE_FUZZ_TARGETS := mpg123 flac ffmpeg
# One target: $(call fuzz-target,BINARY,TARGET,SEEDS,DICT,MAX_LEN).
fuzz-target = mkdir -p build/fuzz/$(2)/corpus && INTERLUDE_FUZZ_TARGET=$(2) .build/fuzz/release/$(1) \
	build/fuzz/$(2)/corpus $(3) -dict=$(4) -max_total_time=$(INPUT_FUZZ_SECONDS) -max_len=$(5) -timeout=10 \
	-rss_limit_mb=2048 -artifact_prefix=build/fuzz/$(2)- -print_final_stats=1
fuzz:
	$(SWIFT) build -c release --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product ChapterFuzzer $(SWIFT_FLAGS)
	@mkdir -p build/fuzz/corpus build/fuzz/seeds
	@for f in build/fixtures/chapters/*.mp3; do [ -e "$$f" ] && head -c 4096 "$$f" > "build/fuzz/seeds/$$(basename "$$f").tag"; done; true
	$(FUZZ_BIN) build/fuzz/corpus build/fuzz/seeds -dict=fuzz/id3v2.dict -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=5 -rss_limit_mb=2048 -artifact_prefix=build/fuzz/ -print_final_stats=1
	$(call fuzz-target,ChapterFuzzer,container,fuzz/seeds/container,fuzz/container.dict,16384)
	$(SWIFT) build -c release --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product ConfigFuzzer $(SWIFT_FLAGS)
	@for target in $(CONFIG_FUZZ_TARGETS); do \
		mkdir -p build/fuzz/$$target/corpus && \
		INTERLUDE_FUZZ_TARGET=$$target $(CONFIG_FUZZ_BIN) build/fuzz/$$target/corpus fuzz/seeds/$$target \
			-dict=fuzz/$$target.dict -max_total_time=$(CONFIG_FUZZ_SECONDS) -max_len=8192 -timeout=5 -rss_limit_mb=2048 \
			-artifact_prefix=build/fuzz/$$target- -print_final_stats=1 || exit 1; \
	done
	$(SWIFT) build -c release --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product RemoteRequestFuzzer $(SWIFT_FLAGS)
	@mkdir -p build/fuzz/remote-corpus build/fuzz/remote-seeds
	@printf '%s' '{"id":1,"command":"toggle"}' > build/fuzz/remote-seeds/toggle.json
	@printf '%s' '{"id":"a","command":"queue-add","args":["/x.mp3","/y.mp3"]}' > build/fuzz/remote-seeds/queue.json
	@printf '%s' '{"id":2,"command":"seek","args":[-5.5]}' > build/fuzz/remote-seeds/seek.json
	.build/fuzz/release/RemoteRequestFuzzer build/fuzz/remote-corpus build/fuzz/remote-seeds -dict=fuzz/remote.dict -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=5 -rss_limit_mb=2048 -artifact_prefix=build/fuzz/remote- -print_final_stats=1
	$(call fuzz-target,RemoteRequestFuzzer,dispatch,build/fuzz/remote-seeds,fuzz/remote.dict,4096)
	$(call fuzz-target,RemoteRequestFuzzer,mpd,fuzz/seeds/mpd,fuzz/mpd.dict,8192)
	$(SWIFT) build -c release --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product CueSheetFuzzer $(SWIFT_FLAGS)
	@mkdir -p build/fuzz/cue-corpus build/fuzz/cue-seeds
	@printf 'PERFORMER "P"\nTITLE "T"\nFILE "a.flac" WAVE\n  TRACK 01 AUDIO\n    TITLE "One"\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    INDEX 00 01:59:70\n    INDEX 01 02:00:74\n' > build/fuzz/cue-seeds/album.cue
	.build/fuzz/release/CueSheetFuzzer build/fuzz/cue-corpus build/fuzz/cue-seeds -dict=fuzz/cuesheet.dict -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=5 -rss_limit_mb=2048 -artifact_prefix=build/fuzz/cue- -print_final_stats=1
	$(SWIFT) build -c release --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product DecodeFuzzer $(SWIFT_FLAGS)
	@for target in $(DECODE_FUZZ_TARGETS); do $(call fuzz-target,DecodeFuzzer,$$target,fuzz/seeds/$$target,fuzz/decode.dict,16384) || exit 1; done
	$(SWIFT) build -c release --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product StreamFuzzer $(SWIFT_FLAGS)
	$(call fuzz-target,StreamFuzzer,icy,fuzz/seeds/icy,fuzz/icy.dict,8192)
	$(call fuzz-target,StreamFuzzer,pls,fuzz/seeds/pls,fuzz/pls.dict,8192)
	$(call fuzz-target,StreamFuzzer,tags,fuzz/seeds/tags,fuzz/tags.dict,8192)
	$(call fuzz-target,StreamFuzzer,headers,fuzz/seeds/headers,fuzz/headers.dict,16384)
	$(SWIFT) build -c release --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product FeedFuzzer $(SWIFT_FLAGS)
	$(call fuzz-target,FeedFuzzer,feed,fuzz/seeds/feed,fuzz/feed.dict,65536)


# The version of the tree built (scripts/version.sh: `git describe` as a Debian
# version), the one string `interlude --version`, the man page, the metainfo and
# the package carry; written into the shims only when it changes, so a build
# with nothing changed relinks nothing; a plain `swift build` without it says "0~unknown".
VERSION := $(shell scripts/version.sh)
VERSION_DATE := $(shell scripts/version.sh --date)
VERSION_C := Sources/CInterludeShims/version-generated.c
version:
	@printf '#include "interlude_shims.h"\n\nconst char *interlude_version(void) { return "%s"; }\n' '$(VERSION)' > $(VERSION_C).new
	@if cmp -s $(VERSION_C).new $(VERSION_C); then rm $(VERSION_C).new; else mv $(VERSION_C).new $(VERSION_C); fi

# Installing (issue 31). The man page, the completions, the desktop entry and
# the AppStream metainfo are printed by interlude-docgen from the command
# table, so they say what --help says; the systemd user unit
# (interlude.service) with BINDIR's binary in its ExecStart=. The themes go to share/interlude/themes,
# where the binary finds them beside its own prefix.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASH_COMPLETION_DIR ?= $(DATADIR)/bash-completion/completions
# zsh reads site-functions below its own prefix and /usr/local; Debian's zsh
# reads packages' functions from vendor-completions (make deb).
ZSH_COMPLETION_DIR ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETION_DIR ?= $(DATADIR)/fish/vendor_completions.d
# The systemd user unit, where `systemctl --user` looks for this prefix:
# PREFIX/lib/systemd/user for /usr and /usr/local, else share/systemd/user
# below it (~/.local/share/systemd/user for PREFIX=~/.local).
SYSTEMD_USER_UNIT_DIR ?= $(if $(filter /usr /usr/local,$(PREFIX)),$(PREFIX)/lib/systemd/user,$(DATADIR)/systemd/user)
DESKTOP_ID := interlude
DOCS := build/docs
DOCGEN := .build/release/interlude-docgen
THEMES := $(sort $(wildcard themes/*.theme))
INSTALLED := $(BINDIR)/interlude $(patsubst themes/%,$(DATADIR)/interlude/themes/%,$(THEMES)) \
	$(MANDIR)/man1/interlude.1 $(BASH_COMPLETION_DIR)/interlude $(ZSH_COMPLETION_DIR)/_interlude \
	$(FISH_COMPLETION_DIR)/interlude.fish $(DATADIR)/applications/$(DESKTOP_ID).desktop \
	$(DATADIR)/metainfo/$(DESKTOP_ID).metainfo.xml $(SYSTEMD_USER_UNIT_DIR)/interlude.service

# PREBUILT=1: what the last `make release` built, without building (InstallTests,
# which run while `swift test` holds the build folder; make deb's own install).
docs: $(if $(PREBUILT),,release)
	@test -x $(BIN_RELEASE) -a -x $(DOCGEN) || { echo "install: no release build (make release)" >&2; exit 1; }
	@mkdir -p $(DOCS)
	$(DOCGEN) man --version '$(VERSION)' --date '$(VERSION_DATE)' > $(DOCS)/interlude.1
	$(DOCGEN) bash > $(DOCS)/interlude.bash
	$(DOCGEN) zsh > $(DOCS)/_interlude
	$(DOCGEN) fish > $(DOCS)/interlude.fish
	$(DOCGEN) desktop > $(DOCS)/$(DESKTOP_ID).desktop
	$(DOCGEN) metainfo --version '$(VERSION)' --date '$(VERSION_DATE)' > $(DOCS)/$(DESKTOP_ID).metainfo.xml
	$(DOCGEN) service --bindir '$(BINDIR)' > $(DOCS)/interlude.service

install: docs
	install -d -m 755 $(addprefix $(DESTDIR),$(BINDIR) $(DATADIR)/interlude/themes $(MANDIR)/man1 $(BASH_COMPLETION_DIR) \
		$(ZSH_COMPLETION_DIR) $(FISH_COMPLETION_DIR) $(DATADIR)/applications $(DATADIR)/metainfo $(SYSTEMD_USER_UNIT_DIR))
	install -m 755 $(BIN_RELEASE) $(DESTDIR)$(BINDIR)/interlude
	install -m 644 $(THEMES) $(DESTDIR)$(DATADIR)/interlude/themes/
	install -m 644 $(DOCS)/interlude.1 $(DESTDIR)$(MANDIR)/man1/interlude.1
	install -m 644 $(DOCS)/interlude.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/interlude
	install -m 644 $(DOCS)/_interlude $(DESTDIR)$(ZSH_COMPLETION_DIR)/_interlude
	install -m 644 $(DOCS)/interlude.fish $(DESTDIR)$(FISH_COMPLETION_DIR)/interlude.fish
	install -m 644 $(DOCS)/$(DESKTOP_ID).desktop $(DESTDIR)$(DATADIR)/applications/$(DESKTOP_ID).desktop
	install -m 644 $(DOCS)/$(DESKTOP_ID).metainfo.xml $(DESTDIR)$(DATADIR)/metainfo/$(DESKTOP_ID).metainfo.xml
	install -m 644 $(DOCS)/interlude.service $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/interlude.service

# Removes what install put there, and the themes' folders when they are left empty.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(DATADIR)/interlude/themes $(DESTDIR)$(DATADIR)/interlude 2>/dev/null || true

# A Debian package of the release build for this Debian release
# (scripts/make-deb.sh): build/interlude_VERSION_ARCH.deb.
deb: docs
	scripts/make-deb.sh

clean:
	rm -rf .build build bench/out bench/bin $(VERSION_C)
