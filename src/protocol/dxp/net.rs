//! DXP over TCP: listen or connect, and a `Link` over the socket.
//!
//! A reader thread per connection cuts the byte stream into frames
//! (`Framer`), parses them and queues them for the session; the session is
//! the only writer.
//!
//! Invariants (everything bounded):
//! - at most `MAX_MESSAGE` bytes of a frame are buffered, and at most
//!   `QUEUE` parsed messages wait for the session (then the reader stops
//!   reading, and TCP pushes back on the sender);
//! - connecting gives up after the timeout given, a write after
//!   `WRITE_TIMEOUT`; reads wake every `READ_TICK` so the reader notices
//!   that its link was dropped;
//! - the reader delivers `Incoming::Closed` last and then ends; dropping a
//!   `TcpLink` shuts the socket down, which ends the reader.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use std::{fmt, io};

use crossbeam_channel::{Receiver, Sender};

use super::codec::{DxpMessage, Framer};
use super::session::{Incoming, Link, LinkError};

/// Where `tempo dxp` listens unless told otherwise: loopback only.
pub const DEFAULT_ADDR: &str = "127.0.0.1:27531";
/// The longest a write may block.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a blocked read wakes up.
const READ_TICK: Duration = Duration::from_millis(500);
/// Parsed messages waiting for the session.
const QUEUE: usize = 64;
/// Bytes of a malformed frame shown in the log.
const SHOWN: usize = 80;

/// A network failure.
#[derive(Debug)]
pub enum NetError {
    /// The address could not be read or resolved.
    Address {
        /// The address given.
        addr: String,
        /// Why.
        why: String,
    },
    /// No connection could be made.
    Connect {
        /// The address given.
        addr: String,
        /// Why.
        why: String,
    },
    /// The address could not be listened on.
    Bind {
        /// The address given.
        addr: String,
        /// Why.
        why: String,
    },
    /// A socket could not be set up or accepted.
    Socket(io::Error),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Address { addr, why } => write!(f, "bad address '{addr}': {why}"),
            NetError::Connect { addr, why } => write!(f, "cannot connect to {addr}: {why}"),
            NetError::Bind { addr, why } => write!(f, "cannot listen on {addr}: {why}"),
            NetError::Socket(e) => write!(f, "socket: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// A DXP connection.
pub struct TcpLink {
    stream: TcpStream,
    incoming: Receiver<Incoming>,
    closing: Arc<AtomicBool>,
    peer: String,
}

impl TcpLink {
    /// Wraps a connected socket and starts its reader thread.
    pub fn new(stream: TcpStream) -> Result<TcpLink, NetError> {
        stream.set_nodelay(true).map_err(NetError::Socket)?;
        stream
            .set_write_timeout(Some(WRITE_TIMEOUT))
            .map_err(NetError::Socket)?;
        stream
            .set_read_timeout(Some(READ_TICK))
            .map_err(NetError::Socket)?;
        let peer = stream
            .peer_addr()
            .map_or_else(|_| "unknown peer".to_string(), |a| a.to_string());
        let reader = stream.try_clone().map_err(NetError::Socket)?;
        let (tx, rx) = crossbeam_channel::bounded(QUEUE);
        let closing = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&closing);
        std::thread::Builder::new()
            .name("dxp-reader".to_string())
            .spawn(move || read_loop(reader, &tx, &flag))
            .map_err(NetError::Socket)?;
        Ok(TcpLink {
            stream,
            incoming: rx,
            closing,
            peer,
        })
    }

    /// Connects to `addr` (`host:port`), giving up after `timeout` per
    /// address tried.
    pub fn connect(addr: &str, timeout: Duration) -> Result<TcpLink, NetError> {
        let targets: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(|e| NetError::Address {
                addr: addr.to_string(),
                why: e.to_string(),
            })?
            .collect();
        let mut last = String::from("no address found");
        for target in targets {
            match TcpStream::connect_timeout(&target, timeout) {
                Ok(stream) => return TcpLink::new(stream),
                Err(e) => last = e.to_string(),
            }
        }
        Err(NetError::Connect {
            addr: addr.to_string(),
            why: last,
        })
    }

    /// The address of the other side.
    pub fn peer(&self) -> &str {
        &self.peer
    }
}

impl Link for TcpLink {
    fn send(&mut self, message: &DxpMessage) -> Result<(), LinkError> {
        let mut frame = message.format();
        frame.push(0);
        self.stream
            .write_all(&frame)
            .map_err(|e| LinkError(e.to_string()))
    }

    fn incoming(&self) -> Receiver<Incoming> {
        self.incoming.clone()
    }
}

impl Drop for TcpLink {
    fn drop(&mut self) {
        self.closing.store(true, Ordering::Relaxed);
        // Already closed by the peer is fine: either way the reader ends.
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// A listening socket that hands out one `TcpLink` per connection.
pub struct DxpListener {
    listener: TcpListener,
}

impl DxpListener {
    /// Listens on `addr` (`host:port`; port 0 picks a free one).
    pub fn bind(addr: &str) -> Result<DxpListener, NetError> {
        let listener = TcpListener::bind(addr).map_err(|e| NetError::Bind {
            addr: addr.to_string(),
            why: e.to_string(),
        })?;
        Ok(DxpListener { listener })
    }

    /// The address actually listened on.
    pub fn local_addr(&self) -> Result<SocketAddr, NetError> {
        self.listener.local_addr().map_err(NetError::Socket)
    }

    /// Waits for the next connection.
    pub fn accept(&self) -> Result<TcpLink, NetError> {
        let (stream, _) = self.listener.accept().map_err(NetError::Socket)?;
        TcpLink::new(stream)
    }
}

/// A frame as printable text for the log, cut to `SHOWN` bytes.
fn shown(frame: &[u8]) -> String {
    let mut text: String = frame
        .iter()
        .take(SHOWN)
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect();
    if frame.len() > SHOWN {
        text.push_str("...");
    }
    text
}

/// Reads the socket until it closes, queueing what arrives.
fn read_loop(mut stream: TcpStream, tx: &Sender<Incoming>, closing: &AtomicBool) {
    let mut framer = Framer::new();
    let mut buffer = [0u8; 512];
    loop {
        let n = match stream.read(&mut buffer) {
            Ok(0) => {
                if let Err(error) = framer.finish() {
                    let _ = tx.send(Incoming::Malformed {
                        frame: String::new(),
                        error,
                    });
                }
                let _ = tx.send(Incoming::Closed("the peer closed the connection".into()));
                return;
            }
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                if closing.load(Ordering::Relaxed) {
                    return;
                }
                continue;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Incoming::Closed(e.to_string()));
                return;
            }
        };
        for item in framer.push(&buffer[..n]) {
            let incoming = match item {
                Ok(frame) => match DxpMessage::parse(&frame) {
                    Ok(message) => Incoming::Message(message),
                    Err(error) => Incoming::Malformed {
                        frame: shown(&frame),
                        error,
                    },
                },
                Err(error) => Incoming::Malformed {
                    frame: String::new(),
                    error,
                },
            };
            // A full queue blocks here (the session is busy); a dropped one
            // means nobody listens any more.
            if tx.send(incoming).is_err() {
                return;
            }
        }
    }
}
