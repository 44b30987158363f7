use super::*;

fn game(sans: &str) -> Game {
    game_from(Position::startpos(), sans)
}

fn game_from(start: Position, sans: &str) -> Game {
    let mut game = Game::new(start);
    for san in sans.split_whitespace() {
        game.push_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
    }
    game
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap()
}

fn with_tags(mut game: Game, pairs: &[(&str, &str)]) -> Game {
    for (name, value) in pairs {
        game.set_tag(name, value).unwrap();
    }
    game
}

#[test]
fn no_condition_takes_every_game() {
    assert!(GameFilter::new().matches(&Game::default()));
    assert!(GameFilter::new().matches(&game("e4 e5")));
}

#[test]
fn tags_all_hold() {
    let g = with_tags(game("e4"), &[("WhiteElo", "2700"), ("BlackElo", "2400")]);
    let mut filter = GameFilter::new();
    filter.tag("WhiteElo > 2500".parse().unwrap());
    assert!(filter.matches(&g));
    filter.tag("BlackElo > 2500".parse().unwrap());
    assert!(!filter.matches(&g));
}

#[test]
fn players_by_glob_either_colour() {
    let g = with_tags(game("e4"), &[("White", "Carlsen, Magnus"), ("Black", "Nepomniachtchi, Ian")]);
    let holds = |pattern: &str| GameFilter::new().player(pattern).matches(&g);
    assert!(holds("Carlsen*"));
    assert!(holds("Nepo*"));
    assert!(holds("*, Ian"));
    assert!(!holds("Carlsen"));
    assert!(!holds("carlsen*"));
    assert!(!GameFilter::new().player("*").matches(&game("e4")), "no player tags");
}

#[test]
fn result_from_the_tag_or_else_the_token() {
    let mut g = with_tags(game("e4"), &[("Result", "1-0")]);
    assert!(GameFilter::new().result(Outcome::WhiteWins).matches(&g));
    assert!(!GameFilter::new().result(Outcome::Draw).matches(&g));
    g.remove_tag("Result");
    assert!(!GameFilter::new().result(Outcome::WhiteWins).matches(&g), "no tag, no token");
    g.set_result(Some(Outcome::Draw));
    assert!(GameFilter::new().result(Outcome::Draw).matches(&g));
    let unknown = with_tags(game("e4"), &[("Result", "?")]);
    assert!(!GameFilter::new().result(Outcome::Ongoing).matches(&unknown));
}

#[test]
fn plies_bounds_are_inclusive() {
    let g = game("e4 e5 Nf3");
    assert!(GameFilter::new().min_plies(3).max_plies(3).matches(&g));
    assert!(!GameFilter::new().min_plies(4).matches(&g));
    assert!(!GameFilter::new().max_plies(2).matches(&g));
    assert!(GameFilter::new().max_plies(0).matches(&Game::default()));
}

#[test]
fn final_position_mate_and_stalemate() {
    let mate = game("f3 e5 g4 Qh4#");
    assert!(GameFilter::new().checkmate().matches(&mate));
    assert!(!GameFilter::new().stalemate().matches(&mate));
    let stalemate = game_from(fen("7k/5Q2/8/6K1/8/8/8/8 w - - 0 1"), "Kg6");
    assert!(GameFilter::new().stalemate().matches(&stalemate));
    assert!(!GameFilter::new().checkmate().matches(&stalemate));
    assert!(!GameFilter::new().checkmate().stalemate().matches(&stalemate), "both: no game ends in both");
    // A line that passed through mate-free positions and goes on does not count.
    assert!(!GameFilter::new().checkmate().matches(&game("f3 e5 g4")));
}

#[test]
fn positions_found_by_key_and_board() {
    let g = game("e4 e5 Nf3 Nc6 Bb5");
    let mut filter = GameFilter::new();
    // After 1. e4 e5 2. Nf3 Nc6 (the clocks differ from the game's: they do not count).
    filter.position(&fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 7 30"));
    assert!(filter.matches(&g));
    // The start position counts.
    assert!(GameFilter::new().position(&Position::startpos()).matches(&g));
    // The same board with Black to move is another position.
    let wrong_side = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3");
    assert!(!GameFilter::new().position(&wrong_side).matches(&g));
    // Without castling rights: another position too.
    let no_castling = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 2 3");
    assert!(!GameFilter::new().position(&no_castling).matches(&g));
    // Any of several: one of them is enough.
    let mut any = GameFilter::new();
    any.position(&wrong_side).position(&no_castling);
    assert!(!any.matches(&g));
    any.position(&fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"));
    assert!(any.matches(&g));
    // A variation's positions are not the main line's.
    let mut with_variation = game("e4 e5");
    let e4 = with_variation.tree().main_child(with_variation.tree().root()).unwrap();
    let d4 = "d2d4".parse::<crate::Uci>().unwrap().to_move(&Position::startpos()).unwrap();
    with_variation.add_variation(e4, &[d4]).unwrap();
    let after_d4 = fen("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    assert!(!GameFilter::new().position(&after_d4).matches(&with_variation));
}

#[test]
fn en_passant_as_the_key_sees_it() {
    // After 1. e4 no black pawn can take on e3: the key ignores the square, so the FEN
    // written with or without it is the same position.
    let g = game("e4 c5");
    for target in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ] {
        assert!(GameFilter::new().position(&fen(target)).matches(&g), "{target}");
    }
    // After 1. e4 d5 2. e5 f5 the pawn on e5 can take on f6: the key sees it, and the same
    // board without the square is another position (reached after 3. Nf3 Nh6 4. Ng1 Ng8).
    let ep = game("e4 d5 e5 f5");
    let with_square = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let without = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    assert_ne!(with_square.zobrist(), without.zobrist());
    assert!(GameFilter::new().position(&with_square).matches(&ep));
    assert!(!GameFilter::new().position(&without).matches(&ep));
    let later = game("e4 d5 e5 f5 Nf3 Nh6 Ng1 Ng8");
    assert!(GameFilter::new().position(&without).matches(&later));
    let mut both = GameFilter::new();
    both.position(&without).position(&with_square);
    assert!(both.matches(&ep) && both.matches(&later));
}

#[test]
fn material_in_either_colour_order() {
    // White: K, R, P; Black: K, R.
    let start = fen("8/8/4k3/8/2r5/3RP3/4K3/8 w - - 0 1");
    let g = game_from(start, "Rd6+ Kxd6");
    let holds = |spec: &str| GameFilter::new().material(spec.parse().unwrap()).matches(&g);
    assert!(holds("KRPvKR"), "the start");
    assert!(holds("KRvKRP"), "colours swapped");
    assert!(holds("KPRvKR"), "any letter order");
    assert!(holds("KPvKR"), "after the capture");
    assert!(holds("KRvKP"));
    assert!(!holds("KRvKR"));
    assert!(!holds("KvK"));
    // Reached only in a promotion: the position after it counts.
    let promotion = game_from(fen("8/4P3/8/8/8/2k5/8/K7 w - - 0 1"), "e8=Q");
    assert!(GameFilter::new().material("KQvK".parse().unwrap()).matches(&promotion));
    assert!(GameFilter::new().material("KvKQ".parse().unwrap()).matches(&promotion));
}

#[test]
fn dedupe_keeps_the_first_of_the_same_start_and_moves() {
    let mut seen = Dedupe::new();
    let a = with_tags(game("e4 e5 Nf3"), &[("Event", "A")]);
    assert!(seen.first(&a));
    // Other tags, comments, a result: the same game.
    let mut b = with_tags(game("e4 e5 Nf3"), &[("Event", "B")]);
    let first = b.tree().main_child(b.tree().root()).unwrap();
    b.tree_mut().add_comment(first, "again");
    b.set_result(Some(Outcome::Draw));
    assert!(!seen.first(&b));
    // A prefix, a longer line, the same moves from another start: other games.
    assert!(seen.first(&game("e4 e5")));
    assert!(seen.first(&game("e4 e5 Nf3 Nc6")));
    let other_start = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1");
    assert!(seen.first(&game_from(other_start, "e4 e5 Nf3")));
    // The same moves to the same position by another order: another game.
    assert!(seen.first(&game("Nf3 e5 e4")));
    assert_eq!(seen.len(), 5);
    assert!(!seen.first(&a));
    // A digest made elsewhere is the same game.
    assert!(!seen.first_digest(GameDigest::of(&b)));
    assert_eq!(GameDigest::of(&a), GameDigest::of(&b));
    assert_ne!(GameDigest::of(&a), GameDigest::of(&game("e4 e5")));
}
