//! Seeded round-trip properties of every text form: squares, moves (with rescues),
//! variants, setups, positions and player views, and game records (finished and
//! interrupted games); plus precise parse errors for malformed input.

use crate::common;

use common::{random_army, random_move, random_setup, random_start, rng, rule_sets, variants};
use marshal::formats::{GameRecord, RecordError};
use marshal::rules::{Move, Position, Rank, Rules, Setup, Square, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

fn random_string(r: &mut StdRng, alphabet: &[u8], max_len: usize) -> String {
    let n = r.gen_range(0..=max_len);
    (0..n).map(|_| *alphabet.choose(r).unwrap() as char).collect()
}

fn random_square(r: &mut StdRng) -> Square {
    Square::new(r.gen_range(0..10), r.gen_range(0..10))
}

#[test]
fn squares_round_trip() {
    for rank in 0..10 {
        for file in 0..10 {
            let s = Square::new(file, rank);
            let txt = s.to_string();
            assert_eq!(Square::parse(&txt), Some(s), "{txt}");
            assert_eq!(Square::parse(&txt.to_ascii_uppercase()), Some(s), "{txt}");
            assert_eq!(Square::take(txt.as_bytes()), Some((s, txt.len())), "{txt}");
        }
    }
    // Whatever parses prints back as its lower-case self.
    let mut r = rng(1);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let s = random_string(&mut r, b"aAbjJk0119x ", 4);
        if let Some(q) = Square::parse(&s) {
            assert_eq!(q.to_string(), s.to_ascii_lowercase(), "'{s}'");
            parsed += 1;
        }
    }
    assert!(parsed > 100, "{parsed}");
}

fn random_rescue_rank(r: &mut StdRng) -> Rank {
    *Rank::ALL.choose(r).unwrap()
}

#[test]
fn moves_round_trip() {
    let mut r = rng(2);
    for _ in 0..20_000 {
        let from = random_square(&mut r);
        let to = random_square(&mut r);
        if from == to {
            continue;
        }
        let m = if r.gen_bool(0.5) {
            Move::new(from, to)
        } else {
            Move::with_rescue(from, to, random_rescue_rank(&mut r), random_square(&mut r))
        };
        let txt = m.to_string();
        assert_eq!(Move::parse(&txt), Ok(m), "{txt}");
        assert_eq!(Move::parse(&txt).unwrap().to_string(), txt);
        assert_eq!(m.base(), Move::new(from, to));
        assert_eq!(txt.parse::<Move>(), Ok(m));
    }
    // The long piece tokens read back to the canonical ones.
    assert_eq!(Move::parse("d9d10+10c3").unwrap().to_string(), "d9d10+Mc3");
    assert_eq!(Move::parse("j7j10+1a1").unwrap().to_string(), "j7j10+Sa1");
    // Mutated move texts: whatever still parses prints back to something that parses the
    // same, and what does not parse is an error, never a panic.
    let alphabet = b"abjk0123+MSBx ";
    let mut parsed = 0;
    for _ in 0..50_000 {
        let m = Move::with_rescue(
            random_square(&mut r),
            random_square(&mut r),
            random_rescue_rank(&mut r),
            random_square(&mut r),
        );
        let mut b = m.to_string().into_bytes();
        for _ in 0..r.gen_range(1..=2) {
            let i = r.gen_range(0..=b.len());
            let c = *alphabet.choose(&mut r).unwrap();
            match r.gen_range(0..3) {
                0 => b.insert(i, c),
                1 if i < b.len() => {
                    b.remove(i);
                }
                _ if i < b.len() => b[i] = c,
                _ => {}
            }
        }
        let s = String::from_utf8(b).unwrap();
        if let Ok(m) = Move::parse(&s) {
            assert_eq!(Move::parse(&m.to_string()), Ok(m), "'{s}'");
            parsed += 1;
        }
    }
    assert!(parsed > 100, "{parsed}");
}

/// The army of `v` as `<piece>=<count>` items in random order, with the alternative
/// tokens `1` (Spy) and `10` (Marshal) now and then.
fn shuffled_army_text(v: &Variant, r: &mut StdRng) -> String {
    let mut items: Vec<String> = Rank::ALL
        .iter()
        .filter(|rk| v.army[rk.index()] > 0)
        .map(|rk| {
            let tok = match rk {
                Rank::Spy if r.gen_bool(0.5) => "1".to_string(),
                Rank::Marshal if r.gen_bool(0.5) => "10".to_string(),
                _ => rk.to_char().to_string(),
            };
            format!("{tok}={}", v.army[rk.index()])
        })
        .collect();
    items.shuffle(r);
    format!("custom:{}x{}:{}", v.files, v.ranks, items.join(","))
}

#[test]
fn variants_round_trip() {
    for name in Variant::BUILT_IN {
        let v = Variant::parse(name).unwrap();
        assert_eq!(v.name(), name);
        assert_eq!(Variant::parse(&v.name()), Ok(v));
        assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
    }
    assert_eq!(Variant::parse("original"), Ok(Variant::CLASSIC));
    let mut r = rng(3);
    for _ in 0..2_000 {
        let v = random_army(&mut r);
        let name = v.name();
        assert_eq!(Variant::parse(&name), Ok(v), "{name}");
        assert_eq!(Variant::parse(&name).unwrap().name(), name);
        let alt = shuffled_army_text(&v, &mut r);
        assert_eq!(Variant::parse(&alt), Ok(v), "{alt}");
    }
}

#[test]
fn setups_round_trip() {
    let mut r = rng(4);
    let mut all = variants();
    for _ in 0..40 {
        all.push(random_army(&mut r));
    }
    for v in &all {
        if v.kind != marshal::rules::VariantKind::Custom {
            let (red, blue) = v.sample_setups();
            for text in [red, blue] {
                let s = Setup::parse(&text, v).unwrap_or_else(|e| panic!("{}: {e}", v.name()));
                assert_eq!(s.to_string(), text);
            }
        }
        for _ in 0..50 {
            let s = random_setup(v, &mut r);
            let text = s.to_string();
            assert_eq!(Setup::parse(&text, v).as_ref(), Ok(&s), "{text}");
            assert_eq!(Setup::parse(&text, v).unwrap().to_string(), text);
            // The long tokens `1` and `10` read as the Spy and the Marshal.
            let long = text.replace('S', "1").replace('M', "10");
            assert_eq!(Setup::parse(&long, v).as_ref(), Ok(&s), "{long}");
            // A setup read back from the starting position is the one deployed.
            let pos = Position::from_setups(*v, Rules::default(), &s, &s).unwrap();
            for c in marshal::rules::Color::BOTH {
                assert_eq!(pos.setup_of(c).as_ref(), Ok(&s));
            }
        }
    }
}

/// Text form of `p` parses back to the same text and the same legal moves; every
/// `deep`th call also the same perft(2) (trails and history survive the text form).
fn check_position(p: &Position, rules: Rules, deep: bool, what: &str) {
    let t = p.to_text();
    let q = Position::from_text(&t, rules).unwrap_or_else(|e| panic!("{what}: {e}\n{t}"));
    assert_eq!(q.to_text(), t, "{what}: text does not round-trip");
    assert_eq!(
        q.legal_moves(),
        p.legal_moves(),
        "{what}: legal moves differ after the text form\n{t}"
    );
    assert_eq!(q.game_end(), p.game_end(), "{what}: game end differs\n{t}");
    if deep {
        let (mut a, mut b) = (p.clone(), q.clone());
        assert_eq!(
            a.perft(2),
            b.perft(2),
            "{what}: perft(2) differs after the text form\n{t}"
        );
    }
}

#[test]
fn positions_and_views_round_trip() {
    let mut r = rng(5);
    let mut all = variants();
    for _ in 0..6 {
        all.push(random_army(&mut r));
    }
    let mut checked = 0;
    for v in &all {
        for (i, (label, rules)) in rule_sets().into_iter().enumerate() {
            for g in 0..3 {
                let (mut pos, _, _) = random_start(*v, rules, &mut r);
                for ply in 0..160 {
                    let what = format!("{} {label} game {g} ply {ply}", v.name());
                    let deep = (ply + i) % 16 == 0;
                    check_position(&pos, rules, deep, &what);
                    for c in marshal::rules::Color::BOTH {
                        let view = pos.view(c);
                        check_position(
                            &view,
                            rules,
                            deep && c == pos.side_to_move(),
                            &format!("{what} view {c}"),
                        );
                    }
                    checked += 1;
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.game_end().is_some() {
                        break;
                    }
                    let mv = if g == 0 {
                        random_move(&moves, &mut r)
                    } else {
                        common::pick_move(&pos, &moves, &mut r)
                    };
                    pos.make(mv);
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// A Flag capture ends the game; the position line after it must say so when read back.
#[test]
fn position_after_flag_capture_round_trips() {
    let mut found = 0;
    for v in variants() {
        let mut r = rng(8);
        for _ in 0..20 {
            let (mut pos, _, _) = random_start(v, Rules::default(), &mut r);
            while pos.game_end().is_none() {
                let moves = pos.legal_moves();
                pos.make(random_move(&moves, &mut r));
            }
            if pos.flag_taken_by().is_none() {
                continue;
            }
            found += 1;
            let t = pos.to_text();
            let q = Position::from_text(&t, Rules::default()).unwrap();
            assert_eq!(q.to_text(), t);
            assert_eq!(q.game_end(), pos.game_end(), "game end lost by the text form:\n{t}");
            assert_eq!(
                q.legal_moves(),
                Vec::<Move>::new(),
                "moves after the Flag was taken:\n{t}"
            );
            for c in marshal::rules::Color::BOTH {
                let view = Position::from_text(&pos.view(c).to_text(), Rules::default()).unwrap();
                assert_eq!(view.game_end(), pos.game_end(), "{c}'s view:\n{t}");
            }
        }
    }
    assert!(found > 10, "{found}");
}

/// Chooses the next move of a recorded game: a rescue when one is on offer (so records
/// hold them), otherwise a uniform random move.
fn choose(pos: &Position, r: &mut StdRng) -> Option<Move> {
    if pos.game_end().is_some() {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let rescues: Vec<Move> = moves.iter().copied().filter(|m| m.rescue().is_some()).collect();
    Some(match rescues.choose(r) {
        Some(m) if r.gen_bool(0.5) => *m,
        _ => random_move(&moves, r),
    })
}

/// Plays from `pos` to the end, recording into `rec`; returns the text after every ply.
fn play_out(pos: &mut Position, rec: &mut GameRecord, r: &mut StdRng) -> Vec<String> {
    let mut texts = Vec::new();
    while let Some(mv) = choose(pos, r) {
        let out = pos.make(mv);
        rec.push(mv, out.combat);
        texts.push(pos.to_text());
    }
    texts
}

fn json_round_trip(rec: &GameRecord) -> GameRecord {
    let json = rec.to_json();
    let back = GameRecord::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(&back, rec, "record changed through JSON");
    assert_eq!(back.to_json(), json);
    back
}

#[test]
fn records_round_trip_and_resume() {
    let mut r = rng(6);
    let mut all = variants();
    all.push(random_army(&mut r));
    let (mut finished, mut resumed) = (0, 0);
    for v in &all {
        for (label, rules) in rule_sets() {
            // Keep games short; the caps still end some of them.
            let rules = Rules {
                max_plies: Some(rules.max_plies.map_or(300, |n| n.min(300))),
                ..rules
            };
            for g in 0..2 {
                let what = format!("{} {label} game {g}", v.name());
                let (start, red, blue) = random_start(*v, rules, &mut r);
                let mut rec = GameRecord::new(v, rules, &red, &blue);
                rec.meta.insert("seed".into(), format!("{g}"));
                let mut pos = start.clone();
                let cut = r.gen_range(0..60usize);
                // Play to the cut, remember the generator there, then play on to the end.
                let mut texts = Vec::new();
                for _ in 0..cut {
                    let Some(mv) = choose(&pos, &mut r) else { break };
                    let out = pos.make(mv);
                    rec.push(mv, out.combat);
                    texts.push(pos.to_text());
                }
                let cut = rec.moves.len();
                let at_cut = pos.to_text();
                let snapshot = r.clone();
                let mut interrupted = rec.clone();
                texts.extend(play_out(&mut pos, &mut rec, &mut r));
                let end = pos
                    .game_end()
                    .unwrap_or_else(|| panic!("{what}: play_out stops only at the end"));
                rec.result = Some(end);

                // The finished game replays to the same position and result.
                let back = json_round_trip(&rec);
                let (replayed, got) = back.replay(None).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(replayed.to_text(), pos.to_text(), "{what}: final position");
                assert_eq!(got, Some(end), "{what}: result");
                let mut plies = 0;
                back.replay_with(None, |ply, p| {
                    if ply >= 2 {
                        assert_eq!(p.to_text(), texts[ply - 2], "{what}: before ply {ply}");
                    }
                    plies += 1;
                })
                .unwrap();
                assert_eq!(plies, rec.moves.len());
                finished += 1;

                // The interrupted game (no result) resumes exactly where it stopped.
                assert_eq!(interrupted.result, None);
                interrupted = json_round_trip(&interrupted);
                let (mut again, none) = interrupted.replay(None).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(again.to_text(), at_cut, "{what}: resumed position");
                if none.is_some() {
                    continue; // the game had ended by the cut
                }
                let mut r2 = snapshot;
                let rest = play_out(&mut again, &mut interrupted, &mut r2);
                assert_eq!(rest[..], texts[cut..], "{what}: the resumed game went another way");
                assert_eq!(interrupted.moves, rec.moves, "{what}: resumed moves");
                assert_eq!(again.game_end(), Some(end), "{what}: resumed result");
                resumed += 1;
            }
        }
    }
    assert!(finished > 100 && resumed > 80, "{finished} finished, {resumed} resumed");
}

/// Resignations and other verdicts are kept by the record, not reached by the moves.
#[test]
fn record_with_verdict_round_trips() {
    let v = Variant::BARRAGE;
    let mut r = rng(7);
    let (mut pos, red, blue) = random_start(v, Rules::default(), &mut r);
    let mut rec = GameRecord::new(&v, Rules::default(), &red, &blue);
    for _ in 0..10 {
        let mv = choose(&pos, &mut r).unwrap();
        let out = pos.make(mv);
        rec.push(mv, out.combat);
    }
    let end = marshal::rules::GameEnd {
        winner: Some(marshal::rules::Color::Red),
        reason: marshal::rules::EndReason::Resignation,
    };
    rec.result = Some(end);
    let back = json_round_trip(&rec);
    let (p, got) = back.replay(None).unwrap();
    assert_eq!(p.to_text(), pos.to_text());
    assert_eq!(got, Some(end));
}

fn assert_mentions(err: &str, token: &str, input: &str) {
    assert!(
        err.contains(token),
        "error for {input:?} does not mention {token:?}: {err}"
    );
}

#[test]
fn parse_errors_name_the_bad_token() {
    // Squares and moves.
    assert_eq!(Square::parse("k1"), None);
    for (input, token) in [
        ("e4k5", "e4k5"),
        ("z1a1", "z1a1"),
        ("e4e5x", "x"),
        ("e4e5+Xc3", "e4e5+Xc3"),
    ] {
        let e = Move::parse(input).unwrap_err();
        assert_mentions(&e, token, input);
    }
    // Variants.
    for (input, token) in [
        ("chess", "chess"),
        ("custom:10x9:F=1", "10x9"),
        ("custom:10x8:F=1,X=2", "X"),
        ("custom:10x8:F=1,2=99", "99"),
        ("custom:10x8:F=1,2=3,2=4", "2"),
        ("custom:10x8:F1", "F1"),
    ] {
        let e = Variant::parse(input).unwrap_err().to_string();
        assert_mentions(&e, token, input);
    }
    // Setups.
    let v = Variant::DUEL;
    let (good, _) = v.sample_setups();
    for (input, token) in [
        (good.replacen('9', "Z", 1), "'Z'"),
        (good.replacen('.', "", 1), "squares"),
        (good.replacen('/', "", 1), "rows"),
        (good.replacen('9', "8", 1), "Colonel"),
    ] {
        let e = Setup::parse(&input, &v).unwrap_err().to_string();
        assert_mentions(&e, token, &input);
    }
    // Positions: take a real line and break one field at a time.
    let mut pos = common::sample_start(Variant::BARRAGE, Rules::default());
    let m = pos.legal_moves()[0];
    pos.make(m);
    let line = pos.to_text();
    let fields: Vec<&str> = line.split_whitespace().collect();
    let broken = |i: usize, bad: &str| {
        let mut f = fields.clone();
        f[i] = bad;
        f.join(" ")
    };
    for (i, bad, token) in [
        (0, "chesss", "chesss"),
        (1, "x", "'x'"),
        (3, "q", "'q'"),
        (4, "many", "'many'"),
        (5, "lots", "'lots'"),
        (7, "3/0", "'3'"),
        (8, "z9-z8/-", "'z9'"),
        (9, "0/ab", "'ab'"),
        (10, "a1a1", "a1a1"),
    ] {
        let input = broken(i, bad);
        let e = Position::from_text(&input, Rules::default()).unwrap_err().to_string();
        assert_mentions(&e, token, &input);
    }
    let e = Position::from_text("barrage full", Rules::default())
        .unwrap_err()
        .to_string();
    assert_mentions(&e, "11 fields", "barrage full");
    // A bad piece is named by its square.
    let board = fields[2].replacen("bF", "bX", 1);
    let e = Position::from_text(&broken(2, &board), Rules::default())
        .unwrap_err()
        .to_string();
    assert_mentions(&e, "e10", &board);
    // Records.
    let (red, blue) = Variant::BARRAGE.sample_setups();
    let red = Setup::parse(&red, &Variant::BARRAGE).unwrap();
    let blue = Setup::parse(&blue, &Variant::BARRAGE).unwrap();
    let mut rec = GameRecord::new(&Variant::BARRAGE, Rules::default(), &red, &blue);
    rec.format = "marshal-game/9".into();
    let e = GameRecord::from_json(&rec.to_json()).unwrap_err().to_string();
    assert_mentions(&e, "marshal-game/9", "format");
    rec.format = marshal::formats::record::RECORD_FORMAT.into();
    rec.push(m, None);
    rec.push(Move::parse("a1a2").unwrap(), None);
    let e = rec.replay(None).unwrap_err();
    assert!(
        matches!(&e, RecordError::Move { ply: 2, mv, .. } if mv == "a1a2"),
        "{e:?}"
    );
    assert_mentions(&e.to_string(), "a1a2", "record move");
    let e = GameRecord::from_json("{ not json").unwrap_err().to_string();
    assert_mentions(&e, "not a valid game record", "{ not json");
}
