import InterludeCore

/// The numbers `station-rename`, `station-remove` and `station-play` take:
/// 1 to the most stations the list keeps (`StationList.maximumCount`, which
/// PlayerModel does not import; `StationCommandTests` checks they agree).
public enum StationNumbers {
    public static let range = CountRange(1...1000)
}
