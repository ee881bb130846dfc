//! The real robots.txt bodies the *robots-real* kind draws from: every 2xx robots.txt body of an
//! archive, read with the project's own reader.

use crate::archive::container::reader::{read_gzip_members, read_plain, ReadBuffers};
use crate::archive::framing::sink::{Record, Sink};
use crate::archive::heads::http::{parse_response, BodyDecoder};
use crate::archive::heads::record::{strip_angle, trim, unfold};
use crate::archive::problem::ReadError;
use crate::archive::source::input::{sniff, Container};
use std::io;

/// The robots.txt bodies of a folder of files (each non-empty file whose name ends in `.txt`, in
/// name order) or of an
/// archive (the 2xx bodies of its `resource` and `response` records of robots.txt URLs, as
/// `samples/real-robots.warc.gz` holds them): the corpus of [`super::GenKind::RobotsReal`].
pub fn real_bodies(path: &std::path::Path) -> io::Result<Vec<Vec<u8>>> {
    let mut bodies = Vec::new();
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        files.sort();
        let txt = |f: &std::path::PathBuf| f.extension().is_some_and(|e| e == "txt");
        for f in files.into_iter().filter(|f| f.is_file() && txt(f)) {
            bodies.push(std::fs::read(f)?);
        }
    } else {
        let data = std::fs::read(path)?;
        let mut sink = RobotsBodies::default();
        match sniff(&data[..data.len().min(16)]) {
            Container::Gzip => {
                let mut bufs = ReadBuffers::new();
                read_gzip_members(&data, 0, data.len(), &mut bufs, &mut sink);
            }
            Container::Plain => {
                read_plain(&data, 0, data.len(), &mut sink);
            }
            other => {
                return Err(io::Error::other(format!(
                    "{}: a {other:?} archive; give a plain or per-record gzip WARC, or a folder",
                    path.display()
                )))
            }
        }
        if let Some(first) = sink.problems.first() {
            return Err(io::Error::other(format!(
                "{}: {} problem(s) reading it as an archive, the first: {first}",
                path.display(),
                sink.problems.len()
            )));
        }
        bodies = sink.bodies;
    }
    bodies.retain(|b| !b.is_empty());
    if bodies.is_empty() {
        return Err(io::Error::other(format!(
            "{}: no robots.txt bodies found",
            path.display()
        )));
    }
    Ok(bodies)
}

/// Collects the 2xx robots.txt bodies of an archive, and the problems reading it (a damaged
/// corpus is refused rather than silently thinned).
#[derive(Default)]
pub(super) struct RobotsBodies {
    pub(super) bodies: Vec<Vec<u8>>,
    pub(super) problems: Vec<String>,
}

impl Sink for RobotsBodies {
    fn record(&mut self, rec: &Record<'_>) {
        let uri = unfold(rec.head.target_uri);
        if !strip_angle(&uri).ends_with(b"/robots.txt") {
            return;
        }
        let ty = unfold(rec.head.warc_type);
        if trim(&ty).eq_ignore_ascii_case(b"resource") {
            self.bodies.push(rec.block.to_vec());
        } else if trim(&ty).eq_ignore_ascii_case(b"response") {
            let Some(h) = parse_response(rec.block) else {
                return;
            };
            if (200..300).contains(&h.status.unwrap_or(0)) {
                let mut decoder = BodyDecoder::default();
                let (body, _) = decoder.decode(&h, rec.block);
                self.bodies.push(body.to_vec());
            }
        }
    }

    fn error(&mut self, err: ReadError) {
        let at = err
            .offset
            .map_or(String::new(), |o| format!(" at offset {o}"));
        self.problems
            .push(format!("{}{at}: {}", err.kind, err.detail));
    }
}
