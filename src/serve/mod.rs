//! `tempo serve`: a board in the browser. A small HTTP server (hyper over
//! tokio) hands out one page (plain HTML, CSS and JavaScript built into
//! the binary) and answers its requests from the engine API in-process:
//! the state of a game under the rules, the engine's move, analysis
//! streamed as server-sent events, PDN read and written, a game reviewed
//! as the HTML report reviews it.
//!
//! The server keeps no game: every request names the variant, the start
//! position and the moves, so any number of tabs play at once and a
//! closed tab leaves nothing behind. Every search belongs to a client
//! (`searches`) and runs on a thread of its own; it stops when its
//! request is dropped, when its page starts another or cancels it, and
//! when the server stops. No request can take the server down or starve
//! it: bodies, request heads, the time to send a head and the
//! connections at once are capped, and only requests for the address
//! served, from its own page, are answered (`origin`). The endpoints are
//! in protocol.md, "The board in the browser".

mod board;
mod http;

mod origin;
mod searches;
mod think;

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::{watch, Semaphore};

use http::{Body, Query, Reply};
use origin::Hosts;
use searches::{Client, Purpose, Searches};

use crate::rules::VariantKind;

/// Connections served at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 4096;
/// The largest request head (request line and headers) accepted, in
/// bytes; a larger one is refused with 431.
pub const MAX_HEAD: usize = 16 << 10;
/// How long a client may take to send a request's head (an idle
/// connection is closed after as long).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Threads that serve the connections (the searches have their own).
const WORKERS: usize = 2;
/// Threads for the rare request whose work takes long (a PDN read).
const BLOCKING_WORKERS: usize = 2;
/// How long a stopping server waits for its connections to close.
const GRACE: Duration = Duration::from_secs(3);

/// How the server runs its searches, and whom it answers.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    /// Threads of each search.
    pub threads: usize,
    /// Transposition table of each search, in MiB.
    pub hash_mib: usize,
    /// Searches running at once, across clients; more are refused (503).
    pub max_searches: usize,
    /// Searches one client (a page, or an address that names no page)
    /// runs at once; more are refused (429).
    pub max_searches_per_client: usize,
    /// Host names the server answers besides its address (and the
    /// localhost names on a loopback address).
    pub allow_hosts: Vec<String>,
    /// A weights or network file and the variant it is for (read once,
    /// when the server starts); the other variants use their built-in
    /// evaluation.
    pub eval_file: Option<(VariantKind, PathBuf)>,
}

impl Default for ServeSettings {
    fn default() -> Self {
        ServeSettings {
            threads: 1,
            hash_mib: 32,
            max_searches: 4,
            max_searches_per_client: 3,
            allow_hosts: Vec::new(),
            eval_file: None,
        }
    }
}

/// What every request handler shares: the settings, the searches
/// running and the hosts answered.
struct Shared {
    settings: ServeSettings,
    searches: Arc<Searches>,
    hosts: Hosts,
}

/// A bound server, ready to run.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl Server {
    /// Binds `address` (port 0: a free one).
    pub fn bind(address: SocketAddr, settings: ServeSettings) -> Result<Server, String> {
        let listener =
            TcpListener::bind(address).map_err(|e| format!("cannot listen on {address}: {e}"))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let served = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let searches = Searches::new(settings.max_searches, settings.max_searches_per_client);
        let hosts = Hosts::new(served, &settings.allow_hosts);
        Ok(Server {
            listener,
            shared: Arc::new(Shared {
                settings,
                searches,
                hosts,
            }),
        })
    }

    /// The address the server listens on.
    pub fn address(&self) -> Result<SocketAddr, String> {
        self.listener
            .local_addr()
            .map_err(|e| format!("the server has no address: {e}"))
    }

    /// Answers requests until the process is told to stop (Ctrl-C,
    /// SIGTERM); then stops every search and returns once the
    /// connections are closed (a few seconds at most).
    pub fn run(self) -> Result<(), String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(WORKERS)
            .max_blocking_threads(BLOCKING_WORKERS)
            .thread_name("tempo-serve")
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::from_std(self.listener)
                .map_err(|e| format!("cannot listen: {e}"))?;
            let stop = stop_signal()?;
            serve(listener, self.shared, stop).await;
            Ok(())
        })
    }
}

/// Resolves when the process is told to stop: Ctrl-C or SIGTERM.
fn stop_signal() -> Result<impl std::future::Future<Output = ()>, String> {
    #[cfg(unix)]
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| format!("cannot watch for SIGTERM: {e}"))?;
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// Accepts connections, [`MAX_CONNECTIONS`] at most at once, until `stop`;
/// then stops every search, closes the connections and waits a little
/// for them.
async fn serve(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    stop: impl std::future::Future<Output = ()>,
) {
    let places = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (closing, closed) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let place = tokio::select! {
            () = &mut stop => break,
            place = Arc::clone(&places).acquire_owned() => match place {
                Ok(place) => place,
                Err(_) => break,
            },
        };
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((socket, peer)) => {
                let shared = Arc::clone(&shared);
                let closed = closed.clone();
                tokio::spawn(async move {
                    connection(socket, peer, shared, closed).await;
                    drop(place);
                });
            }
            // Out of file descriptors, say: the connections served go
            // on, and accepting resumes shortly.
            Err(why) => {
                eprintln!("tempo serve: cannot accept a connection: {why}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    let running = shared.searches.running();
    eprintln!("tempo serve: stopping, and the {running} searches running with it");
    shared.searches.stop_all();
    let _ = closing.send(true);
    let everyone = u32::try_from(MAX_CONNECTIONS).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(GRACE, places.acquire_many(everyone)).await;
}

/// Serves one connection under the limits, until it closes or the server
/// stops.
async fn connection(
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    mut closed: watch::Receiver<bool>,
) {
    let service = service_fn(move |request| {
        let shared = Arc::clone(&shared);
        async move { Ok::<_, Infallible>(handle(request, shared, peer).await) }
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_header_size(MAX_HEAD);
    let served = builder.serve_connection(TokioIo::new(socket), service);
    tokio::pin!(served);
    let mut closing = false;
    loop {
        tokio::select! {
            _ = served.as_mut() => return,
            changed = closed.wait_for(|closed| *closed), if !closing => {
                closing = true;
                if changed.is_ok() {
                    served.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// The page and its parts, built into the binary.
const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const TREE_SCRIPT: &str = include_str!("page/tree.js");
const PDN_SCRIPT: &str = include_str!("page/pdn.js");
const STYLE: &str = include_str!("page/app.css");

/// Answers one request: refused unless it is for this server from its
/// own page, then routed.
async fn handle(
    request: Request<Incoming>,
    shared: Arc<Shared>,
    peer: SocketAddr,
) -> Response<Body> {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let query = Query::parse(request.uri().query().unwrap_or(""));
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    let page = matches!(path.as_str(), "/" | "/index.html");
    let navigation = page
        && matches!(method, Method::GET | Method::HEAD)
        && header("sec-fetch-mode") == Some("navigate");
    let checked = shared.hosts.check(
        header("host"),
        header("origin"),
        header("sec-fetch-site"),
        navigation,
    );
    if let Err((status, why)) = checked {
        return Reply::error(status, why).into_response();
    }
    route(request, method, &path, query, shared, peer)
        .await
        .into_response()
}

/// The reply to a checked request.
async fn route(
    request: Request<Incoming>,
    method: Method,
    path: &str,
    query: Query,
    shared: Arc<Shared>,
    peer: SocketAddr,
) -> Reply {
    let client =
        || Client::of(query.get("client"), peer.ip()).map_err(|why| Reply::error(400, why));
    let read = matches!(method, Method::GET | Method::HEAD);
    match (method, path) {
        (_, "/" | "/index.html") if read => Reply::text(PAGE, "text/html; charset=utf-8"),
        (_, "/app.js") if read => Reply::text(SCRIPT, "text/javascript; charset=utf-8"),
        (_, "/tree.js") if read => Reply::text(TREE_SCRIPT, "text/javascript; charset=utf-8"),
        (_, "/pdn.js") if read => Reply::text(PDN_SCRIPT, "text/javascript; charset=utf-8"),
        (_, "/app.css") if read => Reply::text(STYLE, "text/css; charset=utf-8"),
        (Method::GET, "/api/variants") => board::variants(),
        (Method::GET, "/api/levels") => think::levels(),
        (Method::GET, "/api/state") => board::state(&query),
        (Method::GET, "/api/pdn") => board::write_pdn(&query),
        (Method::POST, "/api/pdn") => match http::read_body(request).await {
            // A large collection takes a while: not on a connection's thread.
            Ok(body) => tokio::task::spawn_blocking(move || board::read_pdn(&query, &body))
                .await
                .unwrap_or_else(|_| Reply::error(500, "reading the PDN failed")),
            Err(reply) => reply,
        },
        (Method::GET, "/api/play") => match client() {
            Ok(client) => think::play(query, shared, client).await,
            Err(reply) => reply,
        },
        (Method::GET, "/api/analyse") => match client() {
            Ok(client) => think::analyse(query, shared, client).await,
            Err(reply) => reply,
        },
        (Method::GET, "/api/review") => match client() {
            Ok(client) => think::review(query, shared, client).await,
            Err(reply) => reply,
        },
        (Method::POST, "/api/cancel") => cancel(&query, &shared, client()),
        (_, "/" | "/index.html" | "/app.js" | "/tree.js" | "/pdn.js" | "/app.css") => {
            Reply::error(405, format!("{path} answers GET and HEAD only"))
        }
        (_, "/api/variants" | "/api/levels" | "/api/state")
        | (_, "/api/play" | "/api/analyse" | "/api/review") => {
            Reply::error(405, format!("{path} answers GET only"))
        }
        (_, "/api/pdn") => Reply::error(405, "/api/pdn answers GET and POST only"),
        (_, "/api/cancel") => Reply::error(405, "/api/cancel answers POST only"),
        _ => Reply::error(404, format!("no such page: {path}")),
    }
}

/// `POST /api/cancel`: stops the searches of page `client=` (those for
/// `purpose=` only, when given: `play`, `analyse` or `review`); answers
/// how many were running.
fn cancel(query: &Query, shared: &Shared, client: Result<Client, Reply>) -> Reply {
    let client = match client {
        Ok(client @ Client::Page(_)) => client,
        Ok(Client::Address(_)) => return Reply::error(400, "client=: the page's id is needed"),
        Err(reply) => return reply,
    };
    let purpose = match query.get("purpose") {
        None | Some("") => None,
        Some("play") => Some(Purpose::Play),
        Some("analyse") => Some(Purpose::Analyse),
        Some("review") => Some(Purpose::Review),
        Some(other) => {
            return Reply::error(
                400,
                format!("purpose={other}: expected play, analyse or review"),
            )
        }
    };
    let cancelled = shared.searches.cancel(&client, purpose);
    Reply::json(&serde_json::json!({ "cancelled": cancelled }))
}
