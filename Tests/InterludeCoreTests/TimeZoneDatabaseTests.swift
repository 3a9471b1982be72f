import Foundation
import InterludeCore
import Testing

/// Choosing the local zone as the C library does: TZ, then /etc/localtime, then UTC.
struct TimeZoneDatabaseTests {
    private let summer = instant("2025-07-01T12:00:00Z")

    @Test func withoutTZTheLocalTimeLinkIsReadAndNamed() throws {
        let directory = try makeZoneTestDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/America/New_York")
        let zone = try TimeZoneDatabase(localTimePath: link).localZone(environment: [:])
        #expect(zone.identifier == "America/New_York")
        #expect(zone.utcOffset(at: summer) == -4 * 3600)
    }

    @Test func withoutTZOrLocalTimeFileTheZoneIsUTC() throws {
        let zone = try TimeZoneDatabase(localTimePath: "/nonexistent/localtime").localZone(environment: ["HOME": "/root"])
        #expect(zone == .utc)
    }

    static let tzValues: [(String, String, Int64)] = [
        ("Europe/Berlin", "Europe/Berlin", 7200),
        (":Europe/Berlin", "Europe/Berlin", 7200),
        // July is winter on Lord Howe Island: +10:30.
        ("/usr/share/zoneinfo/Australia/Lord_Howe", "Australia/Lord_Howe", 37800),
        ("XST3XDT,M3.2.0,M11.1.0", "XST3XDT,M3.2.0,M11.1.0", -7200),
        ("<+0545>-5:45", "<+0545>-5:45", 20700),
        ("", "UTC", 0),
        (":", "UTC", 0),
    ]

    @Test("TZ names a zone file, with or without a colon, or is a rule", arguments: tzValues)
    func tzVariableSelectsTheZone(value: String, identifier: String, offset: Int64) throws {
        let zone = try TimeZoneDatabase(localTimePath: "/nonexistent").localZone(environment: ["TZ": value])
        #expect(zone.identifier == identifier)
        #expect(zone.utcOffset(at: summer) == offset)
    }

    @Test func unknownTZIsAnErrorNamingTheValue() {
        #expect {
            _ = try TimeZoneDatabase().localZone(environment: ["TZ": "Mars/Olympus_Mons"])
        } throws: { error in
            (error as? TimeZoneError)?.subject == "TZ=Mars/Olympus_Mons"
        }
        #expect {
            _ = try TimeZoneDatabase().localZone(environment: ["TZ": ":Mars/Olympus_Mons"])
        } throws: { error in
            (error as? TimeZoneError)?.subject == "/usr/share/zoneinfo/Mars/Olympus_Mons"
        }
    }

    @Test("names that would leave the zone directory are refused", arguments: ["../../etc/passwd", "Europe/../../etc/passwd", "/etc/passwd", "Europe//Berlin", ""])
    func namesLeavingTheDirectoryAreRefused(name: String) {
        #expect(throws: TimeZoneError.self) { try TimeZoneDatabase().zone(named: name) }
    }

    @Test func aDirectoryIsNotAZone() {
        #expect {
            _ = try TimeZoneDatabase().zone(named: "Europe")
        } throws: { error in
            (error as? TimeZoneError)?.subject == "/usr/share/zoneinfo/Europe"
        }
    }
}
