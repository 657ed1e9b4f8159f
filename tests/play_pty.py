#!/usr/bin/env python3
"""Drives `marshal play` through a real pseudo-terminal (stdlib pty/os/select only).

Usage: play_pty.py MARSHAL_BINARY WORK_DIR [SEED]

Session 1 starts a duel game with a ply cap, plays a few of the human's moves (each
chosen at random from the `legal:` line the program prints with MARSHAL_PLAY_LEGAL=1),
saves the game, quits. Session 2 resumes it with `--load` in a new terminal and plays
on until the rules end the game (a win, a loss or a draw; never a resignation). Both
sessions must draw the board in colour (it is a terminal), exit with status 0 and never
panic. Exits 0 on success; on failure prints what went wrong and the screen so far.
"""
import json
import os
import pty
import random
import re
import select
import signal
import struct
import sys
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = re.compile(r"(red|blue) to move \((\d+)\)> $")
DEADLINE = time.monotonic() + 60
# Typed lines (raw bytes, as a terminal sends them) and the program's answer to each: an
# arrow key's escape sequence (shown as `?`, never sent back raw), text that is not
# UTF-8, a malformed move, the help text.
ODD_INPUTS = [
    (b"\xc3\xa9 a1\x1b[A\r", "'\u00e9 a1?[A' is not a move or a command"),
    (b"\xff\xfe\r", "move '\ufffd\ufffd': bad from-square"),
    (b"zz\r", "move 'zz': bad from-square"),
    (b"help\r", "Commands:"),
]


class Failure(Exception):
    pass


class Session:
    """One `marshal play` process on its own pseudo-terminal."""

    def __init__(self, argv):
        env = dict(os.environ)
        env.pop("NO_COLOR", None)
        env["MARSHAL_PLAY_LEGAL"] = "1"
        env["TERM"] = "xterm-256color"
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        try:
            import fcntl
            import termios

            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        except (ImportError, OSError):
            pass
        self.raw = b""  # everything the terminal showed, escapes included
        self.seen = 0  # how much of the plain text earlier waits consumed
        self.closed = False
        self.status = None

    def text(self):
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def read_some(self, timeout):
        if self.closed:
            return False
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program exited and closed the terminal
            data = b""
        if not data:
            self.closed = True
            return False
        self.raw += data
        return True

    def wait_for(self, pattern, what):
        """Reads until `pattern` matches the plain text after what was already consumed."""
        rx = re.compile(pattern, re.S)
        while True:
            m = rx.search(self.text(), self.seen)
            if m:
                self.seen = m.end()
                return m
            if time.monotonic() > DEADLINE:
                raise Failure("timed out waiting for %s" % what)
            if not self.read_some(0.2) and self.closed:
                m = rx.search(self.text(), self.seen)
                if m:
                    self.seen = m.end()
                    return m
                raise Failure("the program ended before %s" % what)

    def prompt_or_end(self):
        """Waits for the human's prompt (returns the legal moves) or the game's end (None)."""
        while True:
            plain = self.text()
            tail = plain[self.seen:]
            end = re.search(r"^result [^\n]*\n", tail, re.M)
            if end:
                self.seen += end.end()
                return None
            if PROMPT.search(tail):
                legal = re.findall(r"^legal: ([^\n]*)$", tail, re.M)
                if not legal:
                    raise Failure("a prompt without a legal: line")
                self.seen = len(plain)
                return legal[-1].split()
            if time.monotonic() > DEADLINE:
                raise Failure("timed out waiting for a prompt")
            if not self.read_some(0.2) and self.closed:
                raise Failure("the program ended without a prompt or a result")

    def send(self, line):
        os.write(self.fd, (line + "\r").encode())

    def finish(self):
        """Reads to the end and reaps the process; returns its exit status."""
        while not self.closed and time.monotonic() < DEADLINE:
            self.read_some(0.2)
        for _ in range(100):
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                break
            time.sleep(0.05)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            raise Failure("the program did not exit")
        os.close(self.fd)
        return self.status

    def check_clean(self, name):
        plain = self.text()
        if "\x1b[" not in self.raw.decode("utf-8", "replace"):
            raise Failure("%s: no colour escapes on a terminal" % name)
        if re.search(r"\x1b\[[0-9;]*3[14]m", self.raw.decode("utf-8", "replace")) is None:
            raise Failure("%s: the pieces are not drawn in red/blue" % name)
        if "\x1b[A" in self.raw.decode("utf-8", "replace"):
            raise Failure("%s: typed escape sequence sent back to the terminal" % name)
        if "panicked" in plain or "RUST_BACKTRACE" in plain:
            raise Failure("%s: a panic" % name)
        if self.status != 0:
            raise Failure("%s: exit status %s" % (name, self.status))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    marshal, work = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    os.makedirs(work, exist_ok=True)
    save = os.path.join(work, "pty-duel.json")
    if os.path.exists(save):
        os.remove(save)
    base = [marshal, "play", "--variant", "duel", "--movetime", "20", "--seed", str(seed)]
    started = time.monotonic()
    sessions = []
    try:
        # Session 1: a few moves, save, quit.
        s1 = Session(base + ["--rule", "max-plies=160"])
        sessions.append(s1)
        s1.wait_for(r"you play red", "the greeting")
        legal = s1.prompt_or_end()
        # What a person may type by mistake: rejected with a message, the game goes on.
        for raw, answer in ODD_INPUTS:
            os.write(s1.fd, raw)
            s1.wait_for(re.escape(answer), "the answer to %r" % raw)
            legal = s1.prompt_or_end()
        moves = 0
        while moves < 6:
            if legal is None:
                raise Failure("session 1: the game ended after %d moves" % moves)
            s1.send(rng.choice(legal))
            moves += 1
            legal = s1.prompt_or_end()
        if legal is None:
            raise Failure("session 1: the game ended before the save")
        s1.send("save " + save)
        m = s1.wait_for(r"Saved to \S+ \((\d+) plies\)", "the save confirmation")
        saved_plies = int(m.group(1))
        s1.prompt_or_end()
        s1.send("quit")
        s1.wait_for(r"Game left unfinished after \d+ plies", "the quit message")
        s1.finish()
        s1.check_clean("session 1")
        with open(save) as f:
            record = json.load(f)
        if record.get("format") != "marshal-game/1" or "result" in record:
            raise Failure("the save is not an unfinished game record: %r" % record)
        if len(record["moves"]) != saved_plies or saved_plies < 12:
            raise Failure("the save holds %d plies, said %d" % (len(record["moves"]), saved_plies))

        # Session 2: resume in a new terminal and play to the end.
        s2 = Session([marshal, "play", "--load", save, "--movetime", "20"])
        sessions.append(s2)
        s2.wait_for(r"Resumed after %d plies\." % saved_plies, "the resume message")
        moves2 = 0
        while True:
            legal = s2.prompt_or_end()
            if legal is None:
                break
            s2.send(rng.choice(legal))
            moves2 += 1
        text = s2.text()
        result = re.findall(r"^result (.*) after (\d+) plies$", text, re.M)
        if not result:
            raise Failure("no result line")
        verdict, plies = result[-1][0], int(result[-1][1])
        if "resignation" in verdict or not re.match(r"(red wins|blue wins|draw) \(", verdict):
            raise Failure("the game did not end by the rules: %s" % verdict)
        if not re.search(r"^(You win!|The engine wins\.|Draw\.)$", text, re.M):
            raise Failure("no verdict for the person")
        if plies <= saved_plies:
            raise Failure("the resumed game did not go on (%d plies)" % plies)
        s2.finish()
        s2.check_clean("session 2")
    except Failure as e:
        print("FAIL: %s" % e)
        for i, s in enumerate(sessions):
            print("---- session %d screen (plain) ----" % (i + 1))
            print(s.text()[-6000:])
            try:
                os.kill(s.pid, signal.SIGKILL)
            except OSError:
                pass
        return 1
    print(
        "ok: saved after %d plies (%d human moves), resumed and played %d more human moves; "
        "result %s after %d plies; %.1f s" % (saved_plies, moves, moves2, verdict, plies, time.monotonic() - started)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
