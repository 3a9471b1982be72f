#!/usr/bin/env python3
"""Writes lyrics into an audio file with mutagen, a tagger we did not write,
so the lyrics readers are checked against real tag bytes.

Usage: write_lyrics.py SPEC.json
SPEC: {"kind": "sylt" | "uslt" | "flac" | "ogg" | "opus" | "mp4", "path": FILE,
       "version": 3 | 4 (ID3), "encoding": 0-3 (ID3), "format": 1 | 2 (SYLT's
       time stamps: MPEG frames or milliseconds),
       "lines": [[TEXT, STAMP], ...] (SYLT), "text": TEXT (the others),
       "name": "LYRICS" | "UNSYNCEDLYRICS" (Vorbis comments)}
The expectations live in the Swift test; this script only writes.
"""
import json
import sys

from mutagen import id3
from mutagen.flac import FLAC
from mutagen.mp4 import MP4
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis

spec = json.load(open(sys.argv[1]))
kind, path = spec["kind"], spec["path"]

if kind in ("sylt", "uslt"):
    try:
        tags = id3.ID3(path)
    except id3.ID3NoHeaderError:
        tags = id3.ID3()
    encoding = spec.get("encoding", 3)
    if kind == "sylt":
        tags.add(id3.SYLT(encoding=encoding, lang="eng", format=spec.get("format", 2), type=1, desc="",
                          text=[(text, stamp) for text, stamp in spec["lines"]]))
    else:
        tags.add(id3.USLT(encoding=encoding, lang="eng", desc="", text=spec["text"]))
    tags.save(path, v2_version=spec.get("version", 4))
elif kind in ("flac", "ogg", "opus"):
    audio = {"flac": FLAC, "ogg": OggVorbis, "opus": OggOpus}[kind](path)
    audio[spec.get("name", "LYRICS")] = spec["text"]
    audio.save()
elif kind == "mp4":
    audio = MP4(path)
    audio["\xa9lyr"] = spec["text"]
    audio.save()
else:
    sys.exit("unknown kind " + kind)
