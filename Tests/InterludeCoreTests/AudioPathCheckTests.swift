import Foundation
import Glibc
import InterludeCore
import Testing
import TestSupport

/// The one check of paths read from: FIFOs, devices, sockets and directories
/// are refused by what they are, without an open that could block, and the
/// state files' reader stops at its limit.
struct AudioPathCheckTests {
    private func scratch() -> String {
        let directory = "/tmp/interlude-path-check-\(UInt64.random(in: 0...UInt64.max))"
        mkdir(directory, 0o700)
        return directory
    }

    @Test func aFIFOADeviceASocketAndADirectoryAreRefusedByWhatTheyAre() throws {
        let directory = scratch()
        let pipe = directory + "/00.mp3"
        try WritableFIFO.make(pipe)
        let socketPath = directory + "/s.mp3"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let cases: [(String, SpecialFileKind)] = [(pipe, .fifo), ("/dev/zero", .characterDevice), (directory, .directory),
                                                  (socketPath, .socket)]
        for (path, kind) in cases {
            #expect(AudioPathCheck.specialKind(path) == kind, "\(path)")
            #expect(throws: RegularFileError.special(kind)) { _ = try AudioPathCheck.open(path) }
        }
        #expect(RegularFileError.special(.fifo).reason == "a FIFO (named pipe), not a file")
    }

    @Test func aRegularFileOpensForBlockingReads() throws {
        let path = scratch() + "/a.mp3"
        try StateFile(path: path).writeAtomically([1, 2, 3])
        #expect(AudioPathCheck.specialKind(path) == nil)
        let descriptor = try AudioPathCheck.open(path)
        defer { close(descriptor) }
        #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK == 0)
        #expect(throws: RegularFileError.failed(.noSuchFile)) { _ = try AudioPathCheck.open(path + ".gone") }
    }

    @Test func aStateFileThatIsAFIFOOrADeviceIsRefusedInOneLine() throws {
        let directory = scratch()
        let pipe = directory + "/00.mp3"
        try WritableFIFO.make(pipe)
        #expect(throws: StateFileError(path: pipe, operation: "read", systemMessage: "a FIFO (named pipe), not a file")) {
            _ = try StateFile(path: pipe).read()
        }
        // /dev/zero never ends: a read without the check would grow for ever.
        let zero = directory + "/player.json"
        try #require(symlink("/dev/zero", zero) == 0)
        #expect(throws: StateFileError(path: zero, operation: "read", systemMessage: "a character device, not a file")) {
            _ = try StateFile(path: zero).read()
        }
    }

    @Test func aStateFileLargerThanTheLimitIsRefused() throws {
        let path = scratch() + "/big.json"
        try StateFile(path: path).writeAtomically([UInt8](repeating: 0x20, count: 3 << 20))
        #expect(throws: StateFileError(path: path, operation: "read", systemMessage: "larger than 2 MB, more than such a file holds")) {
            _ = try StateFile(path: path).read(limit: 2 << 20)
        }
        #expect(try StateFile(path: path).read(limit: 4 << 20)?.count == 3 << 20)
    }
}

/// File times beyond what nanoseconds in an `Int64` hold (1677 to 2262) are
/// clamped, not overflowed: `library scan` of a file dated 2300 died with SIGILL.
struct FileTimeTests {
    @Test func aTimeIn2300OrBefore1677IsClampedToTheRange() {
        // 2300-01-01 and 1600-01-01, as `touch -d` sets them.
        let year2300: Int64 = 10_413_792_000, year1600: Int64 = -11_676_096_000
        #expect(FileTime.nanoseconds(seconds: year2300, nanoseconds: 5) == 9_223_372_035 * 1_000_000_000)
        #expect(FileTime.nanoseconds(seconds: year1600, nanoseconds: 5) == -9_223_372_035 * 1_000_000_000)
        #expect(FileTime.nanoseconds(seconds: .max, nanoseconds: .max) == 9_223_372_035 * 1_000_000_000)
        #expect(FileTime.nanoseconds(seconds: .min, nanoseconds: .min) == -9_223_372_035 * 1_000_000_000)
    }

    @Test func aTimeInRangeIsExact() {
        #expect(FileTime.nanoseconds(seconds: 1_764_460_000, nanoseconds: 123_456_789) == 1_764_460_000_123_456_789)
        #expect(FileTime.nanoseconds(seconds: -1, nanoseconds: 999_999_999) == -1)
        #expect(FileTime.nanoseconds(seconds: 0, nanoseconds: 2_000_000_000) == 999_999_999)
    }
}
