#!/usr/bin/env bash
# Installs the Debian packages Interlude builds, runs and tests with.
# Idempotent and quiet when everything is present; only acts when run as root.
set -eu
packages=(
  pkg-config
  libasound2-dev libasound2-plugins
  libmpg123-dev mpg123
  libsonic-dev libsonic0
  libncursesw5-dev libncursesw6
  pulseaudio pulseaudio-utils
  lame sox espeak-ng
  tmux stress-ng
  tzdata
  g++ valgrind
  # Formats beyond MP3 (FFmpeg's libraries, dlopen'ed) and their test oracles and encoders.
  libavformat-dev libavcodec-dev libswresample-dev libavutil-dev ffmpeg flac opus-tools vorbis-tools
  # Issue 32: WavPack, Musepack and Monkey's Audio (JMAC, in Java) encoders for the fixtures FFmpeg's probe decodes.
  wavpack musepack-tools libjmac-java default-jre-headless
  # FLAC through libFLAC (dlopen'ed), so playing a FLAC maps none of FFmpeg's libraries.
  libflac-dev
  # Desktop interruptions (libpulse), MPRIS (sd-bus) and its test client, the library index.
  libpulse-dev libsystemd-dev dbus-daemon dbus-bin playerctl libsqlite3-dev libebur128-dev
  # Counting a file's opens (the tags are read once per file).
  strace
  # Streams (issue 26): a real Icecast server for the radio tests (ffmpeg feeds it; openssl makes their test CA),
  # and oggfwd (libshout), the source that sends an Ogg station's songs as chains, each with its title.
  icecast2 openssl oggfwd
  # Tags written by real taggers with other libraries than mutagen (issue 32): TagLib, id3lib, eyeD3, MP4.
  kid3-cli id3v2 eyed3 atomicparsley
  # Installing (issue 31): the man page's and the package's checkers, the shells whose
  # completions are tested, the Debian package's tools, the AppStream validator.
  mandoc lintian zsh fish bash-completion dpkg-dev fakeroot appstream desktop-file-utils
  # Issue 44: systemd-analyze verifies the installed user unit (no systemd needs to run).
  systemd
  # Alarms (issue 28): a real MPRIS player that an alarm pauses and resumes (mpv with its
  # MPRIS plugin), and python-dbusmock's logind and systemd templates on private buses.
  mpv mpv-mpris python3-dbusmock
  # Issue 28 point 6: the desktop-interruption and other-players tests also run against PipeWire
  # with WirePlumber and pipewire-pulse (Tests/TestSupport/PipeWireServer.swift), started headless.
  pipewire wireplumber pipewire-pulse
  # The MPD front end (issue 29): MPD itself as the reference, mpc and python-mpd2 as its clients.
  mpd mpc python3-mpd
  # ncmpcpp and ncmpc in tmux: the playlist, the library browser, search and play driven by their keys.
  ncmpcpp ncmpc
  # Cover art (issue 30): libchafa for terminal graphics, libjpeg-turbo and libpng to decode (all dlopen'ed).
  libchafa-dev libjpeg62-turbo-dev libpng-dev
  # Its sixel test: a real xterm (-ti vt340) under Xvfb, its fonts, xwd for the screenshot.
  xterm xvfb x11-apps xfonts-base
  # Podcasts (issue 27): feeds and OPML read with libxml2's reader, fetched with libcurl (both dlopen'ed).
  libxml2-dev libcurl4-openssl-dev
  # Rooms (issue 48): a real Snapcast server and its clients, and what the server's stock control
  # script meta_mpd.py imports (python-mpd2, dbus, GLib: above or with mpv; musicbrainzngs here).
  snapserver snapclient python3-musicbrainzngs python3-dbus python3-gi
)
# Peers that only `make bench` runs beside interlude (scripts/install-deps.sh --bench).
# The stations' row (issue 26) runs `mpv --no-video` and `ffplay -nodisp`: mpv and ffmpeg, above.
bench_packages=(cmus)
[ "${1:-}" = "--bench" ] && packages+=("${bench_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "interlude: missing Debian packages: ${missing[*]} (run 'make' as root, or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "interlude: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine's package lists are empty: apt-get install finds nothing before an update.
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
