#!/bin/bash
# Regenerates scripts/link-order.txt: the functions that headless playback
# runs, in the order the release link lays them out first (gold's
# --section-ordering-file; see RELEASE_FLAGS in the Makefile).
#
# Why: the kernel maps a program's code 64 KB at a time around each page it
# faults in. Headless playback runs about 150 KB of code spread over 5 MB of
# text, so scattered it kept 3.4 MB of the binary resident; gathered, the part
# of it that can move (ours, the runtime's, the standard library's generic
# functions) fits in a few windows. What stays scattered is the standard
# library's non-generic code, which comes as one section.
#
# How: valgrind's callgrind lists every function that ran, for five runs of
# a release build through a private PulseAudio null sink: plain playback
# (what `make bench` measures), playback with MPRIS on a private session bus
# answering playerctl (what a desktop's player runs), playback with JSON
# events and an alarm, and the full-screen player in tmux going through its
# panes, help, pause and an alarm, and a station from a local Icecast server. A stale list is harmless (renamed functions are simply not moved),
# so run `make link-order` after large changes and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/interlude}
output=scripts/link-order.txt
for tool in valgrind pulseaudio pactl sox lame nm strip tmux dbus-daemon playerctl icecast2 ffmpeg curl; do
    command -v "$tool" >/dev/null || { echo "link-order: $tool is not installed" >&2; exit 1; }
done
[ -x "$binary" ] || { echo "link-order: $binary is missing (make release)" >&2; exit 1; }

work=$(mktemp -d)
pulse_pid=
bus_pid=
icecast_pid=
source_pid=
tmux_socket="$work/tmux.socket"
cleanup() {
    tmux -S "$tmux_socket" kill-server 2>/dev/null || true
    if [ -n "$bus_pid" ]; then kill "$bus_pid" 2>/dev/null || true; fi
    if [ -n "$source_pid" ]; then kill "$source_pid" 2>/dev/null || true; wait "$source_pid" 2>/dev/null || true; fi
    if [ -n "$icecast_pid" ]; then kill "$icecast_pid" 2>/dev/null || true; wait "$icecast_pid" 2>/dev/null || true; fi
    if [ -n "$pulse_pid" ]; then kill "$pulse_pid" 2>/dev/null || true; wait "$pulse_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# valgrind cannot read the DWARF of Swift's static standard library; the
# symbol table is all it needs.
strip -g -o "$work/interlude" "$binary"
sox -q -n -r 44100 -c 2 -b 16 "$work/tone.wav" synth 2 sine 440
lame --quiet -b 128 "$work/tone.wav" "$work/tone.mp3"
sox -q -n -r 44100 -c 2 -b 16 "$work/long.wav" synth 6 sine 440
lame --quiet -b 128 "$work/long.wav" "$work/long.mp3"
sox -q -n -r 44100 -c 2 -b 16 "$work/silence.wav" trim 0 0.3
lame --quiet -b 128 "$work/silence.wav" "$work/silence.mp3"

mkdir -m 700 "$work/pulse"
echo "autospawn = no" > "$work/pulse/client.conf"
export XDG_RUNTIME_DIR="$work/pulse" HOME="$work/pulse" XDG_CONFIG_HOME="$work/pulse/config" \
    PULSE_CLIENTCONFIG="$work/pulse/client.conf"
pulseaudio --daemonize=no -n --exit-idle-time=-1 --disallow-exit --no-cpu-limit \
    "--load=module-null-sink sink_name=out rate=44100 channels=2" \
    "--load=module-native-protocol-unix auth-anonymous=1" --log-target=file:"$work/pulse/log" &
pulse_pid=$!
for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
pactl info >/dev/null || { echo "link-order: pulseaudio did not start" >&2; exit 1; }

profile() {  # profile NAME ARGS...: the functions of our binary that ran, one per line
    local name=$1; shift
    valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$work/$name.out" "$work/interlude" "$@" >/dev/null 2>"$work/$name.log" ||
        { echo "link-order: the $name run failed; see below" >&2; tail -5 "$work/$name.log" >&2; exit 1; }
    # fn= lines under ob= lines that name our binary; callgrind appends 'N to recursion levels.
    awk -v bin="$work/interlude" '/^ob=/ { ours = (substr($0, 4) == bin) } /^fn=/ && ours { print substr($0, 4) }' \
        "$work/$name.out" | sed -E "s/'[0-9]+$//"
}
# Each run's functions sorted, so that a regenerated list differs only where
# the code did (the order inside the group does not matter to residency).
profile play play "$work/tone.mp3" --device pulse | LC_ALL=C sort -u > "$work/play"
# MPRIS: a private session bus (stopped by its PID) and playerctl asking what a desktop widget asks.
bus=$(dbus-daemon --session --print-address --fork --print-pid)
bus_pid=$(echo "$bus" | sed -n 2p)
bus_address=$(echo "$bus" | sed -n 1p)
( for _ in $(seq 100); do DBUS_SESSION_BUS_ADDRESS=$bus_address playerctl -l 2>/dev/null | grep -q interlude && break; sleep 0.2; done
  for command in status metadata position volume "position 1+" pause play; do
      DBUS_SESSION_BUS_ADDRESS=$bus_address playerctl -p interlude $command >/dev/null 2>&1 || true
  done ) &
asker=$!
DBUS_SESSION_BUS_ADDRESS=$bus_address profile mpris play "$work/long.mp3" --device pulse | LC_ALL=C sort -u > "$work/mpris"
wait "$asker" || true
profile alarm play "$work/tone.mp3" --device pulse --events json \
    --alarm-in 0.5 --alarm-ring 0.3 --alarm-sound "$work/silence.mp3" | LC_ALL=C sort -u > "$work/alarm"

# A station: a local Icecast fed by ffmpeg (as the tests' IcecastServer), an
# MP3 mount played for 8 s and ended by SIGTERM, as a listener ends it.
port=$((20000 + RANDOM % 20000))
mkdir "$work/icecast"
cat > "$work/icecast/icecast.xml" <<XML
<icecast><location>link-order</location><admin>a@localhost</admin><hostname>127.0.0.1</hostname>
<limits><clients>8</clients><sources>2</sources><queue-size>524288</queue-size><client-timeout>30</client-timeout>
<header-timeout>15</header-timeout><source-timeout>10</source-timeout><burst-size>65535</burst-size></limits>
<authentication><source-password>source</source-password><relay-password>source</relay-password>
<admin-user>admin</admin-user><admin-password>admin</admin-password></authentication>
<listen-socket><port>$port</port><bind-address>127.0.0.1</bind-address></listen-socket><fileserve>1</fileserve>
<paths><basedir>$work/icecast</basedir><logdir>$work/icecast</logdir><webroot>/usr/share/icecast2/web</webroot>
<adminroot>/usr/share/icecast2/admin</adminroot><pidfile>$work/icecast/icecast.pid</pidfile></paths>
<logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
<security><chroot>0</chroot></security></icecast>
XML
# Icecast refuses to run as root: under a user namespace as 1000 then.
if [ "$(id -u)" = 0 ]; then
    chmod 755 "$work"; chmod 777 "$work/icecast"
    unshare --user --map-user=1000 --map-group=1000 icecast2 -c "$work/icecast/icecast.xml" >/dev/null 2>&1 &
else
    icecast2 -c "$work/icecast/icecast.xml" >/dev/null 2>&1 &
fi
icecast_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status-json.xsl" >/dev/null && break; sleep 0.1; done
ffmpeg -nostdin -v error -re -stream_loop -1 -i "$work/long.wav" -c:a libmp3lame -b:a 128k -content_type audio/mpeg \
    -f mp3 "icecast://source:source@127.0.0.1:$port/station.mp3" >/dev/null 2>&1 &
source_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status-json.xsl" | grep -q station.mp3 && break; sleep 0.1; done
timeout -s TERM 8 valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/station.out" "$work/interlude" play "http://127.0.0.1:$port/station.mp3" --device pulse \
    >/dev/null 2>"$work/station.log" || true
[ -s "$work/station.out" ] || { echo "link-order: the station run left no profile; see below" >&2; tail -5 "$work/station.log" >&2; exit 1; }
awk -v bin="$work/interlude" '/^ob=/ { ours = (substr($0, 4) == bin) } /^fn=/ && ours { print substr($0, 4) }' \
    "$work/station.out" | sed -E "s/'[0-9]+$//" | LC_ALL=C sort -u > "$work/station"

# The full-screen player, in a tmux of its own (a private socket), typed at as
# a user would: every pane, help, pause and play, an alarm and its dismissal, quit.
tmux -S "$tmux_socket" new-session -d -x 120 -y 40 \
    "valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
        --callgrind-out-file='$work/tui.out' '$work/interlude' --device pulse '$work/tone.mp3' 2>'$work/tui.log'"
sleep 6
for key in 2 3 4 5 6 7 8 1 '?' Escape Space Space a x; do
    tmux -S "$tmux_socket" send-keys "$key"
    sleep 1
done
tmux -S "$tmux_socket" send-keys q
for _ in $(seq 100); do [ -s "$work/tui.out" ] && ! tmux -S "$tmux_socket" has-session 2>/dev/null && break; sleep 0.2; done
[ -s "$work/tui.out" ] || { echo "link-order: the full-screen run left no profile; see below" >&2; tail -5 "$work/tui.log" >&2; exit 1; }
awk -v bin="$work/interlude" '/^ob=/ { ours = (substr($0, 4) == bin) } /^fn=/ && ours { print substr($0, 4) }' \
    "$work/tui.out" | sed -E "s/'[0-9]+$//" | LC_ALL=C sort -u > "$work/tui"

# Only names the binary defines (callgrind also names PLT stubs and the like):
# plain playback's first, then what MPRIS adds, then the alarm run, then the full-screen player's,
# then a station's.
nm --defined-only "$binary" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | LC_ALL=C sort -u > "$work/defined"
{
    echo "# Generated by scripts/link-order.sh: the functions playback runs (headless first, with MPRIS,"
    echo "# then the full-screen player's, then a station's), laid out together by the release link. Regenerate with 'make link-order'."
    awk 'NR == FNR { defined[$0] = 1; next } defined[$0] && !seen[$0]++ { print ".text." $0 }' \
        "$work/defined" "$work/play" "$work/mpris" "$work/alarm" "$work/tui" "$work/station"
} > "$output.tmp"
mv "$output.tmp" "$output"
echo "link-order: $(grep -vc '^#' "$output") functions in $output"
