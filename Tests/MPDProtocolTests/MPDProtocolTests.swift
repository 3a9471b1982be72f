import PlayerModel
import Testing

@Suite struct MPDRequestTests {
    private func parse(_ line: String) throws(MPDFailure) -> MPDRequest { try MPDRequest.parse(Array(line.utf8)) }

    @Test func readsUnquotedAndQuotedArgumentsWithEscapes() throws {
        let request = try parse(#"add "a dir/with \"quote\" and \\ slash.mp3" 3:5"#)
        #expect(request.command == "add")
        #expect(request.arguments == [#"a dir/with "quote" and \ slash.mp3"#, "3:5"])
        #expect(try parse("  status\t").arguments.isEmpty)
        #expect(try parse(#"find "" x"#).arguments == ["", "x"])
    }

    @Test func refusesWhatMPDsTokenizerRefuses() {
        #expect(throws: MPDFailure(.unknown, "Missing closing '\"'")) { try parse(#"add "open"#) }
        #expect(throws: MPDFailure(.unknown, "Space expected after closing '\"'")) { try parse(#"add "a"b"#) }
        #expect(throws: MPDFailure(.unknown, "Invalid unquoted character")) { try parse("add it's") }
        #expect(throws: MPDFailure(.unknown, "Letter expected", closes: true)) { try parse("1play") }
        #expect(throws: MPDFailure(.unknown, "No command given", closes: true)) { try parse("   ") }
        #expect(throws: MPDFailure(.unknown, "Invalid word character", closes: true)) { try parse("play-x") }
    }

    @Test func ackLinesAreWordedAsMPDWordsThem() {
        #expect(MPDFailure.unknownCommand("x").line(index: 0) == "ACK [5@0] {} unknown command \"x\"\n")
        #expect(MPDFailure.argumentCount("play", expected: 0...1, given: 2).line(index: 2) == "ACK [2@2] {play} too many arguments for \"play\"\n")
        #expect(MPDFailure.argumentCount("seek", expected: 2...2, given: 1).line(index: 0) == "ACK [2@0] {seek} wrong number of arguments for \"seek\"\n")
        #expect(MPDFailure.argumentCount("add", expected: 1...2, given: 0).line(index: 0) == "ACK [2@0] {add} too few arguments for \"add\"\n")
        #expect(MPDRequest.quoted(#"a"b\c"#) == #""a\"b\\c""#)
    }

    @Test func responseValuesCannotForgeALine() {
        var response = MPDResponse()
        response.add("Title", "one\nOK")
        response.add("elapsed", milliseconds: 1.23456)
        response.add("duration", milliseconds: .nan)
        #expect(response.text == "Title: one OK\nelapsed: 1.235\nduration: 0.000\n")
        #expect(MPDResponse.threeDecimals(-4) == "0.000")
        #expect(MPDResponse.threeDecimals(.infinity) == "0.000")
        #expect(MPDResponse.threeDecimals(59.9996) == "60.000")
    }

    @Test(arguments: [0, 7, -7, 10, 99_999, -1_000_000, Int(Int32.max), Int.max, Int.min])
    func numbersAreWrittenAsSwiftWritesThem(_ value: Int) {
        var response = MPDResponse()
        response.add("Pos", value)
        #expect(response.text == "Pos: \(value)\n")
    }

    @Test(arguments: [0, 0.0004, 0.0005, 1.23456, 59.9996, 61.05, 3599.999, 1e11, 1e13, -1, .infinity, .nan])
    func timesAreWrittenAsThreeDecimalsWritesThem(_ seconds: Double) {
        var response = MPDResponse()
        response.add("elapsed", milliseconds: seconds)
        response.add("time", 12, 345)
        #expect(response.text == "elapsed: \(MPDResponse.threeDecimals(seconds))\ntime: 12:345\n")
    }

    @Test func valuesWithoutALineBreakAreWrittenWhole() {
        var response = MPDResponse()
        response.add("Title", "曲 7 さくら")
        response.add("Album", "a\r\nb")
        response.add("Genre", "")
        #expect(response.text == "Title: 曲 7 さくら\nAlbum: a  b\nGenre: \n")
    }
}

@Suite struct MPDCommandListTests {
    @Test func collectsUntilTheEndAndSaysWhetherEachIsAcknowledged() {
        var list = MPDCommandList()
        func take(_ line: [UInt8]) -> MPDCommandList.Line { list.take(line) }
        #expect(take(Array("status".utf8)) == .single(Array("status".utf8)))
        #expect(take(Array("command_list_ok_begin".utf8)) == .collected)
        #expect(list.isOpen)
        #expect(take(Array("play".utf8)) == .collected)
        #expect(take(Array("command_list_begin".utf8)) == .collected)
        #expect(take(Array("command_list_end".utf8)) == .run([Array("play".utf8), Array("command_list_begin".utf8)], okEach: true))
        #expect(!list.isOpen)
        #expect(take(Array("command_list_begin".utf8)) == .collected)
        #expect(take(Array("command_list_end".utf8)) == .run([], okEach: false))
        // An end without a begin is an ordinary (unknown) command.
        #expect(take(Array("command_list_end".utf8)) == .single(Array("command_list_end".utf8)))
    }

    @Test func aListPastTheLimitIsRefused() {
        var list = MPDCommandList()
        func take(_ line: [UInt8]) -> MPDCommandList.Line { list.take(line) }
        _ = take(Array("command_list_begin".utf8))
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 4000)
        var last = MPDCommandList.Line.collected
        for _ in 0..<(MPDCommandList.maximumBytes / 4000 + 2) where last == .collected { last = take(line) }
        #expect(last == .tooLong)
        #expect(!list.isOpen)
    }
}

@Suite struct MPDIdleTests {
    @Test func aChangeBeforeIdleIsToldAtOnceAndOnlyOnce() throws {
        var idle = MPDIdleState()
        func changed(_ set: Set<MPDSubsystem>) -> String? { idle.changed(set) }
        func wait(_ set: Set<MPDSubsystem>) -> String? { idle.wait(on: set) }
        func cancel() -> String? { idle.cancel() }
        #expect(changed([.mixer, .player]) == nil)
        #expect(wait(try MPDIdleState.subsystems([])) == "changed: player\nchanged: mixer\nOK\n")
        #expect(!idle.isWaiting)
        #expect(wait(try MPDIdleState.subsystems(["player"])) == nil)
        #expect(changed([.mixer]) == nil)
        #expect(changed([.player, .options]) == "changed: player\nOK\n")
        // The mixer and options changes wait for an idle that asks for them.
        #expect(wait([.options, .mixer]) == "changed: mixer\nchanged: options\nOK\n")
    }

    @Test func noidleEndsTheWaitAndIsIgnoredOutsideIt() throws {
        var idle = MPDIdleState()
        func changed(_ set: Set<MPDSubsystem>) -> String? { idle.changed(set) }
        func wait(_ set: Set<MPDSubsystem>) -> String? { idle.wait(on: set) }
        func cancel() -> String? { idle.cancel() }
        #expect(cancel() == nil)
        #expect(wait([.playlist]) == nil)
        #expect(cancel() == "OK\n")
        #expect(cancel() == nil)
        #expect(throws: MPDFailure(.argument, "Unrecognized idle event: bogus", command: "idle")) {
            try MPDIdleState.subsystems(["player", "bogus"])
        }
    }
}

@Suite struct MPDQueueIDTests {
    @Test func idsStayWithTheirEntriesAndTheVersionGrows() {
        var ids = MPDQueueIDs()
        func update(_ queue: [String]) -> Bool { ids.update(queue) }
        #expect(update(["a", "b"]))
        let first = ids.ids
        let version = ids.version
        #expect(!update(["a", "b"]))
        #expect(update(["a", "b", "c"]))
        #expect(Array(ids.ids.prefix(2)) == first)
        #expect(ids.version == version + 1)
        #expect(ids.changed(since: version) == [2])
        #expect(update(["a", "x"]))
        #expect(ids.ids[0] == first[0] && ids.ids[1] != first[1])
        #expect(Set(ids.ids).count == 2)
        #expect(ids.position(ofID: first[0]) == 0)
        #expect(ids.position(ofID: first[1]) == nil)
        #expect(ids.changed(since: ids.version + 5) == [0, 1])
    }

    @Test func songLinesStayWithTheirEntriesAndANewEntryHasNone() {
        var ids = MPDQueueIDs()
        ids.update(["a", "b", "c"])
        for (index, name) in ["a", "b", "c"].enumerated() { ids.keep(songLines: Array(name.utf8), at: index) }
        ids.keep(songLines: [1], at: 3)
        #expect(ids.songLines == [Array("a".utf8), Array("b".utf8), Array("c".utf8)])
        ids.update(["c", "a", "x", "b"])
        #expect(ids.songLines == [Array("c".utf8), Array("a".utf8), [], Array("b".utf8)])
    }

    @Test func aMovedEntryKeepsItsIDAndCountsAsChanged() {
        var ids = MPDQueueIDs()
        ids.update(["a", "b", "c", "b"])
        let before = ids.ids
        let version = ids.version
        ids.update(["a", "c", "b", "b"])
        #expect(ids.ids == [before[0], before[2], before[1], before[3]])
        #expect(ids.changed(since: version) == [1, 2])
        ids.update(["a", "b"])
        #expect(ids.ids == [before[0], before[1]])
    }
}

@Suite struct MPDPermissionTests {
    @Test func withoutThePasswordOnlyMPDsUnguardedCommandsAreAllowed() {
        for command in ["ping", "close", "commands", "notcommands", "tagtypes", "binarylimit", "password"] {
            #expect(MPDPermission.needed(by: command).isEmpty, "\(command)")
        }
        #expect(MPDPermission.needed(by: "status") == .read && MPDPermission.needed(by: "albumart") == .read)
        #expect(MPDPermission.needed(by: "add") == .add && MPDPermission.needed(by: "play") == .control)
        #expect(MPDPermission.needed(by: "disableoutput") == .admin)
        #expect(MPDPermission.refusal("play").line(index: 0) == "ACK [4@0] {play} you don't have permission for \"play\"\n")
    }

    @Test func aBinaryReplyIsItsCountTheBytesAndANewline() {
        var response = MPDResponse()
        response.add("size", 3)
        response.addBinary([0x0A, 0x00, 0xFF][...])
        #expect(response.bytes == Array("size: 3\nbinary: 3\n".utf8) + [0x0A, 0x00, 0xFF, 0x0A])
    }
}

@Suite struct QueueEditTests {
    private let queue = ["a", "b", "c", "d", "e"]

    private func edit(_ edit: QueueEdit, here: Int = 1) -> QueueEdit.Outcome {
        var random = SystemRandomNumberGenerator()
        return edit.upcoming(of: queue, here: here, random: &random)
    }

    @Test func removesAndMovesOnlyWhatFollowsTheEntryThatPlays() {
        #expect(edit(.remove(from: 2, count: 2)) == .upcoming(["e"]))
        #expect(edit(.move(from: 4, count: 1, to: 2)) == .upcoming(["e", "c", "d"]))
        #expect(edit(.move(from: 2, count: 2, to: 3)) == .upcoming(["e", "c", "d"]))
        #expect(edit(.remove(from: 1, count: 1)) == .refused(.queueEntryNotAhead(position: 1)))
        #expect(edit(.move(from: 3, count: 1, to: 0)) == .refused(.queueEntryNotAhead(position: 0)))
        #expect(edit(.remove(from: 5, count: 1)) == .refused(.noQueueEntry(position: 5)))
        #expect(edit(.remove(from: 3, count: 3)) == .refused(.noQueueEntry(position: 3)))
        #expect(edit(.move(from: 3, count: 2, to: 4)) == .refused(.noQueueEntry(position: 4)))
        // Nothing plays: the whole queue is ahead.
        #expect(edit(.remove(from: 0, count: 1), here: -1) == .upcoming(["b", "c", "d", "e"]))
    }

    @Test func shufflesWhatFollowsTheEntryThatPlaysWithinTheRange() {
        guard case .upcoming(let all) = edit(.shuffle(from: 0, count: Int(Int32.max))) else { Issue.record("refused"); return }
        #expect(all.sorted() == ["c", "d", "e"])
        guard case .upcoming(let part) = edit(.shuffle(from: 3, count: 2)) else { Issue.record("refused"); return }
        #expect(part.first == "c" && part.dropFirst().sorted() == ["d", "e"])
        #expect(edit(.shuffle(from: 9, count: 1)) == .refused(.noQueueEntry(position: 9)))
    }
}

@Suite struct MPDEndpointSettingTests {
    @Test func theConfigNamesTheEndpointsAndLoopbackIsTheDefaultAddress() {
        #expect(MPDEndpointSetting("off") == .off)
        #expect(MPDEndpointSetting("on") == .local)
        #expect(MPDEndpointSetting("6600") == .tcp(host: "127.0.0.1", port: 6600))
        #expect(MPDEndpointSetting("localhost:6601") == .tcp(host: "127.0.0.1", port: 6601))
        #expect(MPDEndpointSetting("192.168.1.5:6600") == .tcp(host: "192.168.1.5", port: 6600))
        for bad in ["", "0", "65536", "99999999999999999999", "1.2.3:6600", "1.2.3.256:6600", "host:6600", ":6600:1", "-1", "x"] {
            #expect(MPDEndpointSetting(bad) == nil, "\(bad)")
        }
        let config = PlayerConfigFile.parse("mpd = 127.0.0.1:6600\nmpd = loud\n", path: "/c/config")
        #expect(config.mpd == .tcp(host: "127.0.0.1", port: 6600))
        #expect(config.problems.map(\.description) == ["/c/config:2: mpd must be \(MPDEndpointSetting.accepts), not 'loud'"])
    }
}

@Suite struct MPDLocatedURITests {
    private func located(_ uri: String) -> String {
        do throws(MPDFailure) {
            return switch try MPDLocatedURI.locate(uri) {
            case .relative(let name): "relative \(name)"
            case .file(let path): "file \(path)"
            case .url(let url): "url \(url)"
            }
        } catch {
            return error.line(index: 0)
        }
    }

    /// The readings MPD 0.23.12 gave these URIs (its answers to `add`, measured beside it).
    @Test func readsAURIAsMPDLocatesIt() {
        #expect(located("a.mp3") == "relative a.mp3")
        #expect(located("../outside/x.mp3") == "relative ../outside/x.mp3")
        #expect(located("../../../../etc/hostname") == "relative ../../../../etc/hostname")
        #expect(located("") == "relative ")
        #expect(located("://x") == "relative ://x")
        #expect(located("http:/x") == "relative http:/x")
        #expect(located("/etc/hostname") == "file /etc/hostname")
        #expect(located("file:///etc/hostname") == "file /etc/hostname")
        #expect(located("FILE:///etc/hostname") == "file /etc/hostname")
        #expect(located("file://etc/hostname") == "ACK [2@0] {} Malformed file:// URI\n")
        #expect(located("file://") == "ACK [2@0] {} Malformed file:// URI\n")
        #expect(located("http://127.0.0.1:1/x.mp3") == "url http://127.0.0.1:1/x.mp3")
        #expect(located("Https://host/x") == "url Https://host/x")
        for unsupported in ["ftp://host/x", "smb://x/y", "bogus://x", "1http://x", "a/b://c", "x y://z", "sub/b.mp3://"] {
            #expect(located(unsupported) == "ACK [2@0] {} Unsupported URI scheme\n", "\(unsupported)")
        }
    }

    @Test func aWholePathInAMusicFolderIsItsNameInTheDatabaseUnresolved() {
        let folders = ["/m/music", "/m/more/"]
        #expect(MPDLocatedURI.relative("/m/music/a.mp3", in: folders) == "a.mp3")
        #expect(MPDLocatedURI.relative("/m/music//sub/a.mp3", in: folders) == "sub/a.mp3")
        #expect(MPDLocatedURI.relative("/m/more/b.mp3", in: folders) == "b.mp3")
        #expect(MPDLocatedURI.relative("/m/music", in: folders) == "")
        #expect(MPDLocatedURI.relative("/m/music/", in: folders) == "")
        #expect(MPDLocatedURI.relative("/m/music/../x.mp3", in: folders) == "../x.mp3")
        #expect(MPDLocatedURI.relative("/m/musicals/a.mp3", in: folders) == nil)
        #expect(MPDLocatedURI.relative("/m/x.mp3", in: folders) == nil)
        #expect(MPDLocatedURI.relative("/x.mp3", in: ["/"]) == "x.mp3")
    }
}

@Suite struct MPDSongOrderTests {
    private func key(_ path: String, album: String? = nil, disc: Int? = nil, track: Int? = nil) -> MPDSongOrder.Key {
        MPDSongOrder.Key(path: path, album: album, disc: disc, track: track)
    }

    @Test func aFoldersSongsComeBeforeItsFoldersAndEachFolderBeforeWhatIsInIt() {
        let keys = [key("b/x.mp3"), key("z.mp3"), key("b/c/y.mp3"), key("a.mp3"), key("B2/w.mp3"), key("b/a.mp3")]
        #expect(MPDSongOrder.walk(keys).map { keys[$0].path } == ["a.mp3", "z.mp3", "b/a.mp3", "b/x.mp3", "b/c/y.mp3", "B2/w.mp3"])
    }

    @Test func songsAreSortedByAlbumDiscTrackThenName() {
        let keys = [
            key("d/1.mp3", album: "B", track: 1), key("d/2.mp3", album: "A", track: 9), key("d/3.mp3", album: "A", disc: 2, track: 1),
            key("d/4.mp3", album: "A", track: 2), key("d/5.mp3"), key("d/0.mp3", album: "A", track: 2), key("d/6.mp3", album: "A", track: 0),
        ]
        // No album first; then album A: no disc (0) before disc 2, track 0 first, the two track 2s by name.
        #expect(MPDSongOrder.walk(keys).map { keys[$0].path }
                == ["d/5.mp3", "d/6.mp3", "d/0.mp3", "d/4.mp3", "d/2.mp3", "d/3.mp3", "d/1.mp3"])
    }

    @Test func namesCompareAsICUsRootCollationDoes() {
        let sorted = ["Zebra", "apple", "Apple", "_x", "-x", " x", "10", "9", "b"]
            .sorted(by: MPDCollation.precedes)
        #expect(sorted == [" x", "_x", "-x", "10", "9", "apple", "Apple", "b", "Zebra"])
        #expect(MPDCollation.compare("a", "a") == 0)
    }
}

@Suite struct MPDPlayTimeTests {
    @Test func countsOnlyTheStretchesPlayingTheOngoingOneIncluded() {
        var time = MPDPlayTime()
        #expect(time.seconds(at: 5) == 0)
        time.note(playing: true, at: 10)
        time.note(playing: true, at: 12)
        #expect(time.seconds(at: 13) == 3)
        time.note(playing: false, at: 20)
        time.note(playing: false, at: 25)
        #expect(time.seconds(at: 40) == 10)
        time.note(playing: true, at: 50)
        #expect(time.seconds(at: 52.5) == 12.5)
    }
}
