//! Parquet parts, written so that a reader never sees a partial file.
//!
//! Layout: `OUT/<table>/crawl=<crawl>/part-<input-id>.parquet`, readable with
//! `read_parquet('OUT/<table>/**/*.parquet', hive_partitioning = true)`. Every part is first
//! written whole into a staging folder outside the table folders (`OUT/.staging/<run>/`) and then
//! renamed into place; the `inputs` part of an input is renamed last, so its presence says the
//! input's other parts are complete. A killed run leaves at most its staging folder, which the
//! next run removes when the process that made it is gone.
//!
//! An `s3://bucket/prefix` output folder is written the same way: parts are staged in a local
//! temporary folder and, when complete, uploaded to their key (an S3 object appears whole, when its
//! upload completes), the `inputs` part last; stale parts are deleted by key.

use super::part::{PartOutcome, PartWriter, TableDesc};
use anyhow::{Context, Result};
use arrow_array::RecordBatch;
use std::path::{Path, PathBuf};

const STAGING: &str = ".staging";

/// The `crawl=` folder of each table's file with no rows ([`OutDir::write_schemas`]): no crawl
/// is named so (`archive::source::input::sanitize` renames one).
pub const SCHEMA_CRAWL: &str = "_schema";

/// Rows per batch when parts are read back ([`OutDir::each_batch`]).
const READ_BATCH: usize = 8192;

/// The output folder of a run.
pub struct OutDir {
    /// The folder (for an `s3://` output, the local folder the keys are mirrored from: only its
    /// staging folder is written).
    root: PathBuf,
    staging: PathBuf,
    remote: Option<RemoteOut>,
    /// The crawls that lost a part to another crawl in a commit (an input scanned again under
    /// another crawl name): what is derived from their parts must be derived again.
    left: std::sync::Mutex<std::collections::BTreeSet<String>>,
}

/// An object-store output: the store and the key prefix that stands for the folder.
struct RemoteOut {
    store: std::sync::Arc<dyn object_store::ObjectStore>,
    prefix: object_store::path::Path,
    url: String,
}

impl OutDir {
    /// Create the output folder and this run's staging folder; clean up stale staging folders.
    pub fn create(root: &Path) -> Result<Self> {
        if let Some(url) = root
            .to_str()
            .filter(|u| crate::archive::source::remote::is_remote(u))
        {
            anyhow::ensure!(
                url.starts_with("s3://"),
                "--out takes a folder or an s3:// prefix, not {url}"
            );
            let (store, prefix) = crate::archive::source::remote::store_for(url)?;
            let local = std::env::temp_dir().join(format!("repcensus-out-{}", std::process::id()));
            let mut out = OutDir::create(&local)?;
            out.remote = Some(RemoteOut {
                store,
                prefix,
                url: url.trim_end_matches('/').to_string(),
            });
            return Ok(out);
        }
        std::fs::create_dir_all(root)
            .with_context(|| format!("cannot create output folder {}", root.display()))?;
        let staging_root = root.join(STAGING);
        remove_stale_staging(&staging_root);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let staging = staging_root.join(format!("run-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&staging)
            .with_context(|| format!("cannot create {}", staging.display()))?;
        Ok(OutDir {
            root: root.to_path_buf(),
            staging,
            remote: None,
            left: Default::default(),
        })
    }

    /// Run `f` on the tables of an existing output folder (or `s3://` prefix) of a scan, only
    /// reading them, as `report` does: nothing is written in the folder (it may be read-only).
    pub fn read_existing<T>(root: &Path, f: impl FnOnce(&OutDir) -> Result<T>) -> Result<T> {
        if root
            .to_str()
            .is_some_and(crate::archive::source::remote::is_remote)
        {
            // Its staging folder is a local one, not the tables'.
            return Self::with_existing(root, f);
        }
        anyhow::ensure!(
            root.is_dir(),
            "{} is not a folder (give the --out of a scan)",
            root.display()
        );
        let out = OutDir {
            root: root.to_path_buf(),
            // Never made: a reader writes no part.
            staging: root.join(STAGING).join("none"),
            remote: None,
            left: Default::default(),
        };
        f(&out)
    }

    /// Run `f` on the tables of an existing output folder (or `s3://` prefix) of a scan, as
    /// `hosts` does; a path that is not a folder is an error.
    pub fn with_existing<T>(root: &Path, f: impl FnOnce(&OutDir) -> Result<T>) -> Result<T> {
        let remote = root
            .to_str()
            .is_some_and(crate::archive::source::remote::is_remote);
        anyhow::ensure!(
            remote || root.is_dir(),
            "{} is not a folder (give the --out of a scan)",
            root.display()
        );
        let out = OutDir::create(root)?;
        let done = f(&out);
        out.close();
        done
    }

    /// A scratch file of this run (in its staging folder, removed with it).
    pub fn scratch_path(&self, name: &str) -> PathBuf {
        self.staging.join(name)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the part of `table` for `input_id` lives.
    pub fn part_path(&self, table: &str, crawl: &str, input_id: &str) -> PathBuf {
        self.root
            .join(table)
            .join(format!("crawl={crawl}"))
            .join(format!("part-{input_id}.parquet"))
    }

    /// Start writing the part of `table` for `input_id` in staging; batches are appended as
    /// they come (each chunk of an input writes its rows as soon as it is read).
    pub fn part_writer(
        &self,
        table: &TableDesc,
        crawl: &str,
        input_id: &str,
    ) -> Result<PartWriter> {
        let final_path = self.part_path(table.name, crawl, input_id);
        // Numbered: two writers never share a staged file, even for one input id.
        static STAGED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = STAGED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let staged = self
            .staging
            .join(format!("{}--{input_id}--{n}.parquet", table.name));
        PartWriter::create(table, staged, final_path)
    }

    /// Start writing a part of a table partitioned by another key than the crawl (`ranks`, by
    /// `list`): `table/{key}={value}/part-{value}.parquet`. Committed as any part.
    pub fn keyed_part_writer(
        &self,
        table: &TableDesc,
        key: &str,
        value: &str,
    ) -> Result<PartWriter> {
        let final_path = self
            .root
            .join(table.name)
            .join(format!("{key}={value}"))
            .join(format!("part-{value}.parquet"));
        let staged = self
            .staging
            .join(format!("{}--{key}-{value}.parquet", table.name));
        PartWriter::create(table, staged, final_path)
    }

    /// [`OutDir::write_schemas`] for a table partitioned by `key`: its file with no rows in
    /// `table/{key}=_schema/`.
    pub fn write_keyed_schema(&self, table: &TableDesc, key: &str) -> Result<()> {
        self.commit(vec![self.schema_file(table, key)?])
    }

    /// A table's file with no rows in `table/{key}=_schema/`, staged, to commit.
    fn schema_file(&self, table: &TableDesc, key: &str) -> Result<PartOutcome> {
        let staged = self
            .staging
            .join(format!("_schema--{}.parquet", table.name));
        let final_path = self
            .root
            .join(table.name)
            .join(format!("{key}={SCHEMA_CRAWL}"))
            .join("_schema.parquet");
        PartWriter::create(table, staged, final_path)?.finish()
    }

    /// Write `batches` of `table` as a staged part in one go; `Empty` when there are no rows
    /// (and any part left by an earlier run for the same input is then removed on commit).
    pub fn write(
        &self,
        table: &TableDesc,
        crawl: &str,
        input_id: &str,
        batches: &[RecordBatch],
    ) -> Result<PartOutcome> {
        if batches.iter().all(|b| b.num_rows() == 0) {
            return Ok(PartOutcome::Empty(
                self.part_path(table.name, crawl, input_id),
            ));
        }
        let mut w = self.part_writer(table, crawl, input_id)?;
        for b in batches {
            w.write(b)?;
        }
        w.finish()
    }

    /// Put staged parts in place, in order. Stale parts of the same input go: those of tables that
    /// now have no rows, and those under another crawl folder (an earlier run under another crawl
    /// name), which would otherwise double the input's rows.
    pub fn commit(&self, parts: Vec<PartOutcome>) -> Result<()> {
        if let Some(r) = &self.remote {
            return self.commit_remote(r, parts);
        }
        for part in parts {
            let final_path = match &part {
                PartOutcome::Staged(p) => &p.final_path,
                PartOutcome::Empty(path) => path,
            };
            let left = remove_in_other_crawls(final_path);
            self.crawls_left(left);
            match part {
                PartOutcome::Staged(p) => {
                    let dir = p.final_path.parent().unwrap_or(&self.root);
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                    std::fs::rename(&p.staged, &p.final_path).with_context(|| {
                        format!("cannot move {} into place", p.final_path.display())
                    })?;
                }
                PartOutcome::Empty(path) => {
                    if path.exists() {
                        std::fs::remove_file(&path)
                            .with_context(|| format!("cannot remove stale {}", path.display()))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Put a Parquet file with no rows and each table's columns in every table's folder
    /// (`<table>/crawl=_schema/_schema.parquet`, [`SCHEMA_CRAWL`]), replacing one an earlier
    /// version wrote: a query over a table that has no part yet (a run without problems has no
    /// `errors`, a robots.txt-only crawl no `page_signals`) then answers with no rows instead
    /// of failing on a pattern that matches no file. Not a part: nothing here lists it
    /// (`table_parts` takes `part-*` files), and Spark skips files named `_*`.
    pub fn write_schemas(&self, tables: &[TableDesc]) -> Result<()> {
        let mut files = Vec::new();
        for table in tables {
            files.push(self.schema_file(table, "crawl")?);
        }
        self.commit(files)
    }

    /// Is the output in an object store (`s3://`)?
    pub fn is_remote(&self) -> bool {
        self.remote.is_some()
    }

    /// The key of a local path under the root.
    fn key(&self, r: &RemoteOut, path: &Path) -> Result<object_store::path::Path> {
        let rel = path.strip_prefix(&self.root).unwrap_or(path);
        let mut key = r.prefix.clone();
        for part in rel.iter() {
            key = key.clone().join(part.to_string_lossy().as_ref());
        }
        Ok(key)
    }

    /// Upload staged parts in order and delete stale ones (as `commit` does for a folder).
    fn commit_remote(&self, r: &RemoteOut, parts: Vec<PartOutcome>) -> Result<()> {
        for part in parts {
            let final_path = match &part {
                PartOutcome::Staged(p) => p.final_path.clone(),
                PartOutcome::Empty(path) => path.clone(),
            };
            let key = self.key(r, &final_path)?;
            let left = self.delete_in_other_crawls(r, &final_path)?;
            self.crawls_left(left);
            match part {
                PartOutcome::Staged(p) => {
                    upload(r, &p.staged, &key)?;
                    let _ = std::fs::remove_file(&p.staged);
                }
                PartOutcome::Empty(_) => delete(r, &key)?,
            }
        }
        Ok(())
    }

    /// Delete the part named like `final_path` under the other `crawl=` prefixes of its table;
    /// the crawls it was found in.
    fn delete_in_other_crawls(&self, r: &RemoteOut, final_path: &Path) -> Result<Vec<String>> {
        use object_store::ObjectStoreExt;
        let (Some(name), Some(crawl_dir)) = (final_path.file_name(), final_path.parent()) else {
            return Ok(Vec::new());
        };
        let Some(table_dir) = crawl_dir.parent() else {
            return Ok(Vec::new());
        };
        let own = self.key(r, crawl_dir)?;
        let mut left = Vec::new();
        for crawl in remote_crawls(r, &self.key(r, table_dir)?)? {
            if crawl != own {
                let key = crawl.clone().join(name.to_string_lossy().as_ref());
                // S3 says nothing of a delete that found nothing: asked first.
                if crate::archive::source::remote::block_on(r.store.head(&key)).is_ok() {
                    delete(r, &key)?;
                    left.extend(
                        crawl
                            .filename()
                            .and_then(|f| f.strip_prefix("crawl="))
                            .map(str::to_string),
                    );
                }
            }
        }
        Ok(left)
    }

    fn crawls_left(&self, crawls: Vec<String>) {
        if !crawls.is_empty() {
            let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
            left.extend(crawls);
        }
    }

    /// The crawls that lost a part to another crawl in this run's commits (an input scanned
    /// again under another crawl name).
    pub fn crawls_that_lost_parts(&self) -> std::collections::BTreeSet<String> {
        self.left.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Remove the parts of `table` for `input_id` under every `crawl=` folder.
    pub fn remove_parts(&self, table: &str, input_id: &str) -> Result<()> {
        if let Some(r) = &self.remote {
            let name = format!("part-{input_id}.parquet");
            for crawl in remote_crawls(r, &self.key(r, &self.root.join(table))?)? {
                delete(r, &crawl.clone().join(name.as_str()))?;
            }
            return Ok(());
        }
        let Ok(entries) = std::fs::read_dir(self.root.join(table)) else {
            return Ok(());
        };
        let name = format!("part-{input_id}.parquet");
        for e in entries.flatten() {
            let p = e.path().join(&name);
            if e.file_name().to_string_lossy().starts_with("crawl=") && p.exists() {
                std::fs::remove_file(&p)
                    .with_context(|| format!("cannot remove {}", p.display()))?;
            }
        }
        Ok(())
    }

    /// Remove this run's staging folder.
    pub fn close(&self) {
        let _ = std::fs::remove_dir_all(&self.staging);
        let _ = std::fs::remove_dir(self.root.join(STAGING));
        if self.remote.is_some() {
            let _ = std::fs::remove_dir(&self.root);
        }
    }

    /// Has a scan into this folder left its staging folder (it was stopped, or is running)?
    /// Not known for an `s3://` output, whose staging is local to the scan.
    pub fn has_unfinished_runs(&self) -> bool {
        self.remote.is_none()
            && std::fs::read_dir(self.root.join(STAGING)).is_ok_and(|entries| {
                entries
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("run-"))
            })
    }

    /// Where the tables are, for messages: the folder or the `s3://` prefix.
    pub fn location(&self) -> String {
        match &self.remote {
            Some(r) => r.url.clone(),
            None => self.root.display().to_string(),
        }
    }
}

/// A committed part found in the output: a file, or an object's key.
#[derive(Clone)]
pub enum PartRef {
    Local(PathBuf),
    Remote(object_store::path::Path),
}

impl PartRef {
    /// The part's path or key, for messages and ordering.
    pub fn name(&self) -> String {
        match self {
            PartRef::Local(p) => p.display().to_string(),
            PartRef::Remote(k) => k.to_string(),
        }
    }
}

impl OutDir {
    /// The committed parts of `table` for `input_id`, under any `crawl=` folder: (crawl, part).
    pub fn find_parts(&self, table: &str, input_id: &str) -> Vec<(String, PartRef)> {
        let name = format!("part-{input_id}.parquet");
        let mut found = Vec::new();
        if let Some(r) = &self.remote {
            use object_store::ObjectStoreExt;
            let Ok(table_key) = self.key(r, &self.root.join(table)) else {
                return found;
            };
            for crawl in remote_crawls(r, &table_key).unwrap_or_default() {
                let key = crawl.clone().join(name.as_str());
                let dir = crawl.filename().unwrap_or_default().to_string();
                if crate::archive::source::remote::block_on(r.store.head(&key)).is_ok() {
                    if let Some(c) = dir.strip_prefix("crawl=") {
                        found.push((c.to_string(), PartRef::Remote(key)));
                    }
                }
            }
            return found;
        }
        let Ok(entries) = std::fs::read_dir(self.root.join(table)) else {
            return found;
        };
        for e in entries.flatten() {
            let dir = e.file_name().to_string_lossy().into_owned();
            if let Some(crawl) = dir.strip_prefix("crawl=") {
                let p = e.path().join(&name);
                if p.is_file() {
                    found.push((crawl.to_string(), PartRef::Local(p)));
                }
            }
        }
        found
    }

    /// Every committed part of `table`, under every `crawl=` folder: (crawl, part), sorted.
    pub fn table_parts(&self, table: &str) -> Result<Vec<(String, PartRef)>> {
        self.keyed_parts(table, "crawl")
    }

    /// Every committed part of `table`, under every `{key}=` folder (`list=` for `ranks`):
    /// (the folder's value, part), sorted.
    pub fn keyed_parts(&self, table: &str, key: &str) -> Result<Vec<(String, PartRef)>> {
        let prefix = format!("{key}=");
        let is_part = |name: &str| name.starts_with("part-") && name.ends_with(".parquet");
        let mut found = Vec::new();
        if let Some(r) = &self.remote {
            let table_key = self.key(r, &self.root.join(table))?;
            for crawl in remote_crawls(r, &table_key)? {
                let dir = crawl.filename().unwrap_or_default().to_string();
                let Some(c) = dir.strip_prefix(&prefix) else {
                    continue;
                };
                let listed = crate::archive::source::remote::block_on(
                    r.store.list_with_delimiter(Some(&crawl)),
                )
                .with_context(|| format!("cannot list {}/{crawl}", r.url))?;
                for o in listed.objects {
                    if o.location.filename().is_some_and(is_part) {
                        found.push((c.to_string(), PartRef::Remote(o.location)));
                    }
                }
            }
        } else {
            let dir = self.root.join(table);
            let Ok(entries) = std::fs::read_dir(&dir) else {
                return Ok(found);
            };
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(c) = name.strip_prefix(&prefix) else {
                    continue;
                };
                let files = std::fs::read_dir(e.path())
                    .with_context(|| format!("cannot list {}", e.path().display()))?;
                for f in files.flatten() {
                    if is_part(&f.file_name().to_string_lossy()) {
                        found.push((c.to_string(), PartRef::Local(f.path())));
                    }
                }
            }
        }
        found.sort_by(|a, b| (&a.0, a.1.name()).cmp(&(&b.0, b.1.name())));
        Ok(found)
    }

    /// Call `f` with the rows of a part, only the named `columns` (those the part has), batch
    /// by batch: memory holds one batch, not the part. String columns named in `dictionaries`
    /// come as `Dictionary(Int32, Utf8)` arrays (each value once per batch: cheap to read when
    /// values repeat).
    pub fn each_batch(
        &self,
        part: &PartRef,
        columns: &[&str],
        dictionaries: &[&str],
        mut f: impl FnMut(RecordBatch) -> Result<()>,
    ) -> Result<()> {
        use arrow_schema::{DataType, Field, Schema};
        use parquet::arrow::arrow_reader::{
            ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
        };
        use parquet::arrow::ProjectionMask;
        fn read<R: parquet::file::reader::ChunkReader + 'static>(
            r: R,
            columns: &[&str],
            dictionaries: &[&str],
            f: &mut dyn FnMut(RecordBatch) -> Result<()>,
        ) -> Result<()> {
            let mut meta = ArrowReaderMetadata::load(&r, ArrowReaderOptions::new())?;
            if !dictionaries.is_empty() {
                let dict =
                    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
                let fields: Vec<Field> = meta
                    .schema()
                    .fields()
                    .iter()
                    .map(|fld| {
                        let wanted = dictionaries.contains(&fld.name().as_str())
                            && fld.data_type() == &DataType::Utf8;
                        let t = if wanted {
                            dict.clone()
                        } else {
                            fld.data_type().clone()
                        };
                        Field::new(fld.name(), t, fld.is_nullable())
                    })
                    .collect();
                let options =
                    ArrowReaderOptions::new().with_schema(std::sync::Arc::new(Schema::new(fields)));
                meta = ArrowReaderMetadata::try_new(meta.metadata().clone(), options)?;
            }
            let b = ParquetRecordBatchReaderBuilder::new_with_metadata(r, meta);
            let mask = ProjectionMask::columns(b.parquet_schema(), columns.iter().copied());
            for batch in b
                .with_projection(mask)
                .with_batch_size(READ_BATCH)
                .build()?
            {
                f(batch?)?;
            }
            Ok(())
        }
        let what = || format!("cannot read {}", part.name());
        match part {
            PartRef::Local(p) => {
                let file = std::fs::File::open(p).with_context(what)?;
                read(file, columns, dictionaries, &mut f)
            }
            PartRef::Remote(_) => {
                let bytes = self.read_part(part).with_context(what)?;
                read(bytes, columns, dictionaries, &mut f)
            }
        }
        .with_context(what)
    }

    /// The bytes of a (small) part.
    pub fn read_part(&self, part: &PartRef) -> Option<bytes::Bytes> {
        match (part, &self.remote) {
            (PartRef::Local(p), _) => std::fs::read(p).ok().map(bytes::Bytes::from),
            (PartRef::Remote(key), Some(r)) => {
                use object_store::ObjectStoreExt;
                crate::archive::source::remote::block_on(async {
                    r.store.get(key).await?.bytes().await
                })
                .ok()
            }
            _ => None,
        }
    }

    /// Rows of a part, from its Parquet footer (only the footer is read); `None` when it is not
    /// readable Parquet.
    pub fn part_rows(&self, part: &PartRef) -> Option<u64> {
        use parquet::file::reader::FileReader;
        let rows = match (part, &self.remote) {
            (PartRef::Local(p), _) => {
                let file = std::fs::File::open(p).ok()?;
                let reader = parquet::file::reader::SerializedFileReader::new(file).ok()?;
                reader.metadata().file_metadata().num_rows()
            }
            (PartRef::Remote(key), Some(r)) => {
                use object_store::ObjectStoreExt;
                let store = &r.store;
                let size = crate::archive::source::remote::block_on(store.head(key))
                    .ok()?
                    .size;
                let tail = crate::archive::source::remote::block_on(
                    store.get_range(key, size.checked_sub(8)?..size),
                )
                .ok()?;
                if &tail[4..8] != b"PAR1" {
                    return None;
                }
                let len = u32::from_le_bytes(tail[..4].try_into().ok()?) as u64;
                let from = size.checked_sub(8 + len)?;
                let footer =
                    crate::archive::source::remote::block_on(store.get_range(key, from..size - 8))
                        .ok()?;
                parquet::file::metadata::ParquetMetaDataReader::decode_metadata(&footer)
                    .ok()?
                    .file_metadata()
                    .num_rows()
            }
            _ => return None,
        };
        Some(rows.max(0) as u64)
    }
}

/// The `crawl=` prefixes under a table's prefix.
fn remote_crawls(
    r: &RemoteOut,
    table: &object_store::path::Path,
) -> Result<Vec<object_store::path::Path>> {
    let listed = crate::archive::source::remote::block_on(r.store.list_with_delimiter(Some(table)))
        .with_context(|| format!("cannot list {}/{table}", r.url))?;
    Ok(listed
        .common_prefixes
        .into_iter()
        .filter(|p| p.filename().is_some_and(|f| f.starts_with("crawl=")))
        .collect())
}

/// Delete an object; a missing one is no error.
fn delete(r: &RemoteOut, key: &object_store::path::Path) -> Result<()> {
    use object_store::ObjectStoreExt;
    match crate::archive::source::remote::block_on(r.store.delete(key)) {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
        Err(e) => Err(anyhow::Error::new(e).context(format!("cannot delete {key}"))),
    }
}

/// Upload a staged file to `key`: in one request when small, else as a multipart upload of
/// 16 MiB parts read from the file as they go (memory stays bounded).
fn upload(r: &RemoteOut, staged: &Path, key: &object_store::path::Path) -> Result<()> {
    use object_store::ObjectStoreExt;
    use std::io::Read;
    const PART: usize = 16 << 20;
    let len = std::fs::metadata(staged)?.len() as usize;
    let what = || format!("cannot upload {key} to {}", r.url);
    if len <= PART {
        let bytes = std::fs::read(staged)?;
        crate::archive::source::remote::block_on(r.store.put(key, bytes.into()))
            .with_context(what)?;
        return Ok(());
    }
    let mut file = std::fs::File::open(staged)?;
    crate::archive::source::remote::block_on(async {
        let upload = r.store.put_multipart(key).await?;
        let mut w = object_store::WriteMultipart::new_with_chunk_size(upload, PART);
        let mut buf = vec![0u8; PART];
        loop {
            let n = file
                .read(&mut buf)
                .map_err(|e| object_store::Error::Generic {
                    store: "local",
                    source: Box::new(e),
                })?;
            if n == 0 {
                break;
            }
            w.wait_for_capacity(2).await?;
            w.write(&buf[..n]);
        }
        w.finish().await.map(|_| ())
    })
    .with_context(what)
}

/// Remove the part of the same name as `final_path` from the sibling `crawl=` folders.
fn remove_in_other_crawls(final_path: &Path) -> Vec<String> {
    let (Some(name), Some(crawl_dir)) = (final_path.file_name(), final_path.parent()) else {
        return Vec::new();
    };
    let Some(table_dir) = crawl_dir.parent() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(table_dir) else {
        return Vec::new();
    };
    let mut left = Vec::new();
    for e in entries.flatten() {
        let dir = e.path();
        let folder = e.file_name().to_string_lossy().into_owned();
        if let Some(crawl) = folder.strip_prefix("crawl=").filter(|_| dir != crawl_dir) {
            if std::fs::remove_file(dir.join(name)).is_ok() {
                left.push(crawl.to_string());
            }
        }
    }
    left
}

/// Remove staging folders of runs whose process is gone (Linux: `/proc/<pid>`); elsewhere, those
/// older than a day.
fn remove_stale_staging(staging_root: &Path) {
    let Ok(entries) = std::fs::read_dir(staging_root) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name
            .strip_prefix("run-")
            .and_then(|r| r.split('-').next())
            .and_then(|p| p.parse::<u32>().ok());
        let gone = match pid {
            Some(pid) if Path::new("/proc/self").exists() => {
                !Path::new(&format!("/proc/{pid}")).exists()
            }
            _ => e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 86_400),
        };
        if gone {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}
