import Testing
@testable import MusicLibrary

/// A track is a value though its fields live in one shared box: a copy
/// changed is a new track, equality and hashing go by the fields.
@Suite struct LibraryTrackTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = LibraryTrack(path: "/m/a/1.mp3", title: "Alpha", artist: "Ann", trackNumber: 1)
        var copy = original
        #expect(copy == original)
        copy.title = "Beta"
        copy.trackNumber = nil
        copy.relativePath = "a/1.mp3"
        #expect(original.title == "Alpha" && original.trackNumber == 1 && original.relativePath == "/m/a/1.mp3")
        #expect(copy.title == "Beta" && copy.trackNumber == nil && copy.relativePath == "a/1.mp3")
        #expect(copy != original)
        var inPlace = copy
        inPlace.title! += " II"
        #expect(inPlace.title == "Beta II" && copy.title == "Beta")
    }

    @Test func equalFieldsInTwoBoxesAreEqualAndHashAlike() {
        let first = LibraryTrack(path: "/m/b/2.mp3", size: 10, durationSeconds: 1.5, genre: "Jazz", trackGain: -3)
        var second = LibraryTrack(path: "/m/b/2.mp3", size: 10, durationSeconds: 1.5, genre: "Jazz")
        #expect(first != second)
        second.trackGain = -3
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
        #expect(first.hashValue == second.hashValue)
    }
}
