#!/usr/bin/env python3
"""How Marshal loses games, counted from a UCC ladder folder's manager logs.

    python3 benches/doi_losses.py [--beliefs] [--marshal PATH] [--games] [--events] OUTDIR ...
    python3 benches/doi_losses.py --self-test

Written for the games against Demon of Ignorance (benches/ucc-ladder.sh with a
`name=PATH:games` opponent), it reads any ladder folder: every finished game
<opponent>/<i>.log with its <i>.out, Marshal being the player whose path ends in /marshal
(ucc_losses.py replays the log, ucc_ladder_stats.py scores the game). Drawn and failed
games are left out. It prints one line per game (with `--games`; `--events` lists every
counted event under its game, by the log's turn and move, to check against the log),
then every count for the games won, the games lost and all of them, an indented count
also as a share of the count it belongs to.

"Seen" means revealed in a fight (the manager shows both ranks of every fight to both
players) or, for a Scout, by a move of more than one square; "unmoved" means the piece
has not moved yet; "hidden" is unseen. A piece "beats" another when it wins attacking it:
a higher rank, or the Spy attacking the Marshal. Ranks are the manager's characters:
1 Marshal, 2 General, 3 Colonel, 4 Major, 5 Captain, 6 Lieutenant, 7 Sergeant, 8 Miner,
9 Scout, s Spy, B Bomb, F Flag.

1. Top pieces lost without a trade: our Marshal or General dies in a fight the enemy piece
   survives (ours attacking and dying, or attacked and taken). The cause is the first that
   fits: on a Bomb; to the Spy; to an unmoved hidden piece; to a seen piece; to a moved
   hidden piece. From the first such loss of a game on, every fight won by an enemy
   Marshal, General or Colonel that was seen before the fight (it took ours, or ours
   attacked it and died) counts as a piece taken by its seen top piece; for each, whether
   we had a piece left (after the fight) able to beat it, or able to beat or trade with it
   (same rank), and the distance in steps (|dx| + |dy|, ignoring what stands between) from
   its square to the nearest of ours able to beat or trade with it; the median is printed.
   The same is counted over the whole game, where a trade of top pieces, not only a
   loss, may open the way for the enemy's next one.
2. Attacks on unmoved hidden pieces: our attacks by any piece but a Miner or a Scout on an
   enemy piece neither moved nor seen; how many hit a Bomb. With --beliefs, the engine's
   belief in a Bomb on the attacked square just before the attack (`marshal convert --to
   commands --side C --ply N log`, then `beliefs`), summed: a calibrated belief has the
   sum close to the Bombs hit. The enemy's front row (its setup row nearest the middle):
   at each of those attack moments, its unmoved hidden pieces still on that row, the
   share of them that are Bombs and (with --beliefs) our mean belief in a Bomb there; and,
   without beliefs, its front-row pieces that never moved in the whole game (until taken
   or the end), and the share of them that were Bombs. Raids: attacks by a Colonel,
   General or Marshal on an unmoved hidden piece, ours and its, with how many hit a Bomb
   and how many the raider lost (it died, the piece attacked lived).
3. First-move captures: an enemy piece that had never moved takes one of ours with its
   first move (and survives), by the taker's rank. An ambush is one whose victim had been seen; "right
   after" means the victim's own previous move was a capture (it revealed itself taking a
   piece and was taken at once); the number of pieces the ambushed pieces had taken in the
   game is summed.
4. Approaches: a move without a fight that ends next to (one step from) a movable enemy
   piece it was not next to before; each such pair (mover, piece approached) counts once.
   Threats: the mover was seen and beats the piece approached. The reply is the
   approached side's next move: the piece moved away (stepped without a fight), attacked
   (it attacked anything), or stayed (another piece moved). A piece left standing (did not
   move away and is still on the board after the reply) is taken next move when the
   approaching side's following move takes it (with any piece). Counted for enemy threats on our pieces
   and ours on its pieces (its flight rate). Bluffs count moves, not pairs: an approach
   by a hidden mover (next to one piece or more) is a bluff when one of the pieces
   approached beats it and it beats none of them; the approached side fled (its reply
   moved one of them away without a fight) or called it (its reply attacked the
   bluffer). Counted for both sides, with all approaches by hidden movers as the base.
5. The Spy: our Marshal lost to the enemy Spy, by whether the Spy had moved and had been
   seen before. Our Marshal taking the enemy General on a square beside enemy pieces it
   had not seen (tip T6 puts the Spy by the General), and how often the Spy was one of
   them; with --beliefs, the engine's belief in a Spy among them just before, summed.
6. Material: every fight's value of the enemy pieces it removed minus that of ours (the
   engine's piece values, `ucc_losses.VALUE`; the Flag 0), summed in one of five kinds:
   its seen Colonel, General or Marshal attacking our hidden pieces, or our seen ones; its
   other attacks; our Colonel, General or Marshal attacking its unmoved hidden pieces; our
   other attacks.
7. Our Flag: taken by the enemy, and how often the move after its Miner took a Bomb beside
   the Flag (the same piece, the Bomb one step from the Flag).
8. Captures beside hidden pieces: our Major, Colonel, General or Marshal takes a piece on a
   square beside enemy pieces it has not seen, counted apart for a seen piece taken (one
   the enemy left where it knew we knew it) and a hidden one; how often one of the hidden
   pieces beside beat ours (wins attacking it) and how often ours was taken the next move;
   with --beliefs, the engine's chance just before that one of them beats it (one minus
   the product of each one's chance not to), summed.
9. How our top pieces were first shown: the first fight of our Marshal, and of our
   General, and whether the enemy started it (attacked it: a probe, with `--events` by
   which rank) or we did.
"""
import argparse
import os
import statistics
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ucc_losses  # noqa: E402  (the manager log's replay and a game's result)
from ucc_bomb_calibration import square  # noqa: E402  (manager square -> protocol square)

STRENGTH = ucc_losses.STRENGTH
VALUE = ucc_losses.VALUE  # the engine's piece values (the Flag 0: taking it ends the game)
NAME = {"1": "Marshal", "2": "General", "3": "Colonel", "4": "Major", "5": "Captain",
        "6": "Lieutenant", "7": "Sergeant", "8": "Miner", "9": "Scout", "s": "Spy",
        "B": "Bomb", "F": "Flag"}
NEAR = ((0, 1), (0, -1), (1, 0), (-1, 0))
TAKEN_AFTER = ("1d pieces taken afterwards by its seen Marshal/General/Colonel",
               "1e   when we had no piece able to beat it",
               "1f   when we had none able to beat or trade with it")
TAKEN_ALL = ("1g pieces taken in the whole game by its seen Marshal/General/Colonel",
             "1h   when we had no piece able to beat it",
             "1i   when we had none able to beat or trade with it")
ATTACKS = "2a our attacks on unmoved hidden pieces (not by a Miner or Scout)"
ROW = "2d its front row at those moments: unmoved hidden pieces"
RAIDS = (("2i our raids: Colonel/General/Marshal on its unmoved hidden",
          "2j   on a Bomb", "2k   the raider lost"),
         ("2l its raids: Colonel/General/Marshal on our unmoved hidden",
          "2m   on a Bomb", "2n   the raider lost"))
THREATS = (("4a its seen stronger pieces stepping next to ours", "4b   we moved away",
            "4c   we attacked", "4d   we stayed", "4e   left standing",
            "4f   left standing and taken next move"),
           ("4g our seen stronger pieces stepping next to its", "4h   it moved away",
            "4i   it attacked", "4j   it stayed", "4k   left standing",
            "4l   left standing and taken next move"))
MATERIAL = ("6a material in fights, ours minus its (sum)",
            "6b   its seen top piece (Colonel and up) attacking our hidden ones (sum)",
            "6c   its seen top piece attacking our seen ones (sum)",
            "6d   its other attacks (sum)",
            "6e   our top piece attacking its unmoved hidden ones (sum)",
            "6f   our other attacks (sum)")
BESIDE = (("8a our Major and up took a seen piece beside hidden ones",
           "8b   one of them beat ours", "8c   believed that one does, summed (x1000)",
           "8d   ours taken the next move"),
          ("8e our Major and up took a hidden piece beside hidden ones",
           "8f   one of them beat ours", "8g   believed that one does, summed (x1000)",
           "8h   ours taken the next move"))
BLUFFS = (("4m its approaches by hidden pieces", "4n   bluffs (a weaker piece)",
           "4o   we fled", "4p   we called"),
          ("4q our approaches by hidden pieces", "4r   bluffs (a weaker piece)",
           "4s   it fled", "4t   it called"))


def beats(a, d):
    """Whether piece character `a` wins attacking `d` (both movable or `d` any rank)."""
    if a == "s":
        return d in ("1", "F")
    if d == "B":
        return a == "8"
    if d == "F":
        return True
    return STRENGTH[a] > STRENGTH[d]


def steps(p, q):
    return abs(p[0] - q[0]) + abs(p[1] - q[1])


def plies(lines):
    """Marshal's colour and the game's plies, each a dict: side, turn, frm, to, att, dfd,
    how, the attacker's and defender's seen/moved flags before the move, the board before
    and after ({square: piece}, pieces the dicts of ucc_losses.setups, shared)."""
    board, me = ucc_losses.setups(lines)
    out = []
    for m, frm, to, att, dfd, how in ucc_losses.moves(lines, board):
        before = dict(board)
        before[frm] = att  # the generator has lifted the mover off its square
        if out:
            out[-1]["after"] = before
        # The pieces' flags change as the game goes on: keep this moment's.
        flags = {id(q): (q["moved"], q["seen"]) for q in before.values()}
        long_move = int(m.group(6) or 1) > 1
        out.append({"side": "R" if m.group(2) == "RED" else "B", "turn": int(m.group(1)),
                    "frm": frm, "to": to, "att": att, "dfd": dfd, "how": how,
                    "att_seen": att["seen"], "att_moved": att["moved"],
                    "dfd_seen": dfd["seen"] if dfd else False,
                    "dfd_moved": dfd["moved"] if dfd else False, "before": before,
                    "flags": flags, "long": long_move})
        if long_move:
            # Only a Scout moves more than one square: the move shows its rank, from the
            # next ply on (the mover's own flags above are those before the move).
            att["seen"] = True
    if out:
        last = out[-1]
        after = dict(last["before"])
        del after[last["frm"]]
        if last["dfd"] is None or last["how"] in ("KILLS", "VICTORY_FLAG"):
            after[last["to"]] = last["att"]
        elif last["how"] == "BOTHDIE":
            del after[last["to"]]
        last["after"] = after
    return me, out


class Beliefs:
    """The engine's beliefs about the enemy pieces before a ply of a log (optional)."""

    def __init__(self, marshal):
        self.marshal = marshal
        self.queries = 0

    def at(self, log_path, side, ply):
        """{protocol square: {rank: p}} for the hidden enemy pieces of `side` ('R'/'B')
        before ply `ply` (0-based) of the log."""
        colour = "red" if side == "R" else "blue"
        cmds = subprocess.run([self.marshal, "convert", "--to", "commands", "--side", colour,
                               "--ply", str(ply), log_path],
                              capture_output=True, text=True, check=True).stdout
        said = subprocess.run([self.marshal], input=cmds + "\nbeliefs\nquit\n",
                              capture_output=True, text=True, check=True).stdout
        self.queries += 1
        out = {}
        for line in said.splitlines():
            w = line.split()
            if len(w) >= 4 and w[:3] == ["info", "string", "belief"] and w[3] not in (
                    "captured", "none"):
                out[w[3]] = {k: float(v) for k, v in (kv.split(":") for kv in w[4:])}
            elif line.startswith("info string error"):
                raise RuntimeError("%s ply %d: %s" % (log_path, ply, line))
        return out


def newly_next_to(p):
    """The movable pieces of the other side that ply `p` (a move) ends next to and did not
    stand next to before it: [(square, piece)]."""
    out = []
    for dx, dy in NEAR:
        sq = (p["to"][0] + dx, p["to"][1] + dy)
        x = p["after"].get(sq)
        if x is not None and x["c"] != p["side"] and x["p"] not in "BF" and steps(p["frm"], sq) > 1:
            out.append((sq, x))
    return out


def hidden_beside(p, them):
    """The pieces of side `them` it has not shown that stand next to the square ply `p`
    moves to, as the board stood before it: [(square, piece)]."""
    out = []
    for dx, dy in NEAR:
        sq = (p["to"][0] + dx, p["to"][1] + dy)
        q = p["before"].get(sq)
        if q is not None and q["c"] == them and not p["flags"][id(q)][1]:
            out.append((sq, q))
    return out


def reply_to(ps, i, x):
    """What became of piece `x`, approached by ply `i`, in the reply and the move after:
    (moved away: it stepped without a fight; attacked: it attacked anything; left standing:
    it did not move away and is still on the board after the reply; taken: left standing,
    and the approaching side's next move takes it)."""
    reply = ps[i + 1] if i + 1 < len(ps) else None
    if reply is None:
        return False, False, False, False
    moved_away = reply["att"] is x and reply["how"] == "OK"
    attacked = reply["att"] is x and reply["how"] != "OK"
    standing = not moved_away and any(q is x for q in reply["after"].values())
    nxt = ps[i + 2] if i + 2 < len(ps) else None
    taken = standing and nxt is not None and nxt["dfd"] is x and nxt["how"] == "KILLS"
    return moved_away, attacked, standing, taken


def analyse(lines, log_path=None, beliefs=None, events=None):
    """The counts of one game (a Counter) and its lists of distances, from a manager log's
    lines; `beliefs` (a Beliefs) adds the believed Bomb chances (needs `log_path`); a list
    as `events` gets one line per counted event, named by the log's move line."""
    c = Counter()
    dist = {TAKEN_AFTER[2][:2]: [], TAKEN_ALL[2][:2]: []}  # nearest able piece, steps

    def note(p, text):
        if events is not None:
            events.append("turn %d %s %d %d->%d %d: %s" % (
                p["turn"], "RED" if p["side"] == "R" else "BLU", *p["frm"], *p["to"], text))
    me, ps = plies(lines)
    if me is None:
        return c, dist
    them = "B" if me == "R" else "R"
    front = 6 if them == "B" else 3
    top_lost = False
    first_moved = {}  # id(piece) -> ply of its first move
    last_took = {}  # id(piece) -> ply at which it last took a piece
    took = Counter()  # id(piece) -> pieces it took
    shown = set()  # id(piece) of our Marshal and General once in a fight
    for i, p in enumerate(ps):
        att, dfd, how, side = p["att"], p["dfd"], p["how"], p["side"]
        ours_att = side == me
        if dfd is not None:
            mine, other = (att, dfd) if ours_att else (dfd, att)
            mine_died = how == "BOTHDIE" or (how == "DIES") == ours_att
            other_died = how == "BOTHDIE" or (how == "DIES") != ours_att
            other_seen = p["dfd_seen"] if ours_att else p["att_seen"]
            other_moved = p["dfd_moved"] if ours_att else p["att_moved"]
            # 1. our Marshal or General lost without a trade.
            was_lost = top_lost
            if how != "VICTORY_FLAG" and mine["p"] in "12" and mine_died and not other_died:
                cause = ("on a Bomb" if other["p"] == "B" else "to the Spy" if other["p"] == "s"
                         else "to an unmoved hidden piece" if not other_seen and not other_moved
                         else "to a seen piece" if other_seen else "to a moved hidden piece")
                c["1a our Marshal/General lost without a trade"] += 1
                c["1b   %s %s" % (NAME[mine["p"]], cause)] += 1
                note(p, "our %s lost %s (%s)" % (NAME[mine["p"]], cause, NAME[other["p"]]))
                if other["p"] == "s" and mine["p"] == "1":
                    c["5a our Marshal lost to the Spy"] += 1
                    c["5b   the Spy had %s, %s" % ("moved" if other_moved else "not moved",
                                                   "seen" if other_seen else "hidden")] += 1
                first_top_loss = not top_lost
                top_lost = True
                if first_top_loss:
                    c["1c games with one lost"] += 1
            # 1. pieces taken afterwards by a seen enemy top piece (our General taken by its
            # seen Marshal is both a top piece lost and one of these).
            # The same over the whole game (after a trade of top pieces too).
            if how in ("KILLS", "DIES") and mine_died and other["p"] in "123" and other_seen:
                ours = [(sq, q) for sq, q in p["after"].items() if q["c"] == me]
                able = [sq for sq, q in ours if q["p"] not in "BF" and beats(q["p"], other["p"])]
                even = [sq for sq, q in ours if q["p"] not in "BF"
                        and (beats(q["p"], other["p"]) or q["p"] == other["p"])]
                near = min((steps(sq, p["to"]) for sq in even), default=None)
                for keys, on in ((TAKEN_AFTER, was_lost), (TAKEN_ALL, True)):
                    if on:
                        c[keys[0]] += 1
                        c[keys[1]] += not able
                        c[keys[2]] += not even
                        if near is not None:
                            dist[keys[2][:2]].append(near)
                note(p, "its seen %s took our %s; able to beat it: %d, to beat or trade: %d%s" % (
                    NAME[other["p"]], NAME[mine["p"]], len(able), len(even),
                    ", nearest %d steps" % near if even else ""))
            # 2. our attacks on unmoved hidden pieces.
            if ours_att and att["p"] not in "89" and not p["dfd_seen"] and not p["dfd_moved"]:
                c[ATTACKS] += 1
                c["2b   Bombs hit"] += dfd["p"] == "B"
                row = [(sq, q) for sq, q in p["before"].items() if q["c"] == them
                       and sq[1] == front and p["flags"][id(q)] == (False, False)]
                c[ROW] += len(row)
                c["2e   Bombs among them"] += sum(q["p"] == "B" for _, q in row)
                pb = ""
                if beliefs is not None:
                    b = beliefs.at(log_path, me, i)
                    sq = square(*p["to"])
                    if sq not in b:
                        raise RuntimeError("%s ply %d: no belief about %s" % (log_path, i, sq))
                    pb = ", believed P(Bomb) %.3f" % b[sq].get("B", 0)
                    c["2c   believed Bombs, summed (x1000)"] += round(1000 * b[sq].get("B", 0))
                    c["2f   believed Bombs, summed (x1000)"] += sum(
                        round(1000 * b.get(square(*s), {}).get("B", 0)) for s, _ in row)
                note(p, "our %s attacked an unmoved hidden %s: %s%s" % (
                    NAME[att["p"]], NAME[dfd["p"]], how, pb))
            # 2. raids: a top piece attacking an unmoved hidden piece, by either side.
            if att["p"] in "123" and not p["dfd_seen"] and not p["dfd_moved"]:
                keys = RAIDS[0] if ours_att else RAIDS[1]
                c[keys[0]] += 1
                c[keys[1]] += dfd["p"] == "B"
                c[keys[2]] += how == "DIES"
                note(p, "%s %s raided an unmoved hidden %s: %s" % (
                    "our" if ours_att else "its", NAME[att["p"]], NAME[dfd["p"]], how))
            # 5. our Marshal taking its General beside pieces it has not shown (tip T6: the
            # Spy stands by the General).
            if ours_att and att["p"] == "1" and dfd["p"] == "2" and how == "KILLS":
                beside = hidden_beside(p, them)
                if beside:
                    spy_among = any(q["p"] == "s" for _, q in beside)
                    c["5c our Marshal took its General beside hidden pieces"] += 1
                    c["5d   the Spy among them"] += spy_among
                    pb = ""
                    if beliefs is not None:
                        b = beliefs.at(log_path, me, i)
                        spy = sum(b.get(square(*sq), {}).get("S", 0) for sq, _ in beside)
                        c["5e   believed Spies beside it, summed (x1000)"] += round(1000 * spy)
                        pb = ", believed P(Spy) %.3f" % spy
                    note(p, "our Marshal took its General beside %d hidden pieces%s%s" % (
                        len(beside), ", the Spy among them" if spy_among else "", pb))
            # 8. our Major and up taking a piece beside hidden ones.
            if ours_att and att["p"] in "1234" and how == "KILLS":
                beside = hidden_beside(p, them)
                if beside:
                    k = BESIDE[0 if p["dfd_seen"] else 1]
                    beater = any(q["p"] not in "BF" and beats(q["p"], att["p"]) for _, q in beside)
                    reply = ps[i + 1] if i + 1 < len(ps) else None
                    taken = (reply is not None and reply["dfd"] is att
                             and reply["how"] in ("KILLS", "BOTHDIE"))
                    c[k[0]] += 1
                    c[k[1]] += beater
                    c[k[3]] += taken
                    pb = ""
                    if beliefs is not None:
                        b = beliefs.at(log_path, me, i)
                        none = 1.0
                        for sq, _ in beside:
                            bq = b.get(square(*sq), {})
                            none *= 1.0 - min(1.0, sum(v for r, v in bq.items() if r in STRENGTH
                                                       and beats(r, att["p"])))
                        c[k[2]] += round(1000 * (1.0 - none))
                        pb = ", believed %.3f" % (1.0 - none)
                    note(p, "our %s took %s %s beside %d hidden (%s)%s%s%s" % (
                        NAME[att["p"]], "a seen" if p["dfd_seen"] else "a hidden",
                        NAME[dfd["p"]], len(beside), ", ".join(NAME[q["p"]] for _, q in beside),
                        ", one beats it" if beater else "", ", taken next move" if taken else "",
                        pb))
            # 3. first-move captures by never-moved enemy pieces.
            if not ours_att and not p["att_moved"] and how == "KILLS":
                c["3a first-move captures by never-moved enemy pieces"] += 1
                c["3b   by its %s" % NAME[att["p"]]] += 1
                note(p, "its never-moved %s took our %s %s%s" % (
                    NAME[att["p"]], "seen" if p["dfd_seen"] else "hidden", NAME[dfd["p"]],
                    " right after it took one" if last_took.get(id(dfd)) == i - 1 else ""))
                if p["dfd_seen"]:
                    c["3c ambushes (our piece taken had been seen)"] += 1
                    c["3d   by its %s" % NAME[att["p"]]] += 1
                    c["3e   pieces our ambushed pieces had taken (sum)"] += took[id(dfd)]
                    c["3f   right after our piece took one"] += last_took.get(id(dfd)) == i - 1
            # 6. material: what the fight won us minus what it cost, by kind of fight.
            change = VALUE[other["p"]] * other_died - VALUE[mine["p"]] * mine_died
            c[MATERIAL[0]] += change
            if ours_att:
                kind = 4 if att["p"] in "123" and not p["dfd_seen"] and not p["dfd_moved"] else 5
            elif att["p"] in "123" and p["att_seen"]:
                kind = 2 if p["dfd_seen"] else 1
            else:
                kind = 3
            c[MATERIAL[kind]] += change
            note(p, "material %+d (%s)" % (change, MATERIAL[kind][5:].replace(" (sum)", "")))
            # 7. our Flag taken, right after its Miner took a Bomb beside it.
            if how == "VICTORY_FLAG" and not ours_att:
                c["7a our Flag taken"] += 1
                before = ps[i - 2] if i >= 2 else None
                if (before is not None and before["att"] is att and before["how"] == "KILLS"
                        and before["dfd"]["p"] == "B" and steps(before["to"], p["to"]) == 1):
                    c["7b   the move after its Miner took a Bomb beside it"] += 1
                    note(p, "its Miner took our Flag the move after the Bomb beside it")
            # 9. how our Marshal and General were first shown: in a fight it started (a
            # probe, often by a cheap piece) or one we started.
            if mine["p"] in "12" and id(mine) not in shown:
                shown.add(id(mine))
                k = "9a" if mine["p"] == "1" else "9d"
                c[SHOWN[k]] += 1
                c[SHOWN[{"9a": ("9b", "9c"), "9d": ("9e", "9f")}[k][ours_att]]] += 1
                note(p, "our %s first shown, in a fight %s (%s)" % (
                    NAME[mine["p"]], "we started" if ours_att else "it started",
                    NAME[other["p"]]))
            if how in ("KILLS", "VICTORY_FLAG"):
                took[id(att)] += 1
                last_took[id(att)] = i
            elif how == "DIES":
                took[id(dfd)] += 1
        first_moved.setdefault(id(att), i)
        # 4. approaches.
        if how != "OK":
            continue
        # Keys: threats (4a-4f ours approached, 4g-4l its), bluffs (4m-4p, 4q-4t).
        theirs = side == them
        known = p["att_seen"] or p["long"]  # a long move shows a Scout as it approaches
        reply = ps[i + 1] if i + 1 < len(ps) else None
        near = [x for _, x in newly_next_to(p)]
        for x in near:
            if known and beats(att["p"], x["p"]):
                moved_away, attacked, standing, taken = reply_to(ps, i, x)
                k = THREATS[0 if theirs else 1]
                c[k[0]] += 1
                c[k[1]] += moved_away
                c[k[2]] += attacked
                c[k[3]] += not moved_away and not attacked
                c[k[4]] += standing
                c[k[5]] += taken
                note(p, "%s seen %s steps next to %s %s: %s" % (
                    "its" if theirs else "our", NAME[att["p"]], "our" if theirs else "its",
                    NAME[x["p"]], "moved away" if moved_away else "attacked" if attacked else
                    "stayed, taken next move" if taken else "stayed"))
        # A bluff is counted once per move, however many pieces it stands next to.
        if near and not known:
            k = BLUFFS[0 if theirs else 1]
            c[k[0]] += 1
            if (any(beats(x["p"], att["p"]) for x in near)
                    and not any(beats(att["p"], x["p"]) for x in near)):
                fled = (reply is not None and reply["how"] == "OK"
                        and any(reply["att"] is x for x in near))
                called = reply is not None and reply["dfd"] is att
                c[k[1]] += 1
                c[k[2]] += fled
                c[k[3]] += called
                note(p, "%s hidden %s bluffs next to %s %s: %s" % (
                    "its" if theirs else "our", NAME[att["p"]], "our" if theirs else "its",
                    ", ".join(NAME[x["p"]] for x in near),
                    "fled" if fled else "called" if called else "neither"))
    # 2. the enemy's front-row pieces that never moved in the game.
    start = {}
    for p in ps:
        for sq, q in p["before"].items():
            start.setdefault(id(q), (sq, q))
    if ps:
        for sq, q in start.values():
            if q["c"] == them and sq[1] == front and id(q) not in first_moved:
                c["2g its front-row pieces that never moved in the game"] += 1
                c["2h   Bombs among them"] += q["p"] == "B"
    return c, dist


# 9. The first fight of our Marshal (9a-9c) and General (9d-9f).
SHOWN = {
    "9a": "9a our Marshal's first fight",
    "9b": "9b   it attacked (a probe)",
    "9c": "9c   we attacked",
    "9d": "9d our General's first fight",
    "9e": "9e   it attacked (a probe)",
    "9f": "9f   we attacked",
}

# An indented count's share is of the count above it that is not indented, but for these.
SHARE_OF = {"4f": "4e", "4l": "4k", "4o": "4n", "4p": "4n", "4s": "4r", "4t": "4r"}


def report(title, c, dist):
    """Prints the counts in their order, each indented count also as a share of its base
    (the count above it that is not indented, or the one SHARE_OF names: the bluffs fled
    are a share of the bluffs); believed sums also as a mean per piece."""
    print(title)
    base = None
    for k in sorted(c):
        v = c[k]
        label = k[3:]
        if not label.startswith("  "):
            base = v
        of = c.get(next((j for j in c if j[:2] == SHARE_OF[k[:2]]), ""), 0) \
            if k[:2] in SHARE_OF else base
        if "(x1000)" in k:
            mean = " (mean %.3f)" % (v / 1000 / base) if base else ""
            print("  %-70s %7.2f%s" % (label.replace(" (x1000)", ""), v / 1000, mean))
        elif label.startswith("  ") and of and "(sum)" not in k:
            print("  %-70s %5d  %3.0f%%" % (label, v, 100.0 * v / of))
        else:
            print("  %-70s %5d" % (label, v))
        if dist.get(k[:2]):
            d = dist[k[:2]]
            print("  %-70s %7.1f (%d)" % ("  nearest of ours able to beat or trade, median steps",
                                         statistics.median(d), len(d)))


def short(c):
    """The per-game line: the main counts."""
    g = c.get
    return ("top lost %d, then taken by its seen top %d (none able to beat %d), in all %d; "
            "attacks on unmoved %d, Bombs %d; raids %d (its %d); first-move captures %d, ambushes %d; "
            "its threats %d, we moved away %d; its bluffs %d, we fled %d, called %d; "
            "material %+d (its seen top on our hidden %+d, on our seen %+d)" % (
                g("1a our Marshal/General lost without a trade", 0), g(TAKEN_AFTER[0], 0),
                g(TAKEN_AFTER[1], 0), g(TAKEN_ALL[0], 0), g(ATTACKS, 0),
                g("2b   Bombs hit", 0), g(RAIDS[0][0], 0), g(RAIDS[1][0], 0),
                g("3a first-move captures by never-moved enemy pieces", 0),
                g("3c ambushes (our piece taken had been seen)", 0), g(THREATS[0][0], 0),
                g(THREATS[0][1], 0), g(BLUFFS[0][1], 0), g(BLUFFS[0][2], 0),
                g(BLUFFS[0][3], 0), g(MATERIAL[0], 0), g(MATERIAL[1], 0), g(MATERIAL[2], 0)))


SELF_TEST_LOG = """\
marshal RED SETUP
F........7
..........
..........
1...24..56
doi BLUE SETUP
2s..B...2.
.....7....
....5.....
6........F
1 RED: 4 3 DOWN OK
1 BLU: 0 9 UP OK
2 RED: 4 4 DOWN OK
2 BLU: 0 8 DOWN OK
3 RED: 4 5 DOWN DIES 2 B
3 BLU: 0 9 UP OK
4 RED: 0 3 DOWN OK
4 BLU: 0 8 DOWN OK
5 RED: 0 4 DOWN OK
5 BLU: 0 9 UP OK
6 RED: 0 5 DOWN KILLS 1 2
6 BLU: 1 6 LEFT KILLS s 1
7 RED: 8 3 DOWN OK
7 BLU: 0 8 DOWN OK
8 RED: 8 4 DOWN OK
8 BLU: 8 6 UP KILLS 2 5
9 RED: 9 0 DOWN OK
9 BLU: 8 5 UP OK
10 RED: 9 1 UP OK
10 BLU: 8 4 UP OK
11 RED: 9 0 DOWN OK
11 BLU: 8 3 RIGHT KILLS 2 6
12 RED: 5 3 DOWN OK
12 BLU: 9 3 UP OK
13 RED: 9 1 UP OK
13 BLU: 5 7 UP OK
14 RED: 9 0 LEFT OK
14 BLU: 5 6 UP OK
15 RED: 5 4 DOWN KILLS 4 7
15 BLU: 0 9 UP OK
16 RED: 5 5 DOWN OK
16 BLU: 0 8 DOWN OK
17 RED: 5 6 DOWN OK
17 BLU: 0 9 UP OK
18 RED: 5 7 LEFT OK
18 BLU: 4 8 LEFT OK
"""

# What the hand-made game above must give, worked out by hand move by move: the General
# dies on the Bomb (turn 3), the Marshal takes the General and the never-moved Spy beside
# it takes the Marshal at once (turn 6), the unmoved General takes our hidden Captain that stepped next to it
# (turn 8, our bluff called), then as a seen piece steps next to our Lieutenant, which
# stays and is taken (turns 10-11, nothing of ours left able to beat or trade with a
# General), and next to our Sergeant, which steps away (turns 12-13); its hidden
# Sergeant steps next to our Major, which takes it (turns 14-15); our seen Major steps
# next to its Captain, which steps away (turn 18).
SELF_TEST_EXPECTED = {
    "1a our Marshal/General lost without a trade": 2,
    "1b   General on a Bomb": 1,
    "1b   Marshal to the Spy": 1,
    "1c games with one lost": 1,
    TAKEN_AFTER[0]: 1, TAKEN_AFTER[1]: 1, TAKEN_AFTER[2]: 1,
    TAKEN_ALL[0]: 1, TAKEN_ALL[1]: 1, TAKEN_ALL[2]: 1,
    ATTACKS: 2,
    "2b   Bombs hit": 1,
    ROW: 7,
    "2e   Bombs among them": 1,
    "2g its front-row pieces that never moved in the game": 2,
    "2h   Bombs among them": 1,
    RAIDS[0][0]: 2, RAIDS[0][1]: 1, RAIDS[0][2]: 1,
    RAIDS[1][0]: 1, RAIDS[1][1]: 0, RAIDS[1][2]: 0,
    "3a first-move captures by never-moved enemy pieces": 2,
    "3b   by its Spy": 1,
    "3b   by its General": 1,
    "3c ambushes (our piece taken had been seen)": 1,
    "3d   by its Spy": 1,
    "3e   pieces our ambushed pieces had taken (sum)": 1,
    "3f   right after our piece took one": 1,
    THREATS[0][0]: 2, THREATS[0][1]: 1, THREATS[0][2]: 0, THREATS[0][3]: 1,
    THREATS[0][4]: 1, THREATS[0][5]: 1,
    THREATS[1][0]: 1, THREATS[1][1]: 1, THREATS[1][2]: 0, THREATS[1][3]: 0,
    THREATS[1][4]: 0, THREATS[1][5]: 0,
    BLUFFS[0][0]: 1, BLUFFS[0][1]: 1, BLUFFS[0][2]: 0, BLUFFS[0][3]: 1,
    BLUFFS[1][0]: 2, BLUFFS[1][1]: 1, BLUFFS[1][2]: 0, BLUFFS[1][3]: 1,
    "5a our Marshal lost to the Spy": 1,
    "5b   the Spy had not moved, hidden": 1,
    # Our Marshal took its General on x 0 with its hidden Spy beside it (x 1).
    "5c our Marshal took its General beside hidden pieces": 1,
    "5d   the Spy among them": 1,
    # The same capture: a hidden piece taken beside hidden ones, the Spy beats our Marshal
    # and takes it the next move.
    BESIDE[1][0]: 1, BESIDE[1][1]: 1, BESIDE[1][3]: 1,
    # General on the Bomb -300 and Marshal on the General +300 (6e); the Spy on our
    # Marshal -400 and the unmoved General on our Captain -100 (6d); the seen General on
    # our unmoved Lieutenant -60 (6b); our Major on its moved Sergeant +40 (6f).
    MATERIAL[0]: -520, MATERIAL[1]: -60, MATERIAL[3]: -500, MATERIAL[4]: 0,
    MATERIAL[5]: 40,
    # Our General's first fight is its raid on the Bomb (turn 3), our Marshal's its capture
    # of the General (turn 6): both started by us.
    SHOWN["9a"]: 1, SHOWN["9c"]: 1, SHOWN["9d"]: 1, SHOWN["9f"]: 1,
}


# A second hand-made game, Marshal playing Blue: its Scout's long first move ends next to
# our Sergeant (a shown Scout, so no bluff), which takes it; our hidden Marshal steps
# next to its General (an approach, no bluff), which attacks it and dies; our Marshal,
# now seen, dies on the Bomb of its front row (y 3), where both unmoved pieces are Bombs.
# Then its Miner walks down the x 8 file, takes the Bomb on x 8 y 8 and our Flag behind it.
SELF_TEST_LOG_BLUE = """\
doi RED SETUP
F........6
..........
..........
B9..2B..8.
marshal BLUE SETUP
....1.....
..........
.7......B.
........F.
1 RED: 1 3 DOWN 4 OK
1 BLU: 1 8 UP KILLS 7 9
2 RED: 4 3 DOWN OK
2 BLU: 4 6 UP OK
3 RED: 4 4 DOWN DIES 2 1
3 BLU: 4 5 UP OK
4 RED: 9 0 DOWN OK
4 BLU: 4 4 RIGHT OK
5 RED: 9 1 UP OK
5 BLU: 5 4 UP DIES 1 B
6 RED: 8 3 DOWN OK
6 BLU: 1 7 DOWN OK
7 RED: 8 4 DOWN OK
7 BLU: 1 8 UP OK
8 RED: 8 5 DOWN OK
8 BLU: 1 7 DOWN OK
9 RED: 8 6 DOWN OK
9 BLU: 1 8 UP OK
10 RED: 8 7 DOWN KILLS 8 B
10 BLU: 1 7 DOWN OK
11 RED: 8 8 DOWN VICTORY_FLAG
"""
SELF_TEST_EXPECTED_BLUE = {
    "1a our Marshal/General lost without a trade": 1,
    "1b   Marshal on a Bomb": 1,
    "1c games with one lost": 1,
    ATTACKS: 1, "2b   Bombs hit": 1, ROW: 3, "2e   Bombs among them": 2,
    "2g its front-row pieces that never moved in the game": 2, "2h   Bombs among them": 2,
    RAIDS[0][0]: 1, RAIDS[0][1]: 1, RAIDS[0][2]: 1, RAIDS[1][0]: 0,
    BLUFFS[0][0]: 0, BLUFFS[1][0]: 1, BLUFFS[1][1]: 0,
    # Our Sergeant on its shown Scout +30 (6f), its hidden General on our Marshal +300
    # and its Miner on our Bomb -20 (6d), our seen Marshal on the Bomb -400 (6e).
    MATERIAL[0]: -90, MATERIAL[3]: 280, MATERIAL[4]: -400, MATERIAL[5]: 30,
    "7a our Flag taken": 1,
    "7b   the move after its Miner took a Bomb beside it": 1,
    # Its General attacks our hidden Marshal (turn 3): our Marshal's first fight, its probe.
    SHOWN["9a"]: 1, SHOWN["9b"]: 1,
}


def self_test():
    n = 0
    for log, want in ((SELF_TEST_LOG, SELF_TEST_EXPECTED),
                      (SELF_TEST_LOG_BLUE, SELF_TEST_EXPECTED_BLUE)):
        c, dist = analyse(log.splitlines())
        bad = {k: (c.get(k, 0), v) for k, v in want.items() if c.get(k, 0) != v}
        extra = {k: v for k, v in c.items() if v and k not in want}
        if any(dist.values()):
            extra["distances"] = dist  # in neither game can a piece of ours face the taker
        if bad or extra:
            for k, (got, v) in sorted(bad.items()):
                print("self-test: %s: got %d, want %d" % (k, got, v))
            for k, v in sorted(extra.items()):
                print("self-test: unexpected %s: %s" % (k, v))
            sys.exit(1)
        n += len(want)
    print("self-test: %d counts in 2 games as expected" % n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--beliefs", action="store_true",
                    help="ask the engine for its Bomb beliefs at each attack (slower)")
    ap.add_argument("--marshal", default="target/release/marshal")
    ap.add_argument("--games", action="store_true", help="one line per game")
    ap.add_argument("--events", action="store_true",
                    help="one line per counted event, by turn (to check by hand)")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("dirs", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    if not a.dirs:
        ap.error("give a ladder folder")
    beliefs = Beliefs(a.marshal) if a.beliefs else None
    total = {"W": Counter(), "L": Counter()}
    dists = {"W": Counter(), "L": Counter()}
    n = Counter()
    for opp, i, res, log in ucc_losses.finished_games(a.dirs):
        if len(a.dirs) > 1:
            # Several folders may hold the same opponent and game numbers (one per seed).
            opp = "%s/%s" % (os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(log)))), opp)
        ev = [] if a.events else None
        c, dist = analyse(open(log).read().splitlines(), log, beliefs, ev)
        total[res].update(c)
        for k, d in dist.items():
            dists[res].setdefault(k, []).extend(d)
        n[res] += 1
        if a.games:
            print("%s game %s %s: %s" % (opp, i, res, short(c)))
        for e in ev or ():
            print("  %s game %s %s" % (opp, i, e))
    for res, name in (("W", "won"), ("L", "lost")):
        if n[res]:
            report("%d games %s:" % (n[res], name), total[res], dists[res])
    if n["W"] and n["L"]:
        both = Counter()
        for res in "WL":
            both.update(total[res])  # update, unlike +, keeps the counts that are 0
        report("all %d games:" % (n["W"] + n["L"]), both,
               {k: dists["W"].get(k, []) + dists["L"].get(k, []) for k in dists["W"]})


if __name__ == "__main__":
    main()
