import LoopIO
import InterludeCore
import Playlists
import PlayerModel
import Streams

/// The favourite stations, as the radio pane, `station-list` and the
/// station commands see them: the list the file held when it was last read
/// or written here. Each edit is a transaction on the file (`StationStore.update`):
/// another player's edits since are kept, and the list here is what was written.
package final class FavouriteStations {
    private var store: StationStore?
    package private(set) var list = StationList()
    private var loaded = false
    /// The last problem said (a line that is no station), so it is said once, not at every read.
    private var lastProblem: String?

    /// `$XDG_DATA_HOME/interlude/stations.m3u`, found when first needed.
    private var file: StationStore {
        if let store { return store }
        let made = StationStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
        store = made
        return made
    }

    package var rows: [StationRow] {
        if !loaded { _ = reload() }
        return list.stations.map { StationRow(name: $0.name, url: $0.url) }
    }

    /// Reads the file again; a problem to say, once.
    package func reload() -> String? {
        loaded = true
        do {
            let contents = try file.load()
            list = contents.list
            return fresh(contents.problem)
        } catch {
            return fresh(error.description)
        }
    }

    /// One edit of the file; the change's answer, or the sentence why nothing changed.
    package func update<Answer>(_ change: (inout StationList) throws(StationEditError) -> Answer) -> Result<Answer, StationStore.Failure> {
        loaded = true
        do {
            let (written, answer) = try file.update(change)
            list = written
            return .success(answer)
        } catch {
            return .failure(error)
        }
    }

    private func fresh(_ problem: String?) -> String? {
        defer { lastProblem = problem }
        return problem == lastProblem ? nil : problem
    }
}

extension PlayerRuntime {
    /// `station-add`, `-rename`, `-remove`, `-play`: numbers are the file's
    /// now (as `station-list` shows it), a URL the radio pane's selection.
    package func performStation(_ command: PlayerCommand) -> CommandResult {
        switch command {
        case .addStation(let given, let name):
            let url: String
            var icy: ICYHeaders?
            if let given {
                url = given
            } else {
                guard let playing = playingStation else {
                    return .refused(reason: .problem("no station is playing: station-add URL adds one by its URL"))
                }
                url = playing.url
                icy = ICYHeaders(name: playing.name)
            }
            let result = stationResult(favouriteStations.update { (list: inout StationList) throws(StationEditError) in
                let number = try list.add(url: url, name: name, icy: icy)
                return CommandReport.stationAdded(number: number, name: list.stations[number - 1].name)
            })
            // Named by no one yet: the stream's own name, asked of its server off the loop.
            if case .done = result, given != nil, name == nil, case .url(let stream) = StreamLocation.classify(url) {
                stationNames.ask(stream.text, within: configuration.settings.streamLimits.requestSeconds)
            }
            return result
        case .nameStation(let url, let name):
            // Named by the listener meanwhile (its name is no longer its host's), or gone: left as it is.
            guard case .url(let stream) = StreamLocation.classify(url),
                  favouriteStations.list.stations.contains(where: { $0.url == url && $0.name == stream.host }) else { return .done }
            let outcome = favouriteStations.update { (list: inout StationList) throws(StationEditError) -> CommandReport? in
                guard let number = list.stations.firstIndex(where: { $0.url == url && $0.name == stream.host }).map({ $0 + 1 })
                else { return nil }
                try list.rename(number, to: name)
                return .stationRenamed(number: number, name: list.stations[number - 1].name)
            }
            switch outcome {
            case .success(let report):
                if report != nil { events.emit(.stationNamed(url: url, name: StationList.cleaned(name))) }
                return .done(report: report)
            case .failure(let failure): return .refused(reason: .problem(failure.description))
            }
        case .renameStation(let target, let name):
            return stationResult(favouriteStations.update { (list: inout StationList) throws(StationEditError) in
                let number = try Self.number(of: target, in: list)
                try list.rename(number, to: name)
                return CommandReport.stationRenamed(number: number, name: list.stations[number - 1].name)
            })
        case .removeStation(let target):
            return stationResult(favouriteStations.update { (list: inout StationList) throws(StationEditError) in
                CommandReport.stationRemoved(name: try list.remove(Self.number(of: target, in: list)).name)
            })
        case .playStation(let target):
            if let problem = favouriteStations.reload() { events.error(problem) }
            let station: Station
            do throws(StationEditError) {
                station = try favouriteStations.list.station(Self.number(of: target, in: favouriteStations.list))
            } catch {
                return .refused(reason: .problem(error.message))
            }
            let result = perform(.playQueue([station.url], startAt: 0))
            guard case .done = result else { return result }
            return .done(report: .playingStation(name: station.name))
        default:
            return .done
        }
    }

    /// The station decoding now, with the name it gave itself (`icy-name`), if any.
    package var playingStation: (url: String, name: String?)? {
        if let stream = engine.feeder.liveStream { return (stream.url, stream.stationName) }
        guard let current, StreamLocation.isStation(current.path) else { return nil }
        return (current.path, nil)
    }

    private static func number(of target: StationTarget, in list: StationList) throws(StationEditError) -> Int {
        switch target {
        case .number(let number): return number
        case .url(let url):
            guard let index = list.stations.firstIndex(where: { $0.url == url }) else {
                throw StationEditError("\(url) is no longer a favourite station (another player removed it)")
            }
            return index + 1
        }
    }

    private func stationResult(_ outcome: Result<CommandReport, StationStore.Failure>) -> CommandResult {
        switch outcome {
        case .success(let report): .done(report: report)
        case .failure(let failure): .refused(reason: .problem(failure.description))
        }
    }
}
