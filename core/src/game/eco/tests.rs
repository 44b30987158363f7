use std::collections::HashMap;

use super::*;

fn game_from(start: Position, sans: &str) -> Game {
    let mut game = Game::new(start);
    for san in sans.split_whitespace().filter(|token| !token.ends_with('.')) {
        game.push_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
    }
    game
}

fn game(sans: &str) -> Game {
    game_from(Position::startpos(), sans)
}

fn eco(game: &Game) -> Option<(&'static str, &'static str)> {
    Openings::lichess().classify(game).map(|o| (o.eco(), o.name()))
}

/// The board part of a FEN and the fields the key sees: what two entries share when they name
/// one position (worked out from the FEN text, apart from the key and board comparison).
fn epd(pos: &Position) -> String {
    pos.to_fen().split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn every_line_of_the_table_names_its_own_position() {
    let table = Openings::lichess();
    assert!(table.len() > 3000, "{} entries", table.len());
    let mut first_of: HashMap<String, usize> = HashMap::new();
    for (i, entry) in table.entries().iter().enumerate() {
        first_of.entry(epd(entry.position())).or_insert(i);
    }
    let shared = table.len() - first_of.len();
    println!("{} entries, {} of them at a position an earlier entry reaches", table.len(), shared);
    for entry in table.entries() {
        // Played by the game's own SAN reading, not the table's.
        let game = game(entry.pgn());
        let found = table.classify(&game).unwrap_or_else(|| panic!("{} unnamed", entry.pgn()));
        let first = &table.entries()[first_of[&epd(game.position())]];
        assert!(std::ptr::eq(found, first), "{}: {} instead of {}", entry.pgn(), found.pgn(), first.pgn());
        assert_eq!(epd(found.position()), epd(game.position()));
    }
}

#[test]
fn a_transposition_gets_the_name_of_the_position() {
    // 1. c4 e6 2. Nc3 d5 3. d4 Nf6: the Queen's Gambit Declined by way of the English.
    let transposed = game("c4 e6 Nc3 d5 d4 Nf6");
    let direct = game("d4 d5 c4 e6 Nc3 Nf6");
    assert_eq!(eco(&direct), Some(("D35", "Queen's Gambit Declined: Normal Defense")));
    assert_eq!(eco(&transposed), eco(&direct));
    // The Najdorf by way of 2...a6, then 6. Be2 e5 (the module example).
    let najdorf = game("e4 c5 Nf3 a6 d4 cxd4 Nxd4 Nf6 Nc3 d6 Be2 e5");
    assert_eq!(eco(&najdorf).map(|(eco, _)| eco), Some("B92"));
}

#[test]
fn a_game_that_leaves_theory_keeps_its_last_named_position() {
    let ruy = "e4 e5 Nf3 Nc6 Bb5 a6";
    assert_eq!(eco(&game(ruy)), Some(("C70", "Ruy Lopez: Morphy Defense")));
    // Rook moves no line plays, which also cost castling rights: nothing after 3...a6 is named.
    let left = game(&format!("{ruy} Rg1 Rb8 Rh1 Ra8 Rg1"));
    assert_eq!(eco(&left), Some(("C70", "Ruy Lopez: Morphy Defense")));
    // Knights out and back: the named position comes again and is the deepest one.
    let closed = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7";
    let c84 = Openings::lichess().classify(&game(closed)).unwrap();
    assert_eq!(c84.uci(), "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7");
    assert_eq!(c84.moves(), game(closed).moves().collect::<Vec<_>>());
    assert_eq!(eco(&game(&format!("{closed} Ne1 Ng8 Nf3 Nf6"))), Some(("C84", "Ruy Lopez: Closed")));
    assert_eq!(eco(&game(&format!("{closed} Ne1 Ng8"))), Some(("C84", "Ruy Lopez: Closed")));
}

#[test]
fn games_without_a_named_position() {
    assert_eq!(eco(&Game::default()), None);
    assert!(Openings::default().classify(&game("e4 e5")).is_none());
    assert!(Openings::default().is_empty());
}

#[test]
fn only_games_from_the_standard_start_are_named() {
    // The standard start given as a FEN (`SetUp`) is the standard start.
    let fen = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    assert_eq!(eco(&game_from(fen, "e4 e5 Nf3 Nc6 Bb5 a6")), Some(("C70", "Ruy Lopez: Morphy Defense")));
    // A set-up position after 1. e4 e5: the table's positions follow, but not its start.
    let set_up = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").unwrap();
    assert_eq!(eco(&game_from(set_up, "Nf3 Nc6 Bb5 a6")), None);
    // Chess960, even from the standard array (position 518).
    let array = Position::chess960_start(518).unwrap();
    assert!(array.is_chess960());
    assert_eq!(eco(&game_from(array, "e4 e5 Nf3 Nc6 Bb5 a6")), None);
}

#[test]
fn reading_a_table() {
    let table = Openings::from_tsv("eco\tname\tpgn\nC20\tKing's Pawn Game\t1. e4 e5\n\neco\tname\tpgn\nC40\tKing's Knight Opening\t1. e4 e5 2. Nf3\n").unwrap();
    assert_eq!(table.len(), 2);
    assert_eq!(table.entries()[1].name(), "King's Knight Opening");
    assert_eq!(table.classify(&game("e4 e5 Nf3 Nc6")).map(Opening::eco), Some("C40"));
    assert_eq!(table.find(&Position::startpos()).map(Opening::eco), None);
    assert_eq!(
        Openings::from_tsv("A00\tname\n").unwrap_err(),
        OpeningsError { line: 1, kind: OpeningsErrorKind::Columns }
    );
    let bad = Openings::from_tsv("eco\tname\tpgn\nC20\tx\t1. e4 e5 2. Ke3\n").unwrap_err();
    assert_eq!(bad, OpeningsError { line: 2, kind: OpeningsErrorKind::Move { index: 3, error: SanError::Illegal } });
    assert_eq!(bad.to_string(), format!("line 2: move 3: {}", SanError::Illegal));
}

#[test]
fn tags_are_set_or_left_alone() {
    let mut named = game("e4 e5 Nf3 Nc6 Bb5 a6");
    named.set_tag("ECO", "A00").unwrap();
    named.set_tag("Opening", "Wrong").unwrap();
    named.set_tag("Event", "Kept").unwrap();
    assert_eq!(Openings::lichess().set_tags(&mut named).map(Opening::eco), Some("C70"));
    let tags: Vec<_> = named.tags().iter().collect();
    assert_eq!(tags, [("ECO", "C70"), ("Opening", "Ruy Lopez: Morphy Defense"), ("Event", "Kept")]);
    let mut unnamed = Game::default();
    unnamed.set_tag("ECO", "Z99").unwrap();
    assert!(Openings::lichess().set_tags(&mut unnamed).is_none());
    assert_eq!(unnamed.tag("ECO"), Some("Z99"));
    assert_eq!(unnamed.tag("Opening"), None);
}
