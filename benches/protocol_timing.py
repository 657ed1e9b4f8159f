#!/usr/bin/env python3
"""Protocol timing of `marshal` (protocol.md section 3): how close `go movetime 1000`
answers to 1000 ms, and how fast `stop` ends a `go infinite`.

Usage: python3 benches/protocol_timing.py [path/to/marshal]
(default: $MARSHAL_BIN, else target/release/marshal next to this script's repo).

Starts the engine, sends `newgame` and `setup red`, then
  - 20 times `go movetime 1000`: wall time from writing the `go` line to reading
    `bestmove`; target 900..1050 ms;
  - 20 times `go infinite`, sleep 0.2 s, `stop`: wall time from writing `stop` to
    reading `bestmove`; target at most 10 ms.
Prints median, min and max of each; exits 0 only when both medians meet their targets.
Takes about 25 s. Standard library only.
"""

import os
import statistics
import subprocess
import sys
import threading
import queue
import time

ROUNDS = 20
MOVETIME_MS = 1000
MOVETIME_TARGET = (900.0, 1050.0)
STOP_TARGET_MS = 10.0
ANSWER_TIMEOUT_S = 10.0


def default_binary():
    if len(sys.argv) > 1:
        return sys.argv[1]
    if os.environ.get("MARSHAL_BIN"):
        return os.environ["MARSHAL_BIN"]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(repo, "target", "release", "marshal")


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            # Timestamp on arrival, so that the queue adds no latency to the measurement.
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        """Writes one line; returns the time just before the write."""
        t = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return t

    def wait_for(self, prefix):
        """Reads lines until one starts with `prefix`; returns (arrival time, line)."""
        while True:
            try:
                t, line = self.lines.get(timeout=ANSWER_TIMEOUT_S)
            except queue.Empty:
                raise SystemExit(f"no '{prefix}' within {ANSWER_TIMEOUT_S} s")
            if line is None:
                raise SystemExit(f"engine exited while waiting for '{prefix}'")
            if line.startswith("info string error"):
                raise SystemExit(f"engine rejected a line: {line}")
            if line.startswith(prefix):
                return t, line

    def sync(self):
        self.send("isready")
        self.wait_for("readyok")

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def summary(name, values, ok, target):
    print(
        f"{name:<22} median {statistics.median(values):8.2f} ms   "
        f"min {min(values):8.2f} ms   max {max(values):8.2f} ms   "
        f"target {target}: {'OK' if ok else 'MISSED'}"
    )


def main():
    path = default_binary()
    if not os.path.exists(path):
        raise SystemExit(f"{path} not found (build with cargo build --release, or pass the path)")
    eng = Engine(path)
    eng.send("newgame")
    eng.send("setup red")
    eng.wait_for("setup red")
    eng.sync()

    movetimes = []
    for _ in range(ROUNDS):
        t0 = eng.send(f"go movetime {MOVETIME_MS}")
        t1, _ = eng.wait_for("bestmove")
        movetimes.append((t1 - t0) * 1000.0)
        eng.sync()

    stops = []
    for _ in range(ROUNDS):
        eng.send("go infinite")
        time.sleep(0.2)
        t0 = eng.send("stop")
        t1, _ = eng.wait_for("bestmove")
        stops.append((t1 - t0) * 1000.0)
        eng.sync()
    eng.quit()

    mt_med = statistics.median(movetimes)
    st_med = statistics.median(stops)
    mt_ok = MOVETIME_TARGET[0] <= mt_med <= MOVETIME_TARGET[1]
    st_ok = st_med <= STOP_TARGET_MS
    print(f"engine: {path}, {ROUNDS} rounds each")
    summary(f"go movetime {MOVETIME_MS}", movetimes, mt_ok, f"{MOVETIME_TARGET[0]:.0f}..{MOVETIME_TARGET[1]:.0f} ms")
    summary("stop latency", stops, st_ok, f"<= {STOP_TARGET_MS:.0f} ms")
    return 0 if mt_ok and st_ok else 1


if __name__ == "__main__":
    sys.exit(main())
