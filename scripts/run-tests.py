#!/usr/bin/env python3
"""Runs the Swift Testing suites as several test processes at once.

Why: Swift Testing runs tests on the cooperative thread pool, one thread per
core, so on this project's 2-core machines only two tests run at a time, and
most end-to-end tests spend their time waiting (real-time playback through a
null sink, a server's answer, a player's exit) while holding one of those two
threads: the suite's wall time was its waits' sum halved (18.5 minutes).
Each test process brings a pool of its own, so N processes wait on 2N tests.

The work is cut into units: one per end-to-end suite (EndToEndTests is most of
the time and its suites are independent) and one per other test target. Up to
--jobs units run at once, each as its own test process; the next unit starts
when one ends, longest first by the seconds each took in an earlier run
(scripts/test-weights.tsv; a unit not listed there goes first); the units in
ALONE_UNITS go before all others, each with nothing beside it. Fixtures are
shared between the processes through one directory for the run
(INTERLUDE_FIXTURE_DIR; TestSupport's fixture cache renames each file into
place whole). Each unit's output is printed whole when it ends; then a
summary: each failure, and one closing line 'N passed, N failed'. The exit
status is non-zero when any process failed or any test failed. No test is
ever retried. A unit still running after --unit-timeout seconds is killed
and counted as failed.

Usage: scripts/run-tests.py [--jobs N] [--bin XCTEST] [--filter REGEX]...
       scripts/run-tests.py --write-weights   (keep this run's unit times)
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEIGHTS = os.path.join(ROOT, "scripts", "test-weights.tsv")
LOG_DIR = os.path.join(ROOT, "build", "test-logs")
DURATIONS = os.path.join(LOG_DIR, "durations.tsv")
# Targets whose suites each get a process of their own.
SPLIT_TARGETS = {"EndToEndTests", "InstallTests"}
XCTEST_UNIT = "XCTest"
# Units run alone, first, before the others start: what they measure is the
# timing between other programs (three Snapcast rooms in step, each a
# snapclient writing a file on a timer), which three other test processes on
# two cores move by milliseconds; the player's part they check holds either way.
ALONE_UNITS = {"EndToEndTests.SnapcastRoomsTests"}

# "✘ Test name() failed after 1.234 seconds with 1 issue." (not the run's own closing line)
TEST_FAILED = re.compile(r"^✘ Test (?!run with )(.+?) failed after ")
RUN_END = re.compile(r"^[✔✘] Test run with (\d+) tests? (?:in \d+ suites? )?(passed|failed)")
# XCTest's closing line: "Executed 3 tests, with 1 failure (0 unexpected) in ..."
XCTEST_END = re.compile(r"^\s*Executed (\d+) tests?, with (\d+) failures?")


def list_tests(binary, filters):
    """Every test id, kept when it matches one of the filters (--list-tests ignores --filter)."""
    out = subprocess.run([binary, "--testing-library", "swift-testing", "--list-tests"],
                         check=True, capture_output=True, text=True).stdout
    ids = [line.strip() for line in out.splitlines() if "/" in line and not line.startswith(("◇", "↳", "✔", "✘"))]
    patterns = [re.compile(f) for f in filters]
    return [i for i in ids if not patterns or any(p.search(i) for p in patterns)]


def units_of(test_ids):
    """name -> regex: 'Target.Suite' for the split targets, 'Target' for the rest."""
    units = {}
    for test_id in test_ids:
        suite = test_id.split("/", 1)[0]
        target = suite.split(".", 1)[0]
        if target in SPLIT_TARGETS:
            units[suite] = "^" + re.escape(suite) + "/"
        else:
            units[target] = "^" + re.escape(target) + r"\."
    return units


def read_weights():
    weights = {}
    try:
        with open(WEIGHTS, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("#") or "\t" not in line:
                    continue
                name, seconds = line.rstrip("\n").split("\t", 1)
                try:
                    weights[name] = max(0.0, float(seconds))
                except ValueError:
                    pass
    except FileNotFoundError:
        pass
    return weights


class Unit:
    def __init__(self, name, pattern, binary, fixtures):
        self.name = name
        self.log_path = os.path.join(LOG_DIR, re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".log")
        self.log = open(self.log_path, "w", encoding="utf-8")
        environment = dict(os.environ, INTERLUDE_FIXTURE_DIR=fixtures)
        # XCTest's tests, if any, are one unit: the binary run without Swift Testing's flag.
        arguments = [binary] if name == XCTEST_UNIT else [binary, "--testing-library", "swift-testing", "--filter", pattern]
        # A group of its own, so a unit that overruns is stopped with every child it started.
        self.process = subprocess.Popen(arguments,
                                        stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        env=environment, start_new_session=True)
        self.started = time.monotonic()
        self.seconds = None
        self.timed_out = False

    def stop(self):
        self.timed_out = True
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.process.wait(timeout=10)
                return
            except subprocess.TimeoutExpired:
                continue


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("INTERLUDE_TEST_JOBS", "4")))
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug", "InterludePackageTests.xctest"))
    parser.add_argument("--filter", action="append", default=[])
    parser.add_argument("--unit-timeout", type=float, default=1500)
    parser.add_argument("--write-weights", action="store_true")
    options = parser.parse_args()
    if options.write_weights:
        shutil.copyfile(DURATIONS, WEIGHTS)
        print(f"run-tests: {DURATIONS} kept as {WEIGHTS}")
        return 0
    if not 1 <= options.jobs <= 16:
        print(f"run-tests: --jobs {options.jobs} is outside 1...16", file=sys.stderr)
        return 2

    units = units_of(list_tests(options.bin, options.filter))
    if not options.filter:
        units[XCTEST_UNIT] = None
    if not units:
        print("run-tests: no test matched", file=sys.stderr)
        return 1
    weights = read_weights()
    pending = sorted(units, key=lambda n: (n not in ALONE_UNITS, -weights.get(n, float("inf")), n))
    os.makedirs(LOG_DIR, exist_ok=True)
    for name in os.listdir(LOG_DIR):
        os.remove(os.path.join(LOG_DIR, name))
    fixtures = os.environ.get("INTERLUDE_FIXTURE_DIR") or tempfile.mkdtemp(prefix="interlude-fixtures.")
    own_fixtures = not os.environ.get("INTERLUDE_FIXTURE_DIR")
    print(f"run-tests: {len(units)} units, {options.jobs} at a time", flush=True)

    started = time.monotonic()
    running, done = [], []
    try:
        while pending or running:
            while pending and len(running) < options.jobs:
                alone = pending[0] in ALONE_UNITS or any(unit.name in ALONE_UNITS for unit in running)
                if alone and running:
                    break
                name = pending.pop(0)
                running.append(Unit(name, units[name], options.bin, fixtures))
            time.sleep(0.2)
            for unit in list(running):
                if unit.process.poll() is None:
                    if time.monotonic() - unit.started > options.unit_timeout:
                        unit.stop()
                    else:
                        continue
                unit.seconds = time.monotonic() - unit.started
                unit.log.close()
                running.remove(unit)
                done.append(unit)
                with open(unit.log_path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                print(f"\n===== {unit.name} ({unit.seconds:.0f} s, exit {unit.process.returncode})", flush=True)
                sys.stdout.write(text)
                sys.stdout.flush()
    finally:
        for unit in running:
            unit.stop()
        if own_fixtures:
            shutil.rmtree(fixtures, ignore_errors=True)

    passed = failed = 0
    failures = []
    for unit in done:
        with open(unit.log_path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
        total = None
        failed_here = 0
        for line in lines:
            run = RUN_END.match(line)
            xctest = XCTEST_END.match(line)
            if run:
                total = int(run.group(1))
            elif xctest:
                # The last "Executed" line is the whole run's.
                total = int(xctest.group(1))
                failed_here = int(xctest.group(2))
                failures = [f for f in failures if not f.startswith(f"{unit.name}:")]
                failures += [f"{unit.name}: {xctest.group(2)} XCTest failures"] if failed_here else []
            elif TEST_FAILED.match(line):
                failed_here += 1
                failures.append(f"{unit.name}: {line}")
        if unit.timed_out:
            failures.append(f"{unit.name}: still running after {options.unit_timeout:.0f} s, stopped")
        elif unit.process.returncode != 0 and failed_here == 0:
            failures.append(f"{unit.name}: exited with status {unit.process.returncode}"
                            + ("" if total is not None else " before its run ended"))
        if (unit.timed_out or unit.process.returncode != 0) and failed_here == 0:
            failed_here = 1
        failed += failed_here
        passed += max(0, (total or 0) - failed_here)

    with open(DURATIONS, "w", encoding="utf-8") as handle:
        handle.write("# unit\tseconds its test process ran (scripts/run-tests.py; --write-weights keeps them)\n")
        for unit in sorted(done, key=lambda u: u.name):
            handle.write(f"{unit.name}\t{unit.seconds:.1f}\n")
    slowest = sorted(done, key=lambda u: -u.seconds)[:5]
    print(f"\nrun-tests: {len(done)} units, {options.jobs} at a time, {time.monotonic() - started:.0f} s in all; "
          "slowest: " + ", ".join(f"{u.name} {u.seconds:.0f} s" for u in slowest))
    for line in failures:
        print(f"run-tests: {line}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failures or failed else 0


if __name__ == "__main__":
    sys.exit(main())
