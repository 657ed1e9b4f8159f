//! `bench`: a fixed set of searches whose node count changes only when the search does
//! (quoted in every commit that changes play), and whose speed is the engine's nps.

use crate::belief::Tracker;
use crate::rules::{Color, Position, Rules, Setup, Variant};
use crate::search::{Info, Limits};
use rand::{rngs::StdRng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The node budget of `bench`'s second search of each position.
const BENCH_NODES: u64 = 200_000;

/// The views of both sides: each side's own, and the enemy's view of it as that side can
/// tell it (its own pieces hidden where unseen), as the engine keeps them.
fn views(pos: &Position) -> [(Position, Position); 2] {
    [Color::Red, Color::Blue].map(|c| {
        let own = pos.view(c);
        let theirs = own.view(c.flip());
        (own, theirs)
    })
}

/// The fixed benchmark: from positions of every variant, a depth-limited and a
/// node-limited search with a fixed seed, with the beliefs the engine would hold there
/// (both sides' trackers follow the game). Returns (nodes, milliseconds); `each` sees
/// every search's info.
pub fn bench(mut each: impl FnMut(&Info)) -> (u64, u64) {
    use rand::Rng;
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let mut nodes = 0u64;
    for (i, name) in Variant::BUILT_IN.iter().enumerate() {
        let Ok(v) = Variant::parse(name) else { continue };
        let (r, b) = v.sample_setups();
        let (Ok(red), Ok(blue)) = (Setup::parse(&r, &v), Setup::parse(&b, &v)) else {
            continue;
        };
        let Ok(mut pos) = Position::from_setups(v, Rules::default(), &red, &blue) else {
            continue;
        };
        let mut rng = StdRng::seed_from_u64(i as u64 + 1);
        let mut seen = views(&pos);
        let mut trackers = seen
            .clone()
            .map(|(own, theirs)| (Tracker::new(&own), Tracker::new(&theirs)));
        for ply in 0..40 {
            if ply % 10 == 9 {
                let side = pos.side_to_move().index();
                let (view, theirs) = &seen[side];
                let belief = trackers[side].0.belief(view);
                let exposure = super::exposure_belief(&trackers[side].1, theirs);
                // A fixed depth, and a node budget (as a clock would bound it: past the
                // deepest iteration it buys more sampled worlds).
                for limits in [
                    Limits {
                        depth: Some(3),
                        ..Limits::default()
                    },
                    Limits {
                        nodes: Some(BENCH_NODES),
                        ..Limits::default()
                    },
                ] {
                    // A budget is spent to the node: what counts is where the last
                    // finished iteration or batch of worlds ended.
                    let mut done = 0;
                    let res = crate::search::think_with(
                        view,
                        &belief,
                        Some(&exposure),
                        &limits,
                        Instant::now(),
                        &stop,
                        1,
                        &mut |i| {
                            done = i.nodes;
                        },
                    );
                    nodes += done;
                    each(&res.info);
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.game_end().is_some() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            let pending = [0, 1].map(|c| {
                let (own, theirs) = &seen[c];
                (trackers[c].0.prepare(own, mv), trackers[c].1.prepare(theirs, mv))
            });
            pos.make(mv);
            seen = views(&pos);
            for (c, (a, b)) in pending.into_iter().enumerate() {
                trackers[c].0.commit(a, &seen[c].0);
                trackers[c].1.commit(b, &seen[c].1);
            }
        }
    }
    (nodes, start.elapsed().as_millis() as u64)
}
