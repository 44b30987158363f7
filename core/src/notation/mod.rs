//! The notation layer: positions and moves as text and bytes. A [`Setup`](crate::Setup) is the
//! plain data every position reader meets in; FEN (with the validation of a setup into a
//! position), EPD and binary FEN read and write positions, UCI and SAN moves. Everything here
//! is built on the position layer, and nothing below it knows about text.

pub(crate) mod binary_fen;
pub(crate) mod epd;
pub mod fen;
pub(crate) mod material;
pub(crate) mod san;
pub(crate) mod setup;
pub(crate) mod uci;
