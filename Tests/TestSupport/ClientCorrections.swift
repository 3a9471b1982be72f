/// A room's capture against the audio it must be, allowing what a Snapcast
/// client does on its own: to stay in step with the server's clock it plays
/// a frame twice or leaves one out now and then (its "soft sync"; under load,
/// when its file player's timer runs late, one every block for a while), and
/// may skip or repeat a few milliseconds (its "hard sync"). Everything else
/// must be the reference exactly, in order: no frame changed, no silence or
/// anything else in between (a pipe run dry would be the server's silence).
public struct ClientCorrectedMatch: Sendable, CustomStringConvertible {
    /// Frames of `expected` matched, from its start.
    public var matchedFrames: Int
    /// The client's corrections met: frames it repeated (positive) or left out (negative), each at most `maximumShift`.
    public var corrections: [Int]
    /// Where in `expected` the first frame that no correction explains is, if any.
    public var unexplained: Int?
    /// Frames of `actual` the match took.
    public var actualFrames: Int

    public var description: String {
        "matched \(matchedFrames) frames, corrections \(corrections)"
            + (unexplained.map { ", unexplained difference at reference frame \($0)" } ?? "")
    }
}

extension SignalAnalysis {
    /// Walks `expected` and `actual` (same format) frame by frame; where they
    /// differ, looks for the client's correction: `actual` shifted by 1 to
    /// `maximumShift` frames either way, after which `confirmFrames` frames
    /// match exactly. Stops at the end of either, or at a difference no shift explains.
    public static func matchAllowingClientCorrections(expected: PCMAudio, actual: PCMAudio, maximumShift: Int = 1200,
                                                      confirmFrames: Int = 256) -> ClientCorrectedMatch {
        precondition(expected.channels == actual.channels)
        let channels = expected.channels
        let e = expected.samples, a = actual.samples
        let eFrames = expected.frameCount, aFrames = actual.frameCount
        func same(_ i: Int, _ j: Int) -> Bool {
            for c in 0..<channels where e[i * channels + c] != a[j * channels + c] { return false }
            return true
        }
        func run(_ i: Int, _ j: Int) -> Bool {
            let count = min(confirmFrames, eFrames - i, aFrames - j)
            guard count > 0 else { return false }
            for k in 0..<count where !same(i + k, j + k) { return false }
            return true
        }
        var i = 0, j = 0
        var corrections: [Int] = []
        while i < eFrames && j < aFrames {
            if same(i, j) {
                i += 1
                j += 1
                continue
            }
            var shifted = false
            for shift in 1...maximumShift {
                // The client repeated frames: `actual` runs ahead.
                if j + shift < aFrames && run(i, j + shift) {
                    corrections.append(shift)
                    j += shift
                    shifted = true
                    break
                }
                // The client left frames out: `expected` runs ahead.
                if i + shift < eFrames && run(i + shift, j) {
                    corrections.append(-shift)
                    i += shift
                    shifted = true
                    break
                }
            }
            if !shifted {
                return ClientCorrectedMatch(matchedFrames: i, corrections: corrections, unexplained: i, actualFrames: j)
            }
        }
        return ClientCorrectedMatch(matchedFrames: i, corrections: corrections, unexplained: nil, actualFrames: j)
    }
}
