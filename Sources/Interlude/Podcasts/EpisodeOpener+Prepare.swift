import AudioEngine
import BookFormat
import Books
import InterludeCore
import LibraryIO
import Core
import LoopIO
import PlayerModel
import Podcasts

extension EpisodeOpener {
    /// For `interlude podcast play`: the episode's book session, the runtime
    /// set for spoken audio, at the episode's speed, else the podcast's.
    static func prepare(_ request: PlayCommand.EpisodeRequest, options: PlayCommand.Options,
                        configuration: inout PlayerRuntime.Configuration, events: PlayerEventStream) -> BookSession.Preparation {
        let directories = XDGDirectories(environment: ProcessEnvironment.current())
        let chosen: Chosen
        switch choose(podcast: request.podcast, episode: request.episode, store: PodcastStore(directories: directories)) {
        case .success(let found): chosen = found
        case .failure(let error):
            events.error(error.message)
            return .failed(1)
        }
        let book: Book
        switch Self.book(chosen) {
        case .success(let opened): book = opened
        case .failure(let error):
            events.error(error.message)
            return .failed(1)
        }
        let store = BookStateStore(directories: directories)
        let session: BookSession
        do throws(UsageError) {
            session = try BookSession.make(book, options: options.book, speedGiven: options.book.speedGiven, store: store,
                                           configuration: &configuration, events: events)
        } catch {
            events.error(error.message)
            return .failed(2)
        }
        let shared = podcastSpeed(chosen.podcast.id)
        // An episode not played yet takes the speed its podcast was last heard at.
        if !options.book.speedGiven && session.state.updated == BookState.start.updated {
            let podcastState = store.load(shared, now: SystemClock().wallNow)
            if podcastState.problem == nil, let speed = PlaybackSpeed(podcastState.state.speed) { configuration.speed = speed }
        }
        session.sharedSpeed = shared
        return .book(session)
    }
}
