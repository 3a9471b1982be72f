import Foundation

/// The object type in an ELF file's header, as `readelf -h` prints it
/// ("DYN" for a position-independent executable, "EXEC" for one linked at a
/// fixed address). Read from the header itself, so the bench needs no binutils.
struct ELFType: Equatable, CustomStringConvertible {
    let value: UInt16

    static let executable = ELFType(value: 2)  // ET_EXEC
    static let shared = ELFType(value: 3)  // ET_DYN: a PIE, or a library

    struct NotELF: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is not an ELF file" }
    }

    /// e_ident is 16 bytes (magic, class, data encoding, ...); e_type follows.
    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw NotELF(path: path) }
        defer { try? handle.close() }
        let header = [UInt8](handle.readData(ofLength: 18))
        guard header.count == 18, header.starts(with: [0x7F, 0x45, 0x4C, 0x46]) else { throw NotELF(path: path) }
        // EI_DATA (byte 5): 1 little-endian, 2 big-endian.
        value = header[5] == 2 ? UInt16(header[16]) << 8 | UInt16(header[17]) : UInt16(header[17]) << 8 | UInt16(header[16])
    }

    private init(value: UInt16) { self.value = value }

    var description: String {
        switch value {
        case 2: "EXEC"
        case 3: "DYN"
        default: "type \(value)"
        }
    }
}
