import InterludeCore
import Streams
import Testing

@Suite struct ICYMetadataTests {
    func parse(_ text: String) -> ICYMetadata { ICYMetadata.parse(Array(text.utf8)) }

    @Test func readsTitleAndURLOfAnIcecastBlock() {
        let block = Array("StreamTitle='Artist - Song';StreamUrl='http://radio.example/now';".utf8) + [UInt8](repeating: 0, count: 7)
        let metadata = ICYMetadata.parse(block)
        #expect(metadata.title == "Artist - Song")
        #expect(metadata.url == "http://radio.example/now")
        #expect(metadata.fields.count == 2)
    }

    @Test func quotesInsideATitleStayInIt() {
        #expect(parse("StreamTitle='Artist - It's a Title';").title == "Artist - It's a Title")
        #expect(parse("StreamTitle='Rock 'n' Roll';StreamUrl='';").title == "Rock 'n' Roll")
        // `';` inside a title that is not followed by another field is part of it.
        #expect(parse("StreamTitle='a';b';StreamUrl='x';").title == "a';b")
        #expect(parse("StreamTitle='a';b';StreamUrl='x';").url == "x")
        #expect(parse("StreamTitle='';").title == "")
    }

    @Test func nonUTF8TextReadsAsLatin1() {
        let block: [UInt8] = Array("StreamTitle='Caf".utf8) + [0xE9] + Array(" de la Gare';".utf8)
        #expect(ICYMetadata.parse(block).title == "Café de la Gare")
        #expect(parse("StreamTitle='Été à Zürich';").title == "Été à Zürich")
    }

    @Test func aBlockCutShortKeepsWhatCame() {
        #expect(parse("StreamTitle='Half a ti").title == "Half a ti")
        #expect(parse("StreamTitle='Whole';StreamUrl='htt").url == "htt")
        #expect(parse("StreamTitle=").title == "")
        #expect(parse("nothing like a field").fields.isEmpty)
        #expect(ICYMetadata.parse([UInt8]()).fields.isEmpty)
    }

    @Test func readsNoFurtherThanTheLargestBlock() {
        let long = String(repeating: "x", count: 5000)
        let title = parse("StreamTitle='\(long)';").title ?? ""
        #expect(title.utf8.count == ICYMetadata.maximumBlockBytes - "StreamTitle='".utf8.count)
        #expect(ICYMetadata.maximumBlockBytes == 4080)
    }

    @Test func noInputTraps() {
        var generator = SeededGenerator(seed: 26)
        let alphabet = Array("StreamTitle='Url;=\u{0}é".utf8)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...120, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            let metadata = ICYMetadata.parse(bytes)
            #expect(metadata.fields.allSatisfy { $0.value.utf8.count <= 4 * bytes.count })
        }
    }
}

@Suite struct ICYStreamSplitterTests {
    /// `metaint` audio bytes, then each block with its length byte, as a server interleaves them.
    func interleave(audio: [UInt8], metaint: Int, blocks: [[UInt8]]) -> [UInt8] {
        var stream: [UInt8] = []
        var blockIndex = 0
        var offset = 0
        while offset < audio.count {
            let end = min(offset + metaint, audio.count)
            stream += audio[offset..<end]
            offset = end
            if end % metaint == 0 {
                let block = blockIndex < blocks.count ? blocks[blockIndex] : []
                blockIndex += 1
                let padded = block + [UInt8](repeating: 0, count: (16 - block.count % 16) % 16)
                stream.append(UInt8(padded.count / 16))
                stream += padded
            }
        }
        return stream
    }

    func run(_ splitter: inout ICYStreamSplitter, _ stream: [UInt8], chunk: Int) -> (audio: [UInt8], titles: [String]) {
        var audio: [UInt8] = []
        var titles: [String] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + chunk, stream.count)
            for piece in splitter.push(Array(stream[offset..<end])) {
                switch piece {
                case .audio(let bytes): audio += bytes
                case .metadata(let metadata): titles.append(metadata.title ?? "")
                }
            }
            offset = end
        }
        return (audio, titles)
    }

    @Test(arguments: [1, 7, 16, 100, 4096])
    func splitsAudioFromBlocksWhateverTheChunkSize(chunk: Int) throws {
        let audio = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let blocks = [Array("StreamTitle='One';".utf8), [], Array("StreamTitle='Two';".utf8)]
        let stream = interleave(audio: audio, metaint: 1000, blocks: blocks)
        var splitter = try #require(ICYStreamSplitter(metaint: 1000))
        let result = run(&splitter, stream, chunk: chunk)
        let same = result.audio == audio
        #expect(same, "\(result.audio.count) audio bytes came out of \(audio.count)")
        // The empty block (length byte 0, no change) gives no title.
        #expect(result.titles == ["One", "Two"])
        #expect(splitter.end == .clean)
    }

    @Test func theLengthByteCountsSixteenByteUnits() throws {
        var splitter = try #require(ICYStreamSplitter(metaint: 4))
        let title = Array("StreamTitle='A';".utf8)  // 16 bytes: one unit
        #expect(title.count == 16)
        let pieces = splitter.push([1, 2, 3, 4, 1] + title + [5, 6])
        #expect(pieces == [.audio([1, 2, 3, 4]), .metadata(ICYMetadata(fields: [.init(key: "StreamTitle", value: "A")])), .audio([5, 6])])
    }

    @Test func aLargestBlockOf4080BytesIsTaken() throws {
        var splitter = try #require(ICYStreamSplitter(metaint: 2))
        var block = Array("StreamTitle='".utf8) + [UInt8](repeating: 0x61, count: 4080 - 15) + Array("';".utf8)
        #expect(block.count == 4080)
        let pieces = splitter.push([9, 9, 255] + block + [7])
        block.removeAll()
        guard case .metadata(let metadata) = pieces[1] else { Issue.record("no block: \(pieces)"); return }
        #expect(metadata.title?.utf8.count == 4065)
        #expect(pieces.last == .audio([7]))
    }

    @Test func aStreamEndingInsideABlockSaysSo() throws {
        var splitter = try #require(ICYStreamSplitter(metaint: 2))
        _ = splitter.push([1, 2, 3] + Array("StreamTi".utf8))
        #expect(splitter.end == .blockCutShort(received: 8, expected: 48))
    }

    @Test func refusesAMetaintOutOfRange() {
        #expect(ICYStreamSplitter(metaint: 0) == nil)
        #expect(ICYStreamSplitter(metaint: -16000) == nil)
        #expect(ICYStreamSplitter(metaint: Int.max) == nil)
        #expect(ICYStreamSplitter(metaint: 16000)?.metaint == 16000)
    }
}

@Suite struct ICYHeadersTests {
    @Test func readsIcecastsHeadersAsFFmpegHandsThemOver() {
        // FFmpeg's `icy_metadata_headers`, as Icecast 2.4.4 sent them in IcecastServerTests.
        let headers = ICYHeaders.parse("icy-genre: Testing\nicy-name: Test Radio\nicy-pub: 0\nicy-metaint: 16000\nicy-br: 128\n")
        #expect(headers.name == "Test Radio")
        #expect(headers.genre == "Testing")
        #expect(headers.metaint == 16000)
        #expect(headers.bitrate == 128)
        #expect(headers.problems.isEmpty)
    }

    @Test func headerNamesAreCaseBlindAndLinesMayEndInCRLF() {
        let headers = ICYHeaders.parse("ICY-MetaInt:8192\r\nIcy-Name:  Radio Été \r\nicy-br: 64,64\r\n")
        #expect(headers.metaint == 8192)
        #expect(headers.name == "Radio Été")
        #expect(headers.bitrate == 64)
    }

    @Test(arguments: ["0", "-1", "99999999999999999999", "16k", "", "1048577"])
    func aMetaintOutOfRangeIsDroppedAndSaid(value: String) {
        let headers = ICYHeaders.parse("icy-metaint: \(value)\nicy-name: X\n")
        #expect(headers.metaint == nil)
        #expect(headers.name == "X")
        #expect(headers.problems.count == 1)
        #expect(headers.problems.first?.contains("from 1 to 1048576") == true)
    }

    @Test func aLongValueIsCut() {
        let headers = ICYHeaders.parse("icy-name: " + String(repeating: "n", count: 10_000))
        #expect(headers.name?.utf8.count == ICYHeaders.maximumValueBytes)
    }

    @Test func latin1NamesAreRead() {
        #expect(ICYHeaders.parse(Array("icy-name: Caf".utf8) + [0xE9]).name == "Café")
    }

    @Test("a server's placeholder for a mount its source named not is no name")
    func aPlaceholderNameIsNone() {
        #expect(ICYHeaders.parse("icy-name: no name\n").name == nil)
        #expect(ICYHeaders.parse("icy-name: Unspecified name\n").name == nil)
        #expect(ICYHeaders.parse("icy-name: No Name Radio\n").name == "No Name Radio")
    }
}
