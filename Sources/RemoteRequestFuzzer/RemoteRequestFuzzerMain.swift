import FuzzDriver

/// libFuzzer over the control socket's request parser (`make fuzz`); in a
/// plain build a replayer of saved inputs (`RemoteRequestFuzzer file...`).
@main
enum RemoteRequestFuzzerMain {
    static func main() {
        FuzzDriver.run(name: "RemoteRequestFuzzer", replaying: CommandLine.arguments.dropFirst(),
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: exerciseParser)
    }
}
