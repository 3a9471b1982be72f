/// Reading the descriptive frames embedded in CHAP and CTOC frames.
enum EmbeddedFrames {
    /// The text of the first frame with this ID that decodes, nil when there
    /// is none or it is empty (an empty title is as good as no title).
    static func text(of id: String, in frames: [ID3v2Frame]) -> String? {
        for frame in frames where frame.id == id {
            guard let text = try? ID3v2TextFrame(body: frame.body).text, !text.isEmpty else { continue }
            return text
        }
        return nil
    }

    /// The URL of the first WXXX frame: encoding, description in that
    /// encoding, then the URL itself, always Latin-1 (ID3v2.4 §4.3.2).
    static func userURL(in frames: [ID3v2Frame]) -> String? {
        for frame in frames where frame.id == "WXXX" {
            guard let first = frame.body.first, let encoding = ID3v2TextEncoding(rawValue: first) else { continue }
            // The URL follows the description's terminator.
            guard let descriptionEnd = Self.endOfFirstString(frame.body.dropFirst(), encoding: encoding) else {
                continue
            }
            let url = ID3v2TextEncoding.latin1.decode(frame.body[descriptionEnd...].prefix { $0 != 0 })
            if !url.isEmpty { return url }
        }
        return nil
    }

    static func endOfFirstString(_ bytes: ArraySlice<UInt8>, encoding: ID3v2TextEncoding) -> Int? {
        let width = encoding.terminatorWidth
        var index = bytes.startIndex
        while bytes.endIndex - index >= width {
            if bytes[index] == 0 && (width == 1 || bytes[index + 1] == 0) { return index + width }
            index += width
        }
        return nil
    }
}
