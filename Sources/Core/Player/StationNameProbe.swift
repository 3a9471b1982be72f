import AudioDecoding
import InterludeCore
import LibraryIO
import PlayerModel
import Streams

/// A station added by its URL alone is named by its stream, as the
/// now-playing pane names it: the server's `icy-name`, asked for on a thread
/// of its own (one GET, its headers taken and the stream cut at its first
/// bytes, within the stream's request deadline), else the name in the
/// stream's tags (an HLS station's timed ID3, an Ogg stream's comments:
/// `StationNameReader`, within the deadline again), handed to the player as
/// `nameStation`, which names the station only if the listener has not
/// meanwhile. A server that gives no name, or no answer, leaves the host's.
package final class StationNameProbe: LoopSource {
    /// A station's URL and the name its server gave (nil: none, or no answer).
    package struct Answer: Sendable {
        package var url: String
        package var name: String?
    }

    private let mailbox = ThreadMailbox<[Answer]>()
    /// Probes that run: the mailbox is polled only while one does.
    private var running = 0

    package init() {}

    /// Asks `url`'s server for its name, in the background; `seconds` bounds the whole request.
    package func ask(_ url: String, within seconds: Double) {
        let mailbox = self.mailbox
        running += 1
        let failure = BackgroundThread.start {
            var request = HTTPRequest(url: url, bodyLimit: 1, timeout: seconds)
            request.headersOnly = true
            var name: String?
            do throws(HTTPFetchError) {
                try HTTPFetcher.fetch([request], parallel: 1) { _, outcome in
                    guard case .success(let response) = outcome, (200..<300).contains(response.status) else { return }
                    name = response.headers["icy-name"].flatMap { ICYHeaders.parse("icy-name: " + $0).name }
                }
            } catch {
                name = nil
            }
            // No icy-name (an HLS playlist, an Ogg mount its source named not): the name in the stream's tags.
            if name == nil { name = StationNameReader.read(url: url, within: seconds) }
            mailbox.post(Answer(url: url, name: name))
        }
        if failure != nil { running -= 1 }
    }

    package var pollRequests: [LoopPollRequest] {
        running > 0 && mailbox.isUsable ? [LoopPollRequest(fd: mailbox.wake)] : []
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty else { return }
        for answer in mailbox.take() {
            running -= 1
            guard let name = answer.name else { continue }
            _ = core.perform(.nameStation(url: answer.url, name: name))
        }
    }
}
