/// Why a syntactically valid JSON file is not an alarm file: which field,
/// by its path in the file (`alarms[0].schedule`), and what is wrong.
struct AlarmFileFormatError: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
