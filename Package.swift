// swift-tools-version: 6.0
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

// Layout: see README.md "Architecture". Lower rows never import higher rows:
// C system libraries -> pure-Swift logic (InterludeCore, AudioSession, Alarms)
// -> AudioDecoding -> AudioEngine (C at the edge) -> Interlude (the application) -> interlude (main).
/// Our own C (the shims, every library loader, the test allocation counter)
/// builds with every common warning on, so `swift build` stays silent only
/// while it is clean.
let cWarnings: [CSetting] = [.unsafeFlags(["-Wall", "-Wextra"])]

let package = Package(
    name: "Interlude",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "interlude", targets: ["interlude"]),
    ],
    targets: [
        // C libraries, nothing else.
        .systemLibrary(name: "CAlsa", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CMpg123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        // ncursesw's header, and a loader that dlopens the library for the full-screen player
        // only, so headless playback does not map it. Every symbol prefixed.
        .target(name: "CNcursesw", dependencies: ["CInterludeShims"], cSettings: cWarnings),
        // sd-bus's header and a loader that dlopens libsystemd when a bus is used (MPRIS), so a
        // headless run without a bus maps nothing more; sd-bus's variadic calls and vtable macros
        // wrapped in C. Every symbol prefixed.
        .target(name: "CSystemd", dependencies: ["CInterludeShims"], cSettings: cWarnings),
        // libpulse's headers, and a loader that dlopens it when the player connects to the sound
        // server for desktop interruptions or opens the native `pulse` output, so renders
        // and `info` do not map it.
        .target(name: "CPulse", dependencies: ["CInterludeShims"], cSettings: cWarnings),
        // libFLAC's decoder behind a loader that dlopens it when the first FLAC is opened, so
        // FLAC playback maps neither FFmpeg's libraries (25 MB resident) nor, for MP3s, libFLAC.
        .target(name: "CFLAC", dependencies: ["CInterludeShims"], cSettings: cWarnings),
        // FFmpeg's headers (libavformat-dev, libavcodec-dev, libswresample-dev, libavutil-dev, in
        // the default include path) and a loader that dlopens the libraries when the first file
        // that is not MPEG audio is opened: MP3 playback maps none of them. Every symbol prefixed.
        .target(name: "CFFmpeg", dependencies: ["CInterludeShims"], cSettings: cWarnings),
        // libsqlite3's header and a loader that dlopens it when the music library is first used
        // (the `library` commands, the library pane): `interlude play` maps none of it.
        .target(name: "CSQLite", dependencies: ["CInterludeShims"], cSettings: cWarnings),
        // libsonic has no pkg-config file: the module map links it.
        .systemLibrary(name: "CSonic", providers: [.apt(["libsonic-dev"])]),
        // libebur128: EBU R 128 loudness for `interlude loudness` (ReplayGain values for untagged files).
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        // signalfd, timerfd, eventfd: Linux headers the Glibc module leaves out.
        .systemLibrary(name: "CLinux"),
        // C shims for what Swift cannot call or implement (variadic callbacks); every symbol prefixed.
        .target(name: "CInterludeShims", dependencies: ["CAlsa"], cSettings: cWarnings),

        // Pure Swift, no C imports, tested on a virtual clock. InterludeCore alone is
        // their edge to the system: state files, the clock, and the system-call layer
        // (a typed errno, EINTR retried, the signalfd/timerfd/eventfd wrappers).
        .target(name: "InterludeCore", dependencies: ["CLinux"]),
        .target(name: "AudioSession", dependencies: ["InterludeCore"]),
        .target(name: "Alarms", dependencies: ["InterludeCore", "AudioSession"]),
        // Theme files: a parser and values the TUI draws with.
        .target(name: "Themes", dependencies: ["InterludeCore"]),
        // ID3v2 tags, CHAP/CTOC chapters and book-file order, over bytes; reading
        // a file's tag goes through InterludeCore's system-call layer.
        .target(name: "BookFormat", dependencies: ["InterludeCore"]),
        // Books: a folder or chaptered MP3 laid out in book time, per-book state
        // (position, speed, bookmarks), chapter and skip targets, the sleep timer.
        .target(name: "Books", dependencies: ["BookFormat", "InterludeCore", "SpokenAudio"]),
        // Music's play order: M3U/M3U8 playlists, shuffle cycles, repeat.
        .target(name: "Playlists", dependencies: ["InterludeCore", "Streams"]),
        // ReplayGain: modes, preamp, clipping prevention, and the values from ID3v2 (TXXX, RVA2) and LAME's Info tag.
        .target(name: "ReplayGain", dependencies: ["BookFormat"]),
        // Spoken audio's settings and pure logic: trim strengths, voice-boost targets, the pause
        // detector and trimmer, and the map from trimmed frames to the file's own.
        .target(name: "SpokenAudio", dependencies: ["InterludeCore"]),

        // The music library's pure logic: search text folding, the query language and its two
        // readings (brute force, FTS5), the artist/album tree, sort orders, the rescan's diff.
        .target(name: "MusicLibrary", dependencies: ["InterludeCore"]),

        // Live streams' pure logic: ICY metadata and headers, PLS and stream URLs, the reconnect
        // policy, the time-shift buffer's bookkeeping; HLS's timed ID3 titles read with BookFormat's parser.
        .target(name: "Streams", dependencies: ["InterludeCore", "BookFormat"]),
        // Podcasts' pure logic: podcastparser's rules, subscriptions, OPML and their merge.
        .target(name: "Podcasts", dependencies: ["InterludeCore"]),
        // Snapcast's pure side: the stream the player feeds (its pipe and format), JSON-RPC's
        // messages, and which rooms an alarm rings in and how they are put back.
        .target(name: "Rooms", dependencies: ["InterludeCore"]),

        // What front ends see of the player: the typed event stream, the state
        // snapshot and the one command type. Pure, so the TUI and tests use it.
        .target(name: "PlayerModel", dependencies: ["InterludeCore", "AudioSession", "Alarms", "BookFormat", "ReplayGain", "SpokenAudio"]),

        // What decodes: the `Decoder` contract and `Decoders.open` over libmpg123, libFLAC and
        // FFmpeg, cue tracks, a station's reader thread and decoder with its time shift, and
        // loudness measured through the same decoders (libebur128).
        .target(name: "AudioDecoding", dependencies: ["CMpg123", "CFFmpeg", "CFLAC", "CEbur128", "CInterludeShims", "CLinux",
                                                     "InterludeCore", "BookFormat", "Streams"]),
        // What plays: decoders -> SPSC ring -> writer thread -> sink; speed (libsonic), the
        // ALSA, PulseAudio and file outputs, the engine and its voices.
        .target(name: "AudioEngine", dependencies: ["AudioDecoding", "CAlsa", "CSonic", "CInterludeShims", "CLinux", "InterludeCore", "CPulse",
                                                     "SpokenAudio", "Rooms"]),

        // The full-screen player: its keys (bindings, the keys file, `?` help, read from the
        // command table), layout, panes, banner and key dispatch as pure views over frames;
        // ncursesw only behind the Terminal seam.
        .target(name: "TUI", dependencies: ["CNcursesw", "Themes", "BookFormat", "InterludeCore", "PlayerModel",
                                            "MusicLibrary"]),

        // Cover art: libjpeg, libpng and libchafa behind loaders that dlopen them when the first
        // picture is shown, so headless playback and a pane without a picture map none of them.
        // chafa's header needs glib's (Debian's paths, as `pkg-config --cflags chafa` gives them).
        .target(name: "CCoverArt", dependencies: ["CInterludeShims"],
                cSettings: cWarnings + [.unsafeFlags(["-I/usr/include/chafa", "-I/usr/lib/x86_64-linux-gnu/chafa/include",
                                                      "-I/usr/include/glib-2.0", "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include"])]),
        // libxml2's reader and libcurl behind loaders that dlopen them when the first feed is read
        // or fetched, so playback maps neither.
        .target(name: "CXML2", dependencies: ["CInterludeShims"], cSettings: cWarnings + [.unsafeFlags(["-I/usr/include/libxml2"])]),
        .target(name: "CCurl", dependencies: ["CInterludeShims"], cSettings: cWarnings),

        // The main loop's I/O around the core: signals, standard input and error, the
        // wall-clock and state-folder watches, Unix sockets and the one line server, JSON lines.
        .target(name: "LoopIO", dependencies: ["InterludeCore", "PlayerModel", "CLinux"]),
        // The music library's index (SQLite) and scan, podcast feeds fetched and parsed and their
        // downloads, cover pictures: I/O the core and the services share, behind loaders.
        .target(name: "LibraryIO", dependencies: ["InterludeCore", "Alarms", "PlayerModel", "LoopIO", "AudioDecoding", "AudioEngine", "BookFormat", "Books",
                                                  "TUI", "MusicLibrary", "Podcasts", "CSQLite", "CXML2", "CCurl", "CCoverArt",
                                                  "CInterludeShims"]),
        // The core behind `PlayerCore`: the runtime and its one loop, the dispatcher, the snapshot,
        // the controller, books and what plays. Services and front ends never import it.
        .target(name: "Core", dependencies: ["InterludeCore", "SpokenAudio", "AudioSession", "Alarms", "AudioDecoding", "AudioEngine", "BookFormat", "Books", "Rooms",
                                             "PlayerModel", "Playlists", "ReplayGain", "Streams", "Podcasts", "LoopIO",
                                             "LibraryIO"]),
        // The remote protocols: the control socket's JSON lines and MPD's, on the line server.
        .target(name: "RemoteControl", dependencies: ["InterludeCore", "PlayerModel", "LoopIO", "LibraryIO", "BookFormat", "Rooms",
                                                      "MusicLibrary", "Playlists"]),
        // The desktop: sd-bus, MPRIS and other players, alarm notifications, logind's sleep and the
        // wake timer, other programs' streams on the sound server, the `on-event` hook.
        .target(name: "DesktopIntegration", dependencies: ["InterludeCore", "PlayerModel", "LoopIO", "AudioDecoding", "AudioEngine", "AudioSession",
                                                           "Alarms", "BookFormat", "Playlists", "Streams", "CSystemd", "CPulse",
                                                           "CLinux", "CInterludeShims"]),
        // The application: the command line, the full-screen player, and the wiring of the core to its services.
        .target(name: "Interlude", dependencies: ["InterludeCore", "SpokenAudio", "AudioSession", "Alarms", "AudioDecoding", "AudioEngine", "BookFormat", "Books",
                                                  "CLinux", "TUI", "Themes", "PlayerModel", "Playlists", "ReplayGain", "MusicLibrary",
                                                  "CInterludeShims", "Streams", "CCoverArt", "Podcasts", "LoopIO", "LibraryIO", "Core",
                                                  "RemoteControl", "DesktopIntegration", "Rooms"]),
        .executableTarget(name: "interlude", dependencies: ["Interlude", "AudioDecoding"]),
        // libFuzzer entry for the chapter parser (`make fuzz`); in a plain
        // build it is a replayer that runs saved inputs through the parser.
        .systemLibrary(name: "CLibFuzzer"),
        // The driver every fuzzer's main hands over to (libFuzzer, or the replayer).
        .target(name: "FuzzDriver", dependencies: ["CLibFuzzer"]),
        // With INTERLUDE_FUZZ_TARGET=container, over the FLAC/Ogg/MP4 tag reader (`ContainerTags`).
        .executableTarget(name: "ChapterFuzzer", dependencies: ["BookFormat", "FuzzDriver"]),
        // `make fuzz` also runs libFuzzer over the theme, keys, alarms and book
        // state parsers, M3U playlists and `player.json`.
        .executableTarget(name: "ConfigFuzzer", dependencies: ["Themes", "TUI", "Alarms", "Books", "InterludeCore",
                                                               "Playlists", "Interlude", "FuzzDriver", "LoopIO", "LibraryIO", "Core", "RemoteControl", "DesktopIntegration"]),
        // The same over the control socket's request parser, and (dispatch)
        // its requests carried out by a running player's dispatcher.
        .executableTarget(name: "RemoteRequestFuzzer", dependencies: ["PlayerModel", "Interlude", "FuzzDriver", "LoopIO", "LibraryIO", "Core", "RemoteControl", "DesktopIntegration"]),
        // A file decoded whole through `Decoders.open`: libmpg123, libFLAC, FFmpeg's libraries.
        .executableTarget(name: "DecodeFuzzer", dependencies: ["AudioDecoding", "FuzzDriver"]),
        // The same over the cue-sheet parser.
        .executableTarget(name: "CueSheetFuzzer", dependencies: ["BookFormat", "FuzzDriver"]),

        // libFuzzer over ICY metadata, PLS playlists, stream tags and a station's answer read by the player's reader.
        .executableTarget(name: "StreamFuzzer", dependencies: ["Streams", "AudioDecoding", "FuzzDriver"]),
        // libFuzzer over a podcast feed read by libxml2 under podcastparser's rules (its entities among all).
        .executableTarget(name: "FeedFuzzer", dependencies: ["LibraryIO", "Podcasts", "FuzzDriver"]),
        // The man page, the shells' completions, the desktop entry and the AppStream metainfo,
        // printed from the command line's and the player's tables (`make install`).
        .executableTarget(name: "interlude-docgen", dependencies: ["Interlude", "PlayerModel", "DesktopIntegration"]),

        // Shared test helpers: fixtures (sox, lame, espeak-ng), WAV reading and
        // signal comparison, a private PulseAudio server, running the binary.
        .target(name: "TestSupport", dependencies: ["InterludeCore"], path: "Tests/TestSupport", exclude: ["README.md"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),

        // `make bench`: interlude next to mpg123 and the lean C references in bench/c.
        .executableTarget(name: "interlude-bench", dependencies: ["TestSupport"], path: "bench/Sources/interlude-bench"),

        .testTarget(name: "InterludeCoreTests", dependencies: ["InterludeCore", "TestSupport"]),
        // The application's system edge (signals, timers), failing for real in a child process.
        .testTarget(name: "InterludeSystemTests", dependencies: ["Interlude", "InterludeCore", "LoopIO", "LibraryIO", "Core", "RemoteControl", "DesktopIntegration"]),
        .testTarget(name: "AudioSessionTests", dependencies: ["AudioSession", "InterludeCore"]),
        .testTarget(name: "BookFormatTests", dependencies: ["BookFormat", "InterludeCore", "TestSupport"]),
        .testTarget(name: "BooksTests", dependencies: ["Books", "BookFormat", "InterludeCore"]),
        .testTarget(name: "AlarmsTests", dependencies: ["Alarms", "AudioSession", "InterludeCore"]),
        .testTarget(name: "ThemesTests", dependencies: ["Themes"]),
        .testTarget(name: "PlaylistsTests", dependencies: ["Playlists", "InterludeCore", "TestSupport"]),
        .testTarget(name: "ReplayGainTests", dependencies: ["ReplayGain", "BookFormat", "TestSupport"]),
        .testTarget(name: "SpokenAudioTests", dependencies: ["SpokenAudio"]),
        .testTarget(name: "MusicLibraryTests", dependencies: ["MusicLibrary"]),
        .testTarget(name: "TUITests", dependencies: ["TUI", "Themes", "PlayerModel", "AudioSession", "MusicLibrary", "Streams", "Alarms", "Podcasts"]),
        // Counts heap allocations on chosen threads (it interposes malloc for the test process).
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter", cSettings: cWarnings),
        .testTarget(name: "AudioEngineTests", dependencies: ["AudioEngine", "AudioDecoding", "TestSupport", "InterludeCore", "CAllocationCounter",
                                                       "BookFormat"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "AudioEngine", "TUI"]),
        // The player runtime itself (commands through its one dispatcher), over the null output.
        .testTarget(name: "InterludeTests", dependencies: ["Interlude", "PlayerModel", "SpokenAudio", "TestSupport", "MusicLibrary", "AudioDecoding", "AudioEngine", "TUI", "LoopIO", "LibraryIO", "Core", "RemoteControl", "DesktopIntegration"]),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "InterludeCore"]),
        .testTarget(name: "PodcastsTests", dependencies: ["Podcasts", "InterludeCore"]),
        .testTarget(name: "RoomsTests", dependencies: ["Rooms", "InterludeCore"]),
        // The MPD protocol's pure parts: the tokenizer, command lists, ACK lines, idle, song ids.
        .testTarget(name: "MPDProtocolTests", dependencies: ["PlayerModel"]),
        // `make install`, the installed binary without the build tree, the man page and
        // completions, `make deb`: the real make, shells, dpkg, apt and lintian.
        .testTarget(name: "InstallTests", dependencies: ["TestSupport", "Interlude", "PlayerModel", "LoopIO", "LibraryIO", "Core", "RemoteControl", "DesktopIntegration"]),
    ],
    swiftLanguageModes: [.v6]
)

// INTERLUDE_TEST_TARGETS=A,B (make test-tsan): the package holds only those test
// targets and what they depend on, so an instrumented build of a few tests
// compiles neither the application nor the other tests' targets.
if let wanted = Context.environment["INTERLUDE_TEST_TARGETS"] {
    let byName = Dictionary(package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var kept = Set<String>()
    var pending = wanted.split(separator: ",").map(String.init)
    while let name = pending.popLast() {
        guard let target = byName[name], kept.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets = package.targets.filter { kept.contains($0.name) }
    package.products = package.products.filter { product in
        ((product as? Product.Executable)?.targets ?? (product as? Product.Library)?.targets ?? []).allSatisfy(kept.contains)
    }
}
