//! The variants against python-chess 1.11.2 and Fairy-Stockfish: perft of generated suites
//! (`core/tests/data/variant/*.perft`, both oracles agreeing on every count), and random games
//! replayed move by move (`*.games`: SAN, UCI, FEN, checks and outcomes as python-chess gave
//! them).

use chesscore_core::pgn::{Flow, PgnErrorKind, PgnReader, Visitor};
use chesscore_core::variant::{Variant, VariantPosition};
use chesscore_core::variant::{VariantEpdError, VariantFenError};
use chesscore_core::{
    Bitboard, Color, Epd, EpdError, FenError, Move, MoveKind, Outcome, SanError, SetupStatus, Square,
};
use chesscore_test_support as common;

#[test]
fn start_positions() {
    let expected: [(Variant, [u64; 3]); 7] = [
        (Variant::Atomic, [20, 400, 8902]),
        (Variant::Antichess, [20, 400, 8067]),
        (Variant::Crazyhouse, [20, 400, 8902]),
        (Variant::KingOfTheHill, [20, 400, 8902]),
        (Variant::ThreeCheck, [20, 400, 8902]),
        (Variant::Horde, [8, 128, 1274]),
        (Variant::RacingKings, [21, 421, 11264]),
    ];
    for (variant, counts) in expected {
        let pos = VariantPosition::new(variant);
        for (depth, &n) in (1..).zip(counts.iter()) {
            assert_eq!(pos.perft(depth), n, "{variant} depth {depth}");
        }
        assert_eq!(pos.to_fen(), variant.starting_fen());
    }
}

const VARIANTS: [&str; 7] =
    ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"];

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/variant").join(name)
}

/// Every count of every generated suite (python-chess and Fairy-Stockfish agreed on each).
#[test]
fn generated_perft_suites() {
    for name in VARIANTS {
        let variant = Variant::from_name(name).expect("a variant name");
        let cases = common::perft_suite_at(&data(&format!("{name}.perft")));
        assert!(cases.len() >= 500, "{name}: {} positions", cases.len());
        let mut deepest = 0;
        for case in cases {
            let pos =
                VariantPosition::from_fen(variant, &case.fen).unwrap_or_else(|e| panic!("{name} {}: {e}", case.fen));
            assert_eq!(pos.to_fen(), case.fen, "{name}: FEN written back");
            for &(depth, expected) in &case.counts {
                assert_eq!(pos.perft(depth), expected, "{name} {} depth {depth}", case.fen);
                deepest = deepest.max(depth);
            }
        }
        assert!(deepest >= 4, "{name}: deepest count {deepest}");
    }
}

fn outcome_name(pos: &VariantPosition) -> Option<(String, Option<&'static str>)> {
    let termination = pos.termination()?;
    let name = format!("{termination:?}");
    let winner = match pos.outcome() {
        Outcome::WhiteWins => Some("white"),
        Outcome::BlackWins => Some("black"),
        _ => None,
    };
    Some((name, winner))
}

/// Random games replayed move by move: each move read from python-chess's UCI and SAN, written
/// back the same, the FEN after it, checks, variant ends, the final outcome and material.
#[test]
fn python_chess_games_replay() {
    let mut plies_seen = 0;
    for name in VARIANTS {
        let variant = Variant::from_name(name).expect("a variant name");
        let text = std::fs::read_to_string(data(&format!("{name}.games"))).expect("read the games file");
        let mut games = 0;
        for line in text.lines() {
            let game: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let start = game["start"].as_str().expect("start FEN");
            let mut pos = VariantPosition::from_fen(variant, start).unwrap_or_else(|e| panic!("{name} {start}: {e}"));
            for ply in game["plies"].as_array().expect("plies") {
                let (uci, san, fen) = (ply[0].as_str().unwrap(), ply[1].as_str().unwrap(), ply[2].as_str().unwrap());
                let context = format!("{name} {} {uci}", pos.to_fen());
                let mv = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_eq!(pos.parse_san(san), Ok(mv), "{context}: SAN {san} read");
                assert_eq!(pos.uci(mv).to_string(), uci, "{context}");
                assert_eq!(pos.san(mv).map(|s| s.to_string()), Ok(san.to_string()), "{context}");
                pos.play(mv).unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_eq!(pos.to_fen(), fen, "{context}: FEN after");
                // Equal as values (and so as hash keys) to the position its FEN gives, which
                // holds only if every move keeps the board's key as reading keeps it. The FEN
                // leaves out an en passant square that no legal move takes.
                if pos.en_passant().is_none() {
                    let read = VariantPosition::from_fen(variant, fen).unwrap();
                    assert!(read == pos, "{context}: the position read from {fen} differs");
                }
                assert_eq!(pos.is_check(), ply[3].as_bool().unwrap(), "{context}: check");
                assert_eq!(pos.is_variant_end(), ply[4].as_bool().unwrap(), "{context}: variant end");
                plies_seen += 1;
            }
            let expected = game["outcome"].as_object().map(|o| {
                let termination = o["termination"].as_str().unwrap().to_ascii_lowercase().replace('_', "");
                (termination, o["winner"].as_str().map(str::to_owned))
            });
            let got = outcome_name(&pos).map(|(t, w)| (t.to_ascii_lowercase(), w.map(str::to_owned)));
            assert_eq!(got, expected, "{name} {}: outcome", pos.to_fen());
            let insufficient = game["insufficient"].as_array().unwrap();
            for (color, flag) in [Color::White, Color::Black].into_iter().zip(insufficient) {
                assert_eq!(pos.has_insufficient_material(color), flag.as_bool().unwrap(), "{name} {}", pos.to_fen());
            }
            games += 1;
        }
        assert!(games >= 30, "{name}: {games} games");
    }
    assert!(plies_seen > 5_000, "{plies_seen} plies");
}

/// Collects, per variant game, the FEN after every main-line move and the SAN as read.
#[derive(Default)]
struct VariantMoves {
    fens: Vec<String>,
    sans: Vec<String>,
    depth: usize,
}

impl Visitor for VariantMoves {
    type Output = (Vec<String>, Vec<String>);

    fn begin_game(&mut self) {
        *self = VariantMoves::default();
    }

    fn reads_variant(&mut self, _variant: Variant) -> bool {
        true
    }

    fn variant_san(&mut self, san: &str, mv: Move, before: &VariantPosition, after: &VariantPosition) -> Flow {
        assert_eq!(before.make_move(mv), *after);
        if self.depth == 0 {
            self.fens.push(after.to_fen());
            self.sans.push(san.to_string());
        }
        Flow::Continue
    }

    fn begin_variation(&mut self) -> Flow {
        self.depth += 1;
        Flow::Continue
    }

    fn end_variation(&mut self) {
        self.depth -= 1;
    }

    fn end_game(&mut self, _result: Option<Outcome>) -> Self::Output {
        (std::mem::take(&mut self.fens), std::mem::take(&mut self.sans))
    }
}

/// The generated games as python-chess writes them in PGN (its `Variant` tag names, a
/// variation and a comment on some moves), read back move by move through a visitor; the
/// visitor that reads chess alone gets the same games refused as before.
#[test]
fn python_chess_pgn_of_variant_games_reads_back() {
    let Some(python) = common::python("variant: python-chess's PGN of variant games") else { return };
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_chess_variant_pgn.py");
    let output = std::process::Command::new(&python)
        .arg(script)
        .args(VARIANTS)
        .env("PYTHONHASHSEED", "0")
        .output()
        .expect("run python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let pgn = String::from_utf8(output.stdout).expect("UTF-8 PGN");

    let mut expected = Vec::new();
    for name in VARIANTS {
        let text = std::fs::read_to_string(data(&format!("{name}.games"))).expect("read the games file");
        for line in text.lines() {
            let game: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let plies = game["plies"].as_array().expect("plies");
            let fens: Vec<String> = plies.iter().map(|p| p[2].as_str().unwrap().to_string()).collect();
            let sans: Vec<String> = plies.iter().map(|p| p[1].as_str().unwrap().to_string()).collect();
            expected.push((name, fens, sans));
        }
    }
    let mut reader = PgnReader::from_bytes(pgn.as_bytes());
    let mut visitor = VariantMoves::default();
    for (name, fens, sans) in &expected {
        let (got_fens, got_sans) = reader.read_game(&mut visitor).expect("a variant game").expect("one more game");
        assert_eq!(&got_sans, sans, "{name}");
        assert_eq!(&got_fens, fens, "{name}");
    }
    assert!(reader.read_game(&mut visitor).expect("the end").is_none());

    let refused = PgnReader::from_bytes(pgn.as_bytes()).next_game().expect_err("a chess game reader refuses");
    assert!(matches!(refused.kind, PgnErrorKind::UnsupportedVariant(ref name) if name == "Atomic"), "{refused}");
}

/// Moves written as their two squares (`g1f3`, `g1-f3`, `e1g1` for castling) read as UCI, as the
/// chess SAN reader and python-chess read them.
#[test]
fn squares_only_moves_read_as_uci() {
    let pos = VariantPosition::from_fen(Variant::Crazyhouse, "r3k2r/8/8/8/8/8/8/R3K1NR[N] w KQkq - 0 1").unwrap();
    for (text, uci) in [("g1f3", "g1f3"), ("g1-f3", "g1f3"), ("Ng1f3", "g1f3"), ("e1c1", "e1c1"), ("N@f3", "N@f3")] {
        assert_eq!(pos.parse_san(text).map(|mv| pos.uci(mv).to_string()), Ok(uci.to_string()), "{text}");
    }
    assert!(pos.parse_san("g1g3").is_err());
}

/// EPD lines of positions of the generated games, with `bm`, `pv` (drops among them), `hmvc`,
/// `fmvn` and `id` operations, as python-chess writes them (its crazyhouse board writes no
/// operations: they are written by its own operation writer after the position fields): each
/// reads to python-chess's position and moves and writes back to the same line.
#[test]
fn python_chess_epd_of_variant_positions() {
    let Some(python) = common::python("variant: python-chess's EPD of variant positions") else { return };
    let script = r#"
import json, sys, chess, chess.variant
for name in sys.argv[1:]:
    cls = chess.variant.find_variant(name)
    for line in open(f"{name}.games"):
        data = json.loads(line)
        board = cls(data["start"])
        moves = [chess.Move.from_uci(uci) for uci, *_ in data["plies"]]
        for ply, move in enumerate(moves):
            if ply % 5 == 0:
                pv = moves[ply:ply + 3]
                ops = {"bm": pv[0], "pv": pv, "hmvc": board.halfmove_clock, "fmvn": board.fullmove_number, "id": f"{name} {ply}"}
                epd = board.epd() + " " + board._epd_operations(ops)
                again, read = cls.from_epd(epd)
                print(json.dumps({"variant": name, "epd": epd, "fen": again.fen(), "bm": read["bm"][0].uci(), "pv": [m.uci() for m in read["pv"]]}))
            board.push(move)
"#;
    let output = std::process::Command::new(&python)
        .arg("-c")
        .arg(script)
        .args(VARIANTS)
        .current_dir(data(""))
        .output()
        .expect("run python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut counts = std::collections::BTreeMap::new();
    for line in String::from_utf8(output.stdout).expect("UTF-8").lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let variant = Variant::from_name(case["variant"].as_str().unwrap()).unwrap();
        let text = case["epd"].as_str().unwrap();
        let epd = Epd::parse_variant(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let pos = epd.position();
        assert_eq!(pos.to_fen(), case["fen"].as_str().unwrap(), "{text}");
        let uci = |moves: &[Move]| -> Vec<String> {
            let mut at = *pos;
            moves
                .iter()
                .map(|&mv| {
                    let text = at.uci(mv).to_string();
                    at.play_unchecked(mv);
                    text
                })
                .collect()
        };
        assert_eq!(uci(&epd.best_moves()), [case["bm"].as_str().unwrap()], "{text}");
        let pv: Vec<Move> = epd.get("pv").unwrap().moves().collect();
        let expected: Vec<&str> = case["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        assert_eq!(uci(&pv), expected, "{text}");
        assert_eq!(epd.to_string(), text);
        *counts.entry(variant).or_insert(0) += 1;
    }
    assert_eq!(counts.len(), VARIANTS.len());
    assert!(counts.values().all(|&n| n >= 30), "{counts:?}");
}

/// What the variant EPD reader takes besides python-chess's lines, and what it refuses.
#[test]
fn variant_epd_forms_and_errors() {
    let zh = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq -";
    // lichess's ninth row is read and written in brackets; a promoted piece keeps its mark.
    let epd = Epd::parse_variant(
        Variant::Crazyhouse,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/Qp w KQkq - bm Q@e2;",
    )
    .unwrap();
    assert_eq!(epd.to_string(), format!("{zh} bm Q@e2;"));
    let promoted = Epd::parse_variant(Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4K2Q~[] w - - am Qh8+;").unwrap();
    assert_eq!(promoted.to_string(), "4k3/8/8/8/8/8/8/4K2Q~[] w - - am Qh8+;");
    // A pawn drop reads as `P@e2` and `@e2`, and is written `@e2`; a drop with no piece in
    // the pocket is illegal.
    let black = zh.replace(" w ", " b ");
    let drop = Epd::parse_variant(Variant::Crazyhouse, &format!("{black} bm P@d4; pv @d4;")).unwrap();
    assert_eq!(drop.to_string(), format!("{black} bm @d4; pv @d4;"));
    let none = Epd::parse_variant(Variant::Crazyhouse, &format!("{black} bm N@d4;")).unwrap_err();
    assert!(matches!(none, VariantEpdError::Epd(EpdError::Move { error: SanError::Illegal, .. })), "{none:?}");
    // Three-check's counter may be left out (both sides then have three checks left).
    let tc = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
    let without = Epd::parse_variant(Variant::ThreeCheck, &format!("{tc} bm Bc4;")).unwrap();
    assert_eq!(without.to_string(), format!("{tc} 3+3 bm Bc4;"));
    let with = Epd::parse_variant(Variant::ThreeCheck, &format!("{tc} 2+1 hmvc 4; fmvn 9;")).unwrap();
    assert_eq!(with.position().to_fen(), format!("{tc} 2+1 4 9"));
    let bad = Epd::parse_variant(Variant::ThreeCheck, &format!("{tc} 4+1 bm Bc4;")).unwrap_err();
    assert_eq!(bad, VariantEpdError::Position(VariantFenError::Checks));
    // A counter or a pocket where the variant has none.
    assert!(matches!(
        Epd::parse_variant(Variant::Atomic, &format!("{tc} 2+1")),
        Err(VariantEpdError::Epd(EpdError::Opcode(_)))
    ));
    assert_eq!(
        Epd::parse_variant(Variant::Atomic, zh).unwrap_err(),
        VariantEpdError::Position(VariantFenError::Pocket)
    );
    // The FEN's own faults are the chess reader's.
    assert!(matches!(
        Epd::parse_variant(Variant::Horde, "8/8/8/8/8/8/8/9 w - -"),
        Err(VariantEpdError::Epd(EpdError::Position(_)))
    ));
    let long = format!("{}[{}] w - -", "4k3/8/8/8/8/8/8/4K3", "P".repeat(600));
    assert!(matches!(
        Epd::parse_variant(Variant::Crazyhouse, &long),
        Err(VariantEpdError::Epd(EpdError::Position(FenError::TooLong { .. })))
    ));
    // A decisive variant move is written with `#`.
    let koth = Epd::parse_variant(Variant::KingOfTheHill, "4k3/8/8/8/8/4K3/8/8 w - - bm Ke4;").unwrap();
    assert_eq!(koth.to_string(), "4k3/8/8/8/8/4K3/8/8 w - - bm Ke4#;");
}

/// Pseudo-legal moves, checkers, pins, irreversible moves, the move-count rules and the mirror
/// on known positions (python-chess 1.11.2's answers), then as properties over random games.
#[test]
fn queries_beyond_legal_moves() {
    let at = |variant, fen| VariantPosition::from_fen(variant, fen).unwrap();
    let uci = |pos: &VariantPosition, text| pos.parse_uci(text).unwrap();

    let pos = at(Variant::Atomic, "8/8/1Q2pk2/8/8/8/3K4/1n6 w - - 0 1");
    assert_eq!((pos.legal_moves().len(), pos.pseudo_legal_moves().len()), (9, 28));
    assert_eq!(pos.checkers(), Bitboard::from_square(Square::B1));
    assert_eq!(pos.mirror().unwrap().to_fen(), "1N6/3k4/8/8/8/1q2PK2/8/8 b - - 0 1");
    let b6a7 = Move::new(Square::B6, Square::A7, MoveKind::Normal);
    assert!(pos.is_pseudo_legal(b6a7) && !pos.is_legal(b6a7) && !pos.is_irreversible(b6a7));

    let pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
    let pos = at(Variant::KingOfTheHill, pinned);
    assert_eq!(pos.pin_line(Color::White, Square::E2), Some(Bitboard(0x1010_1010_1010_1010)));
    assert_eq!(pos.pin_line(Color::Black, Square::E7), None);
    assert_eq!(at(Variant::Antichess, pinned).pin_line(Color::White, Square::E2), None);

    let pos = at(Variant::Crazyhouse, "r3k2r/8/8/8/8/8/8/R3K2R[P] w Qkq - 0 1");
    assert_eq!(pos.pseudo_legal_moves().iter().filter(|mv| mv.is_drop()).count(), 48);
    assert!(pos.is_irreversible(uci(&pos, "a1a8")));
    assert!(!pos.is_irreversible(uci(&pos, "h1f1")) && !pos.is_irreversible(Move::NULL));
    let pos = at(Variant::ThreeCheck, "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert!(!pos.is_irreversible(uci(&pos, "h1h7")) && pos.is_irreversible(uci(&pos, "h1h8")));

    let rules = |variant, fen| {
        let pos = at(variant, fen);
        (pos.is_fifty_moves(), pos.is_seventy_five_moves(), pos.can_claim_fifty_moves())
    };
    assert_eq!(rules(Variant::ThreeCheck, "4k3/8/8/8/8/8/8/4K2R w - - 99 80"), (false, false, true));
    assert_eq!(rules(Variant::ThreeCheck, "4k3/8/8/8/8/8/8/4K2R w - - 150 80"), (true, true, true));
    assert_eq!(rules(Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4K2R[] w - - 150 80"), (false, false, false));
    assert!(VariantPosition::new(Variant::Horde).mirror().is_err());

    let status = |variant, fen| at(variant, fen).status();
    assert!(status(Variant::Atomic, "3N1NB1/2N1Q1N1/3RkR2/2NP1PN1/3NKN2/8/8/n7 w - - 0 1").is_empty());
    assert_eq!(status(Variant::RacingKings, "8/8/8/8/8/P7/krbnNBRK/qrbnNBRQ w - - 0 1"), SetupStatus::RACE_MATERIAL);
    let crowded = "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(status(Variant::KingOfTheHill, crowded), SetupStatus::TOO_MANY_WHITE_PIECES);

    let mut seed = 38u64;
    for variant in Variant::ALL {
        let mut pos = VariantPosition::new(variant);
        for _ in 0..80 {
            let (legal, pseudo) = (pos.legal_moves(), pos.pseudo_legal_moves());
            assert!(legal.iter().all(|mv| pseudo.contains(mv) && pos.is_pseudo_legal(*mv)), "{pos:?}");
            assert!((pos.checkers() & !pos.color_occupancy(!pos.turn())).is_empty(), "{pos:?}");
            assert!(pos.status().is_empty(), "{pos:?}");
            if variant != Variant::Horde {
                assert_eq!(pos.mirror().and_then(|m| m.mirror()), Ok(pos), "{pos:?}");
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let garbage = Move::from_raw((seed >> 48) as u16).unwrap_or(Move::NULL);
            assert!(legal.contains(&garbage) || garbage.is_null() || !pos.is_irreversible(garbage));
            if legal.is_empty() {
                break;
            }
            pos.play(legal[(seed >> 33) as usize % legal.len()]).unwrap();
        }
    }
}
