//! The loopback servers the tests and benches start: `tests/servers/range_http.py`, a file
//! server with Range support and the faults its arguments ask for.

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Kills the server when it goes out of scope, however the test ends.
pub struct Server(pub Child);
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The range server over `served` (`repo`: the repository, where the script is), with `args`,
/// and its base URL.
pub fn http_server(repo: &Path, served: &Path, args: &[&str]) -> (Server, String) {
    let mut child = Command::new("python3")
        .arg(repo.join("tests/servers/range_http.py"))
        .arg(served)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line.trim().parse().expect("port");
    (Server(child), format!("http://127.0.0.1:{port}/"))
}
