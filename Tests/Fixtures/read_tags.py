#!/usr/bin/env python3
"""Prints mutagen's reading of a file's tags as one JSON object, in the shape
of the "tags" object of `interlude info --json`, so a test compares the two
field by field: mutagen, a library we did not write, is the oracle.

Usage: read_tags.py PATH

ID3 (MP3, with mutagen's own translation of ID3v2.2 and 2.3 frames into
2.4's: TT2 -> TIT2, TYER+TDAT+TIME -> TDRC), Vorbis comments (FLAC, Ogg
Vorbis, Opus) and MP4 atoms. What mutagen gives is only rearranged, never
interpreted further than the player's documented mapping: a field's values
in the file's order, empty values left out, spaces and tabs at either end
trimmed; numbers "N/M" split; the year the first four digits of the date;
ReplayGain's number before its unit.
"""
import json
import re
import sys

import mutagen
from mutagen.id3 import ID3FileType
from mutagen.mp4 import MP4

path = sys.argv[1]
audio = mutagen.File(path)
if audio is None:
    sys.exit("read_tags.py: mutagen cannot read " + path)


def clean(values):
    out = []
    for value in values:
        value = str(value).strip(" \t")
        if value:
            out.append(value)
    return out


def position(text):
    """As the player's AudioTags.Position reads "3", "3/12", "/12"."""
    parts = text.split("/", 1)
    def number(part):
        m = re.match(r" *([0-9]{1,5})(?![0-9])", part)
        value = int(m.group(1)) if m else None
        return value if value and value >= 1 else None
    first = number(parts[0])
    total = number(parts[1]) if len(parts) > 1 else None
    return first, total


def decibels(text):
    m = re.match(r" *\+?(-?[0-9.]+)", text)
    return float(m.group(1)) if m else None


def peak(text):
    try:
        return float(text.strip().split(" ")[0])
    except ValueError:
        return None


fields = {}
lists = {}


def put_text(name, values):
    values = clean(values)
    if values:
        fields[name] = values[0]


def put_list(name, joined_name, values):
    values = clean(values)
    if values:
        lists[name] = values
        if joined_name:
            fields[joined_name] = "; ".join(values)


def put_position(prefix, number, total):
    if number is None and total is None:
        return
    fields[prefix] = ("" if number is None else str(number)) + ("" if total is None else "/%d" % total)
    if number is not None:
        fields[prefix + "Number"] = number
    if total is not None:
        fields[prefix + "Total"] = total


def put_names(title, artists, album, album_artists):
    put_text("title", title)
    put_list("artists", "artist", artists)
    put_text("album", album)
    put_list("albumArtists", "albumArtist", album_artists)


def put_date(text):
    if not text:
        return
    fields["date"] = text
    m = re.match(r" *([0-9]{4})", text)
    if m and int(m.group(1)) >= 1:
        fields["year"] = int(m.group(1))


def put_gains(get):
    for name, key, parse in [("trackGain", "REPLAYGAIN_TRACK_GAIN", decibels),
                             ("trackPeak", "REPLAYGAIN_TRACK_PEAK", peak),
                             ("albumGain", "REPLAYGAIN_ALBUM_GAIN", decibels),
                             ("albumPeak", "REPLAYGAIN_ALBUM_PEAK", peak)]:
        value = get(key)
        if value:
            number = parse(value)
            if number is not None:
                fields[name] = number


if isinstance(audio, ID3FileType):
    tags = audio.tags or {}

    def frame(name):
        return tags.get(name)

    def texts(name):
        f = frame(name)
        return list(f.text) if f is not None else []

    def txxx(desc):
        # mutagen keys TXXX frames by their description as written (case matters).
        for key, f in tags.items():
            if key.startswith("TXXX:") and f.desc.upper() == desc.upper():
                return list(f.text)
        return []

    put_names(texts("TIT2"), texts("TPE1"), texts("TALB"), texts("TPE2"))
    for prefix, name in [("track", "TRCK"), ("disc", "TPOS")]:
        values = clean(texts(name))
        if values:
            put_position(prefix, *position(values[0]))
    # mutagen shows a timestamp's time after a space; ID3v2.4 (section 4.2.5)
    # and the file write ISO 8601's "T", which is what the player reports.
    dates = clean(re.sub(r"^([0-9-]+) ", r"\1T", str(t)) for t in texts("TDRC"))
    if dates:
        put_date(dates[0])
    tcon = frame("TCON")
    if tcon is not None:
        put_list("genres", "genre", tcon.genres)
    comments = [f for key, f in tags.items() if key.startswith("COMM")]
    # The comment is the one without a description (iTunes keeps its own data in described ones).
    comments.sort(key=lambda f: f.desc != "")
    for f in comments:
        values = clean(f.text)
        if values:
            fields["comment"] = values[0]
            break
    put_gains(lambda key: (clean(txxx(key)) or [None])[0])
    for f in tags.getall("UFID"):
        if f.owner == "http://musicbrainz.org":
            fields["musicBrainzRecordingId"] = f.data.decode("ascii", "replace")
    put_text("musicBrainzAlbumId", txxx("MusicBrainz Album Id"))
    put_list("musicBrainzArtistIds", None, txxx("MusicBrainz Artist Id"))
    put_list("musicBrainzAlbumArtistIds", None, txxx("MusicBrainz Album Artist Id"))
    put_text("musicBrainzReleaseGroupId", txxx("MusicBrainz Release Group Id"))
elif isinstance(audio, MP4):
    tags = audio.tags or {}

    def strings(key):
        return [v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in tags.get(key, [])]

    def freeform(name):
        # Freeform names in any case, as the player (and ReplayGain's convention) takes them.
        for key in tags.keys():
            if key.startswith("----:") and key.split(":", 2)[-1].upper() == name.upper():
                return strings(key)
        return []

    put_names(strings("\xa9nam"), strings("\xa9ART"), strings("\xa9alb"), strings("aART"))
    for prefix, key in [("track", "trkn"), ("disc", "disk")]:
        if tags.get(key):
            number, total = tags[key][0]
            put_position(prefix, number if 1 <= number <= 99999 else None, total if 1 <= total <= 99999 else None)
    dates = clean(strings("\xa9day"))
    if dates:
        put_date(dates[0])
    genres = strings("\xa9gen")
    if not clean(genres) and tags.get("gnre"):
        # gnre: ID3v1's genre number plus one.
        from mutagen._constants import GENRES
        genres = [GENRES[n - 1] for n in tags["gnre"] if 1 <= n <= len(GENRES)]
    put_list("genres", "genre", genres)
    put_text("comment", strings("\xa9cmt"))
    put_gains(lambda key: (clean(freeform(key)) or [None])[0])
    put_text("musicBrainzRecordingId", freeform("MusicBrainz Track Id"))
    put_text("musicBrainzAlbumId", freeform("MusicBrainz Album Id"))
    put_list("musicBrainzArtistIds", None, freeform("MusicBrainz Artist Id"))
    put_list("musicBrainzAlbumArtistIds", None, freeform("MusicBrainz Album Artist Id"))
    put_text("musicBrainzReleaseGroupId", freeform("MusicBrainz Release Group Id"))
else:
    # Vorbis comments: mutagen gives each name's values in the file's order.
    tags = audio.tags or {}

    def values(*names):
        for name in names:
            found = clean(tags.get(name, []))
            if found:
                return found
        return []

    put_names(values("title"), values("artist"), values("album"), values("albumartist", "album_artist", "album artist"))
    for prefix, number_names, total_names in [("track", ("tracknumber", "track"), ("tracktotal", "totaltracks")),
                                              ("disc", ("discnumber", "disc"), ("disctotal", "totaldiscs"))]:
        number = values(*number_names)
        if number:
            first, total = position(number[0])
            extra = values(*total_names)
            if total is None and extra:
                total = position(extra[0])[0]
            put_position(prefix, first, total)
    dates = values("date", "year")
    if dates:
        put_date(dates[0])
    put_list("genres", "genre", values("genre"))
    put_text("comment", values("comment", "description"))
    put_gains(lambda key: (values(key.lower()) or [None])[0])
    put_text("musicBrainzRecordingId", values("musicbrainz_trackid"))
    put_text("musicBrainzAlbumId", values("musicbrainz_albumid"))
    put_list("musicBrainzArtistIds", None, values("musicbrainz_artistid"))
    put_list("musicBrainzAlbumArtistIds", None, values("musicbrainz_albumartistid"))
    put_text("musicBrainzReleaseGroupId", values("musicbrainz_releasegroupid"))

fields.update(lists)
print(json.dumps(fields, ensure_ascii=False, sort_keys=True))
