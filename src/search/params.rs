//! The search's tuned numbers, each with one line of why. The matches that chose them are
//! in the commit messages that set them (`git log -S NAME -- src/search`).

// --- Sampled worlds (think.rs) ---

/// Worlds searched per iteration while enemy ranks are hidden: enough to average, few
/// enough to go deep.
pub(super) const WORLDS: usize = 8;
/// The deepest iteration under a clock while ranks are hidden; past it the time buys more
/// worlds, since in a sampled world our later moves know the hidden ranks.
pub(super) const WIDE_DEPTH: u32 = 3;
/// Worlds enough: past this many, the search deepens again.
pub(super) const MAX_WORLDS: usize = 256;
/// A won game in the average over worlds: about five Marshals, so that one lucky guess
/// does not outweigh everything else.
pub(super) const WIN_IN_AVERAGE: i32 = 2_000;
/// And at least this much beyond the world's static score, so that a side far ahead still
/// prefers winning to shuffling.
pub(super) const WIN_BEYOND_BASE: i32 = 500;
/// A won game beyond the root's static score in one outcome of an attack on an unseen
/// piece: a guessed Flag is worth two Marshals, not the game.
pub(super) const WIN_IN_CHANCE: i32 = 800;
/// The share of the root belief's Flag chance an attack keeps: the search attacks where it
/// looks best, so there the chance is biased in its favour.
pub(super) const FLAG_TRUST: f32 = 0.5;
/// Within this many plies of a draw by a cap, a gamble on an unseen piece is weighed
/// against the draw, with the belief taken as it is, and a static score shrinks toward the
/// draw's 0 as the cap comes nearer.
pub(super) const CAP_NEAR: u32 = 40;
/// The Bomb chance `p` of an unmoved piece becomes `logistic(BOMB_SLOPE * logit(p) +
/// BOMB_SHIFT)` in an attack's outcomes: the belief ranks Bombs well but too flatly.
pub(super) const BOMB_SLOPE: f64 = 3.0;
pub(super) const BOMB_SHIFT: f64 = 2.4;
/// The least Spy chance of an unmoved unseen piece next to our seen Marshal: an opponent
/// leaves its Spy where a known Marshal will pass.
pub(super) const SPY_FLOOR: f32 = 0.1;
/// How far (steps) from our Flag an enemy Miner's attack on our unseen Bomb is always
/// feared, whatever the odds the enemy could read: the Bombs around a Flag are read as
/// such (against Demon of Ignorance 12 of our 21 Flags lost were taken the move after its
/// Miner took the Bomb beside them; a Bomb two steps off opens the way to one beside it).
pub(super) const FLAG_BOMB_REACH: u32 = 2;
/// The least chance (root belief) that an unseen piece beside our Major, Colonel or
/// General beats it for the root move to weigh that ambush as a chance node.
pub(super) const AMBUSH_MIN: f32 = 0.02;

// --- Games that stand still (think.rs) ---

/// Past `STALE_FROM` plies without an attack, growing over `STALE_SPAN`, a line that
/// attacks to some purpose counts up to `STALE_BASE` plus a quarter of the lead (at most
/// `STALE_CAP`) more; an unseen unmoved piece counts only for attackers below `STALE_TOP`.
pub(super) const STALE_FROM: u32 = 40;
pub(super) const STALE_SPAN: u32 = 200;
pub(super) const STALE_BASE: i32 = 40;
pub(super) const STALE_CAP: i32 = 120;
pub(super) const STALE_TOP: i32 = 150;
/// Past this many plies without an attack a game is locked: a side not behind turns bold
/// (its Marshal and its trades are drawn to seen enemy pieces).
pub(super) const LOCK_FROM: u32 = 100;
/// What a root move costs per time its placement stood before, at most `REPEAT_CAP`: a
/// chase or a flight that goes round in circles gets nowhere.
pub(super) const REPEAT_STEP: i32 = 15;
pub(super) const REPEAT_CAP: i32 = 120;
/// The cap for a side not behind by more than `REPEAT_BEHIND`: up to about a General, as
/// an enemy that follows without attacking for a hundred plies will not attack.
pub(super) const REPEAT_CAP_EVEN: i32 = 320;
pub(super) const REPEAT_BEHIND: i32 = 100;
/// The plies looked back on for repeated placements.
pub(super) const REPEAT_WINDOW: usize = 200;
/// How far below a world's best root move a move's score still needs to be exact.
pub(super) const ROOT_MARGIN: i32 = 150;

// --- Evaluation (eval.rs) ---

/// What a side's Miners are worth together while the enemy still has Bombs, by how many
/// are left (then 60 more each): the last ones take a Flag behind Bombs.
pub(super) const MINERS_WITH_BOMBS: [i32; 6] = [0, 250, 400, 500, 580, 650];
/// A Miner's hidden-rank bonus is counted from this value.
pub(super) const MINER_WITH_BOMBS: i32 = 100;
/// The Spy's value once the enemy Marshal is gone.
pub(super) const SPY_WITHOUT_MARSHAL: i32 = 10;
/// What a movable piece's value rises by (percent) when no enemy piece outranks it, one
/// does, or two do: the last piece that beats a seen enemy piece, or that nothing can
/// catch, takes piece after piece (against Demon of Ignorance, 69% of our pieces its seen
/// top pieces took after our Marshal or General fell came when we had none to beat them).
pub(super) const OUTRANKED_BY: [i32; 3] = [50, 25, 10];
/// The share of a piece's value that its hidden rank adds (1/8).
pub(super) const HIDDEN_SHIFT: u32 = 3;
/// What a movable piece that has neither moved nor been seen is worth beyond its rank:
/// its first move tells the enemy it is no Bomb nor the Flag, which sharpens the enemy's
/// guess of the rest (against Demon of Ignorance our pieces had moved unseen about 8 at a
/// time, its own about 2, and its unmoved pieces hid its guards, Bombs and Flag).
pub(super) const UNMOVED: i32 = 8;
/// Per row a movable piece stands from its own back row.
pub(super) const ADVANCE: i32 = 2;
/// What an enemy piece able to take a Flag `d` steps from it costs the Flag's owner: the
/// search sees captures within its horizon, this the walks beyond it.
pub(super) const FLAG_DANGER: [i32; 11] = [0, 60, 40, 26, 16, 10, 6, 4, 3, 2, 1];
/// What such a piece costs when it reaches the Flag before any piece of the owner's that
/// could stop it: a race it wins ends the game.
pub(super) const RACE_DANGER: [i32; 13] = [0, 300, 240, 190, 150, 115, 90, 70, 55, 40, 30, 20, 10];
/// And per step (up to `RACE_GAP`) that the nearest stopper comes too late, so that
/// bringing a stopper home pays step by step.
pub(super) const RACE_STEP: i32 = 10;
pub(super) const RACE_GAP: i32 = 8;
/// Per step from the enemy Flag of the nearest piece that could take it, for a side ahead
/// by at least `HUNT_LEAD`: a won position is won only once someone walks there.
pub(super) const HUNT: i32 = 10;
pub(super) const HUNT_LEAD: i32 = 100;
/// Steps beyond which the hunt is not rewarded (the board's width and more).
pub(super) const HUNT_REACH: i32 = 16;
/// The share of a piece's value (Major and up) at stake in a pocket beside a possible
/// Bomb with no safe square to step to (1/4) or one (1/8): it leaves only by attacking.
pub(super) const POCKET_SHIFT: [u32; 2] = [2, 3];
/// The least value of a piece that a pocket puts at stake.
pub(super) const POCKET_VALUE: i32 = 150;
/// The share (percent) of the value of a side's moved, unseen pieces at stake when the
/// enemy has a free hunter (a piece that beats every rank they can still be).
pub(super) const EXPOSED_PERCENT: i32 = 10;
/// Per step nearer than `CHASE_REACH`, 1/2^`CHASE_SHIFT` of a seen enemy piece's value
/// draws our nearest piece that takes it: the search alone leaves known pieces alone.
pub(super) const CHASE_REACH: i32 = 8;
pub(super) const CHASE_SHIFT: u32 = 6;
/// A seen enemy piece worth `CHASE_TOP` or more (a Colonel and up) draws harder and from
/// farther, both the pieces that beat it and those of its rank: a loose top piece takes
/// piece after piece.
pub(super) const CHASE_TOP: i32 = 200;
pub(super) const CHASE_TOP_REACH: i32 = 12;
pub(super) const CHASE_TOP_SHIFT: u32 = 6;
/// Any enemy piece a side can take without risk draws its nearest taker `FAIR_STEP` a step
/// within `FAIR_REACH` (a known Miner is worth too little for the chase above).
pub(super) const FAIR_STEP: i32 = 3;
pub(super) const FAIR_REACH: i32 = 10;
/// The race to an enemy Flag the searcher has not seen counts a quarter of its most
/// dangerous intruder: a sampled world's Flag is a guess.
pub(super) const GUESSED_FLAG_SHIFT: u32 = 2;
/// A race the enemy wins to the searcher's own Flag weighs this many times its
/// `RACE_DANGER`, and every unseen enemy mover runs it as a Miner while one is hidden.
pub(super) const OWN_RACE_FACTOR: i32 = 3;
