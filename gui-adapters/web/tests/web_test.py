"""The tests of marshal-web: the page in a real headless browser, and the server's messages.

Run by .ci/web.sh as `python web_test.py <target dir>`; needs `playwright` and `websockets`
and Debian's chromium. Every check prints one line; the first failure stops with exit 1.
"""

import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings

from websockets.sync.client import connect

warnings.filterwarnings("ignore", category=DeprecationWarning)
TARGET = sys.argv[1] if len(sys.argv) > 1 else "target"
BIN = os.path.join(TARGET, "release")
# The README's picture is gui-adapters/web/screenshot.png: WEB_SCREENSHOT=<that path>
# renews it; by default the test's picture goes to the target folder, leaving the tree clean.
SCREENSHOT = os.environ.get("WEB_SCREENSHOT") or os.path.join(TARGET, "web-screenshot.png")


def log(msg):
    print(f"web test: {msg}", flush=True)


def start_server():
    """Starts marshal-web on a free port; returns the process and its address."""
    proc = subprocess.Popen(
        [os.path.join(BIN, "marshal-web"), "--port", "0", "--silence", "3"],
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in proc.stderr:
        m = re.search(r"open http://(\S+)", line)
        if m:
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
            return proc, m.group(1)
    raise SystemExit("web test: the server did not start")


def engines_of(pid):
    """The live child processes of `pid` (the engines), read from /proc."""
    kids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            kids.append(int(d))
    return kids


class Client:
    """A page stand-in speaking the JSON messages; keeps every message it received."""

    def __init__(self, addr):
        self.ws = connect(f"ws://{addr}/ws", max_size=None)
        self.seen = []

    def send(self, **msg):
        self.ws.send(json.dumps(msg))

    def send_raw(self, text):
        self.ws.send(text)

    def recv(self, timeout=20):
        text = self.ws.recv(timeout=timeout)
        m = json.loads(text)
        self.seen.append((text, m))
        return m

    def until(self, types, timeout=20):
        deadline = time.time() + timeout
        while True:
            m = self.recv(max(0.1, deadline - time.time()))
            if m["type"] in types:
                return m

    def close(self):
        self.ws.close()


def random_game(addr, variant="barrage", movetime=20, beliefs=False, rules=None, bad_input=False):
    """Plays random legal moves against the engine to the end; returns the client, the
    human colour and the record. With `bad_input`, None if the game ended before ply 2."""
    c = Client(addr)
    c.until({"hello"})
    human = random.choice(["red", "blue"])
    c.send(type="new", variant=variant, color=human, movetime=movetime, rules=rules or {"max-plies": 300})
    info = c.until({"newgame"})
    if beliefs:
        c.send(type="beliefs", on=True)
    c.send(type="generate")
    setup = c.until({"setup"})["setup"]
    c.send(type="start", setup=setup)
    bad_done = False
    while True:
        m = c.until({"state", "end", "error"}, timeout=30)
        if m["type"] == "error":
            raise SystemExit(f"web test: unexpected error {m}")
        if m["type"] == "end":
            break
        if m["legal"]:
            if bad_input and not bad_done and m["ply"] >= 2:
                check_bad_input(c, m)
                bad_done = True
            c.send(type="move", move=random.choice(m["legal"]))
    if bad_input and not bad_done:
        c.close()
        return None
    c.send(type="save")
    record = json.loads(c.until({"record"})["record"])
    return c, human, info, record


def check_bad_input(c, state):
    """Malformed and illegal requests: one error each, and the game goes on unchanged."""
    # A long move that is not among the legal ones (in barrage a Scout on a1 may well run
    # up an empty a-file, so a fixed one is not always illegal).
    illegal = next(m for m in ("a1a9", "j1j9", "b1b9", "a2a8", "e1e9")
                   if m not in state["legal"])
    bad = [
        "this is not json",
        "[1, 2]",
        json.dumps({"no": "type"}),
        json.dumps({"type": "frobnicate"}),
        json.dumps({"type": "move"}),
        json.dumps({"type": "move", "move": "zz"}),
        json.dumps({"type": "move", "move": illegal}),
        json.dumps({"type": "new", "variant": "chess"}),
        json.dumps({"type": "new", "movetime": -4}),
        json.dumps({"type": "start", "setup": "MMMM"}),
        json.dumps({"type": "save"}),
        json.dumps({"type": "watch", "red": "rm -rf /tmp/x", "blue": "marshal"}),
        json.dumps({"type": "beliefs", "on": "maybe"}),
    ]
    for text in bad:
        c.send_raw(text)
        m = c.recv(10)
        if m["type"] != "error" or m.get("fatal"):
            raise SystemExit(f"web test: {text!r} got {m}, not an error")
    # Nothing changed: asking for the state again is not possible, so the next move must
    # be accepted from the same position (the state's legal list still holds).
    log(f"{len(bad)} malformed or illegal requests each refused with one error, e.g. '{m['message']}'")


def squares_of_setup(setup, color, files, ranks):
    """Setup string (protocol.md 1.4) to {square: rank char} for `color`."""
    out = {}
    for r, row in enumerate(setup.split("/")):
        for col, ch in enumerate(row):
            if ch == ".":
                continue
            if color == "red":
                f, rk = col, r
            else:
                f, rk = files - 1 - col, ranks - 1 - r
            out[f"{chr(97 + f)}{rk + 1}"] = ch
    return out


def parse_view(line):
    f = line.split(" ")
    rows = f[2].split("/")
    board = {}
    for i, row in enumerate(rows):
        r = len(rows) - 1 - i
        x = k = 0
        while k < len(row):
            ch = row[k]
            if ch in ".~":
                x += 1
                k += 1
                continue
            color, piece = ("red" if ch == "r" else "blue"), row[k + 1]
            k += 2
            while k < len(row) and row[k] in "'!*":
                k += 1
            board[f"{chr(97 + x)}{r + 1}"] = (color, piece)
            x += 1
    return board, int(f[4])


def check_no_leak(c, human, info, record):
    """Every message before the end shows an engine piece's rank only once a combat or a
    Scout's run showed it, and then truly; the engine's setup appears nowhere."""
    engine = "blue" if human == "red" else "red"
    files, ranks = info["files"], info["ranks"]
    # The true game, replayed from the server's record: piece identities and ranks.
    pieces = {}  # square -> [color, rank, revealed]
    for color in ("red", "blue"):
        for sq, ch in squares_of_setup(record[f"{color}_setup"], color, files, ranks).items():
            pieces[sq] = [color, ch, False]
    history = [{sq: list(p) for sq, p in pieces.items()}]
    for mv in record["moves"]:
        m = re.match(r"([a-j]\d+)([a-j]\d+)", mv["move"])
        a, b = m.group(1), m.group(2)
        p = pieces.pop(a)
        if abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:])) > 1:
            p[2] = True  # a Scout's run shows it
        combat = mv.get("combat")
        if combat:
            d = pieces.pop(b)
            p[2] = d[2] = True
            if combat in ("attacker_wins", "flag_captured"):
                pieces[b] = p
            elif combat == "defender_wins":
                pieces[b] = d
        else:
            pieces[b] = p
        history.append({sq: list(q) for sq, q in pieces.items()})
    engine_setup = record[f"{engine}_setup"]
    states = 0
    for text, m in c.seen:
        if m["type"] in ("end", "record"):
            break
        if engine_setup in text:
            raise SystemExit(f"web test: a message holds the engine's setup: {text[:200]}")
        if m["type"] == "info" and "pv" in m:
            raise SystemExit(f"web test: a search line shows the engine's plan: {m}")
        if m["type"] == "beliefs":
            for p in m["pieces"]:
                owner = history[min(m["ply"], len(history) - 1)].get(p["square"], [None])[0]
                if owner != human:
                    raise SystemExit(f"web test: beliefs about {p['square']}, not a piece of the person: {m}")
        if m["type"] != "state":
            continue
        states += 1
        board, ply = parse_view(m["view"])
        truth = history[ply]
        for sq, (color, ch) in board.items():
            true = truth.get(sq)
            if true is None or true[0] != color:
                raise SystemExit(f"web test: ply {ply}: the page's {sq} is not the true game's")
            if color == engine and ch != "?":
                if not true[2]:
                    raise SystemExit(f"web test: ply {ply}: the engine's hidden {true[1]} on {sq} reached the page")
                if ch != true[1]:
                    raise SystemExit(f"web test: ply {ply}: {sq} is shown as {ch}, it is {true[1]}")
    if states < 4:
        raise SystemExit(f"web test: only {states} states seen")
    return states


def replay_ok(record_text):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(record_text)
        path = f.name
    try:
        r = subprocess.run([os.path.join(BIN, "marshal"), "replay", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode != 0 or not r.stdout.startswith("result"):
        raise SystemExit(f"web test: marshal replay refused the record: {r.stdout} {r.stderr}")
    return r.stdout.strip()


def protocol_tests(addr, server):
    t = time.time()
    # A page of another site may not open a game here.
    try:
        connect(f"ws://{addr}/ws", origin="http://evil.example").close()
        raise SystemExit("web test: a WebSocket from another site's page was accepted")
    except SystemExit:
        raise
    except Exception as e:  # noqa: BLE001 - any refusal will do
        log(f"a WebSocket from another site's page is refused ({e})")
    # A random barrage game can be over before ply 2, before the bad input is sent: play
    # another one.
    for attempt in range(5):
        game = random_game(addr, bad_input=True)
        if game:
            break
        log(f"game {attempt + 1} ended before ply 2; another one")
    else:
        raise SystemExit("web test: five games ended before the bad input could be sent")
    c, human, info, record = game
    n = check_no_leak(c, human, info, record)
    c.close()
    log(f"leak check: {n} states of a {len(record['moves'])}-ply barrage game as {human}: no hidden rank shown")
    c, human, info, record = random_game(addr, beliefs=True)
    if not any(m["type"] == "beliefs" and m["pieces"] for _, m in c.seen):
        raise SystemExit("web test: the beliefs switch gave no beliefs")
    n = check_no_leak(c, human, info, record)
    c.close()
    log(f"leak check with beliefs on: {n} states, no hidden rank shown")

    # Adjourn a game, load its record on another page and play it to the end.
    # Three random moves of ours can end a duel game (then adjourn is refused): play again.
    for attempt in range(5):
        c = Client(addr)
        c.until({"hello"})
        c.send(type="new", variant="duel", color="red", movetime=20)
        c.until({"newgame"})
        c.send(type="human_setup")
        m = c.until({"setup", "error"})
        if m["type"] != "error":
            raise SystemExit("web test: duel has no human setups, yet one was given")
        c.send(type="generate")
        c.send(type="start", setup=c.until({"setup"})["setup"])
        for _ in range(3):
            m = c.until({"state"})
            while not m["legal"]:
                m = c.until({"state"})
            c.send(type="move", move=random.choice(m["legal"]))
        c.until({"state"})
        c.send(type="adjourn")
        m = c.until({"record", "error"})
        c.close()
        if m["type"] == "record":
            saved = m["record"]
            break
        if "over" not in m.get("message", ""):
            raise SystemExit(f"web test: adjourn refused: {m}")
    else:
        raise SystemExit("web test: five duel games ended within three moves")
    c = Client(addr)
    c.until({"hello"})
    c.send(type="load", record=saved, color="red", movetime=20)
    if not c.until({"newgame"}).get("loaded"):
        raise SystemExit("web test: loading a record did not start a game")
    while True:
        m = c.until({"state", "end", "error"}, timeout=30)
        if m["type"] == "error":
            raise SystemExit(f"web test: loaded game: {m}")
        if m["type"] == "end":
            break
        if m["legal"]:
            c.send(type="move", move=random.choice(m["legal"]))
    c.send(type="save")
    record = c.until({"record"})["record"]
    c.close()
    log(f"an adjourned duel game loaded and played on to its end; marshal replay: {replay_ok(record)}")

    # A page that goes silent: its engine is stopped (the server runs with --silence 3),
    # checked below with the engines of the 20 games.
    silent = Client(addr)
    silent.until({"hello"})
    silent.send(type="new", variant="barrage", color="red", movetime=20)
    silent.until({"newgame"})
    silent_since = time.time()

    # 20 games at once, each with its own engine.
    results, most = [], [0]
    errors = []

    def one():
        try:
            cl, _, _, rec = random_game(addr, movetime=20)
            results.append(rec)
            cl.close()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=one) for _ in range(20)]
    for th in threads:
        th.start()
    while any(th.is_alive() for th in threads):
        most[0] = max(most[0], len(engines_of(server.pid)))
        time.sleep(0.05)
    if errors or len(results) != 20:
        raise SystemExit(f"web test: concurrent games failed: {errors[:3]}")
    if not all(r.get("result") for r in results):
        raise SystemExit("web test: a concurrent game has no result")
    deadline = time.time() + 3
    while engines_of(server.pid) and time.time() < deadline:
        time.sleep(0.05)
    left = engines_of(server.pid)
    if left:
        raise SystemExit(f"web test: engines still running after the games: {left}")
    if most[0] < 10:
        raise SystemExit(f"web test: at most {most[0]} engines ran at once; the games did not overlap")
    log(f"20 games at once finished (up to {most[0]} engines at a time); no engine left running")
    if time.time() - silent_since < 3:
        raise SystemExit("web test: the games ended before the silent page's limit")
    silent.send(type="ping")
    m = silent.until({"error"}, timeout=5)
    if not m.get("fatal"):
        raise SystemExit(f"web test: the silent page was not told its engine stopped: {m}")
    silent.close()
    log(f"a page silent for {time.time() - silent_since:.0f} s had its engine stopped and is told so")
    log(f"protocol tests took {time.time() - t:.1f} s")


def browser_test(addr, server):
    from playwright.sync_api import sync_playwright

    t = time.time()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1060, "height": 700})
        page.goto(f"http://{addr}/")
        # A whole barrage game by clicking, at a few ms a move.
        page.select_option("#variant", "barrage")
        page.fill("#movetime", "20")
        # A rule option from the page: the ply cap bounds the test's time (random play
        # rarely lasts that long; a game that does ends as a draw by the cap).
        page.click("#rules summary")
        page.fill("#max-plies", "300")
        page.click("#rules summary")
        page.click("#new-game")
        page.wait_for_selector("#tray .pc")
        zone = page.eval_on_selector_all(".sq.zone", "els => els.map(e => e.dataset.sq)")
        # The tray gives the Spy, a Bomb and the Flag last: the Flag in the corner behind
        # the Bomb and the Spy, the rest anywhere, so that the game is not over at once.
        guard = ["b1", "a2", "a1"]
        rest = [s for s in zone if s not in guard]
        random.shuffle(rest)
        army = page.eval_on_selector_all("#tray .pc", "els => els.reduce((n, e) => n + +e.querySelector('.n').textContent, 0)")
        order = rest[: army - 3] + guard
        placed = 0
        while page.query_selector("#tray .pc"):
            # A tray piece stays chosen while more of its rank are left.
            if not page.query_selector("#tray .pc.sel"):
                page.click("#tray .pc")
            page.click(f'.sq[data-sq="{order[placed]}"]')
            placed += 1
        # Swap two pieces by clicking both.
        mine = page.eval_on_selector_all(".sq.zone .pc", "els => els.map(e => e.parentElement.dataset.sq)")
        before = page.inner_text(f'.sq[data-sq="{mine[0]}"] .pc')
        page.click(f'.sq[data-sq="{mine[0]}"]')
        page.click(f'.sq[data-sq="{mine[1]}"]')
        if page.inner_text(f'.sq[data-sq="{mine[1]}"] .pc') != before:
            raise SystemExit("web test: swapping two pieces did not work")
        page.click("#start")
        combats, moves = 0, 0
        while True:
            page.wait_for_selector(".pc.movable, #banner:not([hidden])", timeout=30000)
            if page.is_visible("#banner"):
                break
            squares = page.eval_on_selector_all(".pc.movable", "els => els.map(e => e.parentElement.dataset.sq)")
            if not squares:
                continue
            page.click(f'.sq[data-sq="{random.choice(squares)}"]')
            targets = page.eval_on_selector_all(".sq.target", "els => els.map(e => e.dataset.sq)")
            if not targets:
                raise SystemExit("web test: a movable piece shows no target")
            text = page.inner_text("#combat")
            page.click(f'.sq[data-sq="{random.choice(targets)}"]')
            moves += 1
            page.wait_for_function("t => document.getElementById('combat').innerText !== t || "
                                   "!document.getElementById('banner').hidden || "
                                   "document.querySelectorAll('.pc.movable').length > 0", arg=text)
            if page.inner_text("#combat").startswith("Combat") and page.inner_text("#combat") != text:
                combats += 1
        end = page.inner_text("#banner")
        if combats == 0:
            raise SystemExit("web test: no combat was shown")
        page.click("#save")
        page.wait_for_function("document.getElementById('record-text').value.length > 0")
        record = page.input_value("#record-text")
        verdict = replay_ok(record)
        log(f"browser: a barrage game by clicking, {moves} moves of ours, combats shown {combats}+, "
            f"end '{end}'; marshal replay: {verdict}")

        # A classic game in progress for the README's screenshot, the beliefs switch on.
        page.select_option("#variant", "classic")
        page.fill("#movetime", "100")
        page.click("#new-game")
        page.wait_for_selector("#tray .pc")
        page.click("#human-setup")
        page.wait_for_function("document.querySelectorAll('#tray .pc').length === 0")
        page.click("#start")
        page.check("#beliefs-switch")
        for _ in range(12):
            page.wait_for_selector(".pc.movable", timeout=30000)
            squares = page.eval_on_selector_all(".pc.movable", "els => els.map(e => e.parentElement.dataset.sq)")
            front = sorted(squares, key=lambda s: -int(s[1:]))[:4]
            page.click(f'.sq[data-sq="{random.choice(front)}"]')
            targets = page.eval_on_selector_all(".sq.target", "els => els.map(e => e.dataset.sq)")
            page.click(f'.sq[data-sq="{random.choice(targets)}"]')
            if page.is_visible("#banner"):
                break
        page.wait_for_selector(".pc.movable", timeout=30000)
        page.wait_for_selector(".pc .belief", timeout=10000)
        page.screenshot(path=SCREENSHOT)
        log(f"screenshot saved ({os.path.getsize(SCREENSHOT)} bytes)")

        # A killed engine: the page shows an error within a second.
        kids = engines_of(server.pid)
        if len(kids) != 1:
            raise SystemExit(f"web test: expected one engine, found {kids}")
        killed = time.time()
        os.kill(kids[0], signal.SIGKILL)
        page.wait_for_selector("#error:not([hidden])", timeout=1000)
        shown = time.time() - killed
        if "engine" not in page.inner_text("#error"):
            raise SystemExit(f"web test: the error does not say the engine stopped: {page.inner_text('#error')}")
        log(f"killed engine reported on the page after {shown:.2f} s: {page.inner_text('#error')!r}")

        # Watch mode: two engines, move by move.
        page.fill("#movetime", "20")
        page.select_option("#variant", "barrage")
        page.evaluate("document.getElementById('more').open = true")
        page.fill("#watch-delay", "0")
        page.click("#watch")
        page.wait_for_selector("#banner:not([hidden])", timeout=30000)
        n = page.eval_on_selector_all("#moves li", "els => els.map(e => e.innerText.split(/\\s+/).length)"
                                      ".reduce((a, b) => a + b, 0)")
        log(f"watch mode: marshal vs builtin:greedy shown for {n} plies, '{page.inner_text('#banner')}'")
        browser.close()
    log(f"browser test took {time.time() - t:.1f} s")


def main():
    random.seed(int(os.environ.get("WEB_TEST_SEED", "1")))
    server, addr = start_server()
    try:
        browser_test(addr, server)
        protocol_tests(addr, server)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(5)
    log("all checks passed")


if __name__ == "__main__":
    main()
