//! The token loop, reading and skipping.

use super::*;
use crate::pgn::BytesSource;

#[test]
fn move_numbers_told_apart() {
    // Every word of up to eight bytes of these after a first digit, as the fast path sees
    // it: the bytes after the first in a word, a blank after them.
    let alphabet = b"09.-/x";
    for len in 1..=8u32 {
        for mut index in 0..alphabet.len().pow(len - 1) {
            let mut word = vec![b'1'];
            for _ in 1..len {
                word.push(alphabet[index % alphabet.len()]);
                index /= alphabet.len();
            }
            let mut next = [b' '; 8];
            next[..word.len() - 1].copy_from_slice(&word[1..]);
            let in_word = (0x80u64 << (8 * (len - 1))) >> 7;
            let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
            let expected = digits < word.len() && word[digits..].iter().all(|&b| b == b'.');
            assert_eq!(is_move_number(u64::from_le_bytes(next), in_word.wrapping_sub(1)), expected, "{word:?}");
            if expected {
                assert_eq!(move_number_len(&word), word.len());
            }
        }
    }
}

/// Collects what a consumer gets, reading or skipping; rejects the word `reject`, and, as a
/// reading consumer must (see [`Consumer::token`]), the words that hold a delimiter.
struct Collect<const READS: bool> {
    tokens: Vec<String>,
    reject: &'static str,
}

impl<const R: bool> Consumer for Collect<R> {
    const READS: bool = R;
    type Stop = ();

    fn token<'a>(&mut self, token: Token<'a>) -> Result<ControlFlow<()>, Rejection<'a>> {
        let text = match token {
            Token::Word(word)
                if word.bytes() == self.reject.as_bytes() || word.bytes().iter().any(|&b| is_delimiter(b)) =>
            {
                return Err(Rejection::new(PgnErrorKind::InvalidNag, word.bytes(), Resync::MOVETEXT));
            }
            Token::Word(word) => String::from_utf8_lossy(word.bytes()).into_owned(),
            Token::Comment(text) => format!("{{{text}}}"),
            Token::Nag(nag) => format!("${nag}"),
            Token::Open(at) => format!("(@{}:{}", at.line, at.column),
            Token::Close => ")".to_string(),
            Token::Result(outcome) => outcome.to_string(),
        };
        self.tokens.push(text);
        Ok(if matches!(token, Token::Result(_)) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
    }

    fn depth(&self) -> u32 {
        0
    }
}

/// The tokens of `movetext` up to a result, how the loop ended and where it stopped; or
/// where the word `reject` is.
fn tokens<const READS: bool>(
    movetext: &str,
    reject: &'static str,
) -> Result<(Vec<String>, Ended<()>, Location), Location> {
    let mut tokenizer = Tokenizer::new(BytesSource::new(movetext.as_bytes()));
    let mut collect = Collect::<READS> { tokens: Vec::new(), reject };
    match tokenizer.movetext(&ReaderOptions::default(), &mut collect) {
        Ok(ended) => Ok((collect.tokens, ended, tokenizer.location())),
        Err(fail) => Err(fail.at),
    }
}

#[test]
fn one_loop_reads_and_skips() {
    // Long enough for the fast path to take most of it: it stops a token's length short of
    // the end of what is in view.
    let filler = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(20);
    let common = format!("{filler}\n12.e4 {{ clk }} e5!? ( {{ caf\u{e9} }} ; rest\n$14 Nf3 (O-O-O) ) ");
    let text = common.clone() + "1/2-1/2 {after}";
    let (read, ended, at) = tokens::<true>(&text, "").unwrap();
    assert_eq!((ended, at.line, at.column), (Ended::Consumer(()), 3, 26));
    let read: Vec<_> = read.iter().skip(80).collect();
    let want = ["e4", "{clk}", "e5!?", "(@2:20", "{caf\u{e9}}", "{rest}", "$14", "Nf3", "(@3:9", "O-O-O", ")", ")"];
    assert_eq!(read, [&want[..], &["1/2-1/2"]].concat());
    // A rejected word fails where it stands, move number left out, on either path.
    let at = |line, column| {
        let line_start = if line == 2 { filler.len() + 1 } else { common.find("$14").unwrap() };
        Location { line, column, offset: (line_start + column as usize - 1) as u64 }
    };
    assert_eq!(tokens::<true>(&text, "e4").unwrap_err(), at(2, 4));
    assert_eq!(tokens::<true>(&text, "O-O-O").unwrap_err(), at(3, 10));
    assert_eq!(tokens::<true>(&format!("{filler}\n12.e4"), "e4").unwrap_err(), at(2, 4));
    // The skipping consumer gets the structure only, whatever the bytes between.
    let junk = format!("}}x ] \"q $300 $1-0 {} {{ {} }} 1/2-1/2 {{after}}", "a".repeat(300), "b".repeat(2 << 20));
    let (skipped, ended, _) = tokens::<false>(&(common + &junk), "").unwrap();
    assert_eq!(ended, Ended::Consumer(()));
    assert_eq!(skipped, ["(@2:20", "(@3:9", ")", ")", "1/2-1/2"]);
    assert_eq!(tokens::<false>("e4 {open\n[Event \"x\"]\n", "").unwrap().1, Ended::NextGame);
    assert_eq!(tokens::<true>("e4 [Event \"x\"]\n", "").unwrap().1, Ended::NextGame);
    assert_eq!(tokens::<true>("e4 e5", "").unwrap().1, Ended::Input);
}
