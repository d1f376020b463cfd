//! A `tempo serve` of the binary under test, on a free port, for the tests
//! of the board: started, its address read from its first line, and
//! stopped when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A `tempo serve` running on a free port, stopped when dropped.
pub struct Served {
    /// The server's process.
    pub child: Child,
    /// The address it serves, as `127.0.0.1:PORT`.
    pub address: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Starts `tempo serve --port 0` with the `extra` arguments, its
    /// standard error sent to `stderr`, and waits for the line that names
    /// its address.
    pub fn start(extra: &[&str], stderr: Stdio) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start tempo serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("the server's output"))
            .read_line(&mut line)
            .expect("the server's first line");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Served { child, address }
    }
}
