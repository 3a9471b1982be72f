import AudioEngine
import PlayerModel

/// The listener's volume and speed.
extension PlayerRuntime {
    /// The `[` and `]` keys: from the next frames decoded, pitch kept. Nil
    /// when done, else why not.
    package func setSpeed(_ speed: PlaybackSpeed) -> String? {
        do { try engine.setSpeed(speed) } catch { return error.description }
        events.emit(.speed(speed.value))
        return nil
    }

    /// Volume to 0 and back to where it was, as mpv's `m`.
    package func toggleMute() {
        if let level = volumeBeforeMute {
            volumeBeforeMute = nil
            volume = level
        } else {
            volumeBeforeMute = volume
            volume = 0
        }
    }

    /// The volume the listener chose: while muted, the one a mute returns to
    /// (what the full-screen player keeps in player.json, so no start is silent).
    package var chosenVolume: Double { volumeBeforeMute ?? volume }

    /// A volume change: while muted it starts from the volume before the mute
    /// (up a step is a step above it, down below it) and unmutes.
    package func changeVolume(_ change: (Double) -> Double) {
        let from = chosenVolume
        volumeBeforeMute = nil
        volume = min(1, max(0, change(from)))
    }

    /// 0...1, composed with ducking by the controller.
    package var volume: Double {
        get { controller.volume }
        set {
            controller.volume = newValue
            events.emit(.volume(controller.volume))
        }
    }
}
