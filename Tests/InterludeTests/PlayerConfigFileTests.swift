import BookFormat
import InterludeCore
import PlayerModel
import Testing

/// The config file and the event hook's environment, pure.
struct PlayerConfigFileTests {
    @Test("on-event is read; comments and blank lines skipped; other lines reported with their numbers")
    func parse() {
        let config = PlayerConfigFile.parse("""
            # hooks
              on-event =  notify-send "$INTERLUDE_TITLE"  \r

            colour
            speed = 2
            on-event =
            """, path: "/c/config")
        #expect(config.onEvent == "notify-send \"$INTERLUDE_TITLE\"")
        #expect(config.problems.map(\.description) == [
            "/c/config:4: expected 'key = value', got 'colour'",
            "/c/config:5: unknown key 'speed' (known: on-event, desktop-interruptions, desktop-role.ROLE, replaygain, replaygain-preamp, book-trim-silence, podcast-trim-silence, book-voice-boost, podcast-voice-boost, library, books, mpd, mpd-password, alarm-grace, cover-art, alarm-notify, time-shift, time-shift-memory, podcast-refresh-age, podcast-auto-download, podcast-remove-played, podcast-timeout, stream-timeout)",
            "/c/config:6: on-event needs a program",
        ])
    }

    @Test("alarm-grace takes a duration from 0 to 60 min; outside that, one line and the default stays")
    func alarmGrace() {
        #expect(PlayerConfigFile.parse("alarm-grace = 15m", path: "/c/config").alarmGrace == 900)
        #expect(PlayerConfigFile.parse("alarm-grace = 0", path: "/c/config").alarmGrace == 0)
        #expect(PlayerConfigFile.parse("alarm-grace = 1h", path: "/c/config").alarmGrace == 3600)
        for bad in ["61m", "-1", "2h", "soon", "1e400"] {
            let config = PlayerConfigFile.parse("alarm-grace = \(bad)", path: "/c/config")
            #expect(config.alarmGrace == nil)
            #expect(config.problems.map(\.description)
                == ["/c/config:1: alarm-grace must be a duration from 0 to 1 h (like 5, 2.5s, 500ms or 1m), not '\(bad)'"])
        }
    }

    @Test("alarm-notify takes a duration from 0 (none) to 12 h; outside that, one line and the default stays")
    func alarmNotify() {
        #expect(PlayerConfigFile.parse("alarm-notify = 15m", path: "/c/config").alarmNotify == 900)
        #expect(PlayerConfigFile.parse("alarm-notify = 0", path: "/c/config").alarmNotify == 0)
        #expect(PlayerConfigFile.parse("alarm-notify = 12h", path: "/c/config").alarmNotify == 43200)
        for bad in ["13h", "-1", "soon", "1e400", "nan"] {
            let config = PlayerConfigFile.parse("alarm-notify = \(bad)", path: "/c/config")
            #expect(config.alarmNotify == nil)
            #expect(config.problems.map(\.description)
                == ["/c/config:1: alarm-notify must be a duration from 0 to 12 h (like 5, 2.5s, 500ms or 1m), not '\(bad)'"])
        }
    }

    @Test("time-shift takes off or a duration from 0 to 10 h, time-shift-memory whole MiB to 1024; outside, one line each")
    func timeShift() {
        #expect(PlayerConfigFile.parse("time-shift = 2m", path: "/c/config").timeShift == 120)
        #expect(PlayerConfigFile.parse("time-shift = off", path: "/c/config").timeShift == 0)
        #expect(PlayerConfigFile.parse("time-shift = 0", path: "/c/config").timeShift == 0)
        #expect(PlayerConfigFile.parse("time-shift-memory = 0", path: "/c/config").timeShiftMemory == 0)
        #expect(PlayerConfigFile.parse("time-shift-memory = 16", path: "/c/config").timeShiftMemory == 16)
        for bad in ["11h", "-1", "later", "1e400", "nan"] {
            let config = PlayerConfigFile.parse("time-shift = \(bad)", path: "/c/config")
            #expect(config.timeShift == nil)
            #expect(config.problems.map(\.description)
                == ["/c/config:1: time-shift must be off or a duration from 0 to 10 h (like 5, 2.5s, 500ms or 1m), not '\(bad)'"])
        }
        for bad in ["1025", "-1", "4M", "99999999999999999999"] {
            let config = PlayerConfigFile.parse("time-shift-memory = \(bad)", path: "/c/config")
            #expect(config.timeShiftMemory == nil)
            #expect(config.problems.map(\.description)
                == ["/c/config:1: time-shift-memory must be a whole number of MiB from 0 to 1024, not '\(bad)'"])
        }
    }

    @Test("the hook runs on track starts, pauses and resumes, with the event's fields and the track's tags")
    func environment() {
        #expect(EventHookEnvironment.runs(on: .trackStarted(index: 1, path: "/m/a.mp3")))
        #expect(EventHookEnvironment.runs(on: .paused(position: 1)))
        #expect(!EventHookEnvironment.runs(on: .volume(0.5)))
        let variables = EventHookEnvironment.variables(
            for: TimedPlayerEvent(time: 2.5, event: .trackStarted(index: 1, path: "/m/a.mp3")), path: "/m/a.mp3",
            tags: AudioTags(title: "Noon", artists: ["Interlude\0junk"]))
        #expect(variables["INTERLUDE_EVENT"] == "trackStarted")
        #expect(variables["INTERLUDE_STATUS"] == "playing")
        #expect(variables["INTERLUDE_TITLE"] == "Noon")
        #expect(variables["INTERLUDE_ARTIST"] == "Interlude")
        #expect(variables["INTERLUDE_ALBUM"] == nil)
        #expect(variables["INTERLUDE_FIELD_INDEX"] == "1")
        #expect(variables["INTERLUDE_FIELD_PATH"] == "/m/a.mp3")
        let untitled = EventHookEnvironment.variables(for: TimedPlayerEvent(time: 3, event: .paused(position: 1.5)),
                                                      path: "/m/b side.mp3", tags: AudioTags())
        #expect(untitled["INTERLUDE_TITLE"] == "b side" && untitled["INTERLUDE_STATUS"] == "paused")
    }

    @Test("mpd-password is kept as written; an empty one is reported")
    func mpdPasswordIsRead() {
        #expect(PlayerConfigFile.parse("mpd-password = s3cret word\n", path: "/c").mpdPassword == "s3cret word")
        let empty = PlayerConfigFile.parse("mpd-password =\n", path: "/c")
        #expect(empty.mpdPassword == nil && empty.problems.map(\.description) == ["/c:1: mpd-password must be 1 to 256 bytes"])
    }
}

/// `podcast-refresh-age`, the age past which the full-screen player refreshes the feeds at start.
@Suite struct PodcastRefreshAgeConfigTests {
    @Test func takesOffOrADurationUpToAWeekAndRefusesTheRestInOneLine() {
        #expect(PlayerConfigFile.parse("podcast-refresh-age = 6h", path: "/c/config").podcastRefreshAge == 21_600.0)
        #expect(PlayerConfigFile.parse("podcast-refresh-age = off", path: "/c/config").podcastRefreshAge == 0)
        #expect(PlayerConfigFile.parse("", path: "/c/config").podcastRefreshAge == nil)
        for bad in ["8d", "-1", "soon"] {
            let config = PlayerConfigFile.parse("podcast-refresh-age = \(bad)", path: "/c/config")
            #expect(config.podcastRefreshAge == nil)
            #expect(config.problems.count == 1 && config.problems[0].description.hasPrefix("/c/config:1: podcast-refresh-age must be off or"),
                    "\(config.problems)")
        }
    }
}

/// `podcast-auto-download` and `podcast-remove-played`, applied after each refresh.
@Suite struct PodcastAutomationConfigTests {
    @Test func autoDownloadTakesOffOrACountUpToFiftyAndRefusesTheRestInOneLine() {
        #expect(PlayerConfigFile.parse("podcast-auto-download = 3", path: "/c/config").podcastAutoDownload == 3)
        #expect(PlayerConfigFile.parse("podcast-auto-download = off", path: "/c/config").podcastAutoDownload == 0)
        #expect(PlayerConfigFile.parse("", path: "/c/config").podcastAutoDownload == nil)
        for bad in ["51", "-1", "some"] {
            let config = PlayerConfigFile.parse("podcast-auto-download = \(bad)", path: "/c/config")
            #expect(config.podcastAutoDownload == nil)
            #expect(config.problems.count == 1
                    && config.problems[0].description.hasPrefix("/c/config:1: podcast-auto-download must be off or"), "\(config.problems)")
        }
    }

    @Test func removePlayedTakesOffOrADurationUpToAYearAndRefusesTheRestInOneLine() {
        #expect(PlayerConfigFile.parse("podcast-remove-played = 168h", path: "/c/config").podcastRemovePlayed == 604_800)
        #expect(PlayerConfigFile.parse("podcast-remove-played = off", path: "/c/config").podcastRemovePlayed == 0)
        #expect(PlayerConfigFile.parse("", path: "/c/config").podcastRemovePlayed == nil)
        for bad in ["9000h", "-1", "later"] {
            let config = PlayerConfigFile.parse("podcast-remove-played = \(bad)", path: "/c/config")
            #expect(config.podcastRemovePlayed == nil)
            #expect(config.problems.count == 1
                    && config.problems[0].description.hasPrefix("/c/config:1: podcast-remove-played must be off or"), "\(config.problems)")
        }
    }
}

/// `podcast-timeout` and `stream-timeout`, the network's deadlines.
@Suite struct NetworkTimeoutConfigTests {
    @Test func eachTakesADurationWithinItsRangeAndRefusesTheRestInOneLine() {
        #expect(PlayerConfigFile.parse("podcast-timeout = 5m", path: "/c/config").podcastTimeout == 300)
        #expect(PlayerConfigFile.parse("stream-timeout = 3s", path: "/c/config").streamTimeout == 3)
        #expect(PlayerConfigFile.parse("", path: "/c/config").podcastTimeout == nil)
        #expect(PlayerConfigFile.parse("", path: "/c/config").streamTimeout == nil)
        for (key, bad) in [("podcast-timeout", "2h"), ("podcast-timeout", "0"), ("podcast-timeout", "off"),
                           ("stream-timeout", "6m"), ("stream-timeout", "0.5s"), ("stream-timeout", "never")] {
            let config = PlayerConfigFile.parse("\(key) = \(bad)", path: "/c/config")
            #expect(config.podcastTimeout == nil && config.streamTimeout == nil)
            #expect(config.problems.count == 1 && config.problems[0].description.hasPrefix("/c/config:1: \(key) must be"),
                    "\(config.problems)")
        }
    }
}
