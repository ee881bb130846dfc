"""repcensus from Python: the census a scan wrote, as DuckDB views, and its bundled questions.

    import repcensus
    con = repcensus.connect("out")          # a duckdb connection; every table is a view
    con.sql("FROM summary_agents WHERE agent = 'GPTBot'").show()
    share = repcensus.query("agents_full_block_share", "out")   # a DuckDBPyRelation
    share.df()                                                  # pandas, if installed

The `repcensus` command (`repcensus scan`, `repcensus report`, ...) is installed with this
module; `repcensus.binary()` is its path. Both work from any folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
import tempfile
import uuid
from pathlib import Path
from typing import Iterable, Optional, Union

import duckdb

__all__ = ["binary", "connect", "query", "questions", "run"]

PathLike = Union[str, "os.PathLike[str]"]


def binary() -> str:
    """The path of the `repcensus` command: the one installed with this module, else the
    first on the PATH."""
    name = "repcensus.exe" if os.name == "nt" else "repcensus"
    beside = Path(sysconfig.get_path("scripts")) / name
    if beside.is_file():
        return str(beside)
    found = shutil.which("repcensus")
    if found is None:
        raise FileNotFoundError(
            "the repcensus command is not installed with this module nor on the PATH"
        )
    return found


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run `repcensus ARGS...` (say `run("scan", "samples", "--out", "out")`), its output
    captured as text; raises `subprocess.CalledProcessError` on a non-zero exit unless
    `check` is false."""
    return subprocess.run(
        [binary(), *map(str, args)], check=check, capture_output=True, text=True
    )


def _folder(out: PathLike) -> str:
    text = os.fspath(out)
    return text if "://" in text else str(Path(text).resolve())


def connect(out: PathLike, database: str = ":memory:") -> duckdb.DuckDBPyConnection:
    """A DuckDB connection in which every table of the scan output folder `out` (detail tables,
    summaries, `robots_hosts`) is a view by its own name, and `agent_verdicts` a view made from
    the tables a default scan writes; relative paths such as 'robots_files/*/*.parquet' (those
    the bundled queries use) resolve inside `out`, whatever the working folder."""
    setup = run("views", _folder(out)).stdout
    con = duckdb.connect(database)
    con.execute(setup)
    return con


def questions() -> dict:
    """The bundled queries, by name, each with the question it answers."""
    listing = run("query", "--list").stdout
    out = {}
    for line in listing.splitlines():
        name, _, question = line.partition(" ")
        out[name] = question.strip()
    return out


def query(
    name: PathLike,
    out: PathLike,
    crawl: Optional[Union[str, Iterable[str]]] = None,
    con: Optional[duckdb.DuckDBPyConnection] = None,
    **params: object,
) -> duckdb.DuckDBPyRelation:
    """The answer of a bundled query (`name`, as `repcensus query --list` lists them) or of a
    SQL file, asked of the scan output folder `out`, as a relation of `con` (a new in-memory
    connection when not given): the same rows `repcensus query NAME OUT` prints. `crawl` (a
    name or several) reads only those crawls; other keyword arguments are DuckDB variables a
    SQL file can read with getvariable('name')."""
    crawls = [crawl] if isinstance(crawl, str) else list(crawl or [])
    args = ["query", os.fspath(name), _folder(out), "--format", "parquet"]
    for c in crawls:
        args += ["--crawl", c]
    for key, value in params.items():
        args += ["--param", f"{key}={value}"]
    con = con if con is not None else duckdb.connect()
    with tempfile.TemporaryDirectory(prefix="repcensus-") as tmp:
        answer = os.path.join(tmp, "answer.parquet")
        done = run(*args, "--output", answer, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"repcensus query {os.fspath(name)}: {done.stderr.strip()}")
        table = "answer_" + uuid.uuid4().hex
        con.execute(f'CREATE TEMP TABLE "{table}" AS FROM read_parquet(?)', [answer])
    return con.table(table)
