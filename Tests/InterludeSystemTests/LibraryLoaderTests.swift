import CCoverArt
import CCurl
import CFFmpeg
import CFLAC
import CInterludeShims
import CNcursesw
import CPulse
import CSQLite
import CSystemd
import CXML2
import Foundation
import Glibc
import Synchronization
import Testing

/// The dlopen loaders (libxml2 and libcurl for podcasts among them): each library's functions named
/// once in a list, loaded through one rule (`interlude_library_load`): one lock,
/// one failure shape, "<file>: <why>".
struct LibraryLoaderTests {
    enum Loader: String, CaseIterable, Sendable {
        case ncursesw, ffmpeg, flac, pulse, sdbus, sqlite, jpeg, png, chafa, xml2, curl

        func load(_ message: inout [CChar]) -> Int32 {
            switch self {
            case .ncursesw: interlude_curses_load(&message, message.count)
            case .ffmpeg: interlude_ffmpeg_load(&message, message.count)
            case .flac: interlude_flac_load(&message, message.count)
            case .pulse: interlude_pulse_load(&message, message.count)
            case .sdbus: interlude_sdbus_load(&message, message.count)
            case .sqlite: interlude_sqlite_load(&message, message.count)
            case .jpeg: interlude_jpeg_load(&message, message.count)
            case .png: interlude_png_load(&message, message.count)
            case .chafa: interlude_chafa_load(&message, message.count)
            case .xml2: interlude_xml2_load(&message, message.count)
            case .curl: interlude_curl_load(&message, message.count)
            }
        }

        var library: UnsafeMutablePointer<interlude_library> {
            switch self {
            case .ncursesw: interlude_curses_library()
            case .ffmpeg: interlude_ffmpeg_library()
            case .flac: interlude_flac_library()
            case .pulse: interlude_pulse_library()
            case .sdbus: interlude_sdbus_library()
            case .sqlite: interlude_sqlite_library()
            case .jpeg: interlude_jpeg_library()
            case .png: interlude_png_library()
            case .chafa: interlude_chafa_library()
            case .xml2: interlude_xml2_library()
            case .curl: interlude_curl_library()
            }
        }
    }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The count is the list's own (its lines), so a function added to a list
    /// is one more that must resolve.
    @Test(arguments: Loader.allCases) func loadingResolvesEveryFunctionOfTheList(_ loader: Loader) {
        var message = [CChar](repeating: 0, count: 512)
        let result = loader.load(&message)
        #expect(result == 0, "\(Self.text(message))")
        let library = loader.library
        #expect(library.pointee.count > 0)
        #expect(interlude_library_resolved(library) == library.pointee.count)
        #expect(interlude_library_loaded(library) == 1)
        // Again: loaded once, nothing to do.
        #expect(loader.load(&message) == 0)
    }

    /// Each loader's own files and list, one file renamed or one symbol added
    /// that no library has: the same shape of failure for all of them.
    @Test(arguments: Loader.allCases) func eachLoaderFailsOneWay(_ loader: Loader) throws {
        var message = [CChar](repeating: 0, count: 512)
        // Loaded first, so that the copies below only add to and drop what stays mapped.
        try #require(loader.load(&message) == 0, "\(Self.text(message))")
        let real = loader.library.pointee
        let files = (0..<real.file_count).map { String(cString: real.files[$0]!) }
        let symbols = (0..<real.count).map { String(cString: real.symbols[$0]!) }
        let symbolFiles = (0..<real.count).map { Int(real.symbol_files[$0]) }

        let missingSymbol = TestLibrary(files: files, symbols: symbols + ["interlude_no_such_symbol"],
                                        symbolFiles: symbolFiles + [files.count - 1])
        #expect(missingSymbol.load() == "\(files[files.count - 1]): undefined symbol: interlude_no_such_symbol")
        #expect(missingSymbol.resolved == 0)

        let missingFile = TestLibrary(files: ["libinterlude-absent-\(loader.rawValue).so.0"] + files.dropFirst(),
                                      symbols: symbols, symbolFiles: symbolFiles)
        #expect(missingFile.load()
            == "libinterlude-absent-\(loader.rawValue).so.0: cannot open shared object file: No such file or directory")
        #expect(missingFile.resolved == 0)
        // The loader itself is untouched.
        #expect(interlude_library_resolved(loader.library) == real.count)
    }

    @Test func anAbsentLibraryFailsNamingTheFile() {
        let library = TestLibrary(files: ["libinterlude-absent.so.0"], symbols: ["cos"])
        #expect(library.load() == "libinterlude-absent.so.0: cannot open shared object file: No such file or directory")
        #expect(library.loaded == false)
        #expect(library.resolved == 0)
    }

    /// The symbol's file is named as the list names it (not the path the
    /// dynamic loader found), what resolved before it is cleared, and the
    /// files opened before the failure are closed.
    @Test func aMissingSymbolFailsNamingItsFileAndTheSymbol() {
        let library = TestLibrary(files: ["libc.so.6", "libm.so.6"], symbols: ["strlen", "cos", "interlude_no_such_symbol"],
                                  symbolFiles: [0, 1, 1])
        #expect(library.load() == "libm.so.6: undefined symbol: interlude_no_such_symbol")
        #expect(library.loaded == false)
        #expect(library.resolved == 0)
        #expect(library.handlesOpen == 0)
    }

    @Test func aLibraryWithEveryFileAndSymbolLoads() {
        let library = TestLibrary(files: ["libm.so.6"], symbols: ["cos", "sin"])
        #expect(library.load() == nil)
        #expect(library.loaded == true)
        #expect(library.resolved == 2)
        #expect(library.handlesOpen == 1)
    }

    /// ncursesw's development name, when its soname is not there: a failure
    /// of both still names the soname; a symbol missing names the file opened.
    @Test func aFallbackOpensWhenTheFirstFileDoesNot() {
        let found = TestLibrary(files: ["libinterlude-absent.so.0"], fallback: "libm.so.6", symbols: ["cos"])
        #expect(found.load() == nil)
        #expect(found.resolved == 1)
        let neither = TestLibrary(files: ["libinterlude-absent.so.0"], fallback: "libinterlude-absent.so", symbols: ["cos"])
        #expect(neither.load() == "libinterlude-absent.so.0: cannot open shared object file: No such file or directory")
        let missing = TestLibrary(files: ["libinterlude-absent.so.0"], fallback: "libm.so.6",
                                  symbols: ["cos", "interlude_no_such_symbol"])
        #expect(missing.load() == "libm.so.6: undefined symbol: interlude_no_such_symbol")
        #expect(missing.handlesOpen == 0)
    }

    /// Two threads call the load at once: one load. The first, inside the
    /// load (its `before` step), waits for a second to come in too: with the
    /// lock, none does (the second waits for the lock, then finds it loaded),
    /// so the wait runs out; without it the second enters at once.
    @Test func twoThreadsLoadingAtOnceLoadOnce() {
        let race = LoadRace()
        let library = TestLibrary(files: ["libm.so.6"], symbols: ["cos"], context: race) { pointer in
            let race = Unmanaged<LoadRace>.fromOpaque(pointer!.pointee.context!).takeUnretainedValue()
            let entered = race.entered.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            race.inside.store(true, ordering: .sequentiallyConsistent)
            guard entered == 1 else { return }
            for _ in 0..<500 where race.entered.load(ordering: .sequentiallyConsistent) < 2 { usleep(1000) }
        }
        let first = library.loadOnThread()
        while !race.inside.load(ordering: .sequentiallyConsistent) { usleep(1000) }
        let second = library.loadOnThread()
        #expect(first.wait() == nil)
        #expect(second.wait() == nil)
        #expect(race.entered.load(ordering: .sequentiallyConsistent) == 1)
        #expect(library.loaded == true)
    }
}

final class LoadRace: Sendable {
    let entered = Atomic<Int>(0)
    let inside = Atomic<Bool>(false)
}

/// A library description of the test's own, as a loader's list makes one.
/// `@unchecked Sendable`: the description is written before any thread
/// loads it, and the load's state only under the shim's load lock.
final class TestLibrary: @unchecked Sendable {
    private let library = UnsafeMutablePointer<interlude_library>.allocate(capacity: 1)
    private let files: UnsafeMutablePointer<UnsafePointer<CChar>?>
    private let fallback: UnsafeMutablePointer<CChar>?
    private let symbols: UnsafeMutablePointer<UnsafePointer<CChar>?>
    private let symbolFiles: UnsafeMutablePointer<UInt8>
    private let table: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let fileCount: Int
    private let count: Int
    private let context: AnyObject?

    init(files names: [String], fallback: String? = nil, symbols list: [String], symbolFiles fileOfSymbol: [Int]? = nil, context: AnyObject? = nil,
         before: (@convention(c) (UnsafeMutablePointer<interlude_library>?) -> Void)? = nil) {
        fileCount = names.count
        count = list.count
        self.context = context
        files = .allocate(capacity: names.count)
        for (index, name) in names.enumerated() { files[index] = UnsafePointer(strdup(name)) }
        self.fallback = fallback.map { strdup($0) }
        symbols = .allocate(capacity: list.count)
        for (index, name) in list.enumerated() { symbols[index] = UnsafePointer(strdup(name)) }
        symbolFiles = .allocate(capacity: list.count)
        for index in 0..<list.count { symbolFiles[index] = UInt8(fileOfSymbol?[index] ?? 0) }
        table = .allocate(capacity: list.count)
        table.initialize(repeating: nil, count: list.count)
        library.initialize(to: interlude_library())
        library.pointee.files = UnsafePointer(files)
        library.pointee.file_count = names.count
        library.pointee.fallback = UnsafePointer(self.fallback)
        library.pointee.symbols = UnsafePointer(symbols)
        library.pointee.symbol_files = UnsafePointer(symbolFiles)
        library.pointee.table = table
        library.pointee.count = list.count
        library.pointee.before = before
        library.pointee.context = context.map { Unmanaged.passUnretained($0).toOpaque() }
    }

    deinit {
        for handle in handles { if let handle { dlclose(handle) } }
        for index in 0..<fileCount { free(UnsafeMutablePointer(mutating: files[index])) }
        free(fallback)
        for index in 0..<count { free(UnsafeMutablePointer(mutating: symbols[index])) }
        files.deallocate()
        symbols.deallocate()
        symbolFiles.deallocate()
        table.deallocate()
        library.deallocate()
    }

    /// nil, or the failure's message.
    func load() -> String? {
        var message = [CChar](repeating: 0, count: 512)
        let result = interlude_library_load(library, &message, message.count)
        return result == 0 ? nil : LibraryLoaderTests.text(message)
    }

    var loaded: Bool { interlude_library_loaded(library) == 1 }
    var resolved: Int { interlude_library_resolved(library) }
    var handlesOpen: Int { handles.filter { $0 != nil }.count }
    private var handles: [UnsafeMutableRawPointer?] {
        withUnsafeBytes(of: library.pointee.handles) { Array($0.bindMemory(to: UnsafeMutableRawPointer?.self)) }
    }

    /// The load on a thread of its own (not the shared pool, whose two
    /// workers on this machine the waiting load could both hold).
    func loadOnThread() -> Outcome {
        let outcome = Outcome()
        Thread.detachNewThread {
            outcome.finish(self.load())
        }
        return outcome
    }

    final class Outcome: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var message: String?

        func finish(_ message: String?) {
            self.message = message
            done.signal()
        }

        /// Reads `message` after the semaphore, which orders it after the write.
        func wait() -> String? {
            done.wait()
            return message
        }
    }
}
