/// The ID3v2 tag that AIFF, WAV and DSDIFF (DFF) files carry in a chunk of
/// their own (`ID3 `, or `id3 ` in WAV), and DSF files at the place their
/// header points to, read by the ID3v2 parser every MP3 goes through. The chunks
/// are walked by their headers, every size checked against the file.
enum ChunkTags {
    /// AIFF and AIFF-C: "FORM", a big-endian size, "AIFF" or "AIFC", chunks.
    static func aiff(_ file: TagFile, into reading: inout TagReading) {
        chunks(file, from: 12, sizeBytes: 4, bigEndian: true, into: &reading)
    }

    /// WAV: "RIFF", a little-endian size, "WAVE", chunks.
    static func wav(_ file: TagFile, into reading: inout TagReading) {
        chunks(file, from: 12, sizeBytes: 4, bigEndian: false, into: &reading)
    }

    /// DSDIFF: "FRM8", a 64-bit big-endian size, "DSD ", chunks with 64-bit sizes.
    static func dff(_ file: TagFile, into reading: inout TagReading) {
        chunks(file, from: 16, sizeBytes: 8, bigEndian: true, into: &reading)
    }

    /// DSF: the "DSD " chunk's last field, a 64-bit little-endian offset of
    /// the ID3v2 tag (0: none).
    static func dsf(_ file: TagFile, into reading: inout TagReading) {
        let header = file.bytes(at: 0, count: 28)
        guard header.count == 28 else { return }
        let offset = header[20..<28].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard offset >= 28, offset < UInt64(Int.max / 2) else { return }
        id3(file, at: Int(offset), length: ContainerTagReader.blockLimit, into: &reading)
    }

    private static func chunks(_ file: TagFile, from start: Int, sizeBytes count: Int, bigEndian: Bool,
                               into reading: inout TagReading) {
        var offset = start
        for _ in 0..<10_000 {
            let header = file.bytes(at: offset, count: 4 + count)
            guard header.count == 4 + count else { return }
            let sizeBytes = bigEndian ? Array(header[4...]) : header[4...].reversed()
            // A 64-bit size past what a file can hold is damage.
            guard count == 4 || sizeBytes.prefix(2).allSatisfy({ $0 == 0 }) else { return }
            let size = sizeBytes.reduce(0) { $0 << 8 | Int($1) }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            if id == "ID3 " || id == "id3 " {
                id3(file, at: offset + 4 + count, length: size, into: &reading)
                return
            }
            // Chunks are padded to an even length.
            offset += 4 + count + size + size % 2
        }
    }

    private static func id3(_ file: TagFile, at offset: Int, length: Int, into reading: inout TagReading) {
        let header = file.bytes(at: offset, count: 10)
        guard let tagLength = MPEGAudioStart.id3v2Length(header) else { return }
        let bytes = file.bytes(at: offset, count: min(tagLength, length, ContainerTagReader.blockLimit))
        do throws(ID3v2Error) {
            ID3v2TagFields.read(try ID3v2Tag(bytes: bytes), into: &reading)
        } catch {
            reading.tags.damage = "unreadable ID3v2 tag: \(error)"
        }
    }
}
