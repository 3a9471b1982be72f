import PlayerModel

extension ScreenRenderer {
    /// The radio pane: each favourite station numbered as `station list`
    /// numbers it, its name and its URL; the one playing marked as a queue's
    /// playing row is. Empty, it says which keys add one.
    func drawRadio(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool, snapshot: PlayerSnapshot,
                   range: Range<Int>) {
        let playing = snapshot.currentIndex.flatMap { snapshot.queue.indices.contains($0) ? snapshot.queue[$0].path : nil }
        let keys = [state.bindings.name(of: .stationAdd).map { "\($0) adds the stream playing" },
                    state.bindings.name(of: .stationAddURL).map { "\($0) a URL" }].compactMap { $0 }
        drawRows(&frame, area, cursor: state.stationsCursor, range: range, focused: focused,
                 empty: "no stations yet" + (keys.isEmpty ? "" : ": " + keys.joined(separator: ", ")),
                 rows: snapshot.stations.enumerated().map { index, station in
                     (text: " \(index + 1). \(station.name)  \(station.url)", playing: station.url == playing)
                 })
    }
}
