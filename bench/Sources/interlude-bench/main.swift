// interlude-bench: `make bench`. Runs interlude next to the `mpg123` program and the
// lean C references in bench/c (built into build/bench by the Makefile), prints medians,
// ratios and the targets, and exits non-zero when something could not run or missed its target.
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

let usage = """
usage: interlude-bench [--quick] [--stand-in] [--play-runs N] [--only decode,cpu,startup,underruns,preemption,seek,tui,mpris,desktop,formats,library,cover,titles,podcasts,streams,mpd,idle,spoken,rooms]

  --quick      short files for development: a 1 min decode file (3 runs) and 10 s of
               playback instead of a 10 min file (5 runs) and 60 s
  --stand-in   measure the C reference player in interlude's place (ref_decode, ref_play),
               to exercise the harness before the engine exists
  --play-runs N  play each player N times in the CPU/RSS benchmark and report medians
               (default 1: three minutes of real time at 60 s a file)
  --only LIST  run only these benchmarks (comma-separated)
  --keep-library DIR  keep the library rows' generated trees and indexes in DIR and use them
               again in the next run (which then leaves out the generate, scan and cmus rows)
  --soak SECONDS [--seed N] [--kills N] [--kill-window SECONDS] [--idle-alarm SECONDS] [--reanalyse]
               `make soak` instead of the benchmarks (bench/Sources/interlude-bench/Soak.swift)

Environment: INTERLUDE_BIN (default .build/release/interlude), INTERLUDE_BENCH_DIR
(the C references and kept fixtures; default build/bench).
"""

var options = BenchOptions()
var soak: SoakOptions?
var reanalyse = false
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--quick": options.quick = true
    case "--stand-in": options.standIn = true
    case "--only":
        guard !arguments.isEmpty else { fail("--only needs a list: \(BenchOptions.all.joined(separator: ","))") }
        let names = arguments.removeFirst().split(separator: ",").map(String.init)
        for name in names where BenchOptions.all.firstIndex(of: name) == nil {
            fail("unknown benchmark \(name); known: \(BenchOptions.all.joined(separator: ","))")
        }
        options.only = Set(names)
    case "--play-runs":
        guard let count = arguments.first.flatMap({ Int($0) }), count > 0 else { fail("--play-runs needs a positive count") }
        arguments.removeFirst()
        options.playRuns = count
    case "--soak", "--seed", "--kills", "--kill-window", "--idle-alarm":
        // `make soak` (Soak.swift): long runs instead of the benchmarks.
        guard let value = arguments.first.flatMap({ Double($0) }), value >= 0, value < 1e7 else {
            fail("\(argument) needs a number")
        }
        arguments.removeFirst()
        soak = soak ?? SoakOptions()
        switch argument {
        // 0: only the other parts (the server kills, the alarm after idle playback).
        case "--soak": soak?.seconds = value == 0 ? 0 : max(60, value)
        case "--seed": soak?.seed = UInt64(value)
        case "--kills": soak?.kills = Int(value)
        case "--idle-alarm": soak?.idleAlarm = value
        default: soak?.killWindow = value
        }
    case "--keep-library":
        guard let directory = arguments.first, directory.hasPrefix("/") else { fail("--keep-library needs an absolute folder") }
        arguments.removeFirst()
        options.keepLibrary = directory
    case "--reanalyse":
        reanalyse = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)\n\(usage)")
    }
}

// Fixtures are kept between runs next to the C references: the 10 min file takes a while to encode.
if ProcessInfo.processInfo.environment["INTERLUDE_FIXTURE_DIR"] == nil {
    setenv("INTERLUDE_FIXTURE_DIR", options.benchDirectory + "/fixtures", 1)
}

let report = soak.map { reanalyse ? Soak(options: $0).reanalyse() : Soak(options: $0).run() } ?? Bench(options: options).run()
print("")
print(report.table())
for note in report.notes { print("note: \(note)") }
if !report.notRun.isEmpty {
    print("")
    for reason in report.notRun { print("NOT RUN: \(reason)") }
}
// A missed target fails the run as a measurement that could not be made does:
// `make soak` and `make bench` exit non-zero, naming the rows.
let failed = report.rows.filter { $0.passed == false }
if !failed.isEmpty {
    print("")
    print("FAILED: \(failed.count) of \(report.rows.filter { $0.passed != nil }.count) rows with a target")
    for row in failed { print("FAILED: \(row.measure)") }
}
exit(report.notRun.isEmpty && failed.isEmpty ? 0 : 1)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("interlude-bench: \(message)\n".utf8))
    exit(2)
}
