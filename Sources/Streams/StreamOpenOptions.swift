/// The options every stream's open is given (FFmpeg's names and values), as
/// measured against Debian 12's FFmpeg 5.1 (the reasons beside each). Pure data,
/// so a test reads what the reader thread will hand `avformat_open_input`.
public enum StreamOpenOptions {
    /// Protocols a stream (and an HLS playlist's segments and keys, which
    /// inherit it) may open: never `file`, `pipe`, `concat`, `data` or `udp`.
    public static let protocolWhitelist = "http,https,tls,tcp,crypto,httpproxy"
    /// A read that waits this long for a byte ends with "Connection timed out".
    public static let readTimeoutMicroseconds = 10_000_000
    /// The most FFmpeg reads to tell the format (`formatprobesize`, 1 MB by
    /// default). An MP3 picked up mid-frame scores as MP3 only after 200
    /// frames (over 83 KB, so 128 KB are read); Icecast's burst on connect is
    /// 64 KB, and the rest came at the station's pace: 4.5 s at 128 kbit/s
    /// before the first sound (`ffprobe` alike). Capped at 64 KB the probe
    /// takes the MP3 from the burst (0.44 s to open, measured); ADTS, Ogg and
    /// HLS playlists are told in their first kilobytes either way.
    public static let formatProbeBytes = 65_536

    /// The probe's cap for a connection whose server says it sends MP3
    /// (`audio/mpeg`, as Icecast and Shoutcast do): FFmpeg's MP3 demuxer
    /// names no content type of its own, so the type adds nothing to its
    /// score, and a station picked up mid-frame is taken only at the cap
    /// (score 25 at any size below 83 KB). A burst on connect shorter than
    /// 64 KB (a server configured so, or a station started a moment ago)
    /// then held the open for the rest at the station's pace: 4 s at
    /// 128 kbit/s for an empty burst. 16 KB is a second of 128 kbit/s,
    /// 15 frames at 320 (mpv takes MP3 by this type from its first probe).
    /// Other formats are told in their first kilobytes with either cap, an
    /// AAC station labelled `audio/mpeg` among them.
    public static let mpegProbeBytes = 16_384

    /// The probe's cap for what the server says it sends (its `Content-Type`,
    /// parameters and case ignored).
    public static func formatProbeBytes(contentType: String) -> Int {
        let type = String(contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
        return ["audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/x-mp3"].contains(type)
            ? mpegProbeBytes : formatProbeBytes
    }

    /// The options in the order they are set. `certificateFile` is
    /// `SSL_CERT_FILE` when set: GnuTLS reads the system's store and ignores
    /// the variable, so the player hands the file on itself; an empty value
    /// is no file.
    public static func values(certificateFile: String?) -> [(key: String, value: String)] {
        var values: [(key: String, value: String)] = [
            // FFmpeg verifies no certificate unless asked.
            ("tls_verify", "1"),
            ("rw_timeout", String(readTimeoutMicroseconds)),
            // One silent reopen of a dropped connection; the player's own backoff after that.
            ("reconnect", "1"),
            ("reconnect_streamed", "1"),
            ("reconnect_on_network_error", "1"),
            // FFmpeg's own backoff (0, 1, 3, 7 s) sleeps inside the read, unseen by
            // the player: at 0 it tries once and `StreamReconnector` takes over.
            ("reconnect_delay_max", "0"),
            ("icy", "1"),
            ("formatprobesize", String(formatProbeBytes)),
            ("protocol_whitelist", protocolWhitelist),
            // HLS's keep-alive sends a playlist's or segment's request on the connection
            // of the one before, behind `io_open`, where each request is bounded
            // (`StreamBounds`): off, a connection per request (one TCP or TLS
            // handshake per segment, a segment being seconds of audio).
            ("http_persistent", "0"),
        ]
        if let certificateFile, !certificateFile.isEmpty { values.insert(("ca_file", certificateFile), at: 1) }
        return values
    }
}
