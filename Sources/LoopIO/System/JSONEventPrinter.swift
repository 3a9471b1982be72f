import PlayerModel

/// `--events json`: one object per event, `t` and `event` first, then the
/// event's fields in their order, numbers in fixed point with each field's
/// own decimals (a contract with scripts, checked by RecordedEventTests).
package enum JSONEventPrinter {
    package static func line(_ timed: TimedPlayerEvent) -> String {
        var line = JSONLine()
        line.add("t", timed.time, decimals: 6)
        line.add("event", timed.event.name)
        for field in timed.event.fields {
            switch field.value {
            case .string(let text): line.add(field.key, text)
            case .integer(let number): line.add(field.key, number)
            case .number(let number, let decimals): line.add(field.key, number, decimals: decimals)
            case .bool(let flag): line.add(field.key, flag)
            case .strings(let texts): line.addRaw(field.key, "[" + texts.map(JSONLine.quoted).joined(separator: ",") + "]")
            case .integers(let numbers): line.addRaw(field.key, "[" + numbers.map(String.init).joined(separator: ",") + "]")
            case .null: line.addNull(field.key)
            }
        }
        return line.text
    }
}
