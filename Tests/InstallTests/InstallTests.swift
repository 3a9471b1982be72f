import DesktopIntegration
import Foundation
import Interlude
import PlayerModel
import Testing
import TestSupport

/// `make install` and `make uninstall`, the installed binary away
/// from the build tree and the toolchain, the man page and completions as
/// generated, and `make deb` through dpkg, apt and lintian. One
/// `make install DESTDIR=...` per run serves the first three. The release
/// build they install is `make test`'s first step; here make installs it as
/// built (`PREBUILT=1`), so a release build older than the tree shows as a
/// man page or `--version` that differs (run `make release`).
@Suite(.serialized) struct InstallTests {
    static let prefix = "/usr/local"

    /// The repository: three levels above this file.
    static let repository: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// The Swift toolchain's root (`/opt/swift` for `/opt/swift/usr/bin/swift`).
    static let toolchain: String = {
        guard let swift = ProcessRunner.which("swift"), let real = realpath(swift, nil) else { return "/opt/swift" }
        defer { free(real) }
        var path = String(cString: real)
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path.isEmpty ? "/opt/swift" : path
    }()

    static var shippedThemes: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: repository + "/themes")) ?? []
        return files.filter { $0.hasSuffix(".theme") }.sorted()
    }

    /// What `make install` must put below PREFIX, each with its mode.
    static func expectedFiles(prefix: String, zsh: String, manPage: String = "man/man1/interlude.1") -> [String: Int] {
        var files = [
            "\(prefix)/bin/interlude": 0o755,
            "\(prefix)/share/\(manPage)": 0o644,
            "\(prefix)/share/bash-completion/completions/interlude": 0o644,
            "\(zsh)/_interlude": 0o644,
            "\(prefix)/share/fish/vendor_completions.d/interlude.fish": 0o644,
            "\(prefix)/share/applications/\(DesktopFiles.desktopEntry).desktop": 0o644,
            "\(prefix)/share/metainfo/\(DesktopFiles.desktopEntry).metainfo.xml": 0o644,
            "\(prefix)/lib/systemd/user/\(UserServiceUnit.serviceName)": 0o644,
        ]
        for theme in shippedThemes { files["\(prefix)/share/interlude/themes/\(theme)"] = 0o644 }
        return files
    }

    /// Every regular file below `root` (paths from `root`, with a leading `/`) and its permission bits.
    static func files(below root: String) -> [String: Int] {
        var found: [String: Int] = [:]
        for relative in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] {
            var info = stat()
            guard lstat(root + "/" + relative, &info) == 0 else { continue }
            if info.st_mode & S_IFMT != S_IFDIR { found["/" + relative] = Int(info.st_mode & 0o7777) }
        }
        return found
    }

    /// `make -C REPOSITORY ...`; the release build is `make test`'s first step
    /// (PREBUILT=1 installs what it built without building again).
    static func make(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 600) throws -> ProcessResult {
        try ProcessRunner.run("/usr/bin/make", ["-C", repository, "--no-print-directory"] + arguments, environment: environment,
                              timeout: timeout)
    }

    /// `scripts/version.sh`'s answer (no argument: the version, `git describe` as a Debian version; `--date`).
    static func version(_ argument: String? = nil) throws -> String {
        let result = try ProcessRunner.check(repository + "/scripts/version.sh", argument.map { [$0] } ?? [])
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The run's one installation into a scratch DESTDIR.
    static let installation: Result<String, InstallError> = {
        let root = ScratchFiles.makeDirectory("destdir")
        do {
            let result = try make(["install", "PREBUILT=1", "DESTDIR=\(root)"])
            guard result.succeeded else { return .failure(InstallError("make install: \(result.summary)")) }
            return .success(root)
        } catch {
            return .failure(InstallError("make install: \(error)"))
        }
    }()

    static func installedRoot() throws -> String { try installation.get() }

    /// An empty home, so no theme or config of the user's is found.
    static func emptyHome() -> [String: String] {
        let home = ScratchFiles.makeDirectory("home")
        return ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state",
                "XDG_DATA_HOME": home + "/.local/share", "XDG_CACHE_HOME": home + "/.cache"]
    }

    // MARK: Acceptance 1

    @Test func installPutsEveryFileInItsPlaceWithItsModeAndUninstallRemovesExactlyThem() throws {
        let root = try Self.installedRoot()
        let expected = Self.expectedFiles(prefix: Self.prefix, zsh: Self.prefix + "/share/zsh/site-functions")
        #expect(Self.files(below: root) == expected)
        #expect(Self.shippedThemes.count >= 4, "\(Self.shippedThemes)")

        // A second tree for uninstall, with files of other programs beside ours that must stay.
        let other = ScratchFiles.makeDirectory("uninstall")
        let install = try Self.make(["install", "PREBUILT=1", "DESTDIR=\(other)"])
        try #require(install.succeeded, "\(install.summary)")
        let foreign = ["\(Self.prefix)/bin/other-player", "\(Self.prefix)/share/applications/other.desktop",
                       "\(Self.prefix)/share/man/man1/other.1"]
        for path in foreign { #expect(FileManager.default.createFile(atPath: other + path, contents: Data("x\n".utf8))) }
        let uninstall = try Self.make(["uninstall", "DESTDIR=\(other)"])
        #expect(uninstall.succeeded, "\(uninstall.summary)")
        #expect(Set(Self.files(below: other).keys) == Set(foreign))
        #expect(!FileManager.default.fileExists(atPath: other + Self.prefix + "/share/interlude"))
    }

    // MARK: Acceptance 2

    @Test func theInstalledBinaryRunsWithTheBuildTreeAndTheToolchainHidden() throws {
        let root = try Self.installedRoot()
        #expect(!root.hasPrefix(Self.repository + "/"), "the scratch tree must lie outside the repository")
        let binary = root + Self.prefix + "/bin/interlude"
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2)
        #expect(!mp3.hasPrefix(Self.repository + "/"))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let separator = "@@interlude-install-test@@"
        // In a mount namespace of its own, empty tmpfs over the toolchain and the repository:
        // what the binary needs from either is not there.
        let script = """
        set -u
        mount -t tmpfs none "$TOOLCHAIN" && mount -t tmpfs none "$REPOSITORY" || exit 90
        [ -e "$REPOSITORY/Package.swift" ] || [ -e "$TOOLCHAIN/usr/bin/swift" ] && exit 91
        "$BINARY" --version; echo "$SEPARATOR $?"
        "$BINARY" info "$MP3"; echo "$SEPARATOR $?"
        "$BINARY" themes --paths; echo "$SEPARATOR $?"
        ldd "$BINARY"; echo "$SEPARATOR $?"
        "$BINARY" play --device pulse --events json "$MP3"; echo "$SEPARATOR $?"
        """
        var environment = Self.emptyHome().merging(sink.environment) { $1 }
        environment["REPOSITORY"] = Self.repository
        environment["TOOLCHAIN"] = Self.toolchain
        environment["BINARY"] = binary
        environment["MP3"] = mp3
        environment["SEPARATOR"] = separator
        let run = try ProcessRunner.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script],
                                        environment: environment, timeout: 60)
        let capture = try recorder.stop()
        try #require(run.exitStatus == 0, "\(run.summary)")
        let parts = run.stdoutText.components(separatedBy: separator + " ")
        try #require(parts.count == 6, "\(run.stdoutText)\n\(run.stderrText)")
        func output(_ index: Int) -> (text: String, status: String) {
            let text = index == 0 ? parts[0] : String(parts[index].drop { $0 != "\n" }.dropFirst())
            let status = parts[index + 1].prefix { $0 != "\n" }
            return (text, String(status))
        }

        let version = output(0)
        #expect(version.status == "0")
        #expect(version.text == "interlude \(try Self.version())\n", "the release build is older than the tree: make release")

        let info = output(1)
        #expect(info.status == "0", "\(run.stderrText)")
        #expect(info.text.contains("44100 Hz stereo"), "\(info.text)")

        // Every shipped theme, found below the binary's own prefix (default first, then by name).
        let themes = output(2)
        #expect(themes.status == "0")
        let lines = themes.text.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let names = Self.shippedThemes.map { String($0.dropLast(".theme".count)) }
        #expect(lines.map { $0[0] } == ["default"] + names.filter { $0 != "default" }.sorted())
        for line in lines {
            #expect(line.count == 2 && line[1] == "\(root)\(Self.prefix)/share/interlude/themes/\(line[0]).theme", "\(line)")
        }

        let ldd = output(3)
        #expect(ldd.status == "0")
        #expect(!ldd.text.contains(Self.toolchain) && !ldd.text.contains("not found") && !ldd.text.contains(Self.repository),
                "\(ldd.text)")
        #expect(!ldd.text.contains("libswift"), "\(ldd.text)")

        // Headless playback into the null sink: the events say it played, the sink heard it.
        let play = output(4)
        #expect(play.status == "0", "\(run.stderrText)")
        #expect(play.text.contains("\"event\":\"trackStarted\"") && play.text.contains("\"event\":\"finished\""), "\(play.text)")
        let bounds = try #require(SignalAnalysis.signalBounds(capture), "the sink heard nothing")
        #expect(Double(bounds.count) / Double(capture.sampleRate) > 1.5)
    }

    // MARK: Acceptance 3

    @Test func theManPageAndCompletionsAsGeneratedNowAreTheInstalledOnes() throws {
        let root = try Self.installedRoot() + Self.prefix
        let version = try Self.version()
        let date = try Self.version("--date")
        let generated = [
            "share/man/man1/interlude.1": ManualPage.text(version: version, date: date),
            "share/bash-completion/completions/interlude": ShellCompletion.bash,
            "share/zsh/site-functions/_interlude": ShellCompletion.zsh,
            "share/fish/vendor_completions.d/interlude.fish": ShellCompletion.fish,
            "share/applications/\(DesktopFiles.desktopEntry).desktop": DesktopFiles.desktopEntryFile,
            "share/metainfo/\(DesktopFiles.desktopEntry).metainfo.xml": DesktopFiles.metainfo(version: version, date: date),
            "lib/systemd/user/\(UserServiceUnit.serviceName)": try #require(UserServiceUnit.serviceFile(binary: Self.prefix + "/bin/interlude")),
        ]
        for (path, text) in generated {
            let installed = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            #expect(installed == text, "\(path) differs from what the tables make now (was `make release` run after the last change?)")
        }
    }

    @Test func theManPageHasEveryCommandOptionRemoteCommandAndConfigKeyAndNoWarnings() throws {
        let page = try Self.installedRoot() + Self.prefix + "/share/man/man1/interlude.1"
        let lint = try ProcessRunner.run("mandoc", ["-T", "lint", "-W", "style", page])
        #expect(lint.succeeded && lint.stdoutText.isEmpty && lint.stderrText.isEmpty, "\(lint.stdoutText)\(lint.stderrText)")
        let warnings = try ProcessRunner.run("man", ["--warnings", "-l", page], environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
        #expect(warnings.succeeded && warnings.stderrText.isEmpty, "\(warnings.stderrText)")
        // What a reader sees (overstrikes removed): every command, option, remote command and config key.
        let plain = try ProcessRunner.check("mandoc", ["-T", "ascii", "-O", "width=200", page]).stdoutText
            .replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        var missing: [String] = []
        func visit(_ command: CommandLineCommand) {
            if !command.name.isEmpty && !plain.contains(command.name) { missing.append(command.name) }
            for option in command.options where !plain.contains(option.name) { missing.append("\(command.name) \(option.name)") }
            command.subcommands.forEach(visit)
        }
        ([CommandLineReference.fullScreen] + CommandLineReference.commands).forEach(visit)
        for entry in RemoteVocabulary.entries where !plain.contains(entry.usage) { missing.append("remote \(entry.usage)") }
        for key in PlayerConfigFile.keys where !plain.contains(key + " = ") { missing.append("config \(key)") }
        #expect(missing.isEmpty, "not in the man page: \(missing)")
    }

    /// The socket's commands starting with "se", as the table has them ("seek", "seek-to").
    static var remoteSe: [String] { RemoteVocabulary.entries.map(\.name).filter { $0.hasPrefix("se") }.sorted() }
    static var themeNames: [String] { Self.shippedThemes.map { String($0.dropLast(".theme".count)) }.sorted() }

    /// The installed bin folder first on PATH, so the completions ask the installed binary.
    static func shellEnvironment(_ root: String) -> [String: String] {
        var environment = emptyHome()
        environment["PATH"] = root + prefix + "/bin:/usr/bin:/bin"
        return environment
    }

    @Test func bashCompletesRemoteCommandsAndThemes() throws {
        let root = try Self.installedRoot()
        let script = """
        source "$0"
        complete -p interlude >/dev/null || exit 90
        comp() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                 COMPREPLY=(); _interlude interlude "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                 printf '%s\\n' "${COMPREPLY[@]}" | sort; echo @@; }
        comp interlude remote se
        comp interlude --theme ''
        comp interlude play --replaygain ''
        interlude alarm add in 10m >/dev/null && interlude alarm add 07:30 >/dev/null || exit 91
        comp interlude alarm rm ''
        """
        let run = try ProcessRunner.run("/bin/bash", ["-c", script, root + Self.prefix + "/share/bash-completion/completions/interlude"],
                                        environment: Self.shellEnvironment(root), timeout: 30)
        try #require(run.succeeded, "\(run.summary)")
        let answers = run.stdoutText.components(separatedBy: "@@\n").map { $0.split(separator: "\n").map(String.init) }
        try #require(answers.count == 5, "\(run.stdoutText)")
        #expect(answers[0] == Self.remoteSe && answers[0].contains("seek"), "\(run.stdoutText)")
        #expect(answers[1] == Self.themeNames, "\(run.stdoutText)")
        #expect(answers[2] == ["album", "off", "track"], "\(run.stdoutText)")
        // The ids `interlude alarm list` shows, asked of the installed binary.
        #expect(answers[3] == ["1", "2"], "\(run.stdoutText)")
    }

    @Test func zshCompletesRemoteCommandsAndThemes() throws {
        let root = try Self.installedRoot()
        let capture = Self.repository + "/Tests/Fixtures/zsh_complete.zsh"
        let functions = root + Self.prefix + "/share/zsh/site-functions"
        func complete(_ line: String) throws -> [String] {
            let run = try ProcessRunner.run("/usr/bin/zsh", ["-f", capture, functions, line],
                                            environment: Self.shellEnvironment(root), timeout: 30)
            #expect(run.succeeded, "\(run.summary)")
            return run.stdoutText.split(separator: "\n").map(String.init).sorted()
        }
        let remote = try complete("interlude remote se")
        #expect(remote == Self.remoteSe && remote.contains("seek"), "\(remote)")
        #expect(try complete("interlude --theme ") == Self.themeNames)
    }

    @Test func fishCompletesRemoteCommandsAndThemes() throws {
        let root = try Self.installedRoot()
        let directory = root + Self.prefix + "/share/fish/vendor_completions.d"
        func complete(_ line: String) throws -> [String] {
            let run = try ProcessRunner.run("/usr/bin/fish", ["--no-config", "-c",
                                                              "set -p fish_complete_path $argv[1]; complete -C $argv[2]",
                                                              directory, line],
                                            environment: Self.shellEnvironment(root), timeout: 30)
            #expect(run.succeeded, "\(run.summary)")
            // "NAME<tab>description"
            return run.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
        }
        let remote = try complete("interlude remote se")
        #expect(remote == Self.remoteSe && remote.contains("seek"), "\(remote)")
        #expect(try complete("interlude --theme ") == Self.themeNames)
    }

    /// What Tab must offer after each line: every socket command of `CommandTable` after
    /// `interlude remote`, every command after `interlude`, and each command's subcommands
    /// after its name. The shells run in an empty folder, so no file name joins the answers.
    static var everyCommandCompletion: [(line: String, expected: [String])] {
        var cases = [("interlude remote ", RemoteVocabulary.entries.map(\.name).sorted()),
                     ("interlude ", CommandLineReference.commands.map(\.name).sorted())]
        for command in CommandLineReference.commands where !command.subcommands.isEmpty {
            cases.append(("interlude \(command.name) ", command.subcommands.map(\.name).sorted()))
        }
        return cases
    }

    /// Runs `script` (whose last argument is the line) once per line of `everyCommandCompletion`,
    /// in an empty folder, and compares the answers (one a line) with the table's.
    static func expectEveryCommandCompletes(_ shell: String, sourceLocation: SourceLocation = #_sourceLocation,
                                            _ complete: (String) throws -> ProcessResult) throws {
        #expect(RemoteVocabulary.entries.count > 40 && everyCommandCompletion.count > 5, sourceLocation: sourceLocation)
        for (line, expected) in everyCommandCompletion {
            let run = try complete(line)
            #expect(run.succeeded, "\(shell) '\(line)': \(run.summary)", sourceLocation: sourceLocation)
            let answers = Set(run.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) })
            let missing = Set(expected).subtracting(answers).sorted(), extra = answers.subtracting(expected).sorted()
            #expect(answers == Set(expected), "\(shell) '\(line)': missing \(missing), extra \(extra)", sourceLocation: sourceLocation)
        }
    }

    @Test("bash, zsh and fish complete every command of the command table and the command line")
    func everyShellCompletesEveryCommand() throws {
        let root = try Self.installedRoot()
        let empty = ScratchFiles.makeDirectory("empty-cwd")
        let environment = Self.shellEnvironment(root)
        let bash = root + Self.prefix + "/share/bash-completion/completions/interlude"
        try Self.expectEveryCommandCompletes("bash") { line in
            let script = """
            source "$1"; cd "$2" || exit 90
            COMP_LINE=$3; read -ra COMP_WORDS <<< "$COMP_LINE"; COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _interlude interlude "" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
            return try ProcessRunner.run("/bin/bash", ["-c", script, "bash", bash, empty, line], environment: environment, timeout: 30)
        }
        let functions = root + Self.prefix + "/share/zsh/site-functions"
        let capture = Self.repository + "/Tests/Fixtures/zsh_complete.zsh"
        try Self.expectEveryCommandCompletes("zsh") { line in
            try ProcessRunner.run("/bin/sh", ["-c", "cd \"$1\" && exec /usr/bin/zsh -f \"$2\" \"$3\" \"$4\"", "sh", empty, capture,
                                              functions, line], environment: environment, timeout: 30)
        }
        let fish = root + Self.prefix + "/share/fish/vendor_completions.d"
        try Self.expectEveryCommandCompletes("fish") { line in
            try ProcessRunner.run("/usr/bin/fish", ["--no-config", "-c", "cd $argv[1]; set -p fish_complete_path $argv[2]; complete -C $argv[3]",
                                                    empty, fish, line], environment: environment, timeout: 30)
        }
    }

    // MARK: The systemd user unit

    /// `systemd-analyze --user verify interlude.service`, the unit named, not
    /// its file: the user manager's search path must find it. Offline (no
    /// user manager runs here), with a private runtime folder and an empty
    /// home, so only the system's folders are searched. systemd checks the
    /// keys, that `ExecStart=`'s binary is executable and that
    /// `Documentation=`'s man page opens; it prints a line for each problem,
    /// a mere warning included, so the answer must be empty. `setup` runs
    /// first in the same shell (a mount namespace of its own).
    static func verifyUserUnit(setup: String = "", environment extra: [String: String] = [:]) throws -> ProcessResult {
        let runtime = ScratchFiles.makeDirectory("unit-runtime")
        chmod(runtime, 0o700)
        var environment = emptyHome().merging(extra) { $1 }
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["UNIT"] = UserServiceUnit.serviceName
        let script = """
        set -u
        \(setup)
        systemd-analyze --user unit-paths | grep -qx "$UNIT_DIR" || { echo "$UNIT_DIR is not on the user manager's search path" >&2; exit 91; }
        exec systemd-analyze --user verify "$UNIT"
        """
        return try ProcessRunner.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script],
                                     environment: environment, timeout: 60)
    }

    @Test("the installed user unit passes systemd-analyze verify, found by name where systemctl --user looks, its ExecStart the installed binary")
    func theInstalledUserUnitPassesSystemdVerify() throws {
        try #require(ProcessRunner.which("systemd-analyze") != nil, "systemd-analyze is missing (make deps installs systemd)")
        let root = try Self.installedRoot()
        let unit = Self.prefix + "/lib/systemd/user/" + UserServiceUnit.serviceName
        let text = try String(contentsOfFile: root + unit, encoding: .utf8)
        #expect(text.contains("\nExecStart=\(Self.prefix)/bin/interlude service\n"), "\(text)")
        // The scratch tree's PREFIX over the real one: the binary and man page where the unit names them.
        let verify = try Self.verifyUserUnit(setup: "mount --bind \"$TREE\" \"$PREFIX\" || exit 90",
                                             environment: ["TREE": root + Self.prefix, "PREFIX": Self.prefix,
                                                           "UNIT_DIR": Self.prefix + "/lib/systemd/user"])
        #expect(verify.exitStatus == 0 && verify.stdoutText.isEmpty && verify.stderrText.isEmpty, "\(verify.summary)")
    }

    // MARK: Acceptance 4

    @Test("the package installs with its dependencies met; lintian --pedantic finds nothing; one version everywhere; a licence and an honest maintainer")
    func theDebianPackageInstallsWithItsDependenciesMetAndLintianFindsNothing() throws {
        // The builder's address (Debian's DEBEMAIL): this one is the test's own, in a top-level
        // domain reserved never to exist (RFC 2606); the package is purged below.
        let builder = "install-tests@interlude.invalid"
        let build = try Self.make(["deb", "PREBUILT=1"], environment: ["DEBEMAIL": builder])
        try #require(build.succeeded, "\(build.summary)")
        let deb = Self.repository + "/" + (build.stdoutText.split(separator: "\n").last.map(String.init) ?? "")
        try #require(deb.hasSuffix(".deb") && FileManager.default.fileExists(atPath: deb), "\(build.stdoutText)")
        let debianVersion = try Self.version()
        #expect(deb.hasSuffix("/interlude_\(debianVersion)_\(try ProcessRunner.check("dpkg", ["--print-architecture"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)).deb"))

        // Errors, warnings and pedantic tags: none (informational tags are not shown with --pedantic alone).
        let lintian = try ProcessRunner.run("lintian", ["--pedantic", "--tag-display-limit", "0", deb], timeout: 600)
        let tags = lintian.stdoutText.split(separator: "\n").filter { $0.range(of: #"^[EWPIX]: "#, options: .regularExpression) != nil }
        #expect(tags.isEmpty, "\(lintian.stdoutText)")
        #expect(lintian.exitStatus == 0 && !lintian.timedOut, "\(lintian.summary)")

        // The package's own fields: the project's name as maintainer with no made-up address; the licence.
        let field = { (name: String) throws -> String in
            try ProcessRunner.check("dpkg-deb", ["--field", deb, name]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try field("Maintainer") == "Interlude <\(builder)>")
        // Without DEBEMAIL: this account's address on this machine, as dch makes it, never one made up.
        let account = try ProcessRunner.check("/bin/sh", ["-c", "echo \"$(id -un)@$(hostname --fqdn 2>/dev/null || hostname)\""])
            .stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let unset = try ProcessRunner.run(Self.repository + "/scripts/make-deb.sh", ["--maintainer"], environment: ["PATH": "/usr/bin:/bin"],
                                          inheritEnvironment: false)
        #expect(unset.stdoutText == "Interlude <\(account)>\n", "\(unset.summary)")
        #expect(try field("Version") == debianVersion)

        let status = try ProcessRunner.run("dpkg-query", ["-W", "-f=${Status}", "interlude"])
        try #require(!status.stdoutText.contains("installed") || status.stdoutText.contains("not-installed"),
                     "interlude is already installed on this machine: the test would remove it")
        let install = try ProcessRunner.run("dpkg", ["-i", deb], environment: ["DEBIAN_FRONTEND": "noninteractive"], timeout: 300)
        defer { _ = try? ProcessRunner.run("dpkg", ["--purge", "interlude"], timeout: 300) }
        try #require(install.succeeded, "\(install.summary)")
        let fix = try ProcessRunner.run("apt-get", ["-f", "install", "--simulate"], timeout: 300)
        #expect(fix.succeeded, "\(fix.summary)")
        #expect(fix.stdoutText.range(of: #"\b0 upgraded, 0 newly installed, 0 to remove\b"#, options: .regularExpression) != nil,
                "\(fix.stdoutText)")

        let listed = try ProcessRunner.check("dpkg", ["-L", "interlude"]).stdoutText.split(separator: "\n").map(String.init)
        let files = Set(listed.filter { path in
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
        })
        var expected = Set(Self.expectedFiles(prefix: "/usr", zsh: "/usr/share/zsh/vendor-completions",
                                              manPage: "man/man1/interlude.1.gz").keys)
        expected.formUnion(["/usr/share/doc/interlude/copyright", "/usr/share/doc/interlude/changelog.gz"])
        #expect(files == expected)
        // One version: --version, the package's, the man page's and the metainfo's.
        let version = try ProcessRunner.run("/usr/bin/interlude", ["--version"])
        #expect(version.stdoutText == "interlude \(debianVersion)\n", "\(version.summary)")
        let installedVersion = try ProcessRunner.check("dpkg-query", ["-W", "-f=${Version}", "interlude"]).stdoutText
        #expect(installedVersion == debianVersion)
        let manPage = try ProcessRunner.check("/bin/sh", ["-c", "zcat /usr/share/man/man1/interlude.1.gz | grep '^\\.TH '"]).stdoutText
        #expect(manPage.contains("\"Interlude \(debianVersion)\""), "\(manPage)")
        let metainfo = try String(contentsOfFile: "/usr/share/metainfo/\(DesktopFiles.desktopEntry).metainfo.xml", encoding: .utf8)
        #expect(metainfo.contains("<release version=\"\(debianVersion)\"") && metainfo.contains("<project_license>GPL-3.0-or-later</project_license>"))
        // The copyright file is the repository's, machine-readable, with the project's licence.
        let copyright = try String(contentsOfFile: "/usr/share/doc/interlude/copyright", encoding: .utf8)
        #expect(copyright == (try String(contentsOfFile: Self.repository + "/debian/copyright", encoding: .utf8)))
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(copyright.contains("Files: *\nCopyright: ") && copyright.contains("License: GPL-3+\n"), "\(copyright)")
        // The user unit where `systemctl --user` finds it, starting the package's binary, and valid.
        let unit = try String(contentsOfFile: "/usr/lib/systemd/user/" + UserServiceUnit.serviceName, encoding: .utf8)
        #expect(unit == UserServiceUnit.serviceFile(binary: "/usr/bin/interlude"), "\(unit)")
        let verify = try Self.verifyUserUnit(environment: ["UNIT_DIR": "/usr/lib/systemd/user"])
        #expect(verify.exitStatus == 0 && verify.stdoutText.isEmpty && verify.stderrText.isEmpty, "\(verify.summary)")
        // Debian's zsh finds the function where the package put it.
        let fpath = try ProcessRunner.check("/usr/bin/zsh", ["-c", "print -l $fpath"]).stdoutText
        #expect(fpath.split(separator: "\n").contains("/usr/share/zsh/vendor-completions"), "\(fpath)")

        let purge = try ProcessRunner.run("dpkg", ["--purge", "interlude"], timeout: 300)
        #expect(purge.succeeded, "\(purge.summary)")
        #expect(!FileManager.default.fileExists(atPath: "/usr/bin/interlude"))
    }
}

struct InstallError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
