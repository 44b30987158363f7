//! Pictures of a position: text diagrams ([`Diagram`](crate::Diagram)) and SVG boards
//! ([`SvgOptions`](crate::SvgOptions)). They read a position and write text, above the position
//! and notation layers.

pub(crate) mod render;
pub(crate) mod svg;
