//! `tempo serve` under hostile or careless clients, over raw HTTP: a
//! request that lies about its body, abandoned searches, requests from
//! another site or for another host, huge headers, thousands of idle
//! connections, and the server stopped by SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A position out of the opening book, where a search takes its time.
const MIDDLE_GAME: &str =
    "fen=W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45:B6,7,8,9,10,11,12,13,14,15,16,17,18,19,20";

#[path = "common/serve_process.rs"]
mod serve_process;

use serve_process::Served;

impl Served {
    /// Whether the server process still runs.
    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// The server's thread count, from /proc.
    fn threads(&self) -> usize {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix("Threads:"))
            .and_then(|n| n.trim().parse().ok())
            .expect("a thread count")
    }

    /// Sends `head` (the request line and headers, without the blank
    /// line), then `\r\n`; the status, the head and the body of the answer.
    fn raw(&self, head: &str) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(b"\r\n").unwrap();
        read_answer(stream)
    }

    /// `GET path` with this server's Host and no keep-alive.
    fn get(&self, path: &str) -> (u16, String) {
        let (status, _, body) = self.raw(&format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.address
        ));
        (status, body)
    }

    /// A connection with `GET path` sent, its answer not read.
    fn open(&self, path: &str) -> TcpStream {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .unwrap();
        stream
    }
}

/// Reads an answer to its end (the server closes the connection).
fn read_answer(mut stream: TcpStream) -> (u16, String, String) {
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// The events of a stream until `name` comes (or the stream ends): the
/// data of that event.
fn wait_for_event(stream: TcpStream, name: &str) -> Option<String> {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut seen = false;
    for line in BufReader::new(stream).lines() {
        let line = line.ok()?;
        if line == format!("event: {name}") {
            seen = true;
        } else if let Some(data) = line.strip_prefix("data: ").filter(|_| seen) {
            return Some(data.to_string());
        }
    }
    None
}

#[test]
fn a_huge_content_length_with_no_body_leaves_the_server_serving() {
    let mut server = Served::start(&[], Stdio::null());
    let a = server.address.clone();
    for (path, method, expected) in [("/api/pdn", "POST", 413), ("/api/variants", "GET", 200)] {
        let mut stream = TcpStream::connect(&a).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {a}\r\nContent-Length: 999999999999\r\n\r\n"
        )
        .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut status = String::new();
        BufReader::new(&stream).read_line(&mut status).unwrap();
        assert!(
            status.contains(&format!(" {expected} ")),
            "{path}: {status}"
        );
        drop(stream);
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(server.alive(), "the server died");
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>tempo</title>"), "{page}");
}

#[test]
fn four_abandoned_searches_do_not_lock_out_a_fifth() {
    let server = Served::start(&["--max-searches", "4"], Stdio::null());
    let abandoned: Vec<TcpStream> = (0..4)
        .map(|i| {
            server.open(&format!(
                "/api/play?movetime=30&{MIDDLE_GAME}&client=gone{i}"
            ))
        })
        .collect();
    // They run: a fifth is refused, with the reason.
    std::thread::sleep(Duration::from_millis(500));
    let (status, body) = server.get("/api/play?movetime=0.2&client=meanwhile");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("--max-searches"), "{body}");
    // Their clients leave; the next player gets a move within its time.
    drop(abandoned);
    std::thread::sleep(Duration::from_millis(1000));
    let asked = Instant::now();
    let (status, body) = server.get(&format!("/api/play?movetime=0.5&{MIDDLE_GAME}&client=next"));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"move\""), "{body}");
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
}

#[test]
fn a_client_s_searches_are_limited_replaced_and_cancelled() {
    let server = Served::start(&["--max-searches", "8"], Stdio::null());
    // A client that names no page: three searches at once, then 429.
    let three: Vec<TcpStream> = (0..3)
        .map(|_| server.open(&format!("/api/analyse?{MIDDLE_GAME}")))
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let (status, body) = server.get(&format!("/api/analyse?{MIDDLE_GAME}"));
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("the most one client may"), "{body}");
    drop(three);
    // A page's second analysis replaces its first.
    let first = server.open(&format!("/api/analyse?{MIDDLE_GAME}&client=page1"));
    std::thread::sleep(Duration::from_millis(300));
    let second = server.open(&format!("/api/analyse?{MIDDLE_GAME}&client=page1"));
    let why = wait_for_event(first, "stopped").expect("the first analysis stopped");
    assert!(why.contains("another search"), "{why}");
    // The page cancels it.
    std::thread::sleep(Duration::from_millis(300));
    let (status, _, body) = server.raw(&format!(
        "POST /api/cancel?client=page1 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: 0\r\n",
        server.address
    ));
    assert_eq!((status, body.as_str()), (200, "{\"cancelled\":1}"));
    let why = wait_for_event(second, "stopped").expect("the second analysis stopped");
    assert!(why.contains("cancelled"), "{why}");
}

#[test]
fn another_host_or_origin_is_refused() {
    let server = Served::start(&["--allow-host", "board.lan"], Stdio::null());
    let a = &server.address;
    let port = a.rsplit(':').next().unwrap();
    let ask = |headers: &str| {
        server.raw(&format!(
            "GET /api/variants HTTP/1.1\r\nConnection: close\r\n{headers}"
        ))
    };
    let (status, _, body) = ask("Host: rebound.example\r\n");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("--allow-host"), "{body}");
    let (status, _, body) = ask(&format!("Host: {a}\r\nOrigin: http://evil.example\r\n"));
    assert_eq!(status, 403, "{body}");
    let (status, _, body) = ask(&format!("Host: {a}\r\nSec-Fetch-Site: cross-site\r\n"));
    assert_eq!(status, 403, "{body}");
    // This server's own page, names and address.
    for host in [
        a.clone(),
        format!("localhost:{port}"),
        format!("board.lan:{port}"),
    ] {
        let (status, _, body) = ask(&format!(
            "Host: {host}\r\nOrigin: http://{host}\r\nSec-Fetch-Site: same-origin\r\n"
        ));
        assert_eq!(status, 200, "{host}: {body}");
    }
    // HEAD answers, and every answer carries the page's policy.
    let (status, head, body) = server.raw(&format!(
        "HEAD / HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n"
    ));
    assert_eq!((status, body.as_str()), (200, ""));
    for header in [
        "content-security-policy: default-src 'self'",
        "frame-ancestors 'none'",
        "x-content-type-options: nosniff",
    ] {
        assert!(head.contains(header), "{header} not in {head}");
    }
}

#[test]
fn a_64_kb_header_is_refused() {
    let server = Served::start(&[], Stdio::null());
    let (status, _, _) = server.raw(&format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nX-Padding: {}\r\n",
        server.address,
        "a".repeat(64 << 10)
    ));
    assert_eq!(status, 431);
    assert_eq!(server.get("/").0, 200);
}

#[test]
fn idle_connections_neither_starve_a_new_client_nor_multiply_threads() {
    let server = Served::start(&[], Stdio::null());
    let idle: Vec<TcpStream> = (0..2000)
        .map(|_| TcpStream::connect(&server.address).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let asked = Instant::now();
    let (status, body) = server.get("/api/state");
    assert_eq!(status, 200, "{body}");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    let threads = server.threads();
    assert!(threads <= 8, "{threads} threads for 2,000 idle connections");
    drop(idle);
}

#[test]
fn sigterm_stops_every_search_and_the_server() {
    let mut server = Served::start(&[], Stdio::null());
    let analysis = server.open(&format!("/api/analyse?{MIDDLE_GAME}&client=page"));
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let stopped = Instant::now();
    let why = wait_for_event(analysis, "stopped").expect("the analysis was told");
    assert!(why.contains("the server is stopping"), "{why}");
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(5),
            "still running after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
}
