#!/usr/bin/env python3
"""Live HLS with timed ID3 titles, as a station's packager writes it.

Usage: hls_timed_id3.py [--station NAME] AUDIO.aac FOLDER SECONDS:ARTIST:TITLE [...]

AUDIO.aac is AAC in ADTS (ffmpeg -f adts). Its frames are put in MPEG-TS
segments of one second with a second elementary stream of timed ID3 (stream
type 0x15 with a metadata descriptor naming "ID3 ", PES stream id 0xBD), as
Apple's "Timed Metadata for HTTP Live Streaming" describes: one ID3v2.4 tag
(TPE1 and TIT2, and TRSN, the "Internet radio station name", with --station)
at each given time, with that time as its PTS, and the
current one again at the start of each segment, as packagers repeat it. The segments
are published in real time, a second each, into FOLDER with a playlist of a
sliding window of six (live.m3u8, replaced atomically), and the playlist ends
(#EXT-X-ENDLIST) after the last. Only the standard library.
"""
import os
import struct
import sys
import time

PAT_PID, PMT_PID, AUDIO_PID, ID3_PID = 0x0000, 0x1000, 0x0101, 0x0102
CLOCK = 90000
SEGMENT_SECONDS = 1.0
WINDOW = 6


def mpeg_crc32(data):
    """CRC-32/MPEG-2: polynomial 0x04C11DB7, not reflected, initial 0xFFFFFFFF."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else (crc << 1) & 0xFFFFFFFF
    return crc


def adts_frames(data):
    """(frame bytes, sample rate) for each ADTS frame."""
    rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
    offset = 0
    while offset + 7 <= len(data):
        if data[offset] != 0xFF or data[offset + 1] & 0xF6 != 0xF0:
            raise SystemExit(f"not ADTS at byte {offset}")
        length = ((data[offset + 3] & 0x03) << 11) | (data[offset + 4] << 3) | (data[offset + 5] >> 5)
        rate = rates[(data[offset + 2] >> 2) & 0x0F]
        yield data[offset:offset + length], rate
        offset += length


def syncsafe(value):
    return bytes([(value >> 21) & 0x7F, (value >> 14) & 0x7F, (value >> 7) & 0x7F, value & 0x7F])


def id3_tag(artist, title, station=None):
    frames = b""
    texts = (("TRSN", station),) if station else ()
    for frame_id, text in texts + (("TPE1", artist), ("TIT2", title)):
        body = b"\x03" + text.encode("utf-8")
        frames += frame_id.encode() + syncsafe(len(body)) + b"\x00\x00" + body
    return b"ID3\x04\x00\x00" + syncsafe(len(frames)) + frames


def pts_bytes(pts):
    """A PES header's 33-bit PTS, '0010' first (PTS only)."""
    pts &= (1 << 33) - 1
    return bytes([0x20 | ((pts >> 29) & 0x0E) | 1, (pts >> 22) & 0xFF, ((pts >> 14) & 0xFE) | 1,
                  (pts >> 7) & 0xFF, ((pts << 1) & 0xFE) | 1])


def pes(stream_id, pts, payload, aligned=False):
    """A PES packet with a PTS; `aligned`: data_alignment_indicator (a whole ID3 tag)."""
    header = bytes([0x84 if aligned else 0x80, 0x80, 5]) + pts_bytes(pts)
    length = len(header) + len(payload)
    return b"\x00\x00\x01" + bytes([stream_id]) + struct.pack(">H", length if length < 0x10000 else 0) + header + payload


def section(table_id, body):
    """A PSI section: its header, `body` and MPEG's CRC-32, after a pointer field of 0."""
    data = bytes([table_id]) + struct.pack(">H", 0xB000 | (len(body) + 4)) + body
    return b"\x00" + data + struct.pack(">I", mpeg_crc32(data))


class Muxer:
    def __init__(self):
        self.counters = {}

    def packets(self, pid, payload, pcr=None):
        """188-byte TS packets carrying `payload`, stuffed through the adaptation field."""
        out = b""
        first = True
        while first or payload:
            counter = self.counters.get(pid, 0)
            self.counters[pid] = (counter + 1) & 0x0F
            field = None
            if first and pcr is not None:
                base = pcr & ((1 << 33) - 1)
                field = b"\x10" + struct.pack(">I", base >> 1) + bytes([((base & 1) << 7) | 0x7E, 0])
            space = 184 - (1 + len(field) if field is not None else 0)
            if len(payload) < space:
                need = space - len(payload)
                if field is not None:
                    field += b"\xFF" * need
                else:
                    field = b"" if need == 1 else b"\x00" + b"\xFF" * (need - 2)
            size = 184 - (1 + len(field) if field is not None else 0)
            chunk, payload = payload[:size], payload[size:]
            control = (0x30 if field is not None else 0x10) | counter
            out += bytes([0x47, (0x40 if first else 0) | (pid >> 8), pid & 0xFF, control])
            if field is not None:
                out += bytes([len(field)]) + field
            out += chunk
            first = False
        return out

    def tables(self):
        """The PAT and the PMT: AAC in ADTS (0x0F, the PCR's) and timed ID3 (0x15, metadata descriptor 'ID3 ')."""
        pat = struct.pack(">HBBB", 1, 0xC1, 0, 0) + struct.pack(">HH", 1, 0xE000 | PMT_PID)
        pointer = b"\x25\x0F\xFF\xFFID3 \xFFID3 \x00\x1F\x00\x01"
        metadata = b"\x26\x0D\xFF\xFFID3 \xFFID3 \x00\x0F"
        pmt = (struct.pack(">HBBB", 1, 0xC1, 0, 0) + struct.pack(">HH", 0xE000 | AUDIO_PID, 0xF000 | len(pointer)) + pointer
               + bytes([0x0F]) + struct.pack(">HH", 0xE000 | AUDIO_PID, 0xF000)
               + bytes([0x15]) + struct.pack(">HH", 0xE000 | ID3_PID, 0xF000 | len(metadata)) + metadata)
        return self.packets(PAT_PID, section(0x00, pat)) + self.packets(PMT_PID, section(0x02, pmt))


def main():
    arguments = sys.argv[1:]
    station = None
    if arguments[:1] == ["--station"] and len(arguments) > 1:
        station, arguments = arguments[1], arguments[2:]
    if len(arguments) < 2:
        raise SystemExit(__doc__)
    audio, folder = arguments[0], arguments[1]
    titles = []
    for spec in arguments[2:]:
        seconds, artist, title = spec.split(":", 2)
        titles.append((float(seconds), artist, title))
    titles.sort()
    with open(audio, "rb") as handle:
        frames = list(adts_frames(handle.read()))
    muxer = Muxer()
    segments = []
    current = b""
    samples = 0
    rate = frames[0][1]
    pending = list(titles)
    playing = None
    for frame, _ in frames:
        seconds = samples / rate
        pts = CLOCK + samples * CLOCK // rate
        starts_segment = not current or seconds >= (len(segments) + 1) * SEGMENT_SECONDS
        if starts_segment:
            if current:
                segments.append(current)
            current = muxer.tables()
        changed = False
        while pending and pending[0][0] <= seconds:
            playing = pending.pop(0)[1:]
            changed = True
        # A new title where it starts; the one playing again at each segment's start,
        # as packagers repeat it, for a listener who joins later.
        if playing and (changed or starts_segment):
            current += muxer.packets(ID3_PID, pes(0xBD, pts, id3_tag(*playing, station=station), aligned=True))
        current += muxer.packets(AUDIO_PID, pes(0xC0, pts, frame), pcr=pts - 9000)
        samples += 1024
    segments.append(current)

    os.makedirs(folder, exist_ok=True)
    start = time.monotonic()
    for index, segment in enumerate(segments):
        # Published as it would be finished: a second after it starts.
        delay = start + (index + 1) * SEGMENT_SECONDS - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        name = f"segment{index}.ts"
        with open(os.path.join(folder, name + ".tmp"), "wb") as handle:
            handle.write(segment)
        os.replace(os.path.join(folder, name + ".tmp"), os.path.join(folder, name))
        first = max(0, index - WINDOW + 1)
        lines = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{int(SEGMENT_SECONDS) + 1}",
                 f"#EXT-X-MEDIA-SEQUENCE:{first}"]
        for shown in range(first, index + 1):
            lines += [f"#EXTINF:{SEGMENT_SECONDS:.3f},", f"segment{shown}.ts"]
        if index == len(segments) - 1:
            lines.append("#EXT-X-ENDLIST")
        with open(os.path.join(folder, "live.m3u8.tmp"), "w") as handle:
            handle.write("\n".join(lines) + "\n")
        os.replace(os.path.join(folder, "live.m3u8.tmp"), os.path.join(folder, "live.m3u8"))


if __name__ == "__main__":
    main()
