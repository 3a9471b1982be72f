#!/usr/bin/env bash
# Installs the Python tools the tests drive (mutagen writes the ID3 chapter
# fixtures: a tool we did not write, so the parser is checked against real
# files; jeepney, a pure-Python D-Bus client, stands in for logind on a
# private bus, where a signal must come from the name's owner; podcastparser,
# gPodder's feed parser, is the oracle of what a podcast feed holds). They go into build/python, never into the system's site-packages,
# so a developer's Python stays untouched. Idempotent and quiet when present.
set -eu
cd "$(dirname "$0")/.."
target=build/python
if PYTHONPATH="$target" python3 -c 'import mutagen, jeepney, podcastparser' 2>/dev/null; then
  exit 0
fi
if ! command -v python3 >/dev/null; then
  echo "interlude: python3 is missing (apt-get install python3 python3-pip)" >&2
  exit 1
fi
if ! python3 -m pip --version >/dev/null 2>&1; then
  echo "interlude: pip for python3 is missing (apt-get install python3-pip)" >&2
  exit 1
fi
echo "interlude: installing mutagen, jeepney and podcastparser into $target" >&2
mkdir -p "$target"
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --target "$target" 'mutagen>=1.45' 'jeepney>=0.8' 'podcastparser>=0.6.10'
