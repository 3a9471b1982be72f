import LibraryIO
import BookFormat
import Books
import Core
import InterludeCore
import LoopIO
import PlayerModel

extension BookSession {
    /// For `interlude play`: a book session when the arguments name a book
    /// (see `BookOpener.isBook`), with the runtime set up for spoken audio.
    static func prepare(_ options: PlayCommand.Options, configuration: inout PlayerRuntime.Configuration,
                        events: PlayerEventStream) -> Preparation {
        if let episode = options.episode {
            return EpisodeOpener.prepare(episode, options: options, configuration: &configuration, events: events)
        }
        guard BookOpener.isBook(options.files, forced: options.book.forced) else {
            if options.book.needsBook {
                events.error("--sleep, --bookmark and --skip need a book: one folder of audio files or one file with chapters (or --book)")
                return .failed(2)
            }
            return .music
        }
        let book: Book
        do { book = try BookOpener.open(options.files[0]) } catch {
            events.error(error.description)
            return .failed(1)
        }
        let store = BookStateStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
        do {
            return .book(try make(book, options: options.book, speedGiven: options.book.speedGiven, store: store,
                                  configuration: &configuration, events: events))
        } catch {
            events.error(error.message)
            return .failed(2)
        }
    }
}
