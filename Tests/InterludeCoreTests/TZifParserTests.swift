import Foundation
import InterludeCore
import Testing

/// The TZif reader against transition instants published by the tz database
/// (checked with `zdump -v`), in the 64-bit data and in the footer rule.
struct TZifParserTests {
    struct Transition: Sendable, CustomStringConvertible {
        let zone: String
        let at: String
        let before: Int64
        let after: Int64
        let abbreviationAfter: String
        var description: String { "\(zone) at \(at)" }
    }

    static let transitions: [Transition] = [
        .init(zone: "Europe/Berlin", at: "2024-03-31T01:00:00Z", before: 3600, after: 7200, abbreviationAfter: "CEST"),
        .init(zone: "Europe/Berlin", at: "2024-10-27T01:00:00Z", before: 7200, after: 3600, abbreviationAfter: "CET"),
        .init(zone: "Europe/Berlin", at: "2025-03-30T01:00:00Z", before: 3600, after: 7200, abbreviationAfter: "CEST"),
        .init(zone: "Europe/Berlin", at: "2025-10-26T01:00:00Z", before: 7200, after: 3600, abbreviationAfter: "CET"),
        .init(zone: "Europe/Berlin", at: "2026-03-29T01:00:00Z", before: 3600, after: 7200, abbreviationAfter: "CEST"),
        .init(zone: "Europe/Berlin", at: "2026-10-25T01:00:00Z", before: 7200, after: 3600, abbreviationAfter: "CET"),
        .init(zone: "America/New_York", at: "2024-03-10T07:00:00Z", before: -18000, after: -14400, abbreviationAfter: "EDT"),
        .init(zone: "America/New_York", at: "2024-11-03T06:00:00Z", before: -14400, after: -18000, abbreviationAfter: "EST"),
        .init(zone: "America/New_York", at: "2025-03-09T07:00:00Z", before: -18000, after: -14400, abbreviationAfter: "EDT"),
        .init(zone: "America/New_York", at: "2025-11-02T06:00:00Z", before: -14400, after: -18000, abbreviationAfter: "EST"),
        .init(zone: "America/New_York", at: "2026-03-08T07:00:00Z", before: -18000, after: -14400, abbreviationAfter: "EDT"),
        .init(zone: "America/New_York", at: "2026-11-01T06:00:00Z", before: -14400, after: -18000, abbreviationAfter: "EST"),
        // Lord Howe Island: +10:30 in winter, +11 in summer (a 30-minute change), southern hemisphere.
        .init(zone: "Australia/Lord_Howe", at: "2025-04-05T15:00:00Z", before: 39600, after: 37800, abbreviationAfter: "+1030"),
        .init(zone: "Australia/Lord_Howe", at: "2025-10-04T15:30:00Z", before: 37800, after: 39600, abbreviationAfter: "+11"),
        // Past the last transition any file lists, so only the footer rule can answer.
        .init(zone: "Europe/Berlin", at: "2100-03-28T01:00:00Z", before: 3600, after: 7200, abbreviationAfter: "CEST"),
        .init(zone: "Europe/Berlin", at: "2100-10-31T01:00:00Z", before: 7200, after: 3600, abbreviationAfter: "CET"),
        .init(zone: "Australia/Lord_Howe", at: "2100-04-03T15:00:00Z", before: 39600, after: 37800, abbreviationAfter: "+1030"),
        // Nuuk's rule switches at -01:00 and 00:00 local (RFC 8536 §3.3.1 negative hours).
        .init(zone: "America/Nuuk", at: "2100-03-28T01:00:00Z", before: -7200, after: -3600, abbreviationAfter: "-01"),
    ]

    @Test("offsets change exactly at the published instants", arguments: transitions)
    func offsetsChangeAtPublishedInstants(transition: Transition) throws {
        let zone = try systemZone(transition.zone)
        let moment = instant(transition.at)
        #expect(zone.utcOffset(at: moment - 1) == transition.before)
        #expect(zone.utcOffset(at: moment) == transition.after)
        #expect(zone.localTimeType(at: moment).abbreviation == transition.abbreviationAfter)
    }

    @Test func berlinIsStandardTimeInJanuaryAndDaylightTimeInJulyEveryYearTo2200() throws {
        let berlin = try systemZone("Europe/Berlin")
        for year in stride(from: 1980, through: 2200, by: 7) {
            #expect(berlin.localTimeType(at: instant("\(year)-01-15T12:00:00Z")) == LocalTimeType(utcOffset: 3600, isDaylightSaving: false, abbreviation: "CET"))
            #expect(berlin.localTimeType(at: instant("\(year)-07-15T12:00:00Z")) == LocalTimeType(utcOffset: 7200, isDaylightSaving: true, abbreviation: "CEST"))
        }
    }

    @Test func beforeTheFirstTransitionTheFirstTypeApplies() throws {
        // Berlin's first type is local mean time, +0:53:28, before 1893.
        #expect(try systemZone("Europe/Berlin").utcOffset(at: instant("1850-06-01T00:00:00Z")) == 3208)
    }

    @Test func utcIsZeroAtEveryInstant() throws {
        let file = try systemZone("UTC")
        for moment in [Int64.min / 2, -1, 0, instant("2025-06-16T06:00:00Z"), instant("2300-01-01T00:00:00Z")] {
            #expect(file.utcOffset(at: moment) == 0)
            #expect(TimeZoneRules.utc.utcOffset(at: moment) == 0)
        }
        #expect(file.localTimeType(at: 0).abbreviation == "UTC")
    }

    @Test func slimFileFromZicAgreesWithTheFatSystemFile() throws {
        // zic (libc-bin) compiles a slim Berlin with only the rule lines it needs; the
        // 2020s then come from the footer alone, 1990s from the data block.
        let directory = try makeZoneTestDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = """
            Rule EU 1981 max - Mar lastSun 1:00u 1:00 S
            Rule EU 1996 max - Oct lastSun 1:00u 0 -
            Rule EU 1981 1995 - Sep lastSun 1:00u 0 -
            Zone Test/Berlin 1:00 EU CE%sT

            """
        // zic rejects a last line without its newline ("line too long").
        try source.write(toFile: directory + "/source", atomically: true, encoding: .utf8)
        let zic = Process()
        zic.executableURL = URL(fileURLWithPath: "/usr/sbin/zic")
        zic.arguments = ["-b", "slim", "-d", directory + "/out", directory + "/source"]
        try zic.run()
        zic.waitUntilExit()
        try #require(zic.terminationStatus == 0, "zic failed")
        let slimBytes = try #require(FileManager.default.contents(atPath: directory + "/out/Test/Berlin"))
        #expect(slimBytes.count < 1000, "zic -b slim writes a small file")

        let slim = try TimeZoneDatabase(directory: directory + "/out").zone(named: "Test/Berlin")
        let fat = try systemZone("Europe/Berlin")
        var moment = instant("1990-01-01T00:00:00Z")
        while moment < instant("2060-01-01T00:00:00Z") {
            #expect(slim.utcOffset(at: moment) == fat.utcOffset(at: moment), "at \(moment)")
            moment += 86_400 * 5 + 3_607
        }
    }

    @Test func versionOneFileUsesThe32BitDataAndHasNoFooter() throws {
        var builder = TZifBuilder()
        builder.version = 0
        builder.types = [(3600, false, 0), (7200, true, 4)]
        builder.designations = Array("CET\0CEST\0".utf8)
        builder.transitions = [(instant("2025-03-30T01:00:00Z"), 1), (instant("2025-10-26T01:00:00Z"), 0)]
        let zone = try TZifParser.parse(builder.bytes(), identifier: "v1", path: "/v1")
        #expect(zone.utcOffset(at: instant("2025-01-01T00:00:00Z")) == 3600)
        #expect(zone.localTimeType(at: instant("2025-06-01T00:00:00Z")).abbreviation == "CEST")
        #expect(zone.utcOffset(at: instant("2030-06-01T00:00:00Z")) == 3600, "no footer: the last type stays")
    }

    @Test func footerRuleTakesOverOnlyAfterTheLastListedTransition() throws {
        var builder = TZifBuilder()
        builder.types = [(3600, false, 0)]
        builder.designations = Array("ABC\0".utf8)
        builder.transitions = [(instant("2000-01-01T00:00:00Z"), 0)]
        builder.footer = "XYZ-5"
        let zone = try TZifParser.parse(builder.bytes(), identifier: "t", path: "/t")
        #expect(zone.utcOffset(at: instant("2000-01-01T00:00:00Z")) == 3600)
        #expect(zone.utcOffset(at: instant("2000-01-01T00:00:01Z")) == 5 * 3600)
    }

    @Test("damaged files are errors naming the file", arguments: [
        ("not a zone file", Array("hello, world".utf8)),
        ("TZif", Array("TZif".utf8)),
        ("truncated", Array(TZifBuilder().bytes().dropLast(8))),
        ("no footer newline", Array(TZifBuilder().bytes().dropLast(1))),
        ("bad footer", { var builder = TZifBuilder(); builder.footer = "CET-1CEST,M13.5.0,M10.5.0/3"; return builder.bytes() }()),
        ("bad type index", { var builder = TZifBuilder(); builder.transitions = [(0, 3)]; return builder.bytes() }()),
        ("descending transitions", { var builder = TZifBuilder(); builder.transitions = [(10, 0), (5, 0)]; return builder.bytes() }()),
    ])
    func damagedFilesAreErrorsNamingTheFile(name: String, bytes: [UInt8]) {
        #expect {
            _ = try TZifParser.parse(bytes, identifier: "X", path: "/zones/\(name)")
        } throws: { error in
            (error as? TimeZoneError)?.description.contains("/zones/\(name)") == true
        }
    }

    @Test func missingAndGarbageZoneFilesAreReportedWithTheirPath() throws {
        let directory = try makeZoneTestDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = TimeZoneDatabase(directory: directory)
        #expect(throws: TimeZoneError(subject: directory + "/Nowhere/Town", reason: "no such time zone file (is the tzdata package installed?)")) {
            try database.zone(named: "Nowhere/Town")
        }
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: directory + "/Garbage"))
        #expect {
            try database.zone(named: "Garbage")
        } throws: { error in
            (error as? TimeZoneError)?.subject == directory + "/Garbage"
        }
    }
}
