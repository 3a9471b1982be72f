#!/usr/bin/env python3
"""Writes ID3v2 chapters into MP3 files with mutagen, a tool we did not write,
so the Swift chapter parser is tested against real-world tag bytes.

Usage: write_chapters.py SPEC.json

SPEC.json is a list of files to write, each:
  {"source": "tone.mp3", "output": "out.mp3", "version": 3 or 4,
   "encoding": 0..3 (TIT2 text encoding), "toc": true/false,
   "toc_order": ["ch2", ...] (optional: CTOC children, default chapter order),
   "chapters": [{"id": "ch0", "title": "...", "start": ms, "end": ms}, ...]}

The CHAP frames are added in reverse order, so the order a reader reports
comes from the CTOC (when "toc") or from the start times, never from the
order of frames in the file. The expectations live in the Swift test that
writes the spec; this script only writes.
"""
import json
import shutil
import sys

try:
    from mutagen.id3 import CHAP, CTOC, ID3, TIT2, CTOCFlags
except ImportError:
    sys.exit("write_chapters.py: Python module 'mutagen' is missing; "
             "run scripts/install-python-tools.sh (installs it into build/python) "
             "and put build/python on PYTHONPATH")

NO_OFFSET = 0xFFFFFFFF


def write(entry):
    shutil.copyfile(entry["source"], entry["output"])
    encoding = entry["encoding"]
    tags = ID3()
    ids = entry.get("toc_order") or [chapter["id"] for chapter in entry["chapters"]]
    if entry["toc"]:
        tags.add(CTOC(element_id="toc", flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
                      child_element_ids=ids,
                      sub_frames=[TIT2(encoding=encoding, text=["Contents"])]))
    for chapter in reversed(entry["chapters"]):
        tags.add(CHAP(element_id=chapter["id"], start_time=chapter["start"],
                      end_time=chapter["end"], start_offset=NO_OFFSET, end_offset=NO_OFFSET,
                      sub_frames=[TIT2(encoding=encoding, text=[chapter["title"]])]))
    tags.save(entry["output"], v2_version=entry["version"])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as spec:
        for entry in json.load(spec):
            write(entry)


if __name__ == "__main__":
    main()
