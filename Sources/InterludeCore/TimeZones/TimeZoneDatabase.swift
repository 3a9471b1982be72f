#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds zones by name in the system's compiled zone files (the `tzdata`
/// package's /usr/share/zoneinfo) and works out the local zone the way the
/// C library does, so `interlude` agrees with `date`.
public struct TimeZoneDatabase: Sendable {
    public static let systemDirectory = "/usr/share/zoneinfo"
    public static let systemLocalTime = "/etc/localtime"

    public let directory: String
    public let localTimePath: String

    public init(directory: String = Self.systemDirectory, localTimePath: String = Self.systemLocalTime) {
        self.directory = directory
        self.localTimePath = localTimePath
    }

    /// The zone called `identifier` (`Europe/Berlin`, `UTC`).
    public func zone(named identifier: String) throws(TimeZoneError) -> TimeZoneRules {
        let path = try self.path(of: identifier)
        guard let rules = try zone(atPath: path, identifier: identifier) else {
            throw TimeZoneError(subject: path, reason: "no such time zone file (is the tzdata package installed?)")
        }
        return rules
    }

    /// The zone in the TZif file at `path`, or nil when there is no such file.
    public func zone(atPath path: String, identifier: String) throws(TimeZoneError) -> TimeZoneRules? {
        let bytes: [UInt8]?
        do {
            bytes = try StateFile(path: path).read()
        } catch {
            throw TimeZoneError(subject: path, reason: error.systemMessage)
        }
        guard let bytes else { return nil }
        return try TZifParser.parse(bytes, identifier: identifier, path: path)
    }

    /// The local zone, as glibc chooses it:
    /// - `TZ` unset: /etc/localtime, or UTC when it does not exist;
    /// - `TZ` empty (or just `:`): UTC;
    /// - `TZ=:name` or `TZ=name`: the zone file `name` (absolute, or under the
    ///   zone directory); without the colon, a value that names no file is
    ///   read as a POSIX rule (`EST5EDT,M3.2.0,M11.1.0`).
    public func localZone(environment: [String: String]) throws(TimeZoneError) -> TimeZoneRules {
        guard let value = environment["TZ"] else {
            return try zone(atPath: localTimePath, identifier: Self.identifier(forPath: localTimePath) ?? "localtime") ?? .utc
        }
        let explicitFile = value.hasPrefix(":")
        let name = explicitFile ? String(value.dropFirst()) : value
        if name.isEmpty { return .utc }
        if name.hasPrefix("/") {
            if let rules = try zone(atPath: name, identifier: Self.identifier(forPath: name) ?? name) { return rules }
            throw TimeZoneError(subject: name, reason: "no such time zone file (from TZ=\(value))")
        }
        if explicitFile { return try zone(named: name) }
        if let path = try? path(of: name), let rules = try zone(atPath: path, identifier: name) { return rules }
        do {
            return TimeZoneRules(identifier: name, rule: try POSIXTimeZoneRule(name))
        } catch {
            throw TimeZoneError(subject: "TZ=\(value)",
                                reason: "no such zone under \(directory), and not a POSIX TZ rule (\(error.reason))")
        }
    }

    /// The file for a zone name, refusing names that would leave the zone directory.
    private func path(of identifier: String) throws(TimeZoneError) -> String {
        let components = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard !identifier.isEmpty, !identifier.hasPrefix("/"),
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw TimeZoneError(subject: "'\(identifier)'", reason: "not a time zone name (like Europe/Berlin)")
        }
        return (directory.hasSuffix("/") ? directory : directory + "/") + identifier
    }

    /// `Europe/Berlin` for /usr/share/zoneinfo/Europe/Berlin, or for a link to
    /// it such as /etc/localtime; nil when neither the path nor the link's
    /// target lies in a zoneinfo directory.
    static func identifier(forPath path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
        let target = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : path
        let components = target.split(separator: "/")
        guard let zoneinfo = components.lastIndex(of: "zoneinfo"), zoneinfo + 1 < components.count else { return nil }
        return components[(zoneinfo + 1)...].joined(separator: "/")
    }
}
