/// One field of an event as front ends print it: `key` and a typed value.
/// Numbers carry the decimals their printed form keeps, so the JSON printer
/// and the log pane agree on what a field is without parsing text.
public struct EventField: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        /// Printed in fixed point with `decimals` digits after the point.
        case number(Double, decimals: Int)
        case bool(Bool)
        case strings([String])
        case integers([Int])
        case null
    }

    public var key: String
    public var value: Value

    public init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }
}
