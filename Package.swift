// swift-tools-version: 6.0
import PackageDescription

// Layout: see README.md "Architecture". Lower rows never import higher rows:
// C system libraries -> pure-Swift logic (InterludeCore, AudioSession, Alarms)
// -> AudioEngine (C at the edge) -> Interlude (the application) -> interlude (main).
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
        .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncursesw5-dev"])]),

        // Pure Swift, no C imports, tested on a virtual clock.
        .target(name: "InterludeCore"),
        .target(name: "AudioSession", dependencies: ["InterludeCore"]),
        .target(name: "Alarms", dependencies: ["InterludeCore"]),

        // The decoding pipeline: libmpg123 -> SPSC ring -> writer thread -> sink.
        .target(name: "AudioEngine", dependencies: ["CAlsa", "CMpg123", "InterludeCore"]),

        // The application: command line, wiring.
        .target(name: "Interlude", dependencies: ["InterludeCore", "AudioSession", "Alarms", "AudioEngine"]),
        .executableTarget(name: "interlude", dependencies: ["Interlude"]),

        // Shared test helpers: fixtures (sox, lame, espeak-ng), WAV reading and
        // signal comparison, a private PulseAudio server, running the binary.
        .target(name: "TestSupport", path: "Tests/TestSupport", exclude: ["README.md"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),

        // `make bench`: interlude next to mpg123 and the lean C references in bench/c.
        .executableTarget(name: "interlude-bench", dependencies: ["TestSupport"], path: "bench/Sources/interlude-bench"),

        .testTarget(name: "InterludeCoreTests", dependencies: ["InterludeCore"]),
        .testTarget(name: "AudioSessionTests", dependencies: ["AudioSession", "InterludeCore"]),
        .testTarget(name: "AlarmsTests", dependencies: ["Alarms", "InterludeCore"]),
        .testTarget(name: "AudioEngineTests", dependencies: ["AudioEngine", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
