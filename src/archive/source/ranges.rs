//! Byte ranges of archives, fetched for a targeted census (`scan --records`): a local file's
//! ranges are read in place; an `http(s)://` archive's are asked for with Range requests
//! (`reqwest`, which object_store builds anyway), an `s3://` archive's through object_store.
//!
//! Nearby records of one archive are fetched together ([`coalesce`]), a bounded number of
//! requests is in flight at once over all workers, and a failed request is tried again:
//! * `429` and `503` wait what `Retry-After` says (seconds or a date, at most
//!   [`RETRY_AFTER_MAX`]), else the backoff;
//! * `403`, which Common Crawl's front end answers to heavy use, and the others of these three,
//!   also hold back every request of the run for that long: a burst of refusals slows the whole
//!   run, not only the request that met it;
//! * other `5xx`, `408`, a dropped connection, a body cut short or stalled for the stall timeout
//!   wait the backoff (1 s, doubled each time, at most 30 s);
//!
//! up to [`MAX_ATTEMPTS`] requests per range, and never past the input's deadline. A `206` of
//! other bytes than asked (or more of them: a body is read a piece at a time and never kept past
//! the span), a `404` or a `416` past the archive's end fail the range at once: retrying would
//! not help. A server that ignores Range (`200`, the whole file) has the span cut out of its
//! answer as it streams by when the span ends within [`WHOLE_ANSWER_MAX`], and fails the range
//! otherwise, as does a `416` for bytes the archive has: the input fails and `--resume` asks
//! again. A redirect is followed only to the host the request went to ([`Redirects`]).
//!
//! object_store is not used for HTTP: it neither reads `Retry-After` nor retries a `403`. For S3
//! it is (signing, regions); S3 answers throttling with `503 SlowDown`, which object_store itself
//! retries with backoff, and the retries here add the `403` and the run-wide hold.

use crate::archive::source::limits::Limits;
use crate::archive::source::remote::{self, block_on};
use anyhow::{anyhow, Result};
use bytes::Bytes;
use futures::stream::{self, Stream, StreamExt};
use object_store::{GetOptions, GetRange, ObjectStore};
use std::collections::HashMap;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Requests made for one range at most, the first included.
pub const MAX_ATTEMPTS: u32 = 8;
/// The longest wait a `Retry-After` is followed for; a longer one waits this long.
pub const RETRY_AFTER_MAX: Duration = Duration::from_secs(300);
const BACKOFF_FIRST: Duration = Duration::from_secs(1);
const BACKOFF_MAX: Duration = Duration::from_secs(30);

/// Records of one archive closer than this are fetched by one request (the bytes between them
/// are fetched too and not read).
pub const COALESCE_GAP: u64 = 64 << 10;
/// A request asks for at most this many bytes, unless one record is larger.
pub const COALESCE_MAX: u64 = 8 << 20;

/// The span of one request: `start..end` of `archive`, and the records it holds, by their place
/// in the caller's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub archive: usize,
    pub start: u64,
    pub end: u64,
    pub records: std::ops::Range<usize>,
}

/// The requests for `records`, each `(start, length)`, sorted by start: records closer than
/// `gap` go into one request of at most `max` bytes (a record larger than `max` is a request of
/// its own).
pub fn coalesce(archive: usize, records: &[(u64, u64)], gap: u64, max: u64) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    for (k, &(start, len)) in records.iter().enumerate() {
        let end = start + len;
        match spans.last_mut() {
            Some(s) if start <= s.end + gap && end.max(s.end) - s.start <= max => {
                s.end = s.end.max(end);
                s.records.end = k + 1;
            }
            _ => spans.push(Span {
                archive,
                start,
                end,
                records: k..k + 1,
            }),
        }
    }
    spans
}

/// Where a range request may be redirected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Redirects {
    /// Only to the host the request was made to (another path, scheme or port of it): a list
    /// names the host its records are fetched from, and a redirect elsewhere is refused with
    /// an `errors` row saying where it pointed.
    #[default]
    SameHost,
    /// To any host (`--range-redirects any`).
    Any,
}

/// Redirects followed for one request at most.
const MAX_REDIRECTS: usize = 10;

/// The largest prefix of an archive read out of a server's whole-file answer (a `200` to a
/// Range request, from a server that ignores Range): a span that ends within it is cut out of
/// the answer as it streams by (never more than the span held); one that ends past it fails
/// (the input fails, and `--resume` asks again).
pub const WHOLE_ANSWER_MAX: u64 = 64 << 20;

/// Why a range could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// The server answered, but not with the bytes asked for (a `200` with the whole file, a
    /// `206` of another range, a `416`): the list's offset or the server is wrong.
    NotTheRange(String),
    /// No answer with the bytes: the archive is not there, the retries or the deadline were
    /// spent.
    Failed(String),
}

impl FetchError {
    pub fn detail(&self) -> &str {
        match self {
            FetchError::NotTheRange(d) | FetchError::Failed(d) => d,
        }
    }
}

/// Requests made and bytes fetched, over a run.
#[derive(Debug, Default)]
pub struct FetchCounts {
    pub requests: AtomicU64,
    pub bytes: AtomicU64,
    pub retries: AtomicU64,
}

/// What the fetches of a run share: the bound on requests in flight, the hold that refusals
/// put on all of them, the HTTP client and the S3 stores.
pub struct Fetcher {
    slots: Arc<tokio::sync::Semaphore>,
    concurrency: usize,
    hold: Arc<Mutex<Instant>>,
    http: reqwest::Client,
    stores: Mutex<HashMap<String, Arc<dyn ObjectStore>>>,
    pub counts: Arc<FetchCounts>,
}

/// One request's answer, and the place of its span in the caller's list.
pub type Answer = (usize, Result<Bytes, FetchError>);

impl Fetcher {
    /// A fetcher with at most `concurrency` requests in flight; `limits.stall` is how long a
    /// response may go without a byte.
    /// `redirects`: which redirects a request follows.
    pub fn new(concurrency: usize, limits: Limits, redirects: Redirects) -> Result<Self> {
        let http = reqwest::Client::builder()
            .redirect(redirect_policy(redirects))
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(limits.stall)
            .pool_max_idle_per_host(concurrency.max(1))
            .build()
            .map_err(|e| anyhow!("cannot start the HTTP client: {e}"))?;
        Ok(Fetcher {
            slots: Arc::new(tokio::sync::Semaphore::new(concurrency.max(1))),
            concurrency: concurrency.max(1),
            hold: Arc::new(Mutex::new(Instant::now())),
            http,
            stores: Mutex::new(HashMap::new()),
            counts: Arc::default(),
        })
    }

    /// The answers for `spans` of `archives` (names as given: a path, `http(s)://` or
    /// `s3://`), in the order of `spans`, while up to the fetcher's bound of them are in flight.
    /// `deadline`: how long the requests for one span may take in all, from the first (no
    /// request is started or waited for past it): the `--input-deadline` of whole inputs,
    /// applied to each range, so that one archive that hangs does not fail the records after it.
    pub fn fetch<'a>(
        &'a self,
        archives: &'a [String],
        spans: &'a [Span],
        deadline: Option<Duration>,
    ) -> impl Iterator<Item = Answer> + 'a {
        let answers = stream::iter(spans.iter().enumerate())
            .map(move |(k, span)| {
                let name = &archives[span.archive];
                let (start, end) = (span.start, span.end);
                let task = self.task(name, start, end, deadline);
                async move { (k, task.await) }
            })
            .buffered(self.concurrency);
        BlockingIter(Box::pin(answers))
    }

    /// One span's fetch, started on the I/O runtime now (so that it runs while the caller
    /// reads earlier answers).
    fn task(
        &self,
        name: &str,
        start: u64,
        end: u64,
        deadline: Option<Duration>,
    ) -> impl std::future::Future<Output = Result<Bytes, FetchError>> {
        let job = Job {
            name: name.to_string(),
            start,
            end,
            deadline: deadline.map(|d| Instant::now() + d),
            slots: Arc::clone(&self.slots),
            hold: Arc::clone(&self.hold),
            counts: Arc::clone(&self.counts),
        };
        let handle = if remote::is_remote(name) {
            let source = if name.to_ascii_lowercase().starts_with("s3://") {
                match self.store(name) {
                    Ok(s) => Source::S3(s),
                    Err(e) => Source::Broken(remote::error_text(&e)),
                }
            } else {
                Source::Http(self.http.clone())
            };
            Ok(remote::runtime().spawn(job.run(source)))
        } else {
            Err(job)
        };
        async move {
            match handle {
                Ok(h) => h
                    .await
                    .unwrap_or_else(|e| Err(FetchError::Failed(format!("the fetch failed: {e}")))),
                Err(job) => read_local(&job),
            }
        }
    }

    /// The S3 store of `url`'s bucket, made once per bucket.
    fn store(&self, url: &str) -> Result<Arc<dyn ObjectStore>> {
        let bucket = url[5..].split('/').next().unwrap_or("").to_string();
        let mut stores = self.stores.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = stores.get(&bucket) {
            return Ok(Arc::clone(s));
        }
        let (store, _) = remote::store_for(url)?;
        stores.insert(bucket, Arc::clone(&store));
        Ok(store)
    }
}

/// reqwest's policy for `redirects`: a redirect it does not follow is handed back as the
/// `3xx` answer, which [`Job::attempt_http`] refuses with where it pointed.
fn redirect_policy(redirects: Redirects) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        let first_host = attempt.previous().first().and_then(|u| u.host_str());
        let same = attempt
            .url()
            .host_str()
            .zip(first_host)
            .is_some_and(|(to, from)| to.eq_ignore_ascii_case(from));
        if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else if same || redirects == Redirects::Any {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

/// A stream of answers read from a blocking thread, one `block_on` per answer.
struct BlockingIter<S>(std::pin::Pin<Box<S>>);

impl<S: Stream<Item = Answer>> Iterator for BlockingIter<S> {
    type Item = Answer;
    fn next(&mut self) -> Option<Answer> {
        block_on(self.0.next())
    }
}

enum Source {
    Http(reqwest::Client),
    S3(Arc<dyn ObjectStore>),
    Broken(String),
}

/// One span to fetch, with what the run's fetches share.
struct Job {
    name: String,
    start: u64,
    end: u64,
    deadline: Option<Instant>,
    slots: Arc<tokio::sync::Semaphore>,
    hold: Arc<Mutex<Instant>>,
    counts: Arc<FetchCounts>,
}

/// How one attempt ended.
enum Attempt {
    Done(Bytes),
    /// Worth another attempt, after this long (and holding every request back so long when
    /// `hold_all`).
    Again {
        why: String,
        wait: Option<Duration>,
        hold_all: bool,
    },
    Give(FetchError),
}

impl Attempt {
    /// Worth another attempt after the backoff.
    fn again(why: String) -> Self {
        Attempt::Again {
            why,
            wait: None,
            hold_all: false,
        }
    }
}

impl Job {
    async fn run(self, source: Source) -> Result<Bytes, FetchError> {
        let mut backoff = BACKOFF_FIRST;
        let mut last = String::new();
        for attempt in 1..=MAX_ATTEMPTS {
            self.wait_for_hold().await?;
            let outcome = {
                let _slot =
                    self.slots.acquire().await.map_err(|e| {
                        FetchError::Failed(format!("the fetches were stopped: {e}"))
                    })?;
                self.counts.requests.fetch_add(1, Ordering::Relaxed);
                let attempt = self.attempt(&source);
                match self.deadline {
                    Some(d) => tokio::time::timeout_at(d.into(), attempt)
                        .await
                        .unwrap_or_else(|_| Attempt::Give(self.past_deadline())),
                    None => attempt.await,
                }
            };
            match outcome {
                Attempt::Done(b) => {
                    self.counts
                        .bytes
                        .fetch_add(b.len() as u64, Ordering::Relaxed);
                    return Ok(b);
                }
                Attempt::Give(e) => return Err(e),
                Attempt::Again {
                    why,
                    wait,
                    hold_all,
                } => {
                    last = why;
                    if attempt == MAX_ATTEMPTS {
                        break;
                    }
                    self.counts.retries.fetch_add(1, Ordering::Relaxed);
                    // The backoff grows only when it is what was waited.
                    let wait = match wait {
                        Some(w) => w.min(RETRY_AFTER_MAX),
                        None => {
                            let next = (backoff * 2).min(BACKOFF_MAX);
                            std::mem::replace(&mut backoff, next)
                        }
                    };
                    if hold_all {
                        let mut h = self.hold.lock().unwrap_or_else(|p| p.into_inner());
                        *h = (*h).max(Instant::now() + wait);
                    } else {
                        self.sleep(wait).await?;
                    }
                }
            }
        }
        Err(FetchError::Failed(format!(
            "{} requests failed, the last: {last}",
            MAX_ATTEMPTS
        )))
    }

    fn past_deadline(&self) -> FetchError {
        FetchError::Failed("the deadline of a range (--input-deadline) passed".to_string())
    }

    /// Sleep `wait`, or fail when the deadline comes first.
    async fn sleep(&self, wait: Duration) -> Result<(), FetchError> {
        let until = Instant::now() + wait;
        if self.deadline.is_some_and(|d| d < until) {
            return Err(self.past_deadline());
        }
        tokio::time::sleep_until(until.into()).await;
        Ok(())
    }

    /// Wait while refusals hold every request back.
    async fn wait_for_hold(&self) -> Result<(), FetchError> {
        loop {
            let until = *self.hold.lock().unwrap_or_else(|p| p.into_inner());
            let now = Instant::now();
            if until <= now {
                return Ok(());
            }
            self.sleep(until - now).await?;
        }
    }

    async fn attempt(&self, source: &Source) -> Attempt {
        match source {
            Source::Http(client) => self.attempt_http(client).await,
            Source::S3(store) => self.attempt_s3(store.as_ref()).await,
            Source::Broken(why) => Attempt::Give(FetchError::Failed(why.clone())),
        }
    }

    async fn attempt_http(&self, client: &reqwest::Client) -> Attempt {
        let (start, last) = (self.start, self.end - 1);
        let sent = client
            .get(&self.name)
            .header(reqwest::header::RANGE, format!("bytes={start}-{last}"))
            .send()
            .await;
        let resp = match sent {
            Ok(r) => r,
            Err(e) => return Attempt::again(error_chain(&e)),
        };
        let status = resp.status().as_u16();
        match status {
            206 => {}
            200 => return self.cut_from_whole(resp).await,
            416 => return Attempt::Give(self.refused_range(resp.headers())),
            300..=399 => {
                let to = (resp.headers().get(reqwest::header::LOCATION))
                    .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                    .unwrap_or_else(|| "nowhere (no Location)".to_string());
                return Attempt::Give(FetchError::Failed(format!(
                    "HTTP {status}: redirected to {to}, another host than the list names \
                     (not followed; --range-redirects any follows it)"
                )));
            }
            404 | 410 => {
                return Attempt::Give(FetchError::Failed(format!("{status}: no such archive")))
            }
            403 | 429 | 503 => {
                return Attempt::Again {
                    why: format!("HTTP {status}"),
                    wait: retry_after(resp.headers()),
                    hold_all: true,
                }
            }
            408 | 500..=599 => return Attempt::again(format!("HTTP {status}")),
            _ => return Attempt::Give(FetchError::Failed(format!("HTTP {status}"))),
        }
        let range = resp
            .headers()
            .get(reqwest::header::CONTENT_RANGE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if let Some(range) = &range {
            if !content_range_is(range, start, last) {
                let size = range
                    .rsplit('/')
                    .next()
                    .and_then(|n| n.trim().parse::<u64>().ok());
                let why = match size {
                    Some(size) if size <= last => format!(
                        "bytes {start}-{last} run past the end of the archive ({size} bytes)"
                    ),
                    _ => format!("asked for bytes {start}-{last}, the server sent {range}"),
                };
                return Attempt::Give(FetchError::NotTheRange(why));
            }
        }
        let asked = self.end - self.start;
        if let Some(len) = resp.content_length().filter(|&l| l != asked) {
            return Attempt::Give(FetchError::NotTheRange(format!(
                "asked for {asked} bytes, the server announced {len}"
            )));
        }
        self.read_body(resp, 0).await
    }

    /// The body of a `206`, or the span's bytes of a whole-file `200` (`skip`: the bytes before
    /// them), read a piece at a time: never more than the span is kept, and a body that runs
    /// past it is a mismatch, not a buffer without bound.
    async fn read_body(&self, mut resp: reqwest::Response, skip: u64) -> Attempt {
        let asked = self.end - self.start;
        let whole = skip > 0 || resp.status().as_u16() == 200;
        let mut buf = bytes::BytesMut::with_capacity(asked.min(COALESCE_MAX) as usize);
        let mut to_skip = skip;
        loop {
            let piece = match resp.chunk().await {
                Ok(Some(p)) => p,
                Ok(None) => break,
                Err(e) => return Attempt::again(error_chain(&e)),
            };
            let mut piece = &piece[..];
            let dropped = to_skip.min(piece.len() as u64);
            piece = &piece[dropped as usize..];
            to_skip -= dropped;
            let room = (asked - buf.len() as u64) as usize;
            if piece.len() > room && !whole {
                return Attempt::Give(FetchError::NotTheRange(format!(
                    "the server sent more than the {asked} bytes asked for"
                )));
            }
            buf.extend_from_slice(&piece[..piece.len().min(room)]);
            if whole && buf.len() as u64 == asked {
                // The rest of the whole file is not read: dropping the answer closes it.
                return Attempt::Done(buf.freeze());
            }
        }
        match buf.len() as u64 {
            n if n == asked => Attempt::Done(buf.freeze()),
            n if whole => Attempt::Give(FetchError::NotTheRange(format!(
                "the server ignores Range and its whole file ends {} bytes short of byte {}",
                asked - n,
                self.end - 1
            ))),
            n => Attempt::again(format!("{n} of {asked} bytes arrived")),
        }
    }

    /// A `200` to a Range request: the server sends the whole file. The span is cut out of it
    /// when it ends within [`WHOLE_ANSWER_MAX`]; else the fetch fails (the input fails, and
    /// `--resume` asks again), never "done" with nothing read.
    async fn cut_from_whole(&self, resp: reqwest::Response) -> Attempt {
        if self.end > WHOLE_ANSWER_MAX {
            return Attempt::Give(FetchError::Failed(format!(
                "the server ignores Range (it answered 200 with the whole file), and bytes \
                 {}-{} lie past the first {} MiB of it that are read so",
                self.start,
                self.end - 1,
                WHOLE_ANSWER_MAX >> 20
            )));
        }
        self.read_body(resp, self.start).await
    }

    /// A `416`: the range is past the end of the archive when the server says how long it is
    /// and the range starts after that (the list's offset is wrong); otherwise the server
    /// refuses a range it has, and the fetch fails (`--resume` asks again).
    fn refused_range(&self, headers: &reqwest::header::HeaderMap) -> FetchError {
        let (start, last) = (self.start, self.end - 1);
        let size = (headers.get(reqwest::header::CONTENT_RANGE))
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().strip_prefix("bytes */"))
            .and_then(|n| n.trim().parse::<u64>().ok());
        match size {
            Some(size) if start >= size => FetchError::NotTheRange(format!(
                "416: the range {start}-{last} is past the end of the archive ({size} bytes)"
            )),
            Some(size) => FetchError::Failed(format!(
                "416: the server refused the range {start}-{last} of an archive of {size} bytes"
            )),
            None => FetchError::Failed(format!(
                "416: the server refused the range {start}-{last} without saying the archive's size"
            )),
        }
    }

    async fn attempt_s3(&self, store: &dyn ObjectStore) -> Attempt {
        let path = match url::Url::parse(&self.name)
            .ok()
            .and_then(|u| object_store::path::Path::from_url_path(u.path()).ok())
        {
            Some(p) => p,
            None => return Attempt::Give(FetchError::Failed(format!("bad URL {}", self.name))),
        };
        let options = GetOptions {
            range: Some(GetRange::Bounded(self.start..self.end)),
            ..GetOptions::default()
        };
        let asked = self.end - self.start;
        let got = match store.get_opts(&path, options).await {
            Ok(g) => bounded_bytes(g.into_stream(), asked).await,
            Err(e) => Err(e),
        };
        match got {
            Ok(b) if b.len() as u64 == self.end - self.start => Attempt::Done(b),
            Ok(b) if b.len() as u64 > asked => Attempt::Give(FetchError::NotTheRange(format!(
                "the store sent more than the {asked} bytes asked for"
            ))),
            Ok(b) => Attempt::Give(FetchError::NotTheRange(format!(
                "{} of {} bytes: the range runs past the end of the archive",
                b.len(),
                self.end - self.start
            ))),
            Err(object_store::Error::NotFound { .. }) => {
                Attempt::Give(FetchError::Failed("no such archive".to_string()))
            }
            Err(e @ object_store::Error::PermissionDenied { .. }) => Attempt::Again {
                why: remote::error_text(&e.into()),
                wait: None,
                hold_all: true,
            },
            Err(e) => {
                let why = remote::error_text(&e.into());
                if why.contains("non-partial") || why.contains("Range") {
                    Attempt::Give(FetchError::NotTheRange(why))
                } else {
                    Attempt::again(why)
                }
            }
        }
    }
}

/// A body's pieces, up to one byte more than `asked` (which says it sent too much): never
/// the whole of a body that does not end.
async fn bounded_bytes(
    mut pieces: impl Stream<Item = object_store::Result<Bytes>> + Unpin,
    asked: u64,
) -> object_store::Result<Bytes> {
    let mut buf = bytes::BytesMut::with_capacity(asked.min(COALESCE_MAX) as usize);
    while let Some(piece) = pieces.next().await {
        let piece = piece?;
        let room = (asked + 1).saturating_sub(buf.len() as u64) as usize;
        buf.extend_from_slice(&piece[..piece.len().min(room)]);
        if buf.len() as u64 > asked {
            break;
        }
    }
    Ok(buf.freeze())
}

/// A local archive's range, read in place. Only a regular file has ranges: a FIFO, device or
/// socket named in a list is refused at once (opened without blocking, so that a FIFO with no
/// writer does not hang the run).
fn read_local(job: &Job) -> Result<Bytes, FetchError> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&job.name)
        .map_err(|e| FetchError::Failed(format!("cannot open {}: {e}", job.name)))?;
    let meta = (file.metadata())
        .map_err(|e| FetchError::Failed(format!("cannot read {}: {e}", job.name)))?;
    if !meta.is_file() {
        return Err(FetchError::Failed(format!(
            "{} is not a regular file (a FIFO, device or socket has no byte ranges)",
            job.name
        )));
    }
    let size = meta.len();
    if job.end > size {
        return Err(FetchError::NotTheRange(format!(
            "bytes {}-{} run past the end of the archive ({size} bytes)",
            job.start,
            job.end - 1
        )));
    }
    let mut buf = vec![0u8; (job.end - job.start) as usize];
    file.read_exact_at(&mut buf, job.start)
        .map_err(|e| FetchError::Failed(format!("cannot read {}: {e}", job.name)))?;
    job.counts.requests.fetch_add(1, Ordering::Relaxed);
    job.counts
        .bytes
        .fetch_add(buf.len() as u64, Ordering::Relaxed);
    Ok(Bytes::from(buf))
}

/// An error and its sources on one line (reqwest's own message says only "error sending request").
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        parts.push(s.to_string());
        source = s.source();
    }
    parts.join(": ")
}

/// Does a `Content-Range` header say `bytes start-last/...`?
fn content_range_is(header: &str, start: u64, last: u64) -> bool {
    let Some(range) = header.trim().strip_prefix("bytes ") else {
        return false;
    };
    let span = range.split('/').next().unwrap_or("");
    span == format!("{start}-{last}")
}

/// A `Retry-After` header's wait: seconds, or an HTTP date (the wait until it).
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs).min(RETRY_AFTER_MAX));
    }
    let at = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let wait = at.timestamp() - chrono::Utc::now().timestamp();
    Some(Duration::from_secs(wait.max(0) as u64).min(RETRY_AFTER_MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearby_records_share_a_request_and_far_or_large_ones_do_not() {
        let records = [(0, 100), (150, 100), (100_000, 50), (100_060, 9 << 20)];
        let spans = coalesce(3, &records, 1000, 8 << 20);
        let got: Vec<(u64, u64, std::ops::Range<usize>)> = spans
            .iter()
            .map(|s| (s.start, s.end, s.records.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 250, 0..2),
                (100_000, 100_050, 2..3),
                (100_060, 100_060 + (9 << 20), 3..4)
            ]
        );
        assert!(spans.iter().all(|s| s.archive == 3));
    }

    #[test]
    fn a_request_never_grows_past_its_bound_for_many_small_records() {
        let records: Vec<(u64, u64)> = (0..1000).map(|k| (k * 1000, 900)).collect();
        let spans = coalesce(0, &records, COALESCE_GAP, 100_000);
        assert!(spans.iter().all(|s| s.end - s.start <= 100_000));
        let covered: usize = spans.iter().map(|s| s.records.len()).sum();
        assert_eq!(covered, 1000);
        assert_eq!(spans.len(), 10);
    }

    #[test]
    fn content_range_must_name_the_bytes_asked_for() {
        assert!(content_range_is("bytes 10-19/100", 10, 19));
        assert!(!content_range_is("bytes 0-99/100", 10, 19));
        assert!(!content_range_is("items 10-19/100", 10, 19));
    }

    #[test]
    fn retry_after_reads_seconds_and_dates_and_caps_them() {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert(reqwest::header::RETRY_AFTER, "3".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert(reqwest::header::RETRY_AFTER, "86400".parse().unwrap());
        assert_eq!(retry_after(&h), Some(RETRY_AFTER_MAX));
        h.insert(
            reqwest::header::RETRY_AFTER,
            "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
        h.insert(reqwest::header::RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&h), None);
    }
}
