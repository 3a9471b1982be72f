import Testing
@testable import Playlists

/// Acceptance 8: shuffle plays every entry once per cycle and never the same
/// entry twice across a cycle's boundary, over 1,000 seeded runs of 50 entries.
struct ShuffleCycleTests {
    @Test("1,000 seeded runs of 50 entries: each cycle a permutation, no repeat across boundaries")
    func everyEntryOncePerCycleNoRepeatAcrossBoundary() {
        var firstsDiffer = 0
        for seed in 0..<UInt64(1000) {
            var cycle = ShuffleCycle(count: 50, seed: seed)
            var played = cycle.order
            for _ in 0..<4 { played += cycle.nextCycle(count: 50) }
            for start in stride(from: 0, to: played.count, by: 50) {
                #expect(Set(played[start..<start + 50]) == Set(0..<50), "seed \(seed): cycle at \(start) is not a permutation")
                if start > 0 { #expect(played[start] != played[start - 1], "seed \(seed): repeat across the boundary at \(start)") }
            }
            if ShuffleCycle(count: 50, seed: seed + 1).order != cycle.order { firstsDiffer += 1 }
        }
        // Seeds make different orders (a shuffle stuck on one order would pass the checks above).
        #expect(firstsDiffer > 990)
    }

    @Test("the same seed gives the same order")
    func seeded() {
        var a = ShuffleCycle(count: 20, seed: 7)
        var b = ShuffleCycle(count: 20, seed: 7)
        #expect(a.order == b.order)
        #expect(a.nextCycle(count: 20) == b.nextCycle(count: 20))
    }

    @Test("turning shuffle on keeps the entries that play (and are decoded) first, the rest a permutation")
    func keepsLeading() {
        for seed in 0..<UInt64(100) {
            let order = ShuffleCycle(count: 10, seed: seed, leading: [6, 2]).order
            #expect(Array(order.prefix(2)) == [6, 2])
            #expect(Set(order) == Set(0..<10) && order.count == 10)
        }
    }

    @Test("one entry repeats itself; none gives an empty cycle")
    func tinyLists() {
        var one = ShuffleCycle(count: 1, seed: 1)
        #expect(one.order == [0] && one.nextCycle(count: 1) == [0])
        #expect(ShuffleCycle(count: 0, seed: 1).order.isEmpty)
    }

    @Test("positions are uniform: over many cycles each entry leads about equally often")
    func roughlyUniform() {
        var cycle = ShuffleCycle(count: 5, seed: 42)
        var leads = [Int](repeating: 0, count: 5)
        for _ in 0..<5000 { leads[cycle.nextCycle(count: 5)[0]] += 1 }
        // Expected 1000 each; 5 standard deviations is about 140.
        for count in leads { #expect(abs(count - 1000) < 150, "\(leads)") }
    }

    @Test("repeat cycles off, all, one")
    func repeatCycle() {
        #expect(RepeatMode.off.next == .all && RepeatMode.all.next == .one && RepeatMode.one.next == .off)
    }
}
