import InterludeCore

/// Shuffled play order as a sequence of cycles: each cycle is a permutation of
/// the queue's entries, so every entry plays once before any plays again, and
/// the first entry of a cycle is never the last of the one before it (a
/// listener would hear the same song twice in a row, the complaint that
/// "random" shuffles draw). Seeded: the same seed gives the same order.
public struct ShuffleCycle: Sendable {
    /// The entries of the current cycle, in play order (indices into the list being shuffled).
    public private(set) var order: [Int]
    private var generator: SeededGenerator

    /// A first cycle over `count` entries. `leading`: entries kept at the
    /// front in their order (the one that plays now and any the player has
    /// begun decoding for a gapless join: turning shuffle on interrupts neither).
    public init(count: Int, seed: UInt64, leading: [Int] = []) {
        generator = SeededGenerator(seed: seed)
        order = []
        let kept = leading.filter { (0..<count).contains($0) }
        let keptSet = Set(kept)
        order = kept + shuffled(count: count, avoidingFirst: nil).filter { !keptSet.contains($0) }
    }

    /// Moves on to the next cycle, over `count` entries (the list may have
    /// grown), and returns it.
    @discardableResult
    public mutating func nextCycle(count: Int) -> [Int] {
        order = shuffled(count: count, avoidingFirst: order.last)
        return order
    }

    /// Fisher-Yates; then, if the first is the entry to avoid, it trades places
    /// with a uniformly chosen other one, so the rest stays uniform.
    private mutating func shuffled(count: Int, avoidingFirst avoided: Int?) -> [Int] {
        var result = Array(0..<max(0, count))
        result.shuffle(using: &generator)
        if count > 1, result[0] == avoided {
            result.swapAt(0, Int.random(in: 1..<count, using: &generator))
        }
        return result
    }
}
