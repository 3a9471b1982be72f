import FoundationEssentials
import Testing

/// The targets under `Sources/` as their files' imports make them: no cycle,
/// no service or front end importing the core's implementation (`Core`)
/// rather than its interface (`PlayerModel`), and no target holding more
/// than 15% of the Swift lines.
struct ModuleGraphTests {
    /// The wiring: the application target, its executables and the fuzzers
    /// that start a whole player. Every other target sees the core only
    /// through `PlayerCore` in `PlayerModel`.
    static let wiring: Set<String> = ["Interlude", "interlude", "interlude-docgen", "ConfigFuzzer", "RemoteRequestFuzzer"]
    static let implementation = "Core"
    static let largestShare = 0.15

    struct Target {
        var name: String
        var imports: Set<String>
        var lines: Int
    }

    static func targets() throws -> [Target] {
        let sources = PureModuleImportTests.sourcesDirectory()
        let names = try FileManager.default.contentsOfDirectory(atPath: sources).sorted()
        return try names.map { name in
            var imports = Set<String>()
            var lines = 0
            for file in try SourceListing.swiftFiles(in: sources + "/" + name) {
                let data = FileManager.default.contents(atPath: file) ?? Data()
                let text = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                // wc -l's count: the text after the last newline is no line.
                lines += text.count - 1
                for line in text {
                    if let module = importedModule(line) { imports.insert(module) }
                }
            }
            return Target(name: name, imports: imports, lines: lines)
        }
    }

    /// `import X`, `@testable import X`, `import struct X.Y`: X; nil for any other line.
    static func importedModule(_ line: Substring) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
              words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { return nil }
        let kinds: Set<Substring> = ["struct", "class", "enum", "func", "protocol", "var", "let", "typealias"]
        let named = kinds.contains(words[index + 1]) && index + 2 < words.count ? words[index + 2] : words[index + 1]
        return String(named.split(separator: ".").first ?? named)
    }

    /// A cycle through `graph`'s nodes (each edge to a node of the graph), as the path that closes it; nil when there is none.
    static func cycle(in graph: [String: Set<String>]) -> [String]? {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var path: [String] = []
        func visit(_ node: String) -> [String]? {
            switch marks[node] {
            case .done?: return nil
            case .visiting?:
                return Array(path[path.firstIndex(of: node)!...]) + [node]
            case nil: break
            }
            marks[node] = .visiting
            path.append(node)
            for next in (graph[node] ?? []).sorted() where graph[next] != nil {
                if let found = visit(next) { return found }
            }
            path.removeLast()
            marks[node] = .done
            return nil
        }
        for node in graph.keys.sorted() {
            if let found = visit(node) { return found }
        }
        return nil
    }

    @Test("the cycle check finds a cycle of three and none in a chain")
    func cycleCheckFindsCycles() {
        #expect(Self.cycle(in: ["A": ["B"], "B": ["C"], "C": ["A"], "D": ["A"]]) == ["A", "B", "C", "A"])
        #expect(Self.cycle(in: ["A": ["B", "Glibc"], "B": ["C"], "C": []]) == nil)
        #expect(Self.cycle(in: ["A": ["A"]]) == ["A", "A"])
    }

    @Test("no target under Sources imports another in a cycle")
    func noCycle() throws {
        let graph = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0.imports) })
        #expect(graph.count > 20, "targets found: \(graph.keys.sorted())")
        let found = Self.cycle(in: graph)
        #expect(found == nil, "cycle: \(found?.joined(separator: " -> ") ?? "")")
    }

    @Test("only the wiring imports the core's implementation; services and front ends import its interface")
    func onlyTheWiringImportsTheCore() throws {
        let targets = try Self.targets()
        #expect(targets.contains { $0.name == Self.implementation }, "no Sources/\(Self.implementation)")
        for target in targets where !Self.wiring.contains(target.name) && target.name != Self.implementation {
            #expect(!target.imports.contains(Self.implementation), "\(target.name) imports \(Self.implementation)")
        }
        // The services are handed `PlayerCore` and nothing else.
        for service in ["RemoteControl", "DesktopIntegration", "LibraryIO", "LoopIO"] {
            let target = try #require(targets.first { $0.name == service }, "no Sources/\(service)")
            #expect(target.imports.contains("PlayerModel"), "\(service) does not import PlayerModel")
        }
    }

    @Test("the largest target holds at most 15% of the Swift lines under Sources")
    func noTargetHoldsMoreThanItsShare() throws {
        let targets = try Self.targets().filter { $0.lines > 0 }.sorted { $0.lines > $1.lines }
        let total = targets.reduce(0) { $0 + $1.lines }
        var table = "target                 lines   share\n"
        for target in targets {
            let share = Double(target.lines) / Double(total)
            let percent = (share * 1000).rounded() / 10
            table += target.name.rightPadded(to: 22)
                + String(target.lines).leftPadded(to: 7) + String(percent).leftPadded(to: 7) + "%\n"
        }
        table += "total".rightPadded(to: 22) + String(total).leftPadded(to: 7) + "\n"
        print(table, terminator: "")
        let largest = try #require(targets.first)
        #expect(Double(largest.lines) <= Self.largestShare * Double(total),
                "\(largest.name) holds \(largest.lines) of \(total) lines\n\(table)")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
