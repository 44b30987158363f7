//! Variant group: perft of the seven lichess variants, chesscore's `VariantPosition` against
//! shakmaty's `variant` feature (its position type of each variant, no enum in between).
//!
//! Each variant is measured on its start position and three midgame positions. Those are made
//! when the group starts, by playing a fixed pseudo-random sequence of moves in both libraries
//! at once: at every ply both must list the same legal moves (compared as UCI), and at the end
//! both must write the same FEN. Each position is then measured as the perft group does it:
//! `bulk`, each library's own perft (the moves of the last ply counted, not made), and `leaf`,
//! a walk written here that makes every leaf move (chesscore: `legal_moves` and `make_move`;
//! shakmaty: `legal_moves`, `clone` and `play_unchecked`).
//!
//! The two libraries' counts must agree. A difference is a bug in one of them: the group
//! follows the counts down the tree to the first position where the move lists or the FENs
//! differ, reports it, and ends with a failure status once every table is printed.
//!
//! `--only` takes `bulk`, `leaf` or a variant's name (`atomic`, `racingkings`, ...).

use std::hint::black_box;
use std::time::Duration;

use chesscore_core::variant::Variant;

use crate::harness::{abort, print_table, time, Config, Row, CHESSCORE};
use crate::perft::{Kind, Runner};

const PEER: &str = "shakmaty";

/// The midgame positions: (plies played from the start, seed of the move choice, which the
/// variant's number is added to).
const MIDGAMES: [(usize, u64); 3] = [(10, 100), (16, 200), (24, 300)];

/// One variant's positions: the start position, then [`MIDGAMES`] in order, each with its
/// depth for `bulk` and for `leaf` (the `--quick` depths are one less).
struct VariantCase {
    variant: Variant,
    depths: [(u32, u32); 4],
    /// Added to the seeds, where theirs gave a midgame with too small a tree.
    reseed: u64,
    peer: Peer,
}

fn cases() -> Vec<VariantCase> {
    use shakmaty::variant::{Antichess, Atomic, Crazyhouse, Horde, KingOfTheHill, RacingKings, ThreeCheck};
    vec![
        VariantCase {
            variant: Variant::Atomic,
            depths: [(5, 5), (5, 4), (5, 5), (5, 5)],
            reseed: 0,
            peer: peer::<Atomic>(),
        },
        VariantCase {
            variant: Variant::Antichess,
            depths: [(6, 6), (8, 8), (8, 8), (6, 6)],
            reseed: 20,
            peer: peer::<Antichess>(),
        },
        VariantCase {
            variant: Variant::Crazyhouse,
            depths: [(6, 5), (4, 4), (5, 5), (5, 4)],
            reseed: 0,
            peer: peer::<Crazyhouse>(),
        },
        VariantCase {
            variant: Variant::KingOfTheHill,
            depths: [(6, 5), (5, 5), (6, 6), (5, 5)],
            reseed: 0,
            peer: peer::<KingOfTheHill>(),
        },
        VariantCase {
            variant: Variant::ThreeCheck,
            depths: [(6, 5), (5, 5), (5, 5), (5, 5)],
            reseed: 0,
            peer: peer::<ThreeCheck>(),
        },
        VariantCase {
            variant: Variant::Horde,
            depths: [(7, 6), (6, 6), (5, 5), (6, 5)],
            reseed: 0,
            peer: peer::<Horde>(),
        },
        VariantCase {
            variant: Variant::RacingKings,
            depths: [(5, 5), (5, 5), (5, 4), (5, 4)],
            reseed: 0,
            peer: peer::<RacingKings>(),
        },
    ]
}

/// shakmaty's side of a variant, instantiated for its position type.
struct Peer {
    prepare: fn(&str) -> Runner,
    /// Plays `plies` moves from a FEN in both libraries; the FEN reached.
    walk: fn(Variant, &str, usize, u64) -> String,
    /// Where the counts of a FEN at a depth first differ (a message).
    locate: fn(Variant, &str, u32) -> String,
}

fn peer<P: shakmaty_impl::Pos>() -> Peer {
    Peer { prepare: shakmaty_impl::prepare::<P>, walk: shakmaty_impl::walk::<P>, locate: shakmaty_impl::locate::<P> }
}

/// One position of one variant, ready to measure.
struct Case {
    name: String,
    fen: String,
    bulk: u32,
    leaf: u32,
}

pub fn run(cfg: &Config) {
    let (kinds, only_variant) = match cfg.only.as_deref() {
        None => (vec![Kind::Bulk, Kind::Leaf], None),
        Some("bulk") => (vec![Kind::Bulk], None),
        Some("leaf") => (vec![Kind::Leaf], None),
        Some(name) => match Variant::from_name(name) {
            Some(v) => (vec![Kind::Bulk, Kind::Leaf], Some(v)),
            None => abort(&format!("variant: --only expects `bulk`, `leaf` or a variant, got `{name}`")),
        },
    };
    let engines: Vec<&'static str> = [CHESSCORE, PEER].into_iter().filter(|e| cfg.wants(e)).collect();
    let mut mismatches = Vec::new();
    let mut summary = Vec::new();

    for vc in cases() {
        if only_variant.is_some_and(|v| v != vc.variant) {
            continue;
        }
        let variant = vc.variant;
        let shallower = |d: u32| if cfg.quick { d.saturating_sub(1).max(1) } else { d };
        let mut positions = vec![Case {
            name: "start".to_string(),
            fen: variant.starting_fen().to_string(),
            bulk: shallower(vc.depths[0].0),
            leaf: shallower(vc.depths[0].1),
        }];
        for (&(plies, seed), &(bulk, leaf)) in MIDGAMES.iter().zip(&vc.depths[1..]) {
            let fen = (vc.peer.walk)(variant, variant.starting_fen(), plies, seed + variant as u64 + vc.reseed);
            positions.push(Case { name: format!("ply{plies}"), fen, bulk: shallower(bulk), leaf: shallower(leaf) });
        }
        for case in &positions {
            eprintln!("variant: {variant} {}: {}", case.name, case.fen);
        }

        let mut rows = Vec::new();
        for &kind in &kinds {
            let mut total = vec![(0u64, Duration::ZERO); engines.len()];
            for case in &positions {
                let depth = if kind == Kind::Bulk { case.bulk } else { case.leaf };
                let bench = format!("{} {} d{depth}", kind.name(), case.name);
                eprintln!("variant: {variant} {bench} ({} reps)", cfg.reps);
                let runners: Vec<Runner> = engines
                    .iter()
                    .map(|&e| {
                        if e == CHESSCORE {
                            chesscore_impl::prepare(variant, &case.fen)
                        } else {
                            (vc.peer.prepare)(&case.fen)
                        }
                    })
                    .collect();
                let mut counts = vec![None; engines.len()];
                let mut best = vec![Duration::MAX; engines.len()];
                // Round-robin inside each repetition, as the perft group does.
                for _ in 0..cfg.reps {
                    for (i, runner) in runners.iter().enumerate() {
                        let (nodes, t) = time(|| runner(black_box(kind), black_box(depth)));
                        if let Some(before) = counts[i].filter(|&c| c != nodes) {
                            abort(&format!(
                                "variant {variant} {bench} from {}: {} counted {before} nodes, then {nodes}",
                                case.fen, engines[i]
                            ));
                        }
                        counts[i] = Some(nodes);
                        best[i] = best[i].min(t);
                    }
                }
                if let [Some(ours), Some(theirs)] = counts[..] {
                    if ours != theirs {
                        let place = (vc.peer.locate)(variant, &case.fen, depth);
                        mismatches.push(format!(
                            "{variant} {bench}: chesscore {ours}, shakmaty {theirs} nodes from {}\n  {place}",
                            case.fen
                        ));
                    }
                }
                for (i, &engine) in engines.iter().enumerate() {
                    let count = counts[i].unwrap_or(0);
                    rows.push(Row { bench: bench.clone(), engine, count, best: best[i] });
                    total[i].0 += count;
                    total[i].1 += best[i];
                }
            }
            for (i, &engine) in engines.iter().enumerate() {
                let row = Row { bench: format!("{} all", kind.name()), engine, count: total[i].0, best: total[i].1 };
                summary.push(Row { bench: format!("{} {variant}", kind.name()), ..row.clone() });
                rows.push(row);
            }
        }
        print_table(&format!("variant perft: {variant}"), "nodes", &rows);
    }
    // Bulk first, then every leaf, each variant's chesscore row before its peer's.
    summary.sort_by_key(|r| !r.bench.starts_with("bulk"));
    print_table("variant perft: each variant's four positions together", "nodes", &summary);

    if !mismatches.is_empty() {
        eprintln!("\nvariant: {} count(s) differ:", mismatches.len());
        for m in &mismatches {
            eprintln!("  {m}");
        }
        std::process::exit(1);
    }
}

/// The move lists of both libraries by UCI, sorted; an error naming the moves only one lists.
fn same_moves<A, B>(mut ours: Vec<(String, A)>, mut theirs: Vec<(String, B)>) -> Result<Vec<(String, A, B)>, String> {
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    let a: Vec<&String> = ours.iter().map(|m| &m.0).collect();
    let b: Vec<&String> = theirs.iter().map(|m| &m.0).collect();
    if a != b {
        let only = |x: &[&String], y: &[&String]| {
            x.iter().filter(|m| !y.contains(m)).map(|m| m.as_str()).collect::<Vec<_>>().join(" ")
        };
        return Err(format!("moves only chesscore lists: [{}]; only shakmaty: [{}]", only(&a, &b), only(&b, &a)));
    }
    Ok(ours.into_iter().zip(theirs).map(|((name, a), (_, b))| (name, a, b)).collect())
}

/// A FEN as both libraries should write it: the crazyhouse pocket's letters sorted (they
/// write them in other orders) and, in crazyhouse, no halfmove clock: shakmaty zeroes it on a
/// pawn drop and python-chess, which chesscore follows, does not. Perft never reads the clock.
fn normalized(variant: Variant, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    if let (Some(open), Some(close)) = (fields[0].find('['), fields[0].find(']')) {
        let mut pocket: Vec<char> = fields[0][open + 1..close].chars().collect();
        pocket.sort_unstable();
        fields[0].replace_range(open + 1..close, &pocket.into_iter().collect::<String>());
    }
    if variant == Variant::Crazyhouse && fields.len() >= 2 {
        let clock = fields.len() - 2;
        fields[clock] = "-".to_string();
    }
    fields.join(" ")
}

/// splitmix64: the move choices of the midgame walks.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub mod chesscore_impl {
    use super::{Kind, Runner};
    use chesscore_core::variant::{Variant, VariantPosition};

    pub fn from_fen(variant: Variant, fen: &str) -> VariantPosition {
        VariantPosition::from_fen(variant, fen)
            .unwrap_or_else(|e| crate::harness::abort(&format!("chesscore rejected {variant} FEN {fen}: {e}")))
    }

    pub fn prepare(variant: Variant, fen: &str) -> Runner {
        let pos = from_fen(variant, fen);
        Box::new(move |kind, depth| match kind {
            Kind::Bulk => pos.perft(depth),
            Kind::Leaf => leaf(&pos, depth),
        })
    }

    /// Every-leaf perft over the public API (copy-make).
    fn leaf(pos: &VariantPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves().iter().map(|&mv| leaf(&pos.make_move(mv), depth - 1)).sum()
    }

    /// The legal moves by UCI.
    pub fn named_moves(pos: &VariantPosition) -> Vec<(String, chesscore_core::Move)> {
        pos.legal_moves().iter().map(|&mv| (pos.uci(mv).to_string(), mv)).collect()
    }
}

pub mod shakmaty_impl {
    use super::{chesscore_impl, next_random, normalized, same_moves, Kind, Runner};
    use chesscore_core::variant::Variant;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, FromSetup, Position};

    /// What the group needs of a shakmaty position type.
    pub trait Pos: Position + FromSetup + Clone + 'static {}
    impl<P: Position + FromSetup + Clone + 'static> Pos for P {}

    fn from_fen<P: Pos>(fen: &str) -> P {
        Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| crate::harness::abort(&format!("shakmaty rejected FEN {fen}")))
    }

    fn to_fen<P: Pos>(pos: &P) -> String {
        Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    pub fn prepare<P: Pos>(fen: &str) -> Runner {
        let pos: P = from_fen(fen);
        Box::new(move |kind, depth| match kind {
            // The crate's own perft: bulk counting at depth 1, clone + play_unchecked.
            Kind::Bulk => shakmaty::perft(&pos, depth),
            Kind::Leaf => leaf(&pos, depth),
        })
    }

    fn leaf<P: Pos>(pos: &P, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            nodes += leaf(&child, depth - 1);
        }
        nodes
    }

    fn named_moves<P: Pos>(pos: &P) -> Vec<(String, shakmaty::Move)> {
        pos.legal_moves().into_iter().map(|m| (m.to_uci(CastlingMode::Standard).to_string(), m)).collect()
    }

    pub fn walk<P: Pos>(variant: Variant, fen: &str, plies: usize, seed: u64) -> String {
        let mut ours = chesscore_impl::from_fen(variant, fen);
        let mut theirs: P = from_fen(fen);
        let mut state = seed;
        let mut played = Vec::new();
        for ply in 0..plies {
            let moves = same_moves(chesscore_impl::named_moves(&ours), named_moves(&theirs)).unwrap_or_else(|e| {
                crate::harness::abort(&format!("variant {variant} walk, ply {ply}, FEN {}: {e}", ours.to_fen()))
            });
            // A third of the plies capture when they can, so that the positions have the
            // variant's own material (crazyhouse pockets, atomic's explosions); the first move
            // from a random one on that does not end the game.
            let capturing = next_random(&mut state).is_multiple_of(3);
            let is_capture = |mv: &chesscore_core::Move| ours.piece_at(mv.to()).is_some() || mv.is_en_passant();
            let captures: Vec<_> = moves.iter().filter(|m| capturing && is_capture(&m.1)).collect();
            let all: Vec<_> = moves.iter().collect();
            let chosen = [captures, all]
                .into_iter()
                .find_map(|candidates| {
                    let start = (next_random(&mut state) % candidates.len().max(1) as u64) as usize;
                    (0..candidates.len())
                        .map(|i| candidates[(start + i) % candidates.len()])
                        .find(|(_, mv, _)| !ours.make_move(*mv).legal_moves().is_empty())
                })
                .unwrap_or_else(|| {
                    crate::harness::abort(&format!(
                        "variant {variant} walk: every move ends the game in {}",
                        ours.to_fen()
                    ))
                });
            played.push(chosen.0.clone());
            ours.play_unchecked(chosen.1);
            theirs.play_unchecked(chosen.2);
        }
        let (a, b) = (ours.to_fen(), to_fen(&theirs));
        if normalized(variant, &a) != normalized(variant, &b) {
            crate::harness::abort(&format!(
                "variant {variant} walk from {fen} ({}): chesscore reached {a}, shakmaty {b}",
                played.join(" ")
            ));
        }
        a
    }

    pub fn locate<P: Pos>(variant: Variant, fen: &str, depth: u32) -> String {
        let ours = chesscore_impl::from_fen(variant, fen);
        let theirs: P = from_fen(fen);
        let (a, b) = (ours.to_fen(), to_fen(&theirs));
        if normalized(variant, &a) != normalized(variant, &b) {
            return format!("the FENs differ: chesscore {a}, shakmaty {b}");
        }
        let moves = match same_moves(chesscore_impl::named_moves(&ours), named_moves(&theirs)) {
            Ok(moves) => moves,
            Err(e) => return format!("at {a}: {e}"),
        };
        if depth <= 1 {
            return format!("at {a}: the same moves, yet the counts differ");
        }
        for (name, mv, m) in moves {
            let child = ours.make_move(mv);
            let mut their_child = theirs.clone();
            their_child.play_unchecked(m);
            if child.perft(depth - 1) != shakmaty::perft(&their_child, depth - 1) {
                return format!("after {name}: {}", locate::<P>(variant, &child.to_fen(), depth - 1));
            }
        }
        format!("at {a}: no child's count differs (the position as read back from FEN agrees)")
    }
}
