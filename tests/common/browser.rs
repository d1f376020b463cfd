//! A headless Chromium for the tests that open tempo's pages: found on the
//! machine, and driven over the DevTools protocol (a WebSocket) to load a
//! page, click at the place an element is drawn, read the page back and
//! take a screenshot, collecting the page's uncaught errors on the way.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::{stream::MaybeTlsStream, Message, WebSocket};

/// A headless Chromium: `TEMPO_CHROMIUM`, or one on the `PATH`.
pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TEMPO_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        })
}

/// Why no Chromium can be had here, if none can (for `harness::Need`).
pub fn missing() -> Option<String> {
    chromium()
        .is_none()
        .then(|| "apt-get install chromium, or set TEMPO_CHROMIUM to one".to_string())
}

/// The Chromium a browser test uses; `None`, said on standard error, on a
/// machine without one, which fails under CI (`.ci/run` installs it), so
/// that a test never passes there without having opened `what`.
pub fn chromium_for(what: &str) -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Chromium: install it (apt-get install chromium) or set TEMPO_CHROMIUM"
        );
        eprintln!("no Chromium on this machine: {what} was not opened in a browser");
    }
    found
}

/// A running headless Chromium with one page open, driven over DevTools.
pub struct Browser {
    child: Child,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Uncaught exceptions and console errors of the page, as text.
    pub errors: Vec<String>,
    _profile: TempDir,
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GET of `path` from `host:port` over plain HTTP: the body, read to its
/// `Content-Length` (DevTools keeps the connection open).
fn http_get(address: &str, path: &str) -> String {
    let stream = TcpStream::connect(address).expect("DevTools HTTP");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    write!(writer, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("DevTools HTTP head");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().expect("a length");
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("DevTools HTTP body");
    String::from_utf8(body).expect("UTF-8")
}

impl Browser {
    /// Starts `browser` headless with a window of `width` x `height`.
    pub fn start(browser: &Path, width: u32, height: u32) -> Browser {
        // A profile of its own: two Chromiums on one profile are one (the
        // second hands its page to the first and exits), and the tests of
        // one binary run at once.
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let profile = std::env::temp_dir().join(format!(
            "tempo-chromium-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        let mut child = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--remote-debugging-port=0",
                &format!("--user-data-dir={}", profile.display()),
                &format!("--window-size={width},{height}"),
                "about:blank",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
        let stderr = child.stderr.take().unwrap();
        let (found, address) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stderr).lines();
            for line in lines.by_ref().map_while(Result::ok) {
                if let Some(rest) = line.split("ws://").nth(1) {
                    let _ = found.send(rest.split('/').next().unwrap_or("").to_string());
                    break;
                }
            }
            // Keep reading so the browser never blocks on a full pipe.
            for _ in lines {}
        });
        let address = address
            .recv_timeout(Duration::from_secs(30))
            .expect("Chromium printed no DevTools address within 30 s");
        let targets: Value =
            serde_json::from_str(&http_get(&address, "/json/list")).expect("DevTools targets");
        let page = targets
            .as_array()
            .and_then(|list| list.iter().find(|t| t["type"] == "page"))
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_string();
        let host = address.to_socket_addrs().unwrap().next().unwrap();
        let stream = TcpStream::connect(host).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let (socket, _) = tungstenite::client(page.as_str(), MaybeTlsStream::Plain(stream))
            .expect("DevTools WebSocket");
        let mut browser = Browser {
            child,
            socket,
            next_id: 0,
            errors: Vec::new(),
            _profile: TempDir(profile),
        };
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.call(domain, json!({}));
        }
        browser
    }

    /// Calls a DevTools method and returns its result; events met on the
    /// way are kept when they are errors of the page.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({ "id": id, "method": method, "params": params });
        self.socket
            .send(Message::text(message.to_string()))
            .expect("send to DevTools");
        loop {
            let reply = match self.socket.read().expect("read from DevTools") {
                Message::Text(text) => text,
                _ => continue,
            };
            let value: Value = serde_json::from_str(reply.as_str()).expect("DevTools JSON");
            if value["id"] == id {
                if let Some(error) = value.get("error") {
                    panic!("{method}: {error}");
                }
                return value["result"].clone();
            }
            self.note_event(&value);
        }
    }

    fn note_event(&mut self, event: &Value) {
        match event["method"].as_str() {
            Some("Runtime.exceptionThrown") => self
                .errors
                .push(event["params"]["exceptionDetails"].to_string()),
            Some("Log.entryAdded") if event["params"]["entry"]["level"] == "error" => self
                .errors
                .push(event["params"]["entry"]["text"].to_string()),
            _ => {}
        }
    }

    /// Opens `url` and waits until `ready` (a JavaScript expression) holds.
    pub fn open(&mut self, url: &str, ready: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for(ready, Duration::from_secs(30));
    }

    /// The value of a JavaScript expression (a promise awaited).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        if let Some(details) = result.get("exceptionDetails") {
            panic!("{expression}: {details}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true, failing after `limit` with the
    /// page's status line.
    pub fn wait_for(&mut self, expression: &str, limit: Duration) {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.eval(&format!("Boolean({expression})")) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let status = self.eval("document.getElementById('status')?.textContent ?? ''");
        panic!("waited {limit:?} for {expression}; the page says {status}");
    }

    /// Clicks the middle of the element `selector` picks, as a mouse does.
    pub fn click(&mut self, selector: &str) {
        let quoted = serde_json::to_string(selector).unwrap();
        let place = self.eval(&format!(
            "(() => {{ const e = document.querySelector({quoted}); if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = match (place[0].as_f64(), place[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("nothing on the page matches {selector}"),
        };
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Lets the page save files (a download) into `folder`.
    pub fn save_downloads_in(&mut self, folder: &Path) {
        self.call(
            "Browser.setDownloadBehavior",
            json!({ "behavior": "allow", "downloadPath": folder.display().to_string() }),
        );
    }

    /// The page as a PNG.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        base64_decode(shot["data"].as_str().expect("screenshot data"))
    }
}

/// Decodes standard base64 (DevTools' screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut word = 0u32;
        for (i, &d) in chunk.iter().enumerate() {
            word |= u32::from(d) << (18 - 6 * i);
        }
        let bytes = word.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
