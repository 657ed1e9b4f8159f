//! Gravon XML interop: reading hand-made and generated Gravon files, replaying them to the
//! recorded result, rejecting corrupted and malformed ones, and write -> read round trips.

use marshal::formats::gravon::{self, GravonError, GRAVON_RULES, META_BLUE_PLAYER, META_RED_PLAYER};
use marshal::formats::{GameRecord, RecordError};
use marshal::rules::{Color, EndReason, GameEnd, Move, Position, Rules, Setup, Variant};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gravon")
        .join(name)
}

fn load(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap_or_else(|e| panic!("cannot read {name}: {e}"))
}

/// A deterministic pseudo-random policy (a 64-bit LCG) that likes attacks.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Plays a game of `variant` from its sample setups under Gravon's rules with the
/// seeded policy, for at most `max_plies`, and returns the record.
fn play(variant: Variant, seed: u64, max_plies: usize) -> GameRecord {
    let (r, b) = variant.sample_setups();
    let red = Setup::parse(&r, &variant).unwrap();
    let blue = Setup::parse(&b, &variant).unwrap();
    let mut pos = Position::from_setups(variant, GRAVON_RULES, &red, &blue).unwrap();
    let mut record = GameRecord::new(&variant, GRAVON_RULES, &red, &blue);
    let mut rng = Lcg(seed);
    for _ in 0..max_plies {
        if let Some(end) = pos.game_end() {
            record.result = Some(end);
            break;
        }
        let moves = pos.legal_moves();
        let attacks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .collect();
        let mv = if !attacks.is_empty() && !rng.next().is_multiple_of(3) {
            attacks[rng.next() as usize % attacks.len()]
        } else {
            moves[rng.next() as usize % moves.len()]
        };
        let out = pos.make(mv);
        record.push(mv, out.combat);
    }
    if record.result.is_none() {
        record.result = pos.game_end();
    }
    record
}

fn assert_same_game(a: &GameRecord, b: &GameRecord) {
    assert_eq!(a.variant, b.variant);
    assert_eq!(a.red_setup, b.red_setup);
    assert_eq!(a.blue_setup, b.blue_setup);
    let am: Vec<&str> = a.moves.iter().map(|m| m.mv.as_str()).collect();
    let bm: Vec<&str> = b.moves.iter().map(|m| m.mv.as_str()).collect();
    assert_eq!(am, bm);
    assert_eq!(a.result, b.result);
}

#[test]
fn hand_written_classic_game_replays_to_the_flag_capture() {
    let record = gravon::read(&load("classic-flag.xml")).unwrap();
    assert_eq!(record.variant, "classic");
    assert_eq!(record.rules, GRAVON_RULES);
    assert_eq!(record.rules.two_squares, Some(5));
    assert!(record.rules.more_squares);
    assert_eq!(record.rules.max_plies, None);
    assert_eq!(record.red_setup, "3BFB342272/43B5566B43/278S928765/M2B64B5223");
    assert_eq!(record.blue_setup, "22354532BF/23B6634B34/5678MS9876/B24B257B22");
    assert_eq!(record.moves.len(), 25);
    assert_eq!(record.moves[0].mv, "a4a5");
    assert_eq!(record.moves[14].mv, "j4j5");
    assert_eq!(record.moves[24].mv, "a9a10");
    assert_eq!(record.meta.get(META_RED_PLAYER).map(String::as_str), Some("Player 1"));
    assert_eq!(record.meta.get(META_BLUE_PLAYER).map(String::as_str), Some("Player 2"));
    let won = GameEnd {
        winner: Some(Color::Red),
        reason: EndReason::FlagCaptured,
    };
    assert_eq!(record.result, Some(won));
    let (pos, end) = record.replay(None).unwrap();
    assert_eq!(end, Some(won));
    assert_eq!(pos.ply(), 25);
}

#[test]
fn corrupted_file_fails_replay_at_the_bad_move() {
    let record = gravon::read(&load("classic-flag-corrupt.xml")).unwrap();
    assert_eq!(record.moves[8].mv, "f4f5");
    match record.replay(None) {
        Err(RecordError::Move { ply, mv, reason }) => {
            assert_eq!(ply, 9, "{reason}");
            assert_eq!(mv, "f4f5");
        }
        other => panic!("expected the replay to reject move 9, got {other:?}"),
    }
}

/// `barrage-generated.xml` was made by `play(Variant::BARRAGE, 7, ..)` and `write`; set
/// GRAVON_REGEN=1 to make it again. The test does not regenerate it otherwise, so that a
/// change in move-generation order does not turn it stale.
#[test]
fn generated_barrage_game_replays_to_its_result() {
    let path = data("barrage-generated.xml");
    if std::env::var_os("GRAVON_REGEN").is_some() {
        let mut record = play(Variant::BARRAGE, 7, 2000);
        record.meta.insert(META_RED_PLAYER.into(), "Marshal & seed <7>".into());
        record.meta.insert(META_BLUE_PLAYER.into(), "Marshal \"blue\"".into());
        std::fs::write(&path, gravon::write(&record).unwrap()).unwrap();
    }
    let on_disk = load("barrage-generated.xml");
    let record = gravon::read(&on_disk).unwrap();
    assert_eq!(record.variant, "barrage");
    assert_eq!(
        record.meta.get(META_RED_PLAYER).map(String::as_str),
        Some("Marshal & seed <7>")
    );
    assert_eq!(
        record.meta.get(META_BLUE_PLAYER).map(String::as_str),
        Some("Marshal \"blue\"")
    );
    let end = record.result.expect("the generated game has a result");
    assert!(
        matches!(end.reason, EndReason::FlagCaptured | EndReason::NoMoves),
        "{end:?}"
    );
    let (pos, reached) = record.replay(None).unwrap();
    assert_eq!(reached, Some(end));
    assert_eq!(pos.ply() as usize, record.moves.len());
    // The writer gives back the file byte for byte.
    assert_eq!(gravon::write(&record).unwrap(), on_disk);
}

#[test]
fn round_trips_keep_setups_moves_and_results() {
    let mut finished = 0;
    for (variant, seed, plies) in [
        (Variant::CLASSIC, 1, 300),
        (Variant::CLASSIC, 2, 5000),
        (Variant::BARRAGE, 3, 40),
        (Variant::BARRAGE, 11, 3000),
        (Variant::DUEL, 5, 3000),
    ] {
        let record = play(variant, seed, plies);
        let xml = gravon::write(&record).unwrap();
        let back = gravon::read(&xml).unwrap_or_else(|e| panic!("{}: {e}\n{xml}", variant.name()));
        assert_same_game(&record, &back);
        assert_eq!(back.rules, GRAVON_RULES);
        // Writing what was read gives the same file.
        assert_eq!(gravon::write(&back).unwrap(), xml);
        if back.result.is_some() {
            assert_eq!(back.replay(None).unwrap().1, record.result);
            finished += 1;
        }
    }
    // Classic, barrage and duel games each reach an end (no movable pieces, as it happens).
    assert_eq!(finished, 3);
}

#[test]
fn every_result_kind_survives_a_round_trip() {
    let record = play(Variant::BARRAGE, 3, 10);
    let cases = [
        (Some(Color::Red), EndReason::FlagCaptured, "1", "1"),
        (Some(Color::Blue), EndReason::NoMoves, "0", "2"),
        (None, EndReason::NeitherCanMove, "2", "3"),
        (Some(Color::Blue), EndReason::Resignation, "3", "2"),
        (None, EndReason::Agreement, "4", "3"),
        (Some(Color::Red), EndReason::Forfeit, "11", "1"),
        (None, EndReason::Forfeit, "10", "3"),
    ];
    for (winner, reason, code, w) in cases {
        let mut r = record.clone();
        r.result = Some(GameEnd { winner, reason });
        let xml = gravon::write(&r).unwrap();
        assert!(
            xml.contains(&format!("<result type=\"{code}\" winner=\"{w}\"/>")),
            "{reason:?}: {xml}"
        );
        let back = gravon::read(&xml).unwrap();
        assert_eq!(back.result, r.result);
    }
    // Draws by a cap have no Gravon code: they become a tie.
    let mut r = record.clone();
    r.result = Some(GameEnd {
        winner: None,
        reason: EndReason::MoveCap,
    });
    let back = gravon::read(&gravon::write(&r).unwrap()).unwrap();
    assert_eq!(back.result.map(|e| e.reason), Some(EndReason::Agreement));
    // A game still going has no <result>.
    let mut r = record.clone();
    r.result = None;
    let xml = gravon::write(&r).unwrap();
    assert!(!xml.contains("<result"));
    assert_eq!(gravon::read(&xml).unwrap().result, None);
    // A flag capture needs a winner.
    r.result = Some(GameEnd {
        winner: None,
        reason: EndReason::FlagCaptured,
    });
    assert!(matches!(gravon::write(&r), Err(GravonError::Unsupported(_))));
}

#[test]
fn timeout_codes_are_kept_on_the_way_back() {
    let base = load("classic-flag.xml");
    for code in ["12", "13", "14"] {
        let xml = base.replace(
            "<result type=\"1\" winner=\"1\"/>",
            &format!("<result type=\"{code}\" winner=\"2\"/>"),
        );
        let record = gravon::read(&xml).unwrap();
        assert_eq!(
            record.result,
            Some(GameEnd {
                winner: Some(Color::Blue),
                reason: EndReason::Forfeit
            })
        );
        let again = gravon::write(&record).unwrap();
        assert!(
            again.contains(&format!("<result type=\"{code}\" winner=\"2\"/>")),
            "{again}"
        );
    }
}

#[test]
fn real_gravon_barrage_field_decodes() {
    // The field of archive game barrage-2014.3-2406 as published in rhalbersma/gravon
    // (data/barrage.csv); that game ended with type 1, winner 2.
    let field = "AAAMADBAAAAAAAAAAALAAAAAAAAAAACKAADAAAAEAA__AA__AAAA__AA__AAAAAAPQAAWOAAAAAAAAAAAAAAAAAAXNAAAAAAAAPY";
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n<game type=\"barrage\">\n<field content=\"{field}\"/>\n\
         <player id=\"1\">Player 1</player>\n<player id=\"2\">Player 2</player>\n<result type=\"1\" winner=\"2\"/>\n</game>\n</stratego>\n"
    );
    let record = gravon::read(&xml).unwrap();
    assert_eq!(record.variant, "barrage");
    assert_eq!(record.red_setup, "...F.2B.../........M./........../S9..2....3");
    assert_eq!(record.blue_setup, "F2......../BM......../........../S9..32....");
    assert_eq!(
        record.result,
        Some(GameEnd {
            winner: Some(Color::Blue),
            reason: EndReason::FlagCaptured
        })
    );
    // Written back, the field is the same string.
    assert!(gravon::write(&record).unwrap().contains(field));
}

#[test]
fn game_type_and_army_decide_the_variant() {
    let base = load("classic-flag.xml");
    // Without a type attribute, the armies say classic.
    let untyped = base.replace(" <game type = \"classic\">", " <game>");
    assert_eq!(gravon::read(&untyped).unwrap().variant, "classic");
    // A free-setup game has the classic army and keeps its type name on the way back.
    let free = base.replace("\"classic\"", "\"classicfree\"");
    let record = gravon::read(&free).unwrap();
    assert_eq!(record.variant, "classic");
    assert!(gravon::write(&record).unwrap().contains("<game type=\"classicfree\">"));
    // Duel games: the army decides even if the attribute says otherwise.
    let duel = play(Variant::DUEL, 9, 10);
    let xml = gravon::write(&duel).unwrap();
    assert!(xml.contains("<game type=\"duell\">"));
    let relabelled = xml.replace("\"duell\"", "\"classic\"");
    assert_eq!(gravon::read(&relabelled).unwrap().variant, "duel");
}

#[test]
fn moves_use_gravon_square_names() {
    let record = play(Variant::BARRAGE, 3, 60);
    let xml = gravon::write(&record).unwrap();
    for part in xml.split(" source=\"").skip(1).chain(xml.split(" target=\"").skip(1)) {
        let name = &part[..part.find('"').unwrap()];
        assert_eq!(name.len(), 2, "{name}");
        assert!(!name.starts_with('J'), "{name}");
    }
    // The archive's old files with J for the tenth file read as K.
    let classic = load("classic-flag.xml").replace("source=\"K4\"", "source=\"J4\"");
    assert_eq!(gravon::read(&classic).unwrap().moves[14].mv, "j4j5");
}

fn err_of(xml: &str) -> GravonError {
    match gravon::read(xml) {
        Err(e) => e,
        Ok(r) => panic!("read accepted a bad file: {r:?}"),
    }
}

#[test]
fn malformed_files_give_clear_errors() {
    let good = load("classic-flag.xml");

    // Not XML at all, or broken XML: the line is named.
    assert!(matches!(err_of(""), GravonError::Xml { line: 1, .. }));
    assert!(matches!(err_of("{\"format\": 1}"), GravonError::Xml { .. }));
    let unclosed = good.replace(" </game>\n", "");
    let e = err_of(&unclosed);
    assert!(matches!(e, GravonError::Xml { .. }), "{e}");
    assert!(e.to_string().contains("</stratego> does not close <game>"), "{e}");
    let e = err_of(&good.replace("<move id=\"7\" source=\"E4\"", "<move id=\"7\" source=E4"));
    assert!(matches!(e, GravonError::Xml { line: 12, .. }), "{e}");
    assert!(e.to_string().contains("line 12"), "{e}");

    // Structure.
    let e = err_of("<stratego><nothing/></stratego>");
    assert!(matches!(e, GravonError::Missing { .. }), "{e}");
    let no_field: String = good
        .lines()
        .filter(|l| !l.contains("<field"))
        .collect::<Vec<_>>()
        .join("\n");
    let e = err_of(&no_field);
    assert!(e.to_string().contains("has no <field>"), "{e}");

    // The field.
    let e = err_of(&good.replace("EBMBEFDDID", "EBMBEFDDI"));
    assert!(e.to_string().contains("99 characters"), "{e}");
    let e = err_of(&good.replace("EBMBEFDDID", "EBMBEFDDIZ"));
    assert!(e.to_string().contains("'Z' on j1"), "{e}");
    let e = err_of(&good.replace("AA__AA__AAAA__", "AAA_AA__AAAA__"));
    assert!(e.to_string().contains("c5 is a lake"), "{e}");
    // A red Marshal moved to the middle of the board.
    let e = err_of(&good.replace("LDBHFBGDDEAA__", "ADBHFBGDDELA__"));
    assert!(e.to_string().contains("outside red's setup zone"), "{e}");
    // Two red Scouts turned into Miners: the classic army check speaks.
    let e = err_of(&good.replace("LDBHFBGDDE", "LEBHFBGEDE"));
    assert!(
        matches!(e, GravonError::Element { ref element, .. } if element == "field"),
        "{e}"
    );
    assert!(e.to_string().contains("red setup"), "{e}");

    // Moves: the number is named.
    let e = err_of(&good.replace("source=\"E3\" target=\"E4\"", "source=\"E3\" target=\"L4\""));
    assert!(matches!(e, GravonError::Move { number: 13, .. }), "{e}");
    assert!(e.to_string().starts_with("move 13 "), "{e}");
    let e = err_of(&good.replace("<move id=\"5\"", "<move id=\"6\""));
    assert!(matches!(e, GravonError::Move { number: 5, .. }), "{e}");
    let e = err_of(&good.replace("source=\"K4\" target=\"K5\"", "target=\"K5\""));
    assert!(matches!(e, GravonError::Move { number: 15, .. }), "{e}");
    let e = err_of(&good.replace("source=\"K4\" target=\"K5\"", "source=\"K4\" target=\"K4\""));
    assert!(matches!(e, GravonError::Move { number: 15, .. }), "{e}");

    // The result.
    let e = err_of(&good.replace("winner=\"1\"", "winner=\"0\""));
    assert!(e.to_string().contains("winner '0'"), "{e}");
    let e = err_of(&good.replace("type=\"1\" winner", "type=\"7\" winner"));
    assert!(e.to_string().contains("type '7'"), "{e}");
    let e = err_of(&good.replace("winner=\"1\"", "winner=\"3\""));
    assert!(e.to_string().contains("needs a winner"), "{e}");
    let e = err_of(&good.replace(" winner=\"1\"", ""));
    assert!(matches!(e, GravonError::Missing { .. }), "{e}");
}

#[test]
fn write_refuses_what_gravon_cannot_hold() {
    let compact = play(Variant::COMPACT, 1, 10);
    assert!(matches!(gravon::write(&compact), Err(GravonError::Unsupported(_))));
    let custom = Variant::parse("custom:10x10:F=1,B=2,S=1,2=4,3=2,M=1").unwrap();
    let record = play(custom, 1, 10);
    assert!(matches!(gravon::write(&record), Err(GravonError::Unsupported(_))));
    let mut rescue = play(Variant::CLASSIC, 1, 4);
    rescue.moves[2].mv = "a4a5+Mc3".into();
    assert!(matches!(
        gravon::write(&rescue),
        Err(GravonError::Move { number: 3, .. })
    ));
    rescue.moves[2].mv = "nonsense".into();
    assert!(matches!(
        gravon::write(&rescue),
        Err(GravonError::Move { number: 3, .. })
    ));
}

#[test]
fn records_read_from_gravon_can_be_replayed_under_other_rules() {
    let record = gravon::read(&load("classic-flag.xml")).unwrap();
    let (_, end) = record.replay(Some(Rules::default())).unwrap();
    assert_eq!(end.map(|e| e.reason), Some(EndReason::FlagCaptured));
}
