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
# How: valgrind's callgrind lists every function that ran, for four runs of
# a release build through a private PulseAudio null sink: plain playback
# (what `make bench` measures), playback with MPRIS on a private session bus
# answering playerctl (what a desktop's player runs), playback with JSON
# events and an alarm, and the full-screen player in tmux going through its
# panes, help, pause and an alarm. A stale list is harmless (renamed functions are simply not moved),
# so run `make link-order` after large changes and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/interlude}
output=scripts/link-order.txt
for tool in valgrind pulseaudio pactl sox lame nm strip tmux dbus-daemon playerctl; do
    command -v "$tool" >/dev/null || { echo "link-order: $tool is not installed" >&2; exit 1; }
done
[ -x "$binary" ] || { echo "link-order: $binary is missing (make release)" >&2; exit 1; }

work=$(mktemp -d)
pulse_pid=
bus_pid=
tmux_socket="$work/tmux.socket"
cleanup() {
    tmux -S "$tmux_socket" kill-server 2>/dev/null || true
    if [ -n "$bus_pid" ]; then kill "$bus_pid" 2>/dev/null || true; fi
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
# plain playback's first, then what MPRIS adds, then the alarm run, then the full-screen player's.
nm --defined-only "$binary" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | LC_ALL=C sort -u > "$work/defined"
{
    echo "# Generated by scripts/link-order.sh: the functions playback runs (headless first, with MPRIS,"
    echo "# then the full-screen player's), laid out together by the release link. Regenerate with 'make link-order'."
    awk 'NR == FNR { defined[$0] = 1; next } defined[$0] && !seen[$0]++ { print ".text." $0 }' \
        "$work/defined" "$work/play" "$work/mpris" "$work/alarm" "$work/tui"
} > "$output.tmp"
mv "$output.tmp" "$output"
echo "link-order: $(grep -vc '^#' "$output") functions in $output"
