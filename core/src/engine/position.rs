//! What the engine client needs of a position, so that one client and one protocol reader
//! drive chess engines and variant engines alike.
//!
//! Why a trait and generic entry points rather than a second set of variant entry points: the
//! client's machinery (deadlines, the reading thread, `stop`, MultiPV lines) and the protocol's
//! readers are the same for every variant; only the start's text, the reading of a move and
//! the playing of one differ. Monomorphised, chess's code is what it was before. The trait is
//! sealed: the core implements it for [`Position`] here and for the variant layer's
//! `VariantPosition` there (the engine layer does not know the variants), and may grow it.

use std::fmt;

use crate::board::color::Color;
use crate::board::moves::Move;
use crate::position::Position;
use crate::{Uci, UciError};

use super::protocol::EngineOption;

/// Keeps [`EnginePosition`] implemented by the core's positions only.
pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A position an engine can search: chess's [`Position`] or a lichess variant's
/// [`VariantPosition`](crate::variant::VariantPosition). Castling is read in both forms
/// unless the position is a Chess960 one (king-takes-rook only); moves are written in the
/// engine's form, whatever the position (see [`Engine::is_chess960`](super::Engine::is_chess960)).
pub trait EnginePosition: Clone + fmt::Debug + sealed::Sealed {
    /// The `UCI_Variant` value of the position's rules: `chess` for chess and Chess960.
    fn uci_variant(&self) -> &'static str;

    /// Writes the start of a `position` command after `position `: `startpos` for the standard
    /// start position of chess, `fen FEN` otherwise (a variant's FEN in python-chess's form,
    /// which Fairy-Stockfish reads: crazyhouse's pockets `[Pn]`, three-check's `3+3`).
    fn write_start(&self, out: &mut String);

    /// The legal move that an engine's UCI text names here (a drop as `P@e4`); `0000` gives
    /// [`Move::NULL`].
    fn read_move(&self, text: &str) -> Result<Move, UciError>;

    /// Plays `mv`, legal here, or the null move, which passes the turn.
    fn play(&mut self, mv: Move);

    /// The side to move.
    fn turn(&self) -> Color;
}

impl sealed::Sealed for Position {}

impl EnginePosition for Position {
    fn uci_variant(&self) -> &'static str {
        "chess"
    }

    fn write_start(&self, out: &mut String) {
        if !self.is_chess960() && *self == Position::startpos() {
            out.push_str("startpos");
        } else {
            out.push_str("fen ");
            out.push_str(&self.to_fen());
        }
    }

    fn read_move(&self, text: &str) -> Result<Move, UciError> {
        text.parse::<Uci>()?.to_move(self)
    }

    fn play(&mut self, mv: Move) {
        self.play_known(mv);
    }

    fn turn(&self) -> Color {
        Position::turn(self)
    }
}

/// The `UCI_Variant` setting (the option's name as the engine declared it, and the value in
/// the engine's spelling) that makes an engine now playing `current` play `wanted`; `None` when
/// it plays `wanted` already (names compared ignoring case). Refused when the engine declares
/// no `UCI_Variant` option, or a combo option whose values lack `wanted`.
pub(crate) fn variant_setting<'a>(
    options: &'a [EngineOption],
    current: &str,
    wanted: &'static str,
) -> Result<Option<(&'a str, &'a str)>, UnsupportedVariant> {
    if current.eq_ignore_ascii_case(wanted) {
        return Ok(None);
    }
    let refused = |declared| UnsupportedVariant { variant: wanted, declared };
    let option = options.iter().find(|option| option.name.eq_ignore_ascii_case("UCI_Variant")).ok_or(refused(false))?;
    if option.vars.is_empty() {
        return Ok(Some((&option.name, wanted)));
    }
    let value = option.vars.iter().find(|value| value.eq_ignore_ascii_case(wanted)).ok_or(refused(true))?;
    Ok(Some((&option.name, value)))
}

/// The `UCI_Variant` value an engine declares as its default; `chess` when it declares none
/// (or an empty one).
pub(crate) fn default_variant(options: &[EngineOption]) -> String {
    let option = options.iter().find(|option| option.name.eq_ignore_ascii_case("UCI_Variant"));
    let default = option.and_then(|option| option.default.clone()).filter(|value| !value.is_empty());
    default.unwrap_or_else(|| "chess".to_string())
}

/// An engine that cannot play a position's variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the engine does not play the variant `{variant}`: {}", refusal(*.declared))]
pub struct UnsupportedVariant {
    /// The variant's `UCI_Variant` name.
    pub variant: &'static str,
    /// Whether the engine declares a `UCI_Variant` option (whose values lack the variant).
    pub declared: bool,
}

fn refusal(declared: bool) -> &'static str {
    if declared {
        "its UCI_Variant option does not list it"
    } else {
        "it declares no UCI_Variant option"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::protocol::{parse_line, EngineLine};

    fn options(lines: &[&str]) -> Vec<EngineOption> {
        let start = Position::startpos();
        lines
            .iter()
            .map(|line| match parse_line(line, &start) {
                Ok(EngineLine::Option(option)) => option,
                other => panic!("{line}: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_variant_is_set_in_the_engines_spelling_only_when_it_changes() {
        let combo = options(&["option name uci_variant type combo default Chess var Chess var CrazyHouse var 3check"]);
        assert_eq!(default_variant(&combo), "Chess");
        assert_eq!(variant_setting(&combo, "Chess", "chess"), Ok(None));
        assert_eq!(variant_setting(&combo, "Chess", "crazyhouse"), Ok(Some(("uci_variant", "CrazyHouse"))));
        assert_eq!(variant_setting(&combo, "3check", "chess"), Ok(Some(("uci_variant", "Chess"))));
        assert_eq!(
            variant_setting(&combo, "chess", "horde"),
            Err(UnsupportedVariant { variant: "horde", declared: true })
        );
        // A free-text option takes any name.
        let text = options(&["option name UCI_Variant type string default <empty>"]);
        assert_eq!(default_variant(&text), "chess");
        assert_eq!(variant_setting(&text, "chess", "atomic"), Ok(Some(("UCI_Variant", "atomic"))));
        let none = options(&["option name Hash type spin default 16 min 1 max 64"]);
        assert_eq!(default_variant(&none), "chess");
        assert_eq!(variant_setting(&none, "chess", "chess"), Ok(None));
        assert_eq!(
            variant_setting(&none, "chess", "atomic"),
            Err(UnsupportedVariant { variant: "atomic", declared: false })
        );
    }
}
