//! `tempo serve`: a board in the browser. A small HTTP server (tiny_http)
//! hands out one page (plain HTML, CSS and JavaScript built into the
//! binary) and answers its requests from the engine API in-process: the
//! state of a game under the rules, the engine's move, analysis streamed
//! as server-sent events, PDN read and written, a game reviewed as the
//! HTML report reviews it.
//!
//! The server keeps no game: every request names the variant, the start
//! position and the moves, so any number of tabs play at once and a
//! closed tab leaves nothing behind. A search belongs to its request and
//! stops when the request ends (a stream whose reader is gone included);
//! ending the server ends them all. The endpoints are in protocol.md,
//! "The board in the browser".

mod board;
mod http;
mod think;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use http::{Query, Reply};

use crate::rules::VariantKind;

/// How the server runs its searches.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    /// Threads of each search.
    pub threads: usize,
    /// Transposition table of each search, in MiB.
    pub hash_mib: usize,
    /// Searches running at once, across tabs; more are refused.
    pub max_searches: usize,
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
            eval_file: None,
        }
    }
}

/// What every request handler shares: the settings and the count of
/// searches running.
struct Shared {
    settings: ServeSettings,
    searches: AtomicUsize,
}

/// A slot among the searches allowed at once, given back when dropped.
struct SearchSlot<'a>(&'a AtomicUsize);

impl Drop for SearchSlot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Shared {
    /// A search slot, or a refusal when `max_searches` are running.
    fn search_slot(&self) -> Result<SearchSlot<'_>, Reply> {
        let running = self.searches.fetch_add(1, Ordering::SeqCst);
        let slot = SearchSlot(&self.searches);
        if running >= self.settings.max_searches {
            return Err(Reply::error(
                503,
                format!(
                    "{running} searches are running, the most this server allows \
                     (--max-searches): stop one and try again"
                ),
            ));
        }
        Ok(slot)
    }
}

/// A bound server, ready to run.
pub struct Server {
    http: tiny_http::Server,
    shared: Arc<Shared>,
}

impl Server {
    /// Binds `address` (port 0: a free one).
    pub fn bind(address: SocketAddr, settings: ServeSettings) -> Result<Server, String> {
        let http = tiny_http::Server::http(address)
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        Ok(Server {
            http,
            shared: Arc::new(Shared {
                settings,
                searches: AtomicUsize::new(0),
            }),
        })
    }

    /// The address the server listens on.
    pub fn address(&self) -> Result<SocketAddr, String> {
        self.http
            .server_addr()
            .to_ip()
            .ok_or_else(|| "the server listens on no IP address".to_string())
    }

    /// Answers requests until the process ends, each on a thread of its own.
    pub fn run(self) {
        for request in self.http.incoming_requests() {
            let shared = Arc::clone(&self.shared);
            let spawned = std::thread::Builder::new()
                .name("serve".to_string())
                .spawn(move || handle(request, &shared));
            if let Err(why) = spawned {
                eprintln!("tempo serve: cannot start a thread for a request: {why}");
            }
        }
    }
}

/// The page and its parts, built into the binary.
const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/app.css");

/// Answers one request.
fn handle(mut request: tiny_http::Request, shared: &Shared) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let query = Query::parse(query);
    let method = request.method().clone();
    use tiny_http::Method::{Get, Post};
    let reply = match (&method, path) {
        (Get, "/") | (Get, "/index.html") => Reply::text(PAGE, "text/html; charset=utf-8"),
        (Get, "/app.js") => Reply::text(SCRIPT, "text/javascript; charset=utf-8"),
        (Get, "/app.css") => Reply::text(STYLE, "text/css; charset=utf-8"),
        (Get, "/api/variants") => board::variants(),
        (Get, "/api/levels") => think::levels(),
        (Get, "/api/state") => board::state(&query),
        (Get, "/api/pdn") => board::write_pdn(&query),
        (Post, "/api/pdn") => match http::read_body(&mut request) {
            Ok(body) => board::read_pdn(&query, &body),
            Err(reply) => reply,
        },
        (Get, "/api/play") => think::play(&query, shared),
        (Get, "/api/analyse") => return think::analyse(request, &query, shared),
        (Get, "/api/review") => return think::review(request, &query, shared),
        (_, "/" | "/index.html" | "/app.js" | "/app.css" | "/api/variants" | "/api/levels")
        | (_, "/api/state")
        | (_, "/api/play" | "/api/analyse" | "/api/review") => {
            Reply::error(405, format!("{path} answers GET only"))
        }
        (_, "/api/pdn") => Reply::error(405, "/api/pdn answers GET and POST only"),
        _ => Reply::error(404, format!("no such page: {path}")),
    };
    reply.send(request);
}
