//! What the engine remembers of every enemy piece over one game: where it started, which
//! ranks combat outcomes ruled out, and what its behaviour suggests.
//!
//! Pieces are followed by their identity in the view (`Position::id_at`), which stays
//! with a piece while it lives. The tracker sees every move twice: [`Tracker::prepare`]
//! on the view before it (which pieces stood next to which, who moved where) and
//! [`Tracker::commit`] on the view after it (who survived, what was captured unseen).
//!
//! # Behaviour
//! The opponent knows which of our pieces it has seen (`REVEALED`). On every enemy turn
//! each unknown enemy piece X is in one situation, and what it does there depends on its
//! rank; the observation multiplies X's weight of each rank by the likelihood of what it
//! did, a small table by how X fares against our seen piece K (wins, ties, loses; Bombs
//! and Flags always stay put), measured in self-play (see the constants below); in play
//! each likelihood counts at half weight (its square root: `Evidence::FULL`):
//! - **contact** (X next to seen movable pieces; K the strongest): X **flees** (steps
//!   away from K): likelier a rank K would take; X **stays**: a Bomb, or about as likely
//!   any movable rank (a movable piece left next to a seen one moves away or attacks
//!   often enough that staying points to a Bomb);
//! - **near** (a seen piece K two steps away, an empty square between; K the strongest
//!   such, Bombs last): X **approaches** (steps next to K): likelier a rank that beats K
//!   when attacking (higher, the Spy against the Marshal, a Miner against a Bomb); X
//!   does not: slightly likelier one that does not;
//! - **idle** (neither, with an empty square to step to): staying put is likelier for a
//!   Bomb or the Flag (kept for `marshal calibrate`, off in play: see `Evidence::FULL`);
//! - **pursuit** (X steps while a seen movable piece K of ours stands 3 to
//!   `PURSUIT_REACH` steps away, our seen Marshal first): X steps nearer K: likelier a
//!   rank that beats K, more so when X's last move was a step nearer too (a walk); X steps
//!   away from K below a Colonel: likelier a rank K beats.
//!
//! Observations of one piece are far from independent: staying put repeats from turn to
//! turn for reasons that persist (the opponent is busy elsewhere, the piece guards
//! something), and late in a game pieces shuttle next to the same piece again and again.
//! So the `k`-th stay in a row counts `1/k` (idle ones `1/sqrt(k)`), and a piece's `k`-th
//! telling move in a situation (a flight, an approach) counts `1/k`. Without this damping
//! the behaviour made the beliefs worse than the prior alone after ply 300 in
//! calibration; the scales of the channels were checked the same way (0.5x to 2x moved
//! the log-loss by less than 0.002).
//!
//! Combat that leaves the enemy's rank hidden (silent defence) restricts it hard to the
//! ranks that give the observed outcome.
//!
//! # Neighbours
//! A piece whose rank is known (seen, shown as it died, or ruled down to one rank) tells of
//! the pieces that started next to it: their weights are multiplied by the setup prior's
//! pair factors (`Prior::pair`, classic). And the Spy is looked for next to the enemy
//! General wherever it stands (`SPY_BY_GENERAL`).

use super::prior::Prior;
use super::{Belief, RankMask, ALL_RANKS, MOVABLE, NOT_FLAG};
use crate::rules::piece::{resolve_combat, NUM_RANKS};
use crate::rules::position::{MOVED, REVEALED};
use crate::rules::square::DIRS;
use crate::rules::{Color, Combat, Move, Position, Rank, Square, Variant};

/// Piece identities a position can hand out.
const IDS: usize = 128;

/// How X fares when it attacks K: beats it, ties, loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fare {
    Wins = 0,
    Ties = 1,
    Loses = 2,
}

// The likelihood tables: how often an unknown piece did something in a situation, by how
// it fares against our seen piece (index `Fare`), measured in self-play (`marshal
// calibrate --events`, 40 classic games of seed 1000: P(flee | free contact) 0.018 /
// 0.072 / 0.414, P(stay) 0.565 / 0.719 / 0.573, blocked 0.41 / 0.78 / 0.995, P(approach |
// near) 0.249 / 0.033 / 0.042, P(not) 0.751 / 0.967 / 0.958). Bombs and Flags always
// stay (likelihood 1), so the stay tables are raw probabilities; the move tables only
// compare movable ranks and are scaled to a maximum of 1.

/// Stepping away from the strongest seen piece next to it, by how it fares when that
/// piece attacks it.
const FLEE: [f32; 3] = [0.05, 0.18, 1.0];
/// Staying next to it with an empty square to step to, by the same.
const STAY_FREE: [f32; 3] = [0.57, 0.72, 0.57];
/// Staying next to it without an empty square to step to (it might still attack).
const STAY_BLOCKED: [f32; 3] = [0.41, 0.78, 0.99];
/// Stepping next to a seen piece two steps away, by how it fares attacking it. Sharper
/// than self-play measured (0.15, 0.17 for ties and losses): our own search walks up to
/// seen pieces in worlds where it guessed wrong, other programs seldom do. Against the UCC
/// 2012 winner the unseen piece that stepped next to our seen Colonel or General took it
/// on its next move 82 times in 240 games.
const APPROACH: [f32; 3] = [1.0, 0.04, 0.04];
/// Not stepping next to it, by the same.
const NEAR_STAY: [f32; 3] = [0.75, 0.97, 0.96];

/// Stepping nearer a seen piece of ours 3 to `PURSUIT_REACH` steps away (Manhattan, the
/// nearest such, ties to the strongest), by how it fares attacking it: a walk at a seen
/// piece is made by what beats it. Measured on 608 real games against the UCC 2012 AIs
/// (per enemy turn, unseen movable pieces): [1, 0.58, 0.41] for any seen piece, [1, 0.27,
/// 0.16] for a seen General or Colonel, the same order against every program but one
/// (which walks at random). Pieces that walked 4-6 steps at our seen General stayed
/// 2-12% Marshal and the General stepped next to them and died (2 of 4 losses to hunter
/// in 15 games). A walk at our seen Marshal counts as one at a General or Colonel (only
/// the Spy beats it, only their Marshal ties), and it is the piece watched when it is in
/// reach, nearest or not: a piece walked five steps straight at our seen Marshal, rated
/// 0.7% Spy because every step was scored against our nearer Scout or Captain or not at
/// all, and took the Marshal that stepped next to it to capture it (hunter).
const PURSUE: [f32; 3] = [1.0, 0.6, 0.4];
const PURSUE_TOP: [f32; 3] = [1.0, 0.3, 0.15];
/// Stepping away from such a piece below a Colonel (measured [0.46, 0.76, 1]; for a
/// General or Colonel it tells nothing).
const RETREAT: [f32; 3] = [0.5, 0.75, 1.0];
/// A further step of a walk: the piece's last move was also a step nearer the seen piece
/// nearest it (measured [1, 0.76, 0.45] on the same games: the next move of a piece that
/// stepped nearer steps nearer again 80%, 61%, 36% of the time). Not damped: the steps
/// of one walk are what tells.
const WALK: [f32; 3] = [1.0, 0.75, 0.45];
/// How far (Manhattan) a seen piece of ours is watched for walks at it.
const PURSUIT_REACH: u32 = 6;

/// How much likelier the Spy is on a hidden enemy piece next to the enemy General (tip T6:
/// the Spy covers the General against our Marshal): one that stands next to the General
/// now, and, where the variant has no pair table (`Prior::pair`, which says it for
/// classic), one that started next to the General's start square. In the human classic
/// setups the Spy starts next to the General in 43% of the held-out lines, where the setup
/// styles alone give the General's neighbours 15% (they weigh each slot apart); 4.3 lifts
/// 15% to 43%. In 550 games against Demon of Ignorance (seeds 27-36) our Marshal took the
/// General beside hidden pieces 39 times, the Spy among them 18 times (our belief in a Spy
/// among them summed 4.8 over the 39), and the Spy took our Marshal each time; in 9 of
/// those 18 the General had left its start square.
const SPY_BY_GENERAL: f64 = 4.3;

/// Chance per enemy turn that an unknown movable piece with nothing of ours in sight
/// moves, if it can (self-play: 0.034 for the Spy to 0.058 for a Major, 0.047 overall).
const IDLE_MOVE: f32 = 0.047;

/// The log-likelihood of an idle piece staying put: movable ranks `1 - IDLE_MOVE`.
fn idle_stay() -> [f32; NUM_RANKS] {
    let mut out = [0f32; NUM_RANKS];
    for r in Rank::ALL.iter().filter(|r| r.is_movable()) {
        out[r.index()] = (1.0 - IDLE_MOVE).ln();
    }
    out
}

/// Which kinds of knowledge a belief uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evidence {
    /// Weigh ranks by the setup prior of each piece's start square.
    pub prior: bool,
    /// Mix the setup styles by what the game has shown of the setup (where the variant has
    /// them; `prior::Mixture`).
    pub styles: bool,
    /// Weigh ranks by behaviour: the log-likelihoods of each channel (`CHANNELS`) are
    /// multiplied by these (0 = off).
    pub behaviour: [f32; CHANNELS],
}

/// Behaviour channels: next to a seen piece, two steps from one, neither, a step at or
/// away from one farther off, the further steps of a walk at one.
pub const CHANNELS: usize = 5;
const CONTACT: usize = 0;
const NEAR: usize = 1;
const IDLE: usize = 2;
const PURSUIT: usize = 3;
const WALK_ON: usize = 4;

impl Evidence {
    /// What the engine plays with: everything but the idle channel. Replayed over 607
    /// real games against the six UCC 2012 AIs (`marshal calibrate --records ... --follow
    /// marshal`), the idle channel made the beliefs worse than the prior alone (log-loss
    /// 1.7553 with it, 1.7299 without, the prior 1.7510; without it better against five of
    /// the six programs, most against hunter, 1.906 to 1.820): the rate at which an unmoved
    /// piece moves was measured in self-play, and other programs leave many movable
    /// pieces unmoved all game. The other channels count half: replayed over 214 games
    /// against Demon of Ignorance, over a third of whose approaches by unseen pieces were
    /// by weaker pieces, they made the beliefs worse than the prior alone at full weight
    /// (1.7940 against 1.7832) and better at half (1.7788); over 160 games against the UCC
    /// 2012 AIs half beats full too (1.7684 against 1.7730).
    pub const FULL: Evidence = Evidence {
        prior: true,
        styles: true,
        behaviour: [0.5, 0.5, 0.0, 0.5, 0.5],
    };
    /// The setup prior and the hard constraints, no behaviour.
    pub const PRIOR: Evidence = Evidence {
        prior: true,
        styles: true,
        behaviour: [0.0; CHANNELS],
    };
}

/// One enemy piece as the tracker knows it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Info {
    /// Whether this identity belongs to an enemy piece of this game.
    known: bool,
    start: Square,
    /// Ranks not ruled out by combat outcomes.
    mask: RankMask,
    /// The setup prior of its start square.
    prior: [f32; NUM_RANKS],
    /// Its rank, once a fight showed it as it died.
    dead_rank: Option<Rank>,
    /// Summed log-likelihood of its behaviour per rank, by channel.
    log: [[f32; NUM_RANKS]; CHANNELS],
    /// Enemy turns in a row it has stayed put (see the module docs on damping).
    run: u16,
    /// Moves it made so far that told something, per channel.
    moves: [u16; CHANNELS],
    /// Whether its last move was a step nearer the seen piece of ours nearest it.
    walking: bool,
}

const BLANK: Info = Info {
    known: false,
    start: Square::from_index(0),
    mask: ALL_RANKS,
    prior: [1.0; NUM_RANKS],
    dead_rank: None,
    log: [[0.0; NUM_RANKS]; CHANNELS],
    run: 0,
    moves: [0; CHANNELS],
    walking: false,
};

/// What an unknown enemy piece did on the enemy's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Attacked one of our pieces (the fight reveals it).
    Attack,
    /// Moved away from the strongest seen piece next to it.
    Flee,
    /// Moved but stayed next to that piece.
    Shift,
    /// Did not move.
    Stay,
}

/// A situation of an unknown enemy piece on the enemy's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Next to seen pieces of ours that can move: the strongest and the weakest of them,
    /// and whether it had an empty square to step to.
    Contact {
        strongest: Rank,
        weakest: Rank,
        free: bool,
        action: Action,
    },
    /// Two steps from a seen piece of ours (the strongest such, Bombs last) with an empty
    /// square between; whether it stepped next to it.
    Near { target: Rank, approached: bool },
    /// Neither, with an empty square to step to; whether it moved (without attacking).
    Idle { moved: bool },
    /// It stepped (one square, not attacking) and a seen movable piece of ours stood 3 to
    /// `PURSUIT_REACH` steps away (the nearest, ties to the strongest): whether the step
    /// took it nearer, and whether its last move had too (`WALK`).
    Pursuit { target: Rank, nearer: bool, walking: bool },
}

/// One behaviour observation: which piece (identity and square before the move) and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub id: u8,
    pub square: Square,
    pub kind: Kind,
}

/// What `prepare` saw before a move, for `commit`.
#[derive(Clone, Debug)]
pub struct Pending {
    mv: Move,
    /// Whether the mover is the enemy.
    enemy_moved: bool,
    mover_id: u8,
    mover_rank: Rank,
    /// The defender's identity and rank, for attacks.
    target: Option<(u8, Rank)>,
    captured_unknown: u8,
    /// The enemy's captured pieces by rank (`Rank::index()`), before the move.
    captured_before: [u8; NUM_RANKS],
    /// Behaviour log-likelihoods to add: identity, channel, per rank, whether the piece
    /// stayed.
    events: Vec<(u8, usize, [f32; NUM_RANKS], bool)>,
    /// The enemy piece that stepped, and whether it stepped nearer our nearest seen piece.
    walk: Option<(u8, bool)>,
}

/// The enemy pieces of one game as one player follows them.
#[derive(Clone, Debug)]
pub struct Tracker {
    us: Color,
    variant: Variant,
    /// The setup prior (for its styles).
    prior: std::sync::Arc<Prior>,
    pieces: Vec<Info>,
    /// Identities of the enemy pieces captured unseen, in order of capture.
    captured: Vec<u8>,
}

/// The squares next to `sq` on the board.
fn neighbours(v: &Variant, sq: Square) -> impl Iterator<Item = Square> + '_ {
    let i = sq.index() as isize;
    DIRS.into_iter()
        .filter_map(move |d| {
            let j = i + d as isize;
            (j >= 0).then(|| Square::from_index(j as usize))
        })
        .filter(move |s| v.is_playable(*s))
}

/// The squares two steps from `sq` on the board.
fn two_steps(v: &Variant, sq: Square) -> impl Iterator<Item = Square> + '_ {
    const OFFSETS: [(i8, i8); 8] = [(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)];
    OFFSETS.into_iter().filter_map(move |(df, dr)| {
        let (f, r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        let ok = f >= 0 && r >= 0 && (f as u8) < v.files && (r as u8) < v.ranks;
        ok.then(|| Square::new(f as u8, r as u8)).filter(|s| !v.is_lake(*s))
    })
}

/// The likelihood table `t` as log-likelihoods per rank of X against K, by `fare(r)`.
fn table(t: &[f32; 3], fare: impl Fn(Rank) -> Option<Fare>) -> [f32; NUM_RANKS] {
    let mut out = [0f32; NUM_RANKS];
    for r in Rank::ALL {
        if let Some(f) = fare(r) {
            out[r.index()] = t[f as usize].ln();
        }
    }
    out
}

fn fare_of(c: Combat) -> Fare {
    match c {
        Combat::AttackerWins | Combat::FlagCaptured => Fare::Wins,
        Combat::BothDie => Fare::Ties,
        Combat::DefenderWins => Fare::Loses,
    }
}

impl Tracker {
    /// Starts following the enemy pieces of `view` (a player's view, usually at ply 0:
    /// every enemy piece's current square is taken as its start square).
    pub fn new(view: &Position) -> Tracker {
        let v = *view.variant();
        let us = view.view_of().unwrap_or(view.side_to_move());
        let them = us.flip();
        let prior = Prior::for_variant(&v);
        let mut pieces = vec![BLANK; IDS];
        for sq in v.squares() {
            let Some(p) = view.piece_at(sq).filter(|p| p.color() == them) else {
                continue;
            };
            let id = view.id_at(sq) as usize;
            if id >= IDS {
                continue;
            }
            let mask = if p.rank() == Rank::Unknown {
                ALL_RANKS
            } else {
                1 << p.rank().index()
            };
            pieces[id] = Info {
                known: true,
                start: sq,
                mask,
                prior: prior.at(them, sq, &v),
                dead_rank: None,
                log: [[0.0; NUM_RANKS]; CHANNELS],
                run: 0,
                moves: [0; CHANNELS],
                walking: false,
            };
        }
        Tracker {
            us,
            variant: v,
            prior,
            pieces,
            captured: Vec::new(),
        }
    }

    /// The colour whose view this tracker follows.
    pub fn color(&self) -> Color {
        self.us
    }

    /// Where the enemy piece now on `sq` of `view` started, if it is followed.
    pub fn start_of(&self, view: &Position, sq: Square) -> Option<Square> {
        let info = self.pieces.get(view.id_at(sq) as usize)?;
        info.known.then_some(info.start)
    }

    /// Looks at the view before `mv` is played on it.
    pub fn prepare(&self, view: &Position, mv: Move) -> Pending {
        let (from, to) = (mv.from(), mv.to());
        let them = self.us.flip();
        let mover = view.piece_at(from);
        let target = view.piece_at(to).map(|p| (view.id_at(to), p.rank()));
        let enemy_moved = mover.is_some_and(|p| p.color() == them);
        let mut pending = Pending {
            mv,
            enemy_moved,
            mover_id: view.id_at(from),
            mover_rank: mover.map_or(Rank::Unknown, |p| p.rank()),
            target,
            captured_unknown: view.captured(them, Rank::Unknown),
            captured_before: Rank::ALL.map(|r| view.captured(them, r)),
            events: Vec::new(),
            walk: None,
        };
        if enemy_moved && view.view_of() == Some(self.us) {
            for o in self.observations(view, mv) {
                if let Kind::Pursuit { nearer, .. } = o.kind {
                    pending.walk = Some((o.id, nearer));
                }
                let (channel, log, passive) = Self::likelihood(&o, view.rules().attacker_advantage);
                if log.iter().any(|x| *x != 0.0) {
                    pending.events.push((o.id, channel, log, passive));
                }
            }
        }
        pending
    }

    /// Our pieces next to `sq` that the enemy has seen (excluding `skip`), with their ranks.
    fn seen_neighbours(&self, view: &Position, sq: Square, skip: Square) -> Vec<(Square, Rank)> {
        let us = self.us;
        neighbours(&self.variant, sq)
            .filter(|&n| n != skip)
            .filter_map(|n| {
                let p = view.piece_at(n)?;
                (p.color() == us && view.flags_at(n) & REVEALED != 0).then_some((n, p.rank()))
            })
            .collect()
    }

    /// What the enemy's move `mv` shows of its unknown pieces near our seen ones (see the
    /// module docs), in board order.
    pub fn observations(&self, view: &Position, mv: Move) -> Vec<Observation> {
        let v = &self.variant;
        let them = self.us.flip();
        let (from, to) = (mv.from(), mv.to());
        let attack = view.piece_at(to).is_some();
        let strength = |k: Rank| if k == Rank::Bomb { 0 } else { k as u8 + 1 };
        let mut out = Vec::new();
        for sq in v.squares() {
            let Some(p) = view.piece_at(sq) else { continue };
            if p.color() != them || p.rank() != Rank::Unknown {
                continue;
            }
            let id = view.id_at(sq);
            let seen = self.seen_neighbours(view, sq, sq);
            let threats = seen.iter().filter(|(_, k)| k.is_movable());
            let strongest = threats.clone().max_by_key(|(_, k)| *k as u8).copied();
            let weakest = threats.min_by_key(|(_, k)| *k as u8).copied();
            let moved_it = sq == from;
            if let (Some((ks, k)), Some((_, w))) = (strongest, weakest) {
                let action = if !moved_it {
                    Action::Stay
                } else if attack {
                    Action::Attack
                } else if to.is_adjacent(ks) {
                    Action::Shift
                } else {
                    Action::Flee
                };
                let free = neighbours(v, sq).any(|n| view.piece_at(n).is_none());
                out.push(Observation {
                    id,
                    square: sq,
                    kind: Kind::Contact {
                        strongest: k,
                        weakest: w,
                        free,
                        action,
                    },
                });
            }
            // Our seen pieces two steps away with an empty square between: the strongest.
            let near = two_steps(v, sq)
                .filter_map(|n| {
                    let q = view.piece_at(n)?;
                    (q.color() == self.us && view.flags_at(n) & REVEALED != 0).then_some((n, q.rank()))
                })
                .filter(|&(n, _)| neighbours(v, sq).any(|m| m.is_adjacent(n) && view.piece_at(m).is_none()))
                .max_by_key(|&(_, k)| strength(k));
            if let Some((ns, k)) = near {
                let approached = moved_it && !attack && to.is_adjacent(ns);
                out.push(Observation {
                    id,
                    square: sq,
                    kind: Kind::Near { target: k, approached },
                });
            } else if strongest.is_none()
                && !(moved_it && attack)
                && neighbours(v, sq).any(|n| view.piece_at(n).is_none())
            {
                out.push(Observation {
                    id,
                    square: sq,
                    kind: Kind::Idle { moved: moved_it },
                });
                if moved_it && from.is_adjacent(to) {
                    if let Some((ks, k)) = self.nearest_seen(view, sq) {
                        out.push(Observation {
                            id,
                            square: sq,
                            kind: Kind::Pursuit {
                                target: k,
                                nearer: to.distance(ks) < sq.distance(ks),
                                walking: self.pieces.get(id as usize).is_some_and(|i| i.walking),
                            },
                        });
                    }
                }
            }
        }
        out
    }

    /// The seen movable piece of ours a step from `sq` is scored against: our seen Marshal
    /// if it stands 3 to `PURSUIT_REACH` steps away, else the nearest (Manhattan, ties to
    /// the strongest) if that one does.
    fn nearest_seen(&self, view: &Position, sq: Square) -> Option<(Square, Rank)> {
        let in_reach = |n: Square| (3..=PURSUIT_REACH).contains(&sq.distance(n));
        self.variant
            .squares()
            .filter_map(|n| {
                let p = view.piece_at(n)?;
                (p.color() == self.us && p.rank().is_movable() && view.flags_at(n) & REVEALED != 0)
                    .then_some((n, p.rank()))
            })
            .min_by_key(|&(n, k)| {
                let marshal_in_reach = k == Rank::Marshal && in_reach(n);
                (!marshal_in_reach, sq.distance(n), std::cmp::Reverse(k as u8))
            })
            .filter(|&(n, _)| in_reach(n))
    }

    /// The log-likelihood per rank of one observation, and whether the piece stayed put.
    /// (`aa`: the attacker-advantage rule.)
    fn likelihood(o: &Observation, aa: bool) -> (usize, [f32; NUM_RANKS], bool) {
        // How X of rank r fares attacking K, and when K attacks it.
        let attacks = move |k: Rank| {
            move |r: Rank| (r.is_movable() && k != Rank::Flag).then(|| fare_of(resolve_combat(r, k, aa)))
        };
        let defends = move |k: Rank| {
            move |r: Rank| {
                (r.is_movable() && k.is_movable()).then(|| match resolve_combat(k, r, aa) {
                    Combat::AttackerWins | Combat::FlagCaptured => Fare::Loses,
                    Combat::BothDie => Fare::Ties,
                    Combat::DefenderWins => Fare::Wins,
                })
            }
        };
        match o.kind {
            Kind::Contact {
                strongest,
                free,
                action,
                ..
            } => match action {
                Action::Attack | Action::Shift => (CONTACT, [0.0; NUM_RANKS], false),
                Action::Flee => (CONTACT, table(&FLEE, defends(strongest)), false),
                Action::Stay => {
                    let t = if free { &STAY_FREE } else { &STAY_BLOCKED };
                    (CONTACT, table(t, defends(strongest)), true)
                }
            },
            Kind::Near { target, approached } => {
                if approached {
                    (NEAR, table(&APPROACH, attacks(target)), false)
                } else {
                    (NEAR, table(&NEAR_STAY, attacks(target)), true)
                }
            }
            Kind::Idle { moved: true } => (IDLE, [0.0; NUM_RANKS], false),
            Kind::Idle { moved: false } => (IDLE, idle_stay(), true),
            Kind::Pursuit {
                target,
                nearer: true,
                walking,
            } => {
                let top = target >= Rank::Colonel;
                match (walking, top) {
                    (true, _) => (WALK_ON, table(&WALK, attacks(target)), false),
                    (false, true) => (PURSUIT, table(&PURSUE_TOP, attacks(target)), false),
                    (false, false) => (PURSUIT, table(&PURSUE, attacks(target)), false),
                }
            }
            Kind::Pursuit {
                target, nearer: false, ..
            } if target < Rank::Colonel => (PURSUIT, table(&RETREAT, attacks(target)), false),
            Kind::Pursuit { .. } => (PURSUIT, [0.0; NUM_RANKS], false),
        }
    }

    /// Learns from the view after the move that `pending` prepared.
    pub fn commit(&mut self, pending: Pending, after: &Position) {
        if pending.enemy_moved {
            let mut stayed = [false; IDS];
            for &(id, channel, ref log, passive) in &pending.events {
                let Some(info) = self.pieces.get_mut(id as usize) else {
                    continue;
                };
                let k = info.run as f32 + 1.0;
                let weight = match (passive, channel) {
                    (false, WALK_ON) => 1.0,
                    (false, _) => {
                        info.moves[channel] = info.moves[channel].saturating_add(1);
                        1.0 / info.moves[channel] as f32
                    }
                    (true, IDLE) => 1.0 / k.sqrt(),
                    (true, _) => 1.0 / k,
                };
                if passive {
                    stayed[id as usize] = true;
                }
                for (x, y) in info.log[channel].iter_mut().zip(log) {
                    *x += weight * y;
                }
            }
            for (info, &s) in self.pieces.iter_mut().zip(&stayed) {
                info.run = if s { info.run.saturating_add(1) } else { 0 };
            }
            if let Some(info) = self.pieces.get_mut(pending.mover_id as usize) {
                info.walking = pending.walk == Some((pending.mover_id, true));
            }
        }
        let them = self.us.flip();
        let mv = pending.mv;
        let cap_now = after.captured(them, Rank::Unknown);
        if let Some((tid, trank)) = pending.target {
            let to = mv.to();
            let mover_color = if pending.enemy_moved { them } else { self.us };
            let outcome = match after.piece_at(to) {
                Some(p) if p.color() == mover_color && after.id_at(to) == pending.mover_id => Combat::AttackerWins,
                Some(_) => Combat::DefenderWins,
                None => Combat::BothDie,
            };
            // The enemy piece in the fight and our piece's rank.
            let (eid, ours, enemy_attacked) = if pending.enemy_moved {
                (pending.mover_id, trank, true)
            } else {
                (tid, pending.mover_rank, false)
            };
            let aa = after.rules().attacker_advantage;
            let fits: RankMask = Rank::ALL
                .iter()
                .filter(|&&r| {
                    let c = if enemy_attacked {
                        resolve_combat(r, ours, aa)
                    } else {
                        resolve_combat(ours, r, aa)
                    };
                    c == outcome
                })
                .fold(0, |m, r| m | (1 << r.index()));
            let survived = match outcome {
                Combat::AttackerWins | Combat::FlagCaptured => enemy_attacked,
                Combat::DefenderWins => !enemy_attacked,
                Combat::BothDie => false,
            };
            if let Some(info) = self.pieces.get_mut(eid as usize) {
                if ours != Rank::Unknown && fits != 0 {
                    info.mask &= fits;
                }
                if survived {
                    if let Some(p) = after.piece_at(to) {
                        if p.rank() != Rank::Unknown {
                            info.mask = 1 << p.rank().index();
                        }
                    }
                }
            }
            if !survived && cap_now > pending.captured_unknown {
                self.captured.push(eid);
            } else if !survived {
                // It died seen: the rank whose count of captured pieces grew.
                let shown = Rank::ALL
                    .into_iter()
                    .find(|&r| after.captured(them, r) > pending.captured_before[r.index()]);
                if let Some(info) = self.pieces.get_mut(eid as usize) {
                    info.dead_rank = shown;
                }
            }
        }
        if cap_now < pending.captured_unknown {
            // A rescue brought back a piece captured unseen: forget one that could be it.
            let r = mv.rescue().map(|(r, _)| r);
            let pos = self
                .captured
                .iter()
                .position(|&id| {
                    r.is_some_and(|r| {
                        self.pieces
                            .get(id as usize)
                            .is_some_and(|i| i.mask & (1 << r.index()) != 0)
                    })
                })
                .unwrap_or(0);
            if !self.captured.is_empty() {
                self.captured.remove(pos);
            }
        }
    }

    /// Plays the observation of `mv` from `before` to `after` (both views of our colour).
    pub fn observe(&mut self, before: &Position, mv: Move, after: &Position) {
        let p = self.prepare(before, mv);
        self.commit(p, after);
    }

    /// What the tracker believes of the hidden ranks of `view` (the view it followed).
    pub fn belief(&self, view: &Position) -> Belief {
        self.belief_with(view, Evidence::FULL)
    }

    /// A belief from some kinds of evidence only (for calibration).
    pub fn belief_with(&self, view: &Position, e: Evidence) -> Belief {
        let mut b = Belief::from_view(view);
        if !b.has_hidden() {
            return b;
        }
        let v = &self.variant;
        let size = v.army_size().max(1) as f32;
        let mut army = [0f32; NUM_RANKS];
        for r in Rank::ALL {
            army[r.index()] = v.army[r.index()] as f32 / size;
        }
        let styled = if e.prior && e.styles {
            self.styled_priors(view)
        } else {
            Vec::new()
        };
        let weigh = |info: Option<&Info>, id: usize| -> (RankMask, [f64; NUM_RANKS]) {
            let Some(info) = info.filter(|i| i.known) else {
                return (ALL_RANKS, army.map(|x| x as f64));
            };
            let base = if !e.prior {
                [1.0; NUM_RANKS]
            } else {
                styled.get(id).copied().flatten().unwrap_or(info.prior)
            };
            let mut w = [0f64; NUM_RANKS];
            if e.behaviour.iter().any(|&b| b != 0.0) {
                let mut log = [0f32; NUM_RANKS];
                for (c, &scale) in e.behaviour.iter().enumerate() {
                    for (x, y) in log.iter_mut().zip(&info.log[c]) {
                        *x += scale * y;
                    }
                }
                let top = log.iter().copied().fold(f32::MIN, f32::max);
                for k in 0..NUM_RANKS {
                    w[k] = base[k] as f64 * ((log[k] - top) as f64).exp();
                }
            } else {
                for k in 0..NUM_RANKS {
                    w[k] = base[k] as f64;
                }
            }
            (info.mask, w)
        };
        // The enemy pieces of known rank: start square, rank, square while on the board.
        let known = if e.prior { self.known_ranks(view) } else { Vec::new() };
        let general = known
            .iter()
            .find(|k| k.1 == Rank::General)
            .map(|&(start, _, at)| (start, at));
        let by_general = |id: usize, now: Option<Square>, w: &mut [f64; NUM_RANKS]| {
            let Some((start, at)) = general else {
                return;
            };
            let Some(info) = self.pieces.get(id).filter(|i| i.known) else {
                return;
            };
            // Where the setup pairs speak of the start squares, they say it (`pairs`).
            let started_next = info.start.distance(start) == 1;
            let near = (started_next && !self.prior.has_pairs())
                || (!started_next && matches!((now, at), (Some(n), Some(a)) if n.distance(a) == 1));
            if near {
                w[Rank::Spy.index()] *= SPY_BY_GENERAL;
            }
        };
        // What they say of the pieces that started next to them (`Prior::pair`).
        let pairs = |id: usize, w: &mut [f64; NUM_RANKS]| {
            let Some(info) = self.pieces.get(id).filter(|i| i.known && self.prior.has_pairs()) else {
                return;
            };
            for &(_, r, _) in known.iter().filter(|(s, _, _)| s.distance(info.start) == 1) {
                for (k, x) in w.iter_mut().enumerate() {
                    *x *= self.prior.pair(r, k) as f64;
                }
            }
        };
        let mut rows: Vec<(RankMask, [f64; NUM_RANKS])> = b
            .unknown
            .iter()
            .map(|&(sq, _)| {
                let id = view.id_at(sq) as usize;
                let (m, mut w) = weigh(self.pieces.get(id), id);
                by_general(id, Some(sq), &mut w);
                pairs(id, &mut w);
                (m, w)
            })
            .collect();
        let n = b.captured_unknown as usize;
        let skip = self.captured.len().saturating_sub(n);
        for i in 0..n {
            let id = self.captured.get(skip + i).map_or(usize::MAX, |&id| id as usize);
            let (m, mut w) = weigh(self.pieces.get(id), id);
            by_general(id, None, &mut w);
            pairs(id, &mut w);
            rows.push((m & NOT_FLAG, w));
        }
        b.set_rows(rows);
        b
    }

    /// The start square, rank and (while on the board) square of every followed enemy piece
    /// whose rank is known: seen on the board, shown as it died, or ruled down to one rank
    /// by fights.
    fn known_ranks(&self, view: &Position) -> Vec<(Square, Rank, Option<Square>)> {
        let them = self.us.flip();
        let mut out = Vec::new();
        let mut on_board = [false; IDS];
        for sq in self.variant.squares() {
            let Some(p) = view.piece_at(sq).filter(|p| p.color() == them) else {
                continue;
            };
            let id = view.id_at(sq) as usize;
            let Some(info) = self.pieces.get(id).filter(|i| i.known) else {
                continue;
            };
            on_board[id] = true;
            let rank = if p.rank() != Rank::Unknown {
                Some(p.rank())
            } else if info.mask.count_ones() == 1 {
                Rank::from_index(info.mask.trailing_zeros() as usize)
            } else {
                None
            };
            out.extend(rank.map(|r| (info.start, r, Some(sq))));
        }
        for (id, info) in self.pieces.iter().enumerate() {
            if info.known && !on_board[id] {
                out.extend(info.dead_rank.map(|r| (info.start, r, None)));
            }
        }
        out
    }

    /// Each followed piece's prior from the setup styles (by identity; `None` where the
    /// variant has no styles or the piece started outside the zone): the styles weighed by
    /// what the game has shown of the other pieces' start squares (seen ranks, moved
    /// pieces no Bomb or Flag, pieces captured unseen no Flag, ranks ruled out in fights),
    /// the piece's own showing left out, since its belief weighs that itself.
    fn styled_priors(&self, view: &Position) -> Vec<Option<[f32; NUM_RANKS]>> {
        let Some(mix) = self.prior.mixture() else {
            return Vec::new();
        };
        let v = &self.variant;
        let them = self.us.flip();
        // What is known of each followed piece: its slot and the ranks it may have.
        let mut known: Vec<Option<(usize, RankMask)>> = self
            .pieces
            .iter()
            .map(|i| {
                let slot = i.known.then(|| self.prior.slot_index(them, i.start, v)).flatten()?;
                Some((slot, i.dead_rank.map_or(i.mask, |r| 1 << r.index())))
            })
            .collect();
        let mut on_board = vec![false; known.len()];
        for sq in v.squares() {
            let Some(p) = view.piece_at(sq).filter(|p| p.color() == them) else {
                continue;
            };
            let id = view.id_at(sq) as usize;
            if let Some(Some((_, mask))) = known.get_mut(id) {
                on_board[id] = true;
                if p.rank() != Rank::Unknown {
                    *mask = 1 << p.rank().index();
                } else if view.flags_at(sq) & MOVED != 0 {
                    *mask &= MOVABLE;
                }
            }
        }
        for &id in &self.captured {
            if let Some(Some((_, mask))) = known.get_mut(id as usize) {
                *mask &= NOT_FLAG;
            }
        }
        // A mask that rules nothing out tells nothing (an empty one is a contradiction).
        let tells = |m: RankMask| m != ALL_RANKS && m != 0;
        let facts: Vec<(usize, RankMask)> = known.iter().flatten().copied().filter(|&(_, m)| tells(m)).collect();
        let all = mix.log_weights(&facts);
        known
            .iter()
            .enumerate()
            .map(|(id, k)| {
                let &(slot, mask) = k.as_ref()?;
                // Only the hidden pieces have a belief to weigh: those on the board and
                // those captured unseen, whose rank is not known.
                if mask.count_ones() == 1 || (!on_board[id] && !self.captured.contains(&(id as u8))) {
                    return None;
                }
                let own = tells(mask);
                let w: Vec<f64> = all
                    .iter()
                    .enumerate()
                    .map(|(s, &lw)| if own { lw - mix.fact(s, slot, mask) } else { lw })
                    .collect();
                Some(mix.at(&w, slot))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::MOVED;
    use crate::rules::{Piece, Rules};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// A duel view of Red: our pieces (square, rank, seen by Blue), Blue's ten unknown
    /// pieces on `theirs` (all in Blue's zone), Blue to move.
    fn duel_view(rules: Rules, ours: &[(&str, Rank, bool)], theirs: &[&str]) -> Position {
        let mut pos = Position::empty(Variant::DUEL, rules);
        pos.set_view_of(Some(Color::Red));
        for &(s, r, seen) in ours {
            let flags = if seen { MOVED | REVEALED } else { 0 };
            pos.put(sq(s), Piece::new(Color::Red, r), flags).unwrap();
        }
        assert_eq!(theirs.len(), Variant::DUEL.army_size());
        for s in theirs {
            pos.put(sq(s), Piece::new(Color::Blue, Rank::Unknown), 0).unwrap();
        }
        pos.side = Color::Blue;
        pos
    }

    const BLUE: [&str; 10] = ["a10", "b10", "c10", "e7", "g8", "h8", "i8", "j8", "a7", "j7"];

    fn marginal(b: &Belief, at: &str) -> [f64; NUM_RANKS] {
        b.marginals()
            .into_iter()
            .find(|(s, _)| *s == Some(sq(at)))
            .map(|(_, p)| p)
            .unwrap()
    }

    /// Blue plays `mv` (a quiet move) in `view`, observed by `t`.
    fn blue_moves(t: &mut Tracker, view: &mut Position, mv: &str) {
        let mv = Move::parse(mv).unwrap();
        let p = t.prepare(view, mv);
        view.make_observed(mv, None, (None, None));
        t.commit(p, view);
    }

    /// With our `rank` on `at` (seen by Blue or not) and our Flag on a1, Blue plays the
    /// one-step `mv`: the moving piece's probabilities before and after.
    fn one_step(at: &str, rank: Rank, seen: bool, mv: &str) -> ([f64; NUM_RANKS], [f64; NUM_RANKS]) {
        let mut view = duel_view(Rules::default(), &[(at, rank, seen), ("a1", Rank::Flag, false)], &BLUE);
        let mut t = Tracker::new(&view);
        let before = marginal(&t.belief(&view), &mv[..2]);
        blue_moves(&mut t, &mut view, mv);
        (before, marginal(&t.belief(&view), &mv[2..]))
    }

    /// With `ours` on the board (square, rank, seen by Blue), Blue's e7 walks e7-e6-e5: its
    /// probabilities on e7, e6 and e5.
    fn walk_e7_e5(ours: &[(&str, Rank, bool)]) -> [[f64; NUM_RANKS]; 3] {
        let mut view = duel_view(Rules::default(), ours, &BLUE);
        let mut t = Tracker::new(&view);
        let before = marginal(&t.belief(&view), "e7");
        blue_moves(&mut t, &mut view, "e7e6");
        let one = marginal(&t.belief(&view), "e6");
        view.side = Color::Blue;
        blue_moves(&mut t, &mut view, "e6e5");
        [before, one, marginal(&t.belief(&view), "e5")]
    }

    #[test]
    fn the_spy_is_looked_for_next_to_the_seen_general() {
        // Blue's General seen from the start on g8 (next to h8) or on a10 (next to b10):
        // the Spy's share at h8 and at b10.
        let spy = Rank::Spy.index();
        let shares = |general: &str| {
            let mut view = Position::empty(Variant::DUEL, Rules::default());
            view.set_view_of(Some(Color::Red));
            view.put(sq("a1"), Piece::new(Color::Red, Rank::Flag), 0).unwrap();
            for s in BLUE {
                let (rank, flags) = if s == general {
                    (Rank::General, REVEALED)
                } else {
                    (Rank::Unknown, 0)
                };
                view.put(sq(s), Piece::new(Color::Blue, rank), flags).unwrap();
            }
            let b = Tracker::new(&view).belief(&view);
            (marginal(&b, "h8")[spy], marginal(&b, "b10")[spy])
        };
        let (g8_h8, g8_b10) = shares("g8");
        let (a10_h8, a10_b10) = shares("a10");
        assert!(g8_h8 > 2.5 * a10_h8, "h8: {a10_h8} -> {g8_h8}");
        assert!(a10_b10 > 2.5 * g8_b10, "b10: {g8_b10} -> {a10_b10}");
    }

    #[test]
    fn a_known_piece_speaks_of_the_pieces_that_started_next_to_it() {
        // Classic, Blue's forty pieces unknown on rows 7-10 but one seen from the start on
        // e9 (the General or a Scout): the Spy's share at e10, next to it, and at a10.
        let spy = Rank::Spy.index();
        let shares = |rank: Rank| {
            let mut view = Position::empty(Variant::CLASSIC, Rules::default());
            view.set_view_of(Some(Color::Red));
            view.put(sq("a1"), Piece::new(Color::Red, Rank::Flag), 0).unwrap();
            for r in 7..=10 {
                for f in 'a'..='j' {
                    let at = format!("{f}{r}");
                    let (rank, flags) = if at == "e9" {
                        (rank, REVEALED)
                    } else {
                        (Rank::Unknown, 0)
                    };
                    view.put(sq(&at), Piece::new(Color::Blue, rank), flags).unwrap();
                }
            }
            let b = Tracker::new(&view).belief(&view);
            (marginal(&b, "e10")[spy], marginal(&b, "a10")[spy])
        };
        let (general_e10, general_a10) = shares(Rank::General);
        let (scout_e10, scout_a10) = shares(Rank::Scout);
        assert!(general_e10 > 2.0 * scout_e10, "e10: {scout_e10} -> {general_e10}");
        assert!(
            (general_a10 / scout_a10 - 1.0).abs() < 0.3,
            "a10: {scout_a10} -> {general_a10}"
        );
    }

    #[test]
    fn a_charge_at_the_seen_marshal_points_to_the_spy() {
        let (before, after) = one_step("e5", Rank::Marshal, true, "e7e6");
        let spy = Rank::Spy.index();
        assert!(after[spy] > 2.0 * before[spy], "Spy {} -> {}", before[spy], after[spy]);
        assert_eq!(after[Rank::Bomb.index()], 0.0, "it moved");
        // Without the seen Marshal the same step says nothing of the Spy.
        let (_, plain) = one_step("e5", Rank::Marshal, false, "e7e6");
        assert!(after[spy] > 1.5 * plain[spy]);
    }

    #[test]
    fn a_charge_at_a_seen_general_points_to_the_marshal() {
        let (before, after) = one_step("e5", Rank::General, true, "e7e6");
        let m = Rank::Marshal.index();
        assert!(after[m] > 2.0 * before[m], "Marshal {} -> {}", before[m], after[m]);
    }

    #[test]
    fn a_charge_at_a_seen_general_makes_the_marshal_the_favourite() {
        // Programs and people seldom walk a weaker piece up to a piece they have seen: in
        // duel (one Marshal among seven movable pieces) the charge makes it about 2 to 3,
        // at half weight (a bluffing opponent charges with weaker pieces too).
        let (_, after) = one_step("e5", Rank::General, true, "e7e6");
        let m = Rank::Marshal.index();
        assert!(after[m] > 0.35, "Marshal {}", after[m]);
    }

    #[test]
    fn a_walk_at_a_seen_general_from_afar_points_to_the_marshal() {
        // Our General on e2, seen or not; Blue's e7 walks e7-e6-e5 (5, then 4, then 3
        // steps away: beyond the near channel's two). The Marshal's share at e7, e6, e5.
        let m = Rank::Marshal.index();
        let walk = |seen: bool| walk_e7_e5(&[("e2", Rank::General, seen), ("a1", Rank::Flag, false)]).map(|p| p[m]);
        let [before, one, two] = walk(true);
        assert!(one > 1.15 * before, "Marshal {before} -> {one}");
        // The second step of the walk tells more again (not damped).
        assert!(two > 1.1 * one, "Marshal {one} -> {two}");
        // The same steps with our General unseen tell nothing of the Marshal.
        assert!(walk(false)[2] < 0.8 * two);
    }

    #[test]
    fn a_walk_at_the_seen_marshal_past_a_nearer_piece_points_to_the_spy() {
        // Our Marshal on e2 (seen or not) and a seen Scout on b6, nearer Blue's e7; e7
        // walks e7-e6-e5 at the Marshal (5, then 4, then 3 steps away).
        let spy = Rank::Spy.index();
        let walk = |seen: bool| {
            let [before, _, after] = walk_e7_e5(&[
                ("e2", Rank::Marshal, seen),
                ("b6", Rank::Scout, true),
                ("a1", Rank::Flag, false),
            ]);
            (before[spy], after[spy])
        };
        let (before, after) = walk(true);
        assert!(after > 1.8 * before, "Spy {before} -> {after}");
        // Our Marshal unseen, the walk is scored against the Scout: a Spy loses to it.
        assert!(walk(false).1 < before, "Spy {before} -> {}", walk(false).1);
    }

    #[test]
    fn stepping_away_from_a_seen_captain_rules_the_stronger_ranks_down() {
        let (before, after) = one_step("e3", Rank::Captain, true, "e7e8");
        let m = Rank::Marshal.index();
        assert!(after[m] < before[m], "Marshal {} -> {}", before[m], after[m]);
        assert!(after[Rank::Scout.index()] > before[Rank::Scout.index()]);
    }

    #[test]
    fn fleeing_from_a_seen_general_rules_the_marshal_down() {
        let (before, after) = one_step("e6", Rank::General, true, "e7f7");
        let m = Rank::Marshal.index();
        assert!(after[m] < 0.5 * before[m], "Marshal {} -> {}", before[m], after[m]);
        assert!(after[Rank::Scout.index()] > before[Rank::Scout.index()]);
    }

    #[test]
    fn staying_next_to_a_seen_piece_points_to_a_bomb() {
        let mut view = duel_view(
            Rules::default(),
            &[("e6", Rank::General, true), ("a1", Rank::Flag, false)],
            &BLUE,
        );
        let mut t = Tracker::new(&view);
        let before = marginal(&t.belief(&view), "e7");
        // Blue moves other pieces; e7 stays next to the General each time.
        blue_moves(&mut t, &mut view, "a7a6");
        view.side = Color::Blue;
        blue_moves(&mut t, &mut view, "j7j6");
        let after = marginal(&t.belief(&view), "e7");
        let b = Rank::Bomb.index();
        assert!(after[b] > 1.3 * before[b], "Bomb {} -> {}", before[b], after[b]);
    }

    #[test]
    fn a_long_move_reveals_a_scout() {
        let rules = Rules::default();
        let v = Variant::CLASSIC;
        let (r, b) = v.sample_setups();
        let red = crate::rules::Setup::parse(&r, &v).unwrap();
        let blue = crate::rules::Setup::parse(&b, &v).unwrap();
        let mut pos = Position::from_setups(v, rules, &red, &blue).unwrap();
        let mut t = Tracker::new(&pos.view(Color::Red));
        // Open a file for a Blue Scout: find one on Blue's front row with room ahead.
        pos.make(Move::parse("a4a5").unwrap());
        let scout = (0..10)
            .map(|f| Square::new(f, 6))
            .find(|&s| {
                pos.piece_at(s).map(|p| p.rank()) == Some(Rank::Scout)
                    && pos.piece_at(Square::new(s.file(), 5)).is_none()
                    && pos.piece_at(Square::new(s.file(), 4)).is_none()
                    && !v.is_lake(Square::new(s.file(), 5))
                    && !v.is_lake(Square::new(s.file(), 4))
            })
            .expect("a Blue Scout with an open file");
        let mv = Move::new(scout, Square::new(scout.file(), 4));
        let before = pos.view(Color::Red);
        let p = t.prepare(&before, mv);
        pos.make(mv);
        let after = pos.view(Color::Red);
        t.commit(p, &after);
        let b = t.belief(&after);
        assert!(b.unknown_squares().all(|s| s != mv.to()), "the Scout is known");
        assert_eq!(b.pool()[Rank::Scout.index()], 7);
        let scouts: f64 = b.marginals().iter().map(|(_, p)| p[Rank::Scout.index()]).sum();
        assert!((scouts - 7.0).abs() < 0.02);
    }

    #[test]
    fn silent_defence_outcomes_bound_the_hidden_rank() {
        let rules = Rules {
            silent_defence: true,
            ..Rules::default()
        };
        // Our seen General attacks e7 and loses: e7 is the Marshal or a Bomb.
        let mut view = duel_view(rules, &[("e6", Rank::General, true), ("a1", Rank::Flag, false)], &BLUE);
        view.side = Color::Red;
        let mut t = Tracker::new(&view);
        let mv = Move::parse("e6e7").unwrap();
        let p = t.prepare(&view, mv);
        view.make_observed(mv, Some(Combat::DefenderWins), (None, None));
        t.commit(p, &view);
        let b = t.belief(&view);
        let e7 = marginal(&b, "e7");
        for r in Rank::ALL {
            let p = e7[r.index()];
            assert_eq!(p > 0.0, matches!(r, Rank::Marshal | Rank::Bomb), "{r:?}: {p}");
        }
        // Our Miner takes a7 unseen: a Scout or a Spy (or a Bomb), never the Flag.
        let mv = Move::parse("a6a7").unwrap();
        let mut view2 = duel_view(rules, &[("a6", Rank::Miner, false), ("a1", Rank::Flag, false)], &BLUE);
        view2.side = Color::Red;
        let mut t2 = Tracker::new(&view2);
        let p = t2.prepare(&view2, mv);
        view2.make_observed(mv, Some(Combat::AttackerWins), (None, None));
        t2.commit(p, &view2);
        let b2 = t2.belief(&view2);
        assert_eq!(b2.captured_unknown(), 1);
        let (at, cap) = b2.marginals().pop().unwrap();
        assert_eq!(at, None);
        for r in Rank::ALL {
            let p = cap[r.index()];
            assert_eq!(p > 0.0, matches!(r, Rank::Spy | Rank::Scout | Rank::Bomb), "{r:?}: {p}");
        }
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        for _ in 0..50 {
            let a = b.sample(&mut rng).unwrap();
            let e7 = a.board.iter().find(|(s, _)| *s == sq("e7")).unwrap().1;
            assert!(matches!(e7, Rank::Marshal | Rank::Bomb));
            let a2 = b2.sample(&mut rng).unwrap();
            assert!(matches!(a2.captured[0], Rank::Spy | Rank::Scout | Rank::Bomb));
        }
    }
}
