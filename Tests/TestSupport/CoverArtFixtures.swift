import Foundation

/// Pictures and tagged files for the cover art's tests, made at test time:
/// the picture by ffmpeg (a smooth gradient with solid bars, so colours
/// vary across every cell), embedded by the tools people tag with (mutagen
/// for ID3 APIC and Vorbis comments, ffmpeg's attached picture for MP4's
/// `covr`, `metaflac --import-picture-from` for FLAC, `opusenc --picture`
/// for Opus), each in a folder of its own so no folder image is near.
public enum CoverArtFixtures {
    /// What holds the picture.
    public enum Holder: String, CaseIterable, Sendable {
        case id3 = "mp3"
        case mp4 = "m4a"
        case flac
        case vorbis = "ogg"
        case opus
    }

    /// A `size` x `size` picture (`png` or `jpg`) made by ffmpeg: red across, green down, blue against both, a white and a black bar.
    /// A JPEG's chroma is `jpegChroma`: `yuvj444p`, or `yuvj420p` (halved both ways, as most covers carry it).
    public static func picture(size: Int = 256, format: String = "png", jpegChroma: String = "yuvj444p") throws -> String {
        let chroma = format == "png" || jpegChroma == "yuvj444p" ? "" : "-" + jpegChroma
        return try Fixtures.cache.make("cover-\(size)\(chroma).\(format)") { path in
            let bars = "if(between(Y\\,H*0.7\\,H*0.8)\\,255\\,if(between(Y\\,H*0.85\\,H*0.9)\\,0\\,"
            let geq = "geq=r='\(bars)X*255/W))':g='\(bars)Y*255/H))':b='\(bars)255-(X+Y)*255/(W+H)))'"
            try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=\(size)x\(size),format=rgb24,\(geq)",
                                        "-frames:v", "1", "-f", "image2", "-c:v", format == "png" ? "png" : "mjpeg",
                                        "-q:v", "2", "-pix_fmt", format == "png" ? "rgb24" : jpegChroma, path])
        }
    }

    /// A 3 s file of `holder`'s kind with `picture` embedded as its front cover, alone in a new folder.
    public static func tagged(_ holder: Holder, picture: String, seconds: Double = 3) throws -> String {
        let folder = ScratchFiles.makeDirectory("cover-\(holder.rawValue)")
        let path = "\(folder)/track.\(holder.rawValue)"
        let wav = try Fixtures.wav(.tone(frequency: 440), seconds: seconds)
        let mime = picture.hasSuffix(".png") ? "image/png" : "image/jpeg"
        switch holder {
        case .id3:
            try Fixtures.run("lame", ["--quiet", "-b", "128", wav, path])
            try mutagen("""
                from mutagen.id3 import ID3, APIC, TIT2
                tags = ID3()
                tags.add(TIT2(encoding=3, text='Covered'))
                tags.add(APIC(encoding=3, mime='\(mime)', type=3, desc='front', data=open(picture, 'rb').read()))
                tags.save(path)
                """, path: path, picture: picture)
        case .mp4:
            try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wav, "-i", picture, "-map", "0:a", "-map", "1:v",
                                        "-c:a", "aac", "-b:a", "96k", "-c:v", "copy", "-disposition:v:0", "attached_pic",
                                        "-metadata", "title=Covered", path])
        case .flac:
            try Fixtures.run("flac", ["--silent", "-f", "-o", path, wav])
            try Fixtures.run("metaflac", ["--set-tag=TITLE=Covered", "--import-picture-from=3|\(mime)|front||\(picture)", path])
        case .vorbis:
            try Fixtures.run("oggenc", ["-Q", "-t", "Covered", "-o", path, wav])
            try mutagen("""
                import base64
                from mutagen.flac import Picture
                from mutagen.oggvorbis import OggVorbis
                cover = Picture()
                cover.type = 3
                cover.mime = '\(mime)'
                cover.desc = 'front'
                cover.data = open(picture, 'rb').read()
                audio = OggVorbis(path)
                audio['METADATA_BLOCK_PICTURE'] = [base64.b64encode(cover.write()).decode('ascii')]
                audio.save()
                """, path: path, picture: picture)
        case .opus:
            try Fixtures.run("opusenc", ["--quiet", "--title", "Covered", "--picture", "3|\(mime)|front||\(picture)", wav, path])
        }
        return path
    }

    /// An untagged 3 s MP3 in a new folder, with `image` (bytes) beside it as `name`.
    public static func besideImage(named name: String, bytes: Data, seconds: Double = 3) throws -> String {
        let folder = ScratchFiles.makeDirectory("cover-folder")
        let path = "\(folder)/track.mp3"
        try Fixtures.run("lame", ["--quiet", "-b", "128", try Fixtures.wav(.tone(frequency: 440), seconds: seconds), path])
        try bytes.write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        return path
    }

    /// The picture scaled by ffmpeg (area averaging) to `width` x `height`, as RGB bytes: the oracle a drawing is compared with.
    public static func scaledRGB(_ picture: String, width: Int, height: Int) throws -> [UInt8] {
        let result = try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-i", picture, "-vf", "scale=\(width):\(height):flags=area",
                                                        "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], timeout: 120)
        return [UInt8](result.stdout)
    }

    private static func mutagen(_ script: String, path: String, picture: String) throws {
        try ProcessRunner.check("python3", ["-c", "import sys\npath, picture = sys.argv[1], sys.argv[2]\n" + script, path, picture],
                                environment: ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"], timeout: 120)
    }
}
