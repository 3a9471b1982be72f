import InterludeCore

extension AlarmFileFormat {
    /// A JSON value together with where it sits in the file, so every
    /// missing or mistyped field is reported by its path (`alarms[2].label`).
    struct Fields {
        let value: JSONValue
        let path: String

        init(_ value: JSONValue, at path: String) {
            self.value = value
            self.path = path
        }

        func int(_ key: String) throws(AlarmFileFormatError) -> Int {
            let number = try int64(key)
            guard let value = Int(exactly: number) else { throw AlarmFileFormatError("\(path(key)) is out of range") }
            return value
        }

        /// A whole number that must lie in `range`: the file is data, and a value
        /// no program would write must not reach arithmetic that can overflow.
        func int(_ key: String, in range: CountRange) throws(AlarmFileFormatError) -> Int {
            let number = try int64(key)
            guard let value = range.checked(number) else {
                throw AlarmFileFormatError("\(path(key)) is \(number), not \(range.accepts)")
            }
            return value
        }

        func int64(_ key: String, in range: CountRange) throws(AlarmFileFormatError) -> Int64 {
            Int64(try int(key, in: range))
        }

        func optionalInt64(_ key: String, in range: CountRange) throws(AlarmFileFormatError) -> Int64? {
            guard let number = try optionalInt64(key) else { return nil }
            guard range.contains(number) else { throw AlarmFileFormatError("\(path(key)) is \(number), not \(range.accepts)") }
            return number
        }

        func double(_ key: String, in range: DecimalRange) throws(AlarmFileFormatError) -> Double {
            let number = try double(key)
            guard range.contains(number) else {
                throw AlarmFileFormatError("\(path(key)) is \(number), not \(range.accepts)")
            }
            return number
        }

        func int64(_ key: String) throws(AlarmFileFormatError) -> Int64 {
            guard let number = try member(key).integerValue else { throw AlarmFileFormatError("\(path(key)) is not a whole number") }
            return number
        }

        /// Absent or null is nil, as the synthesized decoder treated optionals.
        func optionalInt64(_ key: String) throws(AlarmFileFormatError) -> Int64? {
            guard let member = try object()[key], member != .null else { return nil }
            guard let number = member.integerValue else { throw AlarmFileFormatError("\(path(key)) is not a whole number") }
            return number
        }

        func double(_ key: String) throws(AlarmFileFormatError) -> Double {
            guard let number = try member(key).doubleValue else { throw AlarmFileFormatError("\(path(key)) is not a number") }
            return number
        }

        func string(_ key: String) throws(AlarmFileFormatError) -> String {
            guard let text = try member(key).stringValue else { throw AlarmFileFormatError("\(path(key)) is not a string") }
            return text
        }

        func bool(_ key: String) throws(AlarmFileFormatError) -> Bool {
            guard let flag = try member(key).boolValue else { throw AlarmFileFormatError("\(path(key)) is not true or false") }
            return flag
        }

        func nested(_ key: String) throws(AlarmFileFormatError) -> Fields {
            Fields(try member(key), at: path(key))
        }

        func array(_ key: String) throws(AlarmFileFormatError) -> [Fields] {
            guard let elements = try member(key).arrayValue else { throw AlarmFileFormatError("\(path(key)) is not a list") }
            return elements.enumerated().map { Fields($0.element, at: "\(path(key))[\($0.offset)]") }
        }

        /// Room names (`Alarm.rooms`), each as `--rooms` takes it; absent: none.
        func optionalRooms(_ key: String) throws(AlarmFileFormatError) -> [String] {
            guard let member = try object()[key] else { return [] }
            guard let elements = member.arrayValue, elements.count <= Alarm.roomLimit else {
                throw AlarmFileFormatError("\(path(key)) is not a list of at most \(Alarm.roomLimit) room names")
            }
            return try elements.enumerated().map { index, element throws(AlarmFileFormatError) in
                guard let name = element.stringValue, Alarm.isRoomName(name) else {
                    throw AlarmFileFormatError("\(path(key))[\(index)] is not a room name")
                }
                return name
            }
        }

        /// An enum case: an object with exactly one key, the case's name.
        func enumCase() throws(AlarmFileFormatError) -> (name: String, values: Fields) {
            let members = try object()
            guard members.count == 1, let (name, values) = members.first else {
                throw AlarmFileFormatError("\(path) must have exactly one key naming its kind")
            }
            return (name, Fields(values, at: "\(path).\(name)"))
        }

        private func object() throws(AlarmFileFormatError) -> [String: JSONValue] {
            guard let members = value.objectValue else { throw AlarmFileFormatError("\(path) is not an object") }
            return members
        }

        private func member(_ key: String) throws(AlarmFileFormatError) -> JSONValue {
            guard let member = try object()[key] else { throw AlarmFileFormatError("\(path(key)) is missing") }
            return member
        }

        private func path(_ key: String) -> String {
            path == "the file" ? key : "\(path).\(key)"
        }
    }
}
