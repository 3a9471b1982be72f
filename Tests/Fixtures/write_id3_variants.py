#!/usr/bin/env python3
"""Writes ID3v2 tags the way taggers other than mutagen's defaults do, into a
copy of an untagged MP3: ID3v2.2 (which mutagen reads but cannot write), and
2.3/2.4 with each value ending in its terminator, 2.4 lists, every text
encoding, unsynchronisation per frame and per tag, extended headers and a
data length indicator, built byte by byte from the specifications; and
mutagen's own writing of 2.3 and 2.4 with lists. mutagen's reading of the
result (read_tags.py) is the test's oracle; this script only writes.

Usage: write_id3_variants.py KIND SOURCE.mp3 OUTPUT.mp3 [FRAME=VALUE...]
KIND: mutagen-v23, mutagen-v24, itunes-v24, lists-v24, quirks-v23, v22, v22-unsync
FRAME=VALUE (v22 only): another value for one of its text frames ("TP1=Mary Shelley"; "TYE=": none).
"""
import struct
import sys

kind, source, output = sys.argv[1:4]
overrides = dict(argument.split("=", 1) for argument in sys.argv[4:])
audio = open(source, "rb").read()
if audio.startswith(b"ID3"):
    size = 0
    for byte in audio[6:10]:
        size = size << 7 | (byte & 0x7F)
    audio = audio[10 + size:]

ALBUM_ID = "f1e2d3c4-0000-4000-8000-00000000a1b1"
ARTIST_IDS = ["a1a1a1a1-0000-4000-8000-000000000001", "b2b2b2b2-0000-4000-8000-000000000002"]
RELEASE_GROUP_ID = "c3c3c3c3-0000-4000-8000-000000000003"
RECORDING_ID = "d4d4d4d4-0000-4000-8000-000000000004"


def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def unsynchronise(data):
    """A 0x00 after every 0xFF (ID3v2.4 section 6.1: readers drop the 0x00 after 0xFF)."""
    return data.replace(b"\xff", b"\xff\x00")


def encode(values, encoding, terminated=True, bom_each=True):
    """Text values in an encoding, each ending in its terminator."""
    out = b""
    for index, value in enumerate(values):
        if encoding == 0:
            data, end = value.encode("latin-1"), b"\0"
        elif encoding == 1:
            data = value.encode("utf-16-le")
            if bom_each or index == 0:
                data = b"\xff\xfe" + data
            end = b"\0\0"
        elif encoding == 2:
            data, end = value.encode("utf-16-be"), b"\0\0"
        else:
            data, end = value.encode("utf-8"), b"\0"
        out += data
        if terminated or index < len(values) - 1:
            out += end
    return out


def text(values, encoding=0, **options):
    return bytes([encoding]) + encode(values, encoding, **options)


def txxx(description, values, encoding=0):
    return bytes([encoding]) + encode([description] + values, encoding)


def comm(description, value, encoding=0, language=b"eng"):
    return bytes([encoding]) + language + encode([description, value], encoding)


def ufid(owner, identifier):
    return owner.encode("latin-1") + b"\0" + identifier.encode("ascii")


def frame(version, frame_id, body, flags=b"\0\0", bigendian_size=False):
    if version == 2:
        return frame_id.encode() + len(body).to_bytes(3, "big") + body
    size = struct.pack(">I", len(body)) if version == 3 or bigendian_size else syncsafe(len(body))
    return frame_id.encode() + size + flags + body


def tag(version, frames, flags=0, extended=b"", padding=128, unsync_whole=False):
    body = extended + b"".join(frames)
    if unsync_whole:
        body = unsynchronise(body)
    body += b"\0" * padding
    return b"ID3" + bytes([version, 0, flags]) + syncsafe(len(body)) + body


def write(data):
    with open(output, "wb") as f:
        f.write(data + audio)


if kind in ("mutagen-v23", "mutagen-v24"):
    import shutil
    from mutagen import id3
    with open(output, "wb") as f:
        f.write(audio)
    tags = id3.ID3()
    tags.add(id3.TIT2(encoding=1, text="Ünïcödé full"))
    tags.add(id3.TPE1(encoding=3, text=["Mary Shelley", "Percy Shelley"]))
    tags.add(id3.TALB(encoding=3, text="the album"))
    tags.add(id3.TPE2(encoding=3, text=["the album artist"]))
    tags.add(id3.TRCK(encoding=3, text="2/3"))
    tags.add(id3.TPOS(encoding=3, text="4/5"))
    tags.add(id3.TDRC(encoding=3, text="2001-05-03"))
    tags.add(id3.TCON(encoding=3, text=["(17)", "Gothic"]))
    tags.add(id3.COMM(encoding=3, lang="eng", desc="", text="a comment"))
    tags.add(id3.TXXX(encoding=3, desc="REPLAYGAIN_TRACK_GAIN", text="-6.50 dB"))
    tags.add(id3.TXXX(encoding=3, desc="REPLAYGAIN_TRACK_PEAK", text="0.988547"))
    tags.add(id3.TXXX(encoding=3, desc="MusicBrainz Album Id", text=ALBUM_ID))
    tags.add(id3.TXXX(encoding=3, desc="MusicBrainz Artist Id", text=ARTIST_IDS))
    tags.add(id3.TXXX(encoding=3, desc="MusicBrainz Release Group Id", text=RELEASE_GROUP_ID))
    tags.add(id3.UFID(owner="http://musicbrainz.org", data=RECORDING_ID.encode()))
    if kind == "mutagen-v23":
        # As mutagen writes 2.3: TDRC as TYER and TDAT, lists joined by "/".
        tags.update_to_v23()
        tags.save(output, v2_version=3)
    else:
        tags.save(output, v2_version=4)
elif kind == "itunes-v24":
    # Latin-1 text frames, each value ending in its terminator; frame sizes as
    # plain big-endian numbers (iTunes' mistake), which differ from syncsafe
    # ones from 128 bytes on, as the iTunNORM comment is.
    normalisation = " " + " ".join("%08X" % (n * 0x1111) for n in range(1, 11))
    frames = [
        ("TIT2", text(["full"])),
        ("TPE1", text(["the artist"])),
        ("TALB", text(["the album"])),
        ("TPE2", text(["the album artist"])),
        ("TRCK", text(["2/3"])),
        ("TPOS", text(["4/5"])),
        ("TDRC", text(["2001"])),
        ("TCON", text(["(17)"])),
        ("COMM", comm("iTunNORM", normalisation * 2)),
        ("COMM", comm("", "a comment")),
        ("TXXX", txxx("replaygain_track_gain", ["-3.25 dB"])),
        ("TXXX", txxx("replaygain_album_gain", ["-4.00 dB"])),
        ("TXXX", txxx("replaygain_album_peak", ["0.750000"])),
    ]
    write(tag(4, [frame(4, i, b, bigendian_size=True) for i, b in frames]))
elif kind == "lists-v24":
    # ID3v2.4's NUL-separated lists with a terminator after the last value,
    # in every encoding; an extended header (syncsafe size counting itself,
    # one flag byte, no flags set); TIT2 unsynchronised per frame (0xFF 0xE0
    # in its Latin-1 bytes) with a data length indicator.
    title = text(["full ÿà title"])
    unsynced_title = syncsafe(len(title)) + unsynchronise(title)
    frames = [
        frame(4, "TIT2", unsynced_title, flags=b"\0\x03"),
        frame(4, "TPE1", text(["Mary Shelley", "Percy Shelley"], 3)),
        frame(4, "TALB", text(["the album"], 1)),
        frame(4, "TPE2", text(["the album artist", "another album artist"], 2)),
        frame(4, "TRCK", text(["02/03"], 0)),
        frame(4, "TPOS", text(["4/5"], 3)),
        frame(4, "TDRC", text(["2001-05-03T10:30"], 0)),
        frame(4, "TCON", text(["17", "(RX)", "(17)Hard", "Gothic"], 3)),
        frame(4, "COMM", comm("", "a comment", 1)),
        frame(4, "TXXX", txxx("REPLAYGAIN_TRACK_GAIN", ["-6.50 dB"], 3)),
        frame(4, "TXXX", txxx("REPLAYGAIN_TRACK_PEAK", ["0.988547"], 3)),
        frame(4, "TXXX", txxx("MusicBrainz Album Id", [ALBUM_ID], 0)),
        frame(4, "TXXX", txxx("MusicBrainz Artist Id", ARTIST_IDS, 3)),
        frame(4, "TXXX", txxx("MusicBrainz Album Artist Id", ARTIST_IDS[:1], 1)),
        frame(4, "TXXX", txxx("MusicBrainz Release Group Id", [RELEASE_GROUP_ID], 2)),
        frame(4, "UFID", ufid("http://musicbrainz.org", RECORDING_ID)),
    ]
    extended = syncsafe(6) + b"\x01\x00"
    write(tag(4, frames, flags=0x40, extended=extended))
elif kind == "quirks-v23":
    # ID3v2.3 unsynchronised as a whole (header flag), with a 2.3 extended
    # header (size 6 not counting itself, two flag bytes, padding size);
    # UTF-16 with a byte-order mark of either order, and one without (as
    # Windows taggers write it: little-endian); TYER, TDAT and TIME.
    def utf16_be_bom(values):
        return b"\x01" + b"".join(b"\xfe\xff" + v.encode("utf-16-be") + b"\0\0" for v in values)
    frames = [
        frame(3, "TIT2", text(["full ÿà title"], 1)),
        frame(3, "TPE1", utf16_be_bom(["the artist"])),
        frame(3, "TALB", b"\x01" + "the album".encode("utf-16-le") + b"\0\0"),
        frame(3, "TPE2", text(["the album artist"], 0)),
        frame(3, "TRCK", text(["2/3"], 0)),
        frame(3, "TPOS", text(["4/5"], 1)),
        frame(3, "TYER", text(["2001"], 0)),
        frame(3, "TDAT", text(["0305"], 0)),
        frame(3, "TIME", text(["1030"], 0)),
        frame(3, "TCON", text(["(17)(18)Hard"], 0)),
        frame(3, "COMM", comm("", "a comment", 1)),
        frame(3, "TXXX", txxx("REPLAYGAIN_TRACK_GAIN", ["+1.25 dB"], 1)),
        frame(3, "TXXX", txxx("MusicBrainz Album Id", [ALBUM_ID], 0)),
        frame(3, "UFID", ufid("http://musicbrainz.org", RECORDING_ID)),
    ]
    extended = struct.pack(">I", 6) + b"\0\0" + struct.pack(">I", 128)
    write(tag(3, frames, flags=0xC0, extended=extended, unsync_whole=True))
elif kind in ("v22", "v22-unsync"):
    # ID3v2.2: three-letter frame IDs, 24-bit sizes, no frame flags; what
    # old iTunes versions wrote. Each value ends in its terminator.
    texts = [
        ("TT2", "full ÿà title" if kind == "v22-unsync" else "full", 0), ("TP1", "the artist", 1),
        ("TP2", "the album artist", 0), ("TAL", "the album", 0), ("TRK", "2/3", 0), ("TPA", "4/5", 0),
        ("TYE", "2001", 0), ("TDA", "0305", 0), ("TCO", "(17)", 0),
    ]
    # An override replaces a text frame's value; an empty one leaves the frame out.
    frames = [frame(2, i, text([overrides.get(i, v)], e)) for i, v, e in texts if overrides.get(i, v)]
    frames += [
        frame(2, "COM", comm("", "a comment", 0)),
        frame(2, "TXX", txxx("REPLAYGAIN_TRACK_GAIN", ["-2.00 dB"], 0)),
        frame(2, "TXX", txxx("MusicBrainz Album Id", [ALBUM_ID], 0)),
        frame(2, "UFI", ufid("http://musicbrainz.org", RECORDING_ID)),
    ]
    unsync = kind == "v22-unsync"
    write(tag(2, frames, flags=0x80 if unsync else 0, unsync_whole=unsync))
else:
    sys.exit("unknown kind " + kind)
