//! `chesscore pgn --svg DIR`: pictures of a game, one per ply.

use std::path::{Path, PathBuf};

use chesscore_core::pgn::PgnReader;
use chesscore_core::SvgOptions;

use super::{describe_pgn_error, PgnInput};
use crate::input::input_name;
use crate::output::{counted, io_text, write_file, Failure, Output};

/// `pgn --svg DIR`: a picture of every position of the first game's main line.
pub(super) fn game_pictures(dir: &Path, files: &[PathBuf], out: &mut Output) -> Result<(), Failure> {
    let [file] = files else {
        return Err(Failure::Message("--svg draws the first game of one file: give one file".to_string()));
    };
    let name = input_name(file);
    let game = match PgnReader::new(PgnInput::open(file)?).next_game() {
        Ok(Some(game)) => game,
        Ok(None) => return Err(format!("no game in {name}").into()),
        Err(e) => {
            let l = e.location;
            return Err(format!("{name}:{}:{}: game {}: {}", l.line, l.column, e.game, describe_pgn_error(&e)).into());
        }
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {}", dir.display(), io_text(&e)))?;
    for ply in 0..=game.moves().len() {
        // Every ply up to the number of moves has a position.
        let pos = game.position_at(ply).ok_or_else(|| format!("no position at ply {ply}"))?;
        let options = SvgOptions {
            last_move: ply.checked_sub(1).and_then(|i| game.moves().nth(i)),
            ..SvgOptions::for_position(pos)
        };
        write_file(&dir.join(format!("ply-{ply:03}.svg")), &pos.to_svg(&options))?;
    }
    let pictures = counted(game.moves().len() as u64 + 1, "picture", "pictures");
    writeln!(out, "{pictures} written to {}", dir.display())?;
    Ok(())
}
