//! Remote archives: `https://`, `http://` and `s3://` inputs, streamed with bounded memory through
//! the Arrow project's `object_store` (S3 and plain HTTP), and `s3://` output folders.
//!
//! A remote input is read front to back as a byte stream (`RemoteReader`, a blocking `Read` over
//! object_store's async stream) and decoded like any streamed input: nothing is downloaded whole.
//! Failures are retried at two levels:
//! * object_store retries failed requests (connect errors, 5xx, 429) with backoff, and, when the
//!   server gives an ETag, resumes a body cut mid-way with a Range request;
//! * `RemoteReader` resumes any stream that ends early or fails (also without an ETag) with a Range
//!   request from the last byte it delivered, up to [`MAX_RESUMES`] times in a row, pinned to the
//!   first response's ETag (`If-Match`) when there is one, so bytes of two versions never mix.
//!
//! Configuration is object_store's, from the environment: for S3 the usual `AWS_*` variables
//! (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT` or
//! `AWS_ENDPOINT_URL` for S3-compatible servers, `AWS_ALLOW_HTTP=true` for a plain-HTTP endpoint,
//! `AWS_SKIP_SIGNATURE=true` for public buckets without credentials).
//!
//! Why not object_store alone: its requests time out after 30 s by default, which a slow stream
//! of a 1 GB archive exceeds (the timeout is disabled here; a read timeout guards stalls), and its
//! body resumption needs an ETag, which many HTTP servers do not send.

use anyhow::{anyhow, bail, Context, Result};
use bytes::Bytes;
use futures::stream::{BoxStream, StreamExt};
use object_store::path::Path as StorePath;
use object_store::{ClientOptions, GetOptions, GetRange, ObjectStore, ObjectStoreExt, RetryConfig};
use std::io::Read;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::archive::source::limits::Clock;
pub use crate::archive::source::limits::Limits;

/// Consecutive failed resumptions of one input's stream before it is given up.
pub const MAX_RESUMES: u32 = 8;

/// Is this input argument a remote URL?
pub fn is_remote(s: &str) -> bool {
    let l = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    l.starts_with("s3://") || l.starts_with("http://") || l.starts_with("https://")
}

/// An error and its causes on one line, each part once (object_store's messages repeat their
/// sources).
pub fn error_text(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        for piece in cause.to_string().split(": ") {
            let piece = piece.trim();
            if !piece.is_empty() && !parts.iter().any(|p| p == piece) {
                parts.push(piece.to_string());
            }
        }
    }
    parts.join(": ")
}

/// The runtime that drives object_store's async requests for the blocking readers.
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("repcensus-io")
            .enable_all()
            .build()
            .expect("cannot start the I/O runtime")
    })
}

/// Run a future to completion from a (non-async) worker thread.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    runtime().block_on(f)
}

fn client_options(url: &url::Url) -> ClientOptions {
    ClientOptions::new()
        .with_timeout_disabled()
        .with_connect_timeout(Duration::from_secs(10))
        .with_read_timeout(Duration::from_secs(60))
        .with_allow_http(url.scheme() == "http")
}

fn retry_config() -> RetryConfig {
    RetryConfig {
        max_retries: 5,
        retry_timeout: Duration::from_secs(120),
        ..RetryConfig::default()
    }
}

/// The object store that serves `url`, and the object's path in it.
pub fn store_for(url: &str) -> Result<(Arc<dyn ObjectStore>, StorePath)> {
    let u = url::Url::parse(url).with_context(|| format!("bad URL {url:?}"))?;
    let path = StorePath::from_url_path(u.path()).with_context(|| format!("bad path in {url}"))?;
    let store: Arc<dyn ObjectStore> = match u.scheme() {
        "s3" => {
            let bucket = u.host_str().ok_or_else(|| anyhow!("no bucket in {url}"))?;
            let allow_http = std::env::var("AWS_ALLOW_HTTP")
                .is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
            let b = object_store::aws::AmazonS3Builder::from_env()
                .with_bucket_name(bucket)
                .with_client_options(client_options(&u).with_allow_http(allow_http))
                .with_retry(retry_config());
            Arc::new(b.build().with_context(|| format!("cannot reach {url}"))?)
        }
        "http" | "https" => Arc::new(
            object_store::http::HttpBuilder::new()
                .with_url(&u[..url::Position::BeforePath])
                .with_client_options(client_options(&u))
                .with_retry(retry_config())
                .build()
                .with_context(|| format!("cannot reach {url}"))?,
        ),
        s => bail!("unsupported URL scheme {s:?} in {url}"),
    };
    Ok((store, path))
}

/// A remote object read front to back as a blocking byte stream.
pub struct RemoteReader {
    url: String,
    store: Arc<dyn ObjectStore>,
    path: StorePath,
    size: u64,
    etag: Option<String>,
    offset: u64,
    stream: Option<BoxStream<'static, object_store::Result<Bytes>>>,
    buf: Bytes,
    failures: u32,
    /// Resumptions over the whole object (for the log and the tests).
    pub resumes: u32,
    clock: Clock,
}

impl RemoteReader {
    /// Look the object up (its size and ETag) with a HEAD request; no body is fetched yet. A
    /// server that refuses HEAD (object_store reports its 405 as "not found") is asked with a GET,
    /// whose body is then the stream read.
    pub fn open(url: &str, limits: Limits) -> Result<Self> {
        let (store, path) = store_for(url)?;
        let mut reader = RemoteReader {
            url: url.to_string(),
            store,
            path,
            size: 0,
            etag: None,
            offset: 0,
            stream: None,
            buf: Bytes::new(),
            failures: 0,
            resumes: 0,
            clock: limits.start(),
        };
        let head = reader.within(reader.store.head(&reader.path));
        let meta = match head {
            Ok(Ok(meta)) => meta,
            _ => {
                let got = reader.within(reader.store.get_opts(&reader.path, GetOptions::default()));
                let got = got
                    .map_err(|e| anyhow!(e))
                    .and_then(|r| r.map_err(anyhow::Error::from))
                    .with_context(|| format!("cannot open {url}"))?;
                let meta = got.meta.clone();
                reader.stream = Some(got.into_stream());
                meta
            }
        };
        reader.size = meta.size;
        reader.etag = meta.e_tag;
        Ok(reader)
    }

    /// Run `f` for at most the stall timeout (less when the deadline is nearer).
    fn within<F: std::future::Future>(&self, f: F) -> std::result::Result<F::Output, String> {
        let wait = self.clock.next_wait();
        block_on(async { tokio::time::timeout(wait, f).await })
            .map_err(|_| format!("no answer for {} s (--stall-timeout)", wait.as_secs()))
    }

    /// An error once the input's deadline has passed, saying where the reading stopped.
    fn check_deadline(&self) -> std::io::Result<()> {
        self.clock.check().map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "{}: gave up at byte {} of {}: {e}",
                    self.url, self.offset, self.size
                ),
            )
        })
    }

    /// The object's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn start(&mut self) -> std::result::Result<(), String> {
        let options = GetOptions {
            range: (self.offset > 0).then_some(GetRange::Offset(self.offset)),
            if_match: self.etag.clone(),
            ..GetOptions::default()
        };
        let result = self
            .within(self.store.get_opts(&self.path, options))?
            .map_err(|e| e.to_string())?;
        self.stream = Some(result.into_stream());
        Ok(())
    }

    /// Count a failure; give up after too many in a row, else wait and go on from `offset`.
    fn failed(&mut self, why: String) -> std::io::Result<()> {
        self.stream = None;
        self.failures += 1;
        if self.failures > MAX_RESUMES {
            return Err(std::io::Error::other(format!(
                "{}: gave up at byte {} of {} after {} failed attempts: {why}",
                self.url, self.offset, self.size, MAX_RESUMES
            )));
        }
        self.resumes += 1;
        eprintln!(
            "repcensus: {}: {why} at byte {} of {}; resuming (attempt {})",
            self.url, self.offset, self.size, self.failures
        );
        let pause = Duration::from_millis(100 << self.failures.min(6));
        std::thread::sleep(pause.min(self.clock.left()));
        self.check_deadline()
    }
}

/// The stream's next item, and the stream (moved in and out, so that the future `within` bounds
/// owns what it polls).
async fn into_next(
    mut stream: BoxStream<'static, object_store::Result<Bytes>>,
) -> (
    Option<object_store::Result<Bytes>>,
    BoxStream<'static, object_store::Result<Bytes>>,
) {
    let next = stream.next().await;
    (next, stream)
}

impl Read for RemoteReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if !self.buf.is_empty() {
                let n = out.len().min(self.buf.len());
                out[..n].copy_from_slice(&self.buf[..n]);
                bytes::Buf::advance(&mut self.buf, n);
                self.offset += n as u64;
                return Ok(n);
            }
            if self.offset >= self.size || out.is_empty() {
                return Ok(0);
            }
            self.check_deadline()?;
            if self.stream.is_none() {
                if let Err(e) = self.start() {
                    self.failed(e)?;
                    continue;
                }
            }
            let stream = self.stream.take().expect("started above");
            let (next, stream) = match self.within(into_next(stream)) {
                Ok(got) => got,
                Err(stalled) => {
                    self.failed(stalled)?;
                    continue;
                }
            };
            self.stream = Some(stream);
            match next {
                Some(Ok(b)) => {
                    if !b.is_empty() {
                        self.failures = 0;
                    }
                    // Never deliver past the size the object had when opened.
                    let room = (self.size - self.offset) as usize;
                    self.buf = if b.len() > room { b.slice(..room) } else { b };
                }
                Some(Err(e)) => self.failed(e.to_string())?,
                None => self.failed("the connection ended early".to_string())?,
            }
        }
    }
}
