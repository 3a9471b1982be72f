import InterludeCore
import Testing

/// POSIX TZ rule strings, in every form RFC 8536 §3.3 allows.
struct POSIXTimeZoneRuleTests {
    @Test func standardOnlyRuleIsAFixedOffsetCountedWestOfUTC() throws {
        let rule = try POSIXTimeZoneRule("JST-9")
        #expect(rule.localTimeType(at: instant("2025-06-01T00:00:00Z")) == LocalTimeType(utcOffset: 9 * 3600, isDaylightSaving: false, abbreviation: "JST"))
        #expect(try POSIXTimeZoneRule("<-0330>3:30").standard.utcOffset == -(3 * 3600 + 1800))
        #expect(try POSIXTimeZoneRule("<+0545>-5:45").standard.abbreviation == "+0545")
    }

    @Test func usRuleMatchesNewYorkTransitions() throws {
        let rule = try POSIXTimeZoneRule("EST5EDT,M3.2.0,M11.1.0")
        #expect(rule.localTimeType(at: instant("2025-03-09T06:59:59Z")).utcOffset == -5 * 3600)
        #expect(rule.localTimeType(at: instant("2025-03-09T07:00:00Z")).utcOffset == -4 * 3600)
        #expect(rule.localTimeType(at: instant("2025-11-02T05:59:59Z")).utcOffset == -4 * 3600)
        #expect(rule.localTimeType(at: instant("2025-11-02T06:00:00Z")).utcOffset == -5 * 3600)
    }

    @Test func daylightNameWithoutRuleUsesTheUSRuleOneHourAhead() throws {
        let rule = try POSIXTimeZoneRule("EST5EDT")
        #expect(rule.localTimeType(at: instant("2026-03-08T07:00:00Z")) == LocalTimeType(utcOffset: -4 * 3600, isDaylightSaving: true, abbreviation: "EDT"))
        #expect(rule.localTimeType(at: instant("2026-03-08T06:59:59Z")).abbreviation == "EST")
    }

    @Test func euRuleWithExplicitTimeAndFifthMeaningLastWeek() throws {
        let rule = try POSIXTimeZoneRule("CET-1CEST,M3.5.0,M10.5.0/3")
        // 2026: the last Sunday of March is the 29th, of October the 25th (a month with four Sundays in week 5's place).
        #expect(rule.localTimeType(at: instant("2026-03-29T00:59:59Z")).utcOffset == 3600)
        #expect(rule.localTimeType(at: instant("2026-03-29T01:00:00Z")).utcOffset == 7200)
        #expect(rule.localTimeType(at: instant("2026-10-25T00:59:59Z")).utcOffset == 7200)
        #expect(rule.localTimeType(at: instant("2026-10-25T01:00:00Z")).utcOffset == 3600)
    }

    @Test func southernHemisphereRuleIsDaylightTimeAcrossNewYear() throws {
        let rule = try POSIXTimeZoneRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(rule.localTimeType(at: instant("2025-12-31T23:00:00Z")).utcOffset == 39600)
        #expect(rule.localTimeType(at: instant("2026-01-01T01:00:00Z")).utcOffset == 39600)
        #expect(rule.localTimeType(at: instant("2026-06-01T00:00:00Z")).utcOffset == 37800)
        // Ends the first Sunday of April at 02:00 daylight time: 2026-04-05 02:00 +11 = 04-04 15:00Z.
        #expect(rule.localTimeType(at: instant("2026-04-04T14:59:59Z")).utcOffset == 39600)
        #expect(rule.localTimeType(at: instant("2026-04-04T15:00:00Z")).utcOffset == 37800)
    }

    @Test func julianDaysSkipFebruary29AndZeroBasedDaysCountIt() throws {
        // 2028 is a leap year: J60 is March 1st, while day 59 (zero-based) is February 29th.
        let julian = try POSIXTimeZoneRule("AAA0BBB,J60/0,J300/0")
        #expect(julian.localTimeType(at: instant("2028-02-29T23:59:59Z")).abbreviation == "AAA")
        #expect(julian.localTimeType(at: instant("2028-03-01T00:00:00Z")).abbreviation == "BBB")
        let zeroBased = try POSIXTimeZoneRule("AAA0BBB,59/0,300/0")
        #expect(zeroBased.localTimeType(at: instant("2028-02-28T23:59:59Z")).abbreviation == "AAA")
        #expect(zeroBased.localTimeType(at: instant("2028-02-29T00:00:00Z")).abbreviation == "BBB")
        // In a common year both name March 1st.
        #expect(zeroBased.localTimeType(at: instant("2027-03-01T00:00:00Z")).abbreviation == "BBB")
        #expect(julian.localTimeType(at: instant("2027-03-01T00:00:00Z")).abbreviation == "BBB")
        #expect(julian.localTimeType(at: instant("2027-02-28T23:59:59Z")).abbreviation == "AAA")
    }

    @Test func negativeAndExtendedHoursFromRFC8536() throws {
        // Nuuk: switches at -01:00 (the evening before) and 00:00 local time.
        let nuuk = try POSIXTimeZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.localTimeType(at: instant("2026-03-29T00:59:59Z")).utcOffset == -7200)
        #expect(nuuk.localTimeType(at: instant("2026-03-29T01:00:00Z")).utcOffset == -3600)
        // RFC 8536's example of daylight saving all year: every instant is EDT.
        let allYear = try POSIXTimeZoneRule("EST5EDT,0/0,J365/25")
        for text in ["2025-01-01T04:59:59Z", "2025-01-01T05:00:00Z", "2025-07-01T00:00:00Z", "2025-12-31T23:59:59Z", "2028-12-31T12:00:00Z"] {
            #expect(allYear.localTimeType(at: instant(text)).abbreviation == "EDT", "at \(text)")
        }
        // Hours past 24: "the Sunday before the last, at 26:00" style rules.
        let late = try POSIXTimeZoneRule("AAA0BBB-1,M3.5.0/26,M10.5.0/167")
        let daylightSaving = try #require(late.daylightSaving)
        #expect(daylightSaving.start.timeOfDay == Int64(26 * 3600))
        #expect(daylightSaving.end.timeOfDay == Int64(167 * 3600))
        #expect(daylightSaving.type.utcOffset == 3600)
    }

    @Test func dublinsNegativeDaylightSavingInvertsTheSeasons() throws {
        // IST is "standard" and GMT the "daylight" (winter) time in the tz database's Dublin.
        let dublin = try POSIXTimeZoneRule("IST-1GMT0,M10.5.0,M3.5.0/1")
        #expect(dublin.localTimeType(at: instant("2025-07-01T12:00:00Z")).utcOffset == 3600)
        #expect(dublin.localTimeType(at: instant("2025-12-01T12:00:00Z")).utcOffset == 0)
        #expect(dublin.localTimeType(at: instant("2025-03-30T00:59:59Z")).utcOffset == 0)
        #expect(dublin.localTimeType(at: instant("2025-03-30T01:00:00Z")).utcOffset == 3600)
    }

    @Test("malformed rules are rejected with a reason", arguments: [
        "", "C", "CET", "CET-", "CET-25", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
        "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,J0,J365", "CET-1CEST,366,100", "CET-1CEST,M3.5.0/168,M10.5.0",
        "<CE-1", "<C>-1", "CET-1:60", "CET-1 extra", "CET-1CEST,M3.5.0,M10.5.0/3x", "CET-1CEST;M3.5.0,M10.5.0",
    ])
    func malformedRulesAreRejected(text: String) {
        #expect {
            _ = try POSIXTimeZoneRule(text)
        } throws: { error in
            guard let error = error as? TimeZoneError else { return false }
            return error.subject == "rule '\(text)'" && !error.reason.isEmpty
        }
    }
}
