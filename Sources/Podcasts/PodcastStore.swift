import InterludeCore

/// The subscriptions, `$XDG_DATA_HOME/interlude/podcasts.json`, and each
/// podcast's episodes, `$XDG_DATA_HOME/interlude/podcasts/ID/episodes.json`:
/// versioned JSON written atomically (`StateFile`) under each file's lock.
/// `podcast add`, `remove` and `import` are transactions on what the file
/// holds; a refresh, which runs for seconds, merges its changes with what
/// other processes wrote meanwhile (`save(_:since:)`, `StateMerge`): a
/// podcast added or removed during a refresh stays added or removed.
public struct PodcastStore: Sendable {
    public static let version = 1
    public let directory: String
    public let file: StateFile

    public init(dataDirectory: String) {
        directory = dataDirectory
        file = StateFile(path: dataDirectory + "/podcasts.json")
    }

    public init(directories: XDGDirectories) {
        self.init(dataDirectory: directories.interludeData)
    }

    /// Where one podcast's episodes (and later its downloads) live.
    public func folder(of id: String) -> String { directory + "/podcasts/" + id }
    public func episodesFile(of id: String) -> StateFile { StateFile(path: folder(of: id) + "/episodes.json") }

    public struct Loaded: Sendable {
        public var subscriptions: [PodcastSubscription]
        public var problem: String?
    }

    public func load(now: WallInstant) -> Loaded {
        let loaded = file.load(StateFileWording(name: "podcast file", fallback: "using no podcasts",
                                                fallbackAfterSettingAside: "started with no podcasts"),
                               now: now) { bytes throws(StateFileDamage) in try Self.decode(bytes) }
        return Loaded(subscriptions: loaded.value ?? [], problem: loaded.problem)
    }

    public static func decode(_ bytes: [UInt8]) throws(StateFileDamage) -> [PodcastSubscription] {
        let json: JSONValue
        do throws(JSONParseError) { json = try JSONParser.parse(bytes) } catch {
            throw StateFileDamage(bytes.isEmpty ? "it is empty" : "it is not valid JSON (\(error.description))")
        }
        guard let version = json["version"]?.integerValue, version == Int64(Self.version),
              let list = json["podcasts"]?.arrayValue else {
            throw StateFileDamage("it is not a podcast list of version \(Self.version)")
        }
        var result: [PodcastSubscription] = []
        var ids = Set<String>()
        for item in list {
            guard let subscription = PodcastSubscription(json: item) else { throw StateFileDamage("a podcast lacks its id, URL, title or date") }
            guard ids.insert(subscription.id).inserted else { throw StateFileDamage("two podcasts have id \(subscription.id)") }
            result.append(subscription)
        }
        return result
    }

    static func encode(_ subscriptions: [PodcastSubscription]) -> [UInt8] {
        let json = JSONValue.object(["version": .integer(Int64(version)), "podcasts": .array(subscriptions.map(\.json))])
        return Array(JSONWriter().prettyPrinted(json).utf8) + [0x0A]
    }

    /// Read, change, write as one step under the lock. `change`'s error is handed back, nothing written.
    public func update<Failure: Error>(now: WallInstant, _ change: (inout [PodcastSubscription]) throws(Failure) -> Void)
        throws(StateFileError) -> (subscriptions: [PodcastSubscription], problem: String?, failure: Failure?) {
        let outcome: Result<([PodcastSubscription], String?, Failure?), StateFileError> = try file.locked {
            let loaded = load(now: now)
            var subscriptions = loaded.subscriptions
            do throws(Failure) { try change(&subscriptions) } catch { return .success((loaded.subscriptions, loaded.problem, error)) }
            do throws(StateFileError) { try file.writeAtomically(Self.encode(subscriptions)) } catch { return .failure(error) }
            return .success((subscriptions, loaded.problem, nil))
        }
        return try outcome.get()
    }

    /// Writes `mine` merged with what the file holds now, keeping every change
    /// made elsewhere since `base` (what this writer read): what is written.
    public func save(_ mine: [PodcastSubscription], since base: [PodcastSubscription], now: WallInstant)
        throws(StateFileError) -> [PodcastSubscription] {
        try update(now: now) { (subscriptions: inout [PodcastSubscription]) throws(Never) in
            subscriptions = StateMerge.records(base: base, mine: mine, theirs: subscriptions, id: \.id,
                                               fields: PodcastSubscription.merged).merged
        }.subscriptions
    }

    // MARK: Episodes

    public func loadEpisodes(of id: String, now: WallInstant) -> (episodes: [StoredEpisode], problem: String?) {
        let loaded = episodesFile(of: id).load(
            StateFileWording(name: "episode file", fallback: "using no episodes", fallbackAfterSettingAside: "refreshing it anew"),
            now: now) { bytes throws(StateFileDamage) in try Self.decodeEpisodes(bytes) }
        return (loaded.value ?? [], loaded.problem)
    }

    public static func decodeEpisodes(_ bytes: [UInt8]) throws(StateFileDamage) -> [StoredEpisode] {
        let json: JSONValue
        do throws(JSONParseError) { json = try JSONParser.parse(bytes) } catch {
            throw StateFileDamage(bytes.isEmpty ? "it is empty" : "it is not valid JSON (\(error.description))")
        }
        guard json["version"]?.integerValue == Int64(version), let list = json["episodes"]?.arrayValue else {
            throw StateFileDamage("it is not an episode list of version \(version)")
        }
        var result: [StoredEpisode] = []
        result.reserveCapacity(list.count)
        for item in list {
            guard let episode = StoredEpisode(json: item) else { throw StateFileDamage("an episode lacks a field or holds one out of range") }
            result.append(episode)
        }
        return result
    }

    /// Read, change, write of one podcast's episodes under their file's lock.
    public func updateEpisodes(of id: String, now: WallInstant, _ change: (inout [StoredEpisode]) -> Void)
        throws(StateFileError) -> [StoredEpisode] {
        let file = episodesFile(of: id)
        let outcome: Result<[StoredEpisode], StateFileError> = try file.locked {
            var episodes = loadEpisodes(of: id, now: now).episodes
            change(&episodes)
            let json = JSONValue.object(["version": .integer(Int64(Self.version)), "episodes": .array(episodes.map(\.json))])
            do throws(StateFileError) { try file.writeAtomically(Array(JSONWriter().prettyPrinted(json).utf8) + [0x0A]) } catch {
                return .failure(error)
            }
            return .success(episodes)
        }
        return try outcome.get()
    }

    public func removeEpisodes(of id: String) {
        let file = episodesFile(of: id)
        try? file.remove()
        try? StateFile(path: file.lockPath).remove()
    }
}
