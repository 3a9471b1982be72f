extension PlaybackEngine {
    func collectStop(into result: inout [PlaybackEvent]) {
        guard !stopAnnounced, pendingResume == nil, let position = stopPosition,
              control?.pointee.mediaRun.load(ordering: .relaxed) == false else { return }
        stopAnnounced = true
        result.append(.mediaStopped(position: position))
    }

    func finish(into result: inout [PlaybackEvent]) {
        guard !isFinished else { return }
        isFinished = true
        if announcedEnd < announcedStart, announcedStart >= 0 {
            let track = feeder.tracks[announcedStart]
            result.append(.trackEnded(index: track.index, path: track.path))
            announcedEnd = announcedStart
        }
        result.append(.finished(underruns: underruns))
    }

    func collectFeederEvents(into result: inout [PlaybackEvent]) {
        for event in feeder.takeEvents() {
            switch event {
            case .failed(let error): result.append(.skipped(error))
            case .truncated(let path, let decoded, let expected):
                result.append(.truncated(path: path, seconds: format.seconds(forFrames: decoded),
                                         expectedSeconds: format.seconds(forFrames: expected)))
            }
        }
    }

    /// Announces track starts and ends the listener has reached.
    func collectTrackEvents(heard: Int, into result: inout [PlaybackEvent]) {
        let tracks = feeder.tracks
        while true {
            let next = announcedStart + 1
            if announcedEnd < announcedStart {
                // The current track ends when its last frame has been heard.
                let current = tracks[announcedStart]
                guard let end = current.endFrame, heard >= end, end > current.startFrame || next < tracks.count
                else { break }
                result.append(.trackEnded(index: current.index, path: current.path))
                announcedEnd = announcedStart
            } else if next < tracks.count, heard >= tracks[next].startFrame {
                result.append(.trackStarted(index: tracks[next].index, path: tracks[next].path))
                announcedStart = next
            } else {
                break
            }
        }
    }

    /// What the writer thread posted, in order; true when it lost the device.
    func drainEngineEvents(from sink: any AudioOutput, into result: inout [PlaybackEvent]) -> Bool {
        var lost = false
        var event = EngineEvent(kind: .drained, frame: 0)
        let consumer = events.consumer
        while withUnsafeMutableBytes(of: &event, { consumer.pop(into: $0.baseAddress!) }) {
            switch event.kind {
            case .underrun: result.append(.underrun)
            case .starved:
                // At the end of a queue that keeps the output, the writer may run dry
                // before the media stop reaches it: that is not an underrun.
                // Nor is a station's: its packets come at the pace it sends them, and
                // a ring run dry waits for the network (a drop has its own lines).
                if !(keepsOutputAtQueueEnd && feeder.isExhausted) && feeder.liveStream == nil {
                    result.append(.starved)
                }
            case .deviceLost:
                lost = true
                result.append(.deviceLost(message: sink.describeLoss(event)))
            case .outputAway:
                result.append(.outputAway(message: sink.describeAway(event)))
            case .drained, nil: break
            }
        }
        return lost
    }
}
