/// Which files of a folder make up a book, and in what order.
public enum BookFolderOrder {
    /// The audio files among `names` (by extension, any case: `AudioFileNames`), in natural
    /// order. Hidden files are left out: editors and file managers leave
    /// "._name.mp3" and similar beside real files.
    public static func audioFiles(_ names: [String]) -> [String] {
        NaturalOrder.sorted(names.filter { name in
            !name.hasPrefix(".") && AudioFileNames.isAudio(name)
        })
    }
}
