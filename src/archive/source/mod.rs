//! Where an input's bytes come from: the input list (`input`), local files and pipes (`local`,
//! `mapped`), remote objects (`remote`), their time limits (`limits`), and byte ranges of a
//! targeted scan (`ranges`).

pub mod input;
pub mod limits;
pub mod local;
pub mod mapped;
pub mod ranges;
pub mod remote;
