//! `bench`: a fixed set of searches whose node count changes only when the search does
//! (quoted in every commit that changes play), and whose speed is the engine's nps.

use crate::rules::{Position, Rules, Setup, Variant};
use crate::search::{Info, Limits};
use rand::{rngs::StdRng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The node budget of `bench`'s second search of each position.
const BENCH_NODES: u64 = 200_000;

/// The fixed benchmark: from positions of every variant, a depth-limited and a
/// node-limited search with a fixed seed. Returns (nodes, milliseconds); `each` sees
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
        for ply in 0..40 {
            if ply % 10 == 9 {
                let view = pos.view(pos.side_to_move());
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
                    let res = crate::search::think(&view, &limits, Instant::now(), &stop, 1, &mut |i| {
                        done = i.nodes;
                    });
                    nodes += done;
                    each(&res.info);
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.game_end().is_some() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
    }
    (nodes, start.elapsed().as_millis() as u64)
}
