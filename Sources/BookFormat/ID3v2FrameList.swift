/// Reads a run of frames: a tag's frame area, or the sub-frames embedded in a
/// CHAP or CTOC frame. Each step consumes at least one frame header, so the
/// work is linear in the input; every length is checked against the bytes
/// that are really there before anything is copied.
struct ID3v2FrameList {
    var frames: [ID3v2Frame] = []
    /// The first problem met; frames read before it are kept.
    var damage: ID3v2Error?

    /// `offsetsAreStored`: `bytes` are the tag's own (an ID3v2.3 tag unsynchronised as a whole is decoded first).
    init(bytes: ArraySlice<UInt8>, majorVersion: UInt8, tagIsUnsynchronised: Bool, offsetsAreStored: Bool = false) {
        let sizes = FrameSizeEncoding.detect(majorVersion: majorVersion, frames: bytes)
        let headerLength = ID3v2FrameHeader.length(majorVersion: majorVersion)
        let idLength = headerLength == 6 ? 3 : 4
        var cursor = TagByteCursor(bytes)
        while cursor.remaining >= headerLength {
            let offset = cursor.position - bytes.startIndex
            // A zero byte where an ID should start is padding (or an early
            // end that some writers leave): nothing follows that we can read.
            if cursor.rest.first == 0 { return }
            guard let idBytes = cursor.read(count: idLength), ID3v2FrameHeader.isValidID(idBytes, majorVersion: majorVersion),
                  let sizeBytes = cursor.read(count: idLength)
            else {
                record(.invalidFrameID(offset: offset))
                return
            }
            // 2.2 has no flag bytes; in 2.3 and 2.4 the status flags change nothing in reading.
            var formatByte: UInt8 = 0
            if majorVersion > 2 {
                guard cursor.readByte() != nil, let format = cursor.readByte() else {
                    record(.invalidFrameID(offset: offset))
                    return
                }
                formatByte = format
            }
            let rawID = String(decoding: idBytes, as: UTF8.self)
            let id = majorVersion == 2 ? ID3v2FrameHeader.version22Names[rawID] ?? rawID : rawID
            let size = sizes.decode(sizeBytes)
            guard let stored = cursor.read(count: size) else {
                record(.frameOverrunsTag(id: id, offset: offset, declared: size, available: cursor.remaining))
                return
            }
            let flags = ID3v2FrameFlags(majorVersion: majorVersion, formatByte: formatByte)
            // Compressed frames need zlib and encrypted ones a key we do not
            // have; neither ever holds chapters in practice, so skip them.
            if flags.isCompressed || flags.isEncrypted { continue }
            // In 2.4 the tag-level flag means every frame is unsynchronised
            // (§3.1), and some writers set only that one, so honour either.
            // The whole area after the frame header is unsynchronised (§4.1.2),
            // the extra flag bytes included, so decode before skipping them.
            let unsynchronised = majorVersion == 4 && (flags.isUnsynchronised || tagIsUnsynchronised)
            let data = unsynchronised ? Unsynchronisation.decode(stored) : Array(stored)
            guard data.count >= flags.extraHeaderLength else {
                record(.malformedFrame(id: id, reason: "shorter than its flag fields"))
                continue
            }
            if rawID == "PIC" && majorVersion == 2 {
                // 2.2's PIC: a three-letter image format ("JPG") where APIC has a MIME type ending in 0.
                guard data.count >= 5 else { continue }
                frames.append(ID3v2Frame(id: id, body: [data[0]] + data[1..<4] + [0] + data[4...]))
                continue
            }
            frames.append(ID3v2Frame(id: id, body: Array(data.dropFirst(flags.extraHeaderLength)),
                                     storedIndex: unsynchronised || !offsetsAreStored ? nil : stored.startIndex + flags.extraHeaderLength))
        }
    }

    private mutating func record(_ error: ID3v2Error) {
        if damage == nil { damage = error }
    }
}
