import Streams
import Testing

/// When a station's reader gives its server up (`StreamBounds`), on times
/// given as numbers: a request's deadline and its work, audio's deadline,
/// and the requests allowed after one fails.
struct StreamBoundsTests {
    static let station = "http://radio.example/live"
    static let limits = StreamLimits(requestSeconds: 15)

    @Test func aRequestPastItsDeadlineEndsTheStreamNamingTheURLWhenItIsNotTheStations() {
        var bounds = StreamBounds(stationURL: Self.station, limits: Self.limits)
        let answer1 = bounds.requestStarting(url: Self.station, now: 100, cpu: 1)
        #expect(answer1)
        let answer2 = bounds.check(now: 114.9, cpu: { 1.1 })
        #expect(!answer2)
        let answer3 = bounds.check(now: 115.1, cpu: { 1.1 })
        #expect(answer3)
        #expect(bounds.verdict == "no answer within 15 s (connecting and the server's headers)")
        // Once given up, the stream stays given up, and makes no more requests.
        let answer4 = bounds.check(now: 115.2, cpu: { 1.1 })
        #expect(answer4)
        let answer5 = bounds.requestStarting(url: Self.station, now: 116, cpu: 1.1)
        #expect(!answer5)

        var segment = StreamBounds(stationURL: Self.station, limits: Self.limits)
        let answer6 = segment.requestStarting(url: "http://radio.example/7.ts", now: 0, cpu: 0)
        #expect(answer6)
        let answer7 = segment.check(now: 16, cpu: { 0 })
        #expect(answer7)
        #expect(segment.verdict == "http://radio.example/7.ts: no answer within 15 s (connecting and the server's headers)")
    }

    @Test func halfASecondOfWorkOnOneRequestsHeadersEndsTheStreamBeforeItsDeadline() {
        var bounds = StreamBounds(stationURL: Self.station, limits: Self.limits)
        let answer8 = bounds.requestStarting(url: Self.station, now: 0, cpu: 2)
        #expect(answer8)
        let answer9 = bounds.check(now: 1, cpu: { 2.49 })
        #expect(!answer9)
        let answer10 = bounds.check(now: 1.2, cpu: { 2.51 })
        #expect(answer10)
        #expect(bounds.verdict == "the server's headers do not end (cut off after 0.5 s of reading them)")
    }

    @Test func workIsMeasuredOnlyWhileARequestIsUnderWay() {
        var bounds = StreamBounds(stationURL: Self.station, limits: Self.limits)
        #expect(!bounds.measuresWork)
        let answer11 = bounds.requestStarting(url: Self.station, now: 0, cpu: 0)
        #expect(answer11)
        #expect(bounds.measuresWork)
        bounds.requestEnded(failure: nil)
        #expect(!bounds.measuresWork)
        // Decoding's work after the headers is no request's.
        let answer12 = bounds.check(now: 1, cpu: { 60 })
        #expect(!answer12)
    }

    @Test func audioThatDoesNotComeForTwiceTheRequestsTimeEndsTheConnection() {
        var bounds = StreamBounds(stationURL: Self.station, limits: Self.limits)
        bounds.awaitingAudio(now: 0)
        let answer13 = bounds.requestStarting(url: Self.station, now: 0, cpu: 0)
        #expect(answer13)
        bounds.requestEnded(failure: nil)
        // A later wait does not move the start of the one under way.
        bounds.awaitingAudio(now: 20)
        let answer14 = bounds.check(now: 29.9, cpu: { 0 })
        #expect(!answer14)
        bounds.audioArrived()
        bounds.awaitingAudio(now: 50)
        let answer15 = bounds.check(now: 79, cpu: { 0 })
        #expect(!answer15)
        let answer16 = bounds.check(now: 80.5, cpu: { 0 })
        #expect(answer16)
        #expect(bounds.verdict == "no audio from the server for 30 s")
    }

    @Test func afterARequestFailsEightMoreMayBeMadeWithoutAudioAndTheNinthIsRefusedNamingTheFirstFailure() {
        var bounds = StreamBounds(stationURL: Self.station, limits: Self.limits)
        let answer17 = bounds.requestStarting(url: "http://radio.example/key", now: 0, cpu: 0)
        #expect(answer17)
        bounds.requestEnded(failure: "server returned 403 Forbidden (access denied)")
        for index in 1...8 {
            let answer18 = bounds.requestStarting(url: "http://radio.example/\(index).ts", now: 0, cpu: 0)
            #expect(answer18, "request \(index)")
            bounds.requestEnded(failure: index % 2 == 0 ? "server returned 404 Not Found" : nil)
        }
        let answer19 = bounds.requestStarting(url: "http://radio.example/9.ts", now: 0, cpu: 0)
        #expect(!answer19)
        #expect(bounds.verdict == "http://radio.example/key could not be fetched (server returned 403 Forbidden (access denied)), "
                + "and the 8 requests after it brought no audio")
        let answer20 = bounds.check(now: 0, cpu: { 0 })
        #expect(answer20)
    }

    @Test func audioAfterAFailureForgivesIt() {
        var bounds = StreamBounds(stationURL: Self.station, limits: Self.limits)
        for round in 0..<5 {
            let answer21 = bounds.requestStarting(url: "http://radio.example/\(round).ts", now: 0, cpu: 0)
            #expect(answer21)
            bounds.requestEnded(failure: "server returned 404 Not Found")
            for _ in 0..<8 {
                let answer22 = bounds.requestStarting(url: "http://radio.example/next.ts", now: 0, cpu: 0)
                #expect(answer22)
                bounds.requestEnded(failure: nil)
            }
            bounds.audioArrived()
        }
        #expect(bounds.verdict == nil)
    }

    @Test func fiveOfFFmpegsSilentReopeningsWithinTenSecondsEndTheStreamAndFourDoNot() {
        var bounds = StreamBounds(stationURL: Self.station, limits: Self.limits)
        // A reopening now and then: a station that drops once in a while.
        for (index, time) in [0.0, 11, 22, 33, 44, 55].enumerated() { bounds.reopened(total: index + 1, now: time) }
        bounds.reopened(total: 9, now: 60)
        let stillPlaying = bounds.check(now: 60, cpu: { 0 })
        #expect(!stillPlaying && bounds.verdict == nil)
        // The count as the log gives it: unchanged, nothing new.
        bounds.reopened(total: 9, now: 61)
        bounds.reopened(total: 10, now: 62)
        let stopped = bounds.check(now: 62, cpu: { 0 })
        #expect(stopped)
        #expect(bounds.verdict == "the server ends each connection at once (reopened 5 times in 10 s)")
    }
}
