#!/usr/bin/env python3
"""Writes the same tags and front cover into an audio file with mutagen, a
tagger we did not write, so the one tag type (`AudioTags`) is checked against
real tag bytes in every format.

Usage: write_tags.py KIND PATH COVER
KIND: id3v23, id3v24 (MP3), flac, mp4, ogg, opus. COVER: the picture's bytes.
The expectations live in the Swift test; this script only writes.
"""
import base64
import sys

from mutagen import id3
from mutagen.flac import FLAC, Picture
from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis

kind, path, cover_path = sys.argv[1:4]
cover = open(cover_path, "rb").read()
TITLE = "Chapter Eleven \u2014 \u7b2c\u5341\u4e00\u7ae0"
ARTISTS = ["Mary Shelley", "Percy Shelley"]


def picture():
    p = Picture()
    p.type = 3
    p.mime = "image/jpeg"
    p.desc = "cover"
    p.width = p.height = 16
    p.depth = 24
    p.data = cover
    return p


def vorbis(tags, numbers_with_totals):
    tags["TITLE"] = TITLE
    tags["ARTIST"] = ARTISTS
    tags["ALBUM"] = "Frankenstein"
    tags["ALBUMARTIST"] = "Read by Someone"
    if numbers_with_totals:
        tags["TRACKNUMBER"] = "3/12"
        tags["DISCNUMBER"] = "1/2"
    else:
        tags["TRACKNUMBER"], tags["TRACKTOTAL"] = "3", "12"
        tags["DISCNUMBER"], tags["DISCTOTAL"] = "1", "2"
    tags["DATE"] = "1818-01-01"
    tags["GENRE"] = "Gothic"
    tags["REPLAYGAIN_TRACK_GAIN"] = "-6.50 dB"
    tags["REPLAYGAIN_TRACK_PEAK"] = "0.5"


if kind in ("id3v23", "id3v24"):
    tags = id3.ID3()
    tags.add(id3.TIT2(encoding=3, text=TITLE))
    tags.add(id3.TPE1(encoding=3, text=ARTISTS if kind == "id3v24" else ARTISTS[:1]))
    tags.add(id3.TALB(encoding=3, text="Frankenstein"))
    tags.add(id3.TPE2(encoding=3, text="Read by Someone"))
    tags.add(id3.TRCK(encoding=3, text="3/12"))
    tags.add(id3.TPOS(encoding=3, text="1/2"))
    tags.add(id3.TDRC(encoding=3, text="1818-01-01"))
    tags.add(id3.TCON(encoding=3, text="Gothic"))
    tags.add(id3.TXXX(encoding=3, desc="REPLAYGAIN_TRACK_GAIN", text="-6.50 dB"))
    tags.add(id3.TXXX(encoding=3, desc="REPLAYGAIN_TRACK_PEAK", text="0.5"))
    tags.add(id3.APIC(encoding=3, mime="image/jpeg", type=3, desc="cover", data=cover))
    if kind == "id3v23":
        # As a v2.3 tagger writes it: TDRC becomes TYER (and TDAT).
        tags.update_to_v23()
    tags.save(path, v2_version=3 if kind == "id3v23" else 4)
elif kind == "flac":
    audio = FLAC(path)
    vorbis(audio, numbers_with_totals=False)
    audio.add_picture(picture())
    audio.save()
elif kind in ("ogg", "opus"):
    audio = OggVorbis(path) if kind == "ogg" else OggOpus(path)
    vorbis(audio, numbers_with_totals=kind == "ogg")
    audio["METADATA_BLOCK_PICTURE"] = [base64.b64encode(picture().write()).decode("ascii")]
    audio.save()
elif kind == "mp4":
    audio = MP4(path)
    audio["\xa9nam"] = TITLE
    audio["\xa9ART"] = ARTISTS[:1]
    audio["\xa9alb"] = "Frankenstein"
    audio["aART"] = "Read by Someone"
    audio["trkn"] = [(3, 12)]
    audio["disk"] = [(1, 2)]
    audio["\xa9day"] = "1818-01-01"
    audio["\xa9gen"] = "Gothic"
    audio["----:com.apple.iTunes:REPLAYGAIN_TRACK_GAIN"] = [MP4FreeForm(b"-6.50 dB")]
    audio["----:com.apple.iTunes:REPLAYGAIN_TRACK_PEAK"] = [MP4FreeForm(b"0.5")]
    audio["covr"] = [MP4Cover(cover, imageformat=MP4Cover.FORMAT_JPEG)]
    audio.save()
else:
    sys.exit("unknown kind " + kind)
