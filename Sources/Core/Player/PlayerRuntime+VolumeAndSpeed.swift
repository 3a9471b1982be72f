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

    /// 0...1, composed with ducking by the controller.
    package var volume: Double {
        get { controller.volume }
        set {
            controller.volume = newValue
            events.emit(.volume(controller.volume))
        }
    }
}
