import AudioDecoding
#if canImport(Glibc)
import LoopIO
import PlayerModel
import Glibc
#endif
import AudioEngine
import BookFormat
import Books
import InterludeCore
import Podcasts

/// A podcast episode played as a book of one file: its download when there
/// is one, else its enclosure URL, streamed (`StreamDecoder` seeks a file
/// served over HTTP with range requests). Either way the book's state is the
/// episode's, `BookID` of `podcast:PODCAST/EPISODE` in the books' state
/// store, so the place, speed and bookmarks are one whichever plays, and
/// switching from the stream to the download keeps the place.
///
/// Everything here runs on the command's thread before the player's loop
/// starts (or where a switch is requested): the stream's length (its first
/// answer) and the Podcasting 2.0 chapters file are fetched then, never on
/// the loop.
package enum EpisodeOpener {
    package struct Chosen {
        package var podcast: PodcastSubscription
        package var episode: StoredEpisode
        package var store: PodcastStore
        package var download: String { EpisodeFiles.download(in: store.folder(of: podcast.id), episode: episode) }
        package var identity: BookID { EpisodeOpener.identity(podcast: podcast.id, episode: episode.id) }
    }

    package static func identity(podcast: String, episode: String) -> BookID {
        BookID(absolutePath: "podcast:" + podcast + "/" + episode)
    }

    /// The state that keeps one podcast's speed, for its episodes not played yet.
    package static func podcastSpeed(_ podcast: String) -> BookID { BookID(absolutePath: "podcast:" + podcast) }

    /// The podcast `name` names and its episode `word` names (nil: the first listed, the newest).
    package static func choose(podcast name: String, episode word: String?, store: PodcastStore) -> Result<Chosen, EpisodeOpenError> {
        let now = SystemClock().wallNow
        let subscriptions = store.load(now: now).subscriptions
        let podcast: PodcastSubscription
        switch PodcastNames.match(name, in: subscriptions) {
        case .success(let found): podcast = found
        case .failure(let error): return .failure(EpisodeOpenError(message: error.description))
        }
        let (episodes, problem) = store.loadEpisodes(of: podcast.id, now: now)
        if let problem { return .failure(EpisodeOpenError(message: problem)) }
        guard !episodes.isEmpty else {
            return .failure(EpisodeOpenError(message: "\(podcast.title) has no episodes (try 'interlude podcast refresh')"))
        }
        guard let word else { return .success(Chosen(podcast: podcast, episode: episodes[0], store: store)) }
        // The podcasts pane names an episode by its identity, which may look like a number.
        if let exact = episodes.first(where: { $0.id == word }) { return .success(Chosen(podcast: podcast, episode: exact, store: store)) }
        switch EpisodeFiles.find(word, in: episodes) {
        case .success(let episode): return .success(Chosen(podcast: podcast, episode: episode, store: store))
        case .failure(let error): return .failure(EpisodeOpenError(message: "\(podcast.title): \(error.description)"))
        }
    }

    /// The episode as a book: from its download when it is whole, else
    /// streamed. `network: false` (the player's loop) asks nothing of the
    /// network: a stream's length is the feed's, the chapters the file's.
    package static func book(_ chosen: Chosen, network: Bool = true) -> Result<Book, EpisodeOpenError> {
        let episode = chosen.episode.episode
        var tags = AudioTags()
        var length: Int?
        var problem: String?
        let path: String
        if StateFile.isReadableFile(chosen.download) {
            path = chosen.download
            let found = FileChapters.read(path, exactLength: true)
            tags = found.tags
            length = found.durationMilliseconds
            problem = found.problem
        } else {
            guard let url = episode.enclosure?.url else {
                return .failure(EpisodeOpenError(message: "\(episode.title) has no enclosure: nothing to play"))
            }
            path = url
            if network { length = streamLength(url) }
            if length == nil, episode.duration > 0 { length = episode.duration * 1000 }
        }
        guard let length else {
            return .failure(EpisodeOpenError(message: "\(path): cannot be played (no audio, or no answer)"))
        }
        // The file's own chapters (ID3 CHAP, MP4's), else the feed's Podcasting 2.0 chapters file.
        if tags.chapters.isEmpty, network, let url = episode.chaptersURL {
            switch chapters(url, length: length) {
            case .success(let list): tags.chapters = list
            case .failure(let error): problem = problem.map { $0 + "; " + error.message } ?? error.message
            }
        }
        tags.title = episode.title
        tags.album = nil
        tags.artists = [chosen.podcast.title]
        let source = BookSource(path: path, kind: .file, files: [BookSource.File(path: path, tags: tags, problem: problem)])
        do throws(BookLoadError) {
            return .success(try Book(source: source, absolutePath: path, id: chosen.identity) { _ in length })
        } catch {
            return .failure(EpisodeOpenError(message: error.description))
        }
    }

    /// The length the server's first answer gives (FFmpeg's reading of the
    /// container, or of the size at the bitrate), waiting up to 15 s.
    package static func streamLength(_ url: String) -> Int? {
        let decoder: any Decoder
        do throws(DecoderError) { decoder = try Decoders.open(path: url) } catch { return nil }
        defer { decoder.close() }
        guard let live = decoder as? any LiveStream else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let deadline = monotonicSeconds() + 15
        while monotonicSeconds() < deadline {
            if let frames = decoder.lengthInFrames { return Int((Double(frames) * 1000 / Double(decoder.format.rate)).rounded()) }
            let result: DecoderReadResult? = buffer.withUnsafeMutableBytes { bytes in
                do throws(DecoderError) { return try decoder.read(into: bytes) } catch { return nil }
            }
            guard let result, result != .end else { return nil }
            if result == .notYet {
                var ready = pollfd(fd: live.wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 200)
            }
        }
        return nil
    }

    /// The Podcasting 2.0 chapters file at `url`, each chapter ending where the next starts.
    package static func chapters(_ url: String, length: Int) -> Result<[Chapter], EpisodeOpenError> {
        var fetched: Result<HTTPResponse, HTTPFetchError> = .failure(HTTPFetchError(message: "no answer"))
        do throws(HTTPFetchError) {
            try HTTPFetcher.fetch([HTTPRequest(url: url, bodyLimit: 4 << 20)], parallel: 1) { _, outcome in fetched = outcome }
        } catch {
            return .failure(EpisodeOpenError(message: "\(url): \(error.message)"))
        }
        let body: [UInt8]
        switch fetched {
        case .failure(let error): return .failure(EpisodeOpenError(message: "\(url): \(error.message)"))
        case .success(let response) where response.status != 200:
            return .failure(EpisodeOpenError(message: "\(url): the server answered HTTP \(response.status)"))
        case .success(let response): body = response.body
        }
        let list: [(title: String, startMilliseconds: Int)]
        do throws(PodcastChaptersError) { list = try PodcastChapters.parse(body) } catch {
            return .failure(EpisodeOpenError(message: "\(url): not a chapters file (\(error.reason))"))
        }
        let inside = list.filter { $0.startMilliseconds < length }
        return .success(inside.enumerated().map { index, chapter in
            Chapter(title: chapter.title, startMilliseconds: chapter.startMilliseconds,
                    endMilliseconds: index + 1 < inside.count ? inside[index + 1].startMilliseconds : length)
        })
    }
}

package struct EpisodeOpenError: Error {
    package var message: String
}
