import Testing
@testable import BookFormat
import InterludeCore

struct NaturalOrderTests {
    @Test(arguments: [
        ("Chapter 2", "Chapter 10"),
        ("01 - Intro", "2 - Next"),
        ("chapter 3", "Chapter 4"),
        ("Chapter 4", "chapter 5"),
        ("Part 1 Chapter 9", "Part 1 Chapter 10"),
        ("Part 1 Chapter 10", "Part 2 Chapter 1"),
        ("a", "B"),
        ("track 99999999999999999999998", "track 99999999999999999999999"),
        ("9.mp3", "10.mp3"),
        ("Book", "Book 1"),
    ])
    func firstSortsBeforeSecond(first: String, second: String) {
        #expect(NaturalOrder.areInIncreasingOrder(first, second))
        #expect(!NaturalOrder.areInIncreasingOrder(second, first))
    }

    @Test func sortingAFolderListingGivesReadingOrder() {
        let names = ["Chapter 10.mp3", "Chapter 1.mp3", "chapter 2.mp3", "Chapter 11.mp3", "Chapter 9.mp3"]
        #expect(NaturalOrder.sorted(names) == ["Chapter 1.mp3", "chapter 2.mp3", "Chapter 9.mp3", "Chapter 10.mp3", "Chapter 11.mp3"])
    }

    /// "01" and "1", or "a" and "A", compare equal: their input order stays.
    @Test func sortIsStableForNamesThatCompareEqual() {
        #expect(NaturalOrder.sorted(["Part 01", "part 1", "Part 1"]) == ["Part 01", "part 1", "Part 1"])
        #expect(NaturalOrder.sorted(["Part 1", "part 1", "Part 01"]) == ["Part 1", "part 1", "Part 01"])
    }

    @Test func comparatorIsATotalOrderEvenForEqualNames() {
        #expect(NaturalOrder.areInIncreasingOrder("A", "a") != NaturalOrder.areInIncreasingOrder("a", "A"))
        #expect(!NaturalOrder.areInIncreasingOrder("x", "x"))
    }

    @Test func folderBookTakesOnlyVisibleMP3FilesInNaturalOrder() {
        let listing = ["cover.jpg", "10 End.MP3", "2 Middle.mp3", "._2 Middle.mp3", "1 Start.mp3", "notes.txt"]
        #expect(BookFolderOrder.audioFiles(listing) == ["1 Start.mp3", "2 Middle.mp3", "10 End.MP3"])
    }

    /// Names split and folded once (`NaturalOrder.Key`, what the browser
    /// sorts by) order exactly as names compared whole: seeded names of
    /// digits (leading zeros too), letters in both cases, accents and CJK.
    @Test func keysOrderAsNamesDo() {
        var generator = SeededGenerator(seed: 5)
        let pieces = ["0", "01", "2", "10", "007", "a", "B", "b", "é", "É", " ", "-", "曲", "Chapter ", "track"]
        func name() -> String { (0..<(1 + Int(generator.next() % 5))).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined() }
        let names = (0..<400).map { _ in name() }
        for (a, b) in zip(names, names.dropFirst()) {
            #expect(NaturalOrder.compare(NaturalOrder.Key(a), NaturalOrder.Key(b)) == NaturalOrder.compare(a, b), "\(a) | \(b)")
            #expect(NaturalOrder.areInIncreasingOrder(NaturalOrder.Key(a), NaturalOrder.Key(b), names: (a, b))
                == NaturalOrder.areInIncreasingOrder(a, b))
        }
        #expect(NaturalOrder.sorted(names) == names.enumerated().sorted { x, y in
            switch NaturalOrder.compare(x.element, y.element) {
            case .less: true
            case .greater: false
            case .equal: x.offset < y.offset
            }
        }.map(\.element))
    }
}
