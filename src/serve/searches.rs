//! Every search of the server belongs to a client. A search stops when
//! its request is dropped (the client went away), when the same page
//! starts another search of the same kind, when the page cancels it
//! (`POST /api/cancel`) and when the server stops; a client may run a few
//! searches at once and the server a few more, so an abandoned request
//! never locks the next player out.
//!
//! The registry only counts and signals: the search itself runs on a
//! thread of its own, holds its [`Ticket`] and watches
//! [`Ticket::stop_signal`]; dropping the ticket gives its place back.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

use crossbeam_channel::{bounded, Receiver, Sender};
use parking_lot::Mutex;

/// The longest client id a page may send.
pub const MAX_CLIENT_ID: usize = 64;

/// Who a search belongs to: the id the page sends (`client=`), or, for a
/// client that names none, its address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Client {
    /// A page, by the id it made when it was opened.
    Page(String),
    /// A client that sent no id, by its address.
    Address(IpAddr),
}

impl Client {
    /// The client of a request: its `client=` id if given (letters,
    /// digits, `-` and `_`, at most [`MAX_CLIENT_ID`] of them), else its
    /// address.
    pub fn of(id: Option<&str>, address: IpAddr) -> Result<Client, String> {
        match id {
            None | Some("") => Ok(Client::Address(address)),
            Some(id)
                if id.len() <= MAX_CLIENT_ID
                    && id
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
            {
                Ok(Client::Page(id.to_string()))
            }
            Some(_) => Err(format!(
                "client=: expected an id of at most {MAX_CLIENT_ID} letters, digits, '-' or '_'"
            )),
        }
    }
}

/// What a search is for; a page's new search replaces its running one of
/// the same purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move (`/api/play`).
    Play,
    /// Analysis of the position shown (`/api/analyse`).
    Analyse,
    /// A game's review (`/api/review`).
    Review,
}

/// Why a search was told to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The same page started another search of the same purpose.
    Replaced,
    /// The page asked for it (`POST /api/cancel`).
    Cancelled,
    /// The server is stopping.
    ServerStopping,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Replaced => "the page started another search",
            StopReason::Cancelled => "the page cancelled it",
            StopReason::ServerStopping => "the server is stopping",
        })
    }
}

/// Why a search could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The client runs as many searches as it may (HTTP 429).
    ClientBusy {
        /// Searches the client runs.
        running: usize,
    },
    /// The server runs as many searches as it may (HTTP 503).
    ServerBusy {
        /// Searches the server runs.
        running: usize,
    },
    /// The server is stopping (HTTP 503).
    Stopping,
}

impl Refusal {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::ClientBusy { .. } => 429,
            Refusal::ServerBusy { .. } | Refusal::Stopping => 503,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::ClientBusy { running } => write!(
                f,
                "this client runs {running} searches, the most one client may: \
                 stop one (or close another tab) and try again"
            ),
            Refusal::ServerBusy { running } => write!(
                f,
                "{running} searches are running, the most this server allows \
                 (--max-searches): try again when one ends"
            ),
            Refusal::Stopping => f.write_str("the server is stopping"),
        }
    }
}

/// One running search, as the registry knows it.
struct Running {
    id: u64,
    client: Client,
    purpose: Purpose,
    /// Tells the search to stop; dropped, it says so too.
    stop: Sender<StopReason>,
}

/// The registry's state.
struct State {
    next_id: u64,
    running: Vec<Running>,
    stopping: bool,
}

/// The searches running, and the limits on them.
pub struct Searches {
    max_total: usize,
    max_per_client: usize,
    state: Mutex<State>,
}

/// A place among the running searches: held by the search, given back
/// when dropped.
pub struct Ticket {
    registry: Arc<Searches>,
    id: u64,
    stop: Receiver<StopReason>,
}

impl Ticket {
    /// Receives the reason once the search is told to stop (disconnected
    /// as well: a search stopped by the registry is no longer counted).
    pub fn stop_signal(&self) -> &Receiver<StopReason> {
        &self.stop
    }

    /// Why the search was told to stop, if it was.
    pub fn stopped(&self) -> Option<StopReason> {
        match self.stop.try_recv() {
            Ok(reason) => Some(reason),
            Err(crossbeam_channel::TryRecvError::Empty) => None,
            Err(crossbeam_channel::TryRecvError::Disconnected) => Some(StopReason::Cancelled),
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.registry
            .state
            .lock()
            .running
            .retain(|search| search.id != self.id);
    }
}

impl Searches {
    /// A registry allowing `max_total` searches at once, `max_per_client`
    /// of them for one client.
    pub fn new(max_total: usize, max_per_client: usize) -> Arc<Searches> {
        Arc::new(Searches {
            max_total,
            max_per_client,
            state: Mutex::new(State {
                next_id: 0,
                running: Vec::new(),
                stopping: false,
            }),
        })
    }

    /// A place for a search of `client` for `purpose`. A page's running
    /// search of the same purpose is stopped first (its place is this
    /// one's); then the limits apply.
    pub fn begin(self: &Arc<Self>, client: &Client, purpose: Purpose) -> Result<Ticket, Refusal> {
        let mut state = self.state.lock();
        if state.stopping {
            return Err(Refusal::Stopping);
        }
        if matches!(client, Client::Page(_)) {
            stop_where(&mut state.running, StopReason::Replaced, |search| {
                search.client == *client && search.purpose == purpose
            });
        }
        let mine = state
            .running
            .iter()
            .filter(|search| search.client == *client)
            .count();
        if mine >= self.max_per_client {
            return Err(Refusal::ClientBusy { running: mine });
        }
        if state.running.len() >= self.max_total {
            return Err(Refusal::ServerBusy {
                running: state.running.len(),
            });
        }
        let id = state.next_id;
        state.next_id += 1;
        let (stop, stop_signal) = bounded(1);
        state.running.push(Running {
            id,
            client: client.clone(),
            purpose,
            stop,
        });
        Ok(Ticket {
            registry: Arc::clone(self),
            id,
            stop: stop_signal,
        })
    }

    /// Stops the searches of page `client` (only those for `purpose`
    /// when given); says how many.
    pub fn cancel(&self, client: &Client, purpose: Option<Purpose>) -> usize {
        let mut state = self.state.lock();
        stop_where(&mut state.running, StopReason::Cancelled, |search| {
            search.client == *client && purpose.is_none_or(|p| p == search.purpose)
        })
    }

    /// Stops every search and refuses new ones: the server is stopping.
    pub fn stop_all(&self) {
        let mut state = self.state.lock();
        state.stopping = true;
        stop_where(&mut state.running, StopReason::ServerStopping, |_| true);
    }

    /// How many searches are running.
    pub fn running(&self) -> usize {
        self.state.lock().running.len()
    }
}

/// Tells the searches that match `which` to stop for `reason` and forgets
/// them; returns how many.
fn stop_where(
    running: &mut Vec<Running>,
    reason: StopReason,
    which: impl Fn(&Running) -> bool,
) -> usize {
    let before = running.len();
    running.retain(|search| {
        if which(search) {
            // The channel holds one reason; one already there says enough.
            let _ = search.stop.try_send(reason);
            false
        } else {
            true
        }
    });
    before - running.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(id: &str) -> Client {
        Client::Page(id.to_string())
    }

    #[test]
    fn a_page_s_new_search_replaces_its_old_one_of_the_same_purpose() {
        let searches = Searches::new(8, 3);
        let first = searches.begin(&page("a"), Purpose::Play).unwrap();
        let analysis = searches.begin(&page("a"), Purpose::Analyse).unwrap();
        let second = searches.begin(&page("a"), Purpose::Play).unwrap();
        assert_eq!(first.stopped(), Some(StopReason::Replaced));
        assert_eq!(analysis.stopped(), None);
        assert_eq!(second.stopped(), None);
        assert_eq!(searches.running(), 2);
        // The old ticket dropped late takes nothing of the new one's.
        drop(first);
        assert_eq!(searches.running(), 2);
    }

    #[test]
    fn limits_per_client_and_overall() {
        let searches = Searches::new(4, 3);
        let address = Client::Address(IpAddr::from([127, 0, 0, 1]));
        let mine: Vec<Ticket> = (0..3)
            .map(|_| searches.begin(&address, Purpose::Play).unwrap())
            .collect();
        let refused = searches.begin(&address, Purpose::Play).err().unwrap();
        assert_eq!(refused, Refusal::ClientBusy { running: 3 });
        assert_eq!(refused.status(), 429);
        let other = searches.begin(&page("b"), Purpose::Review).unwrap();
        let refused = searches.begin(&page("c"), Purpose::Play).err().unwrap();
        assert_eq!(refused, Refusal::ServerBusy { running: 4 });
        assert!(refused.to_string().contains("--max-searches"));
        drop(mine);
        drop(other);
        assert_eq!(searches.running(), 0);
        assert!(searches.begin(&page("c"), Purpose::Play).is_ok());
    }

    #[test]
    fn cancel_and_stop_all() {
        let searches = Searches::new(8, 3);
        let play = searches.begin(&page("a"), Purpose::Play).unwrap();
        let review = searches.begin(&page("a"), Purpose::Review).unwrap();
        let other = searches.begin(&page("b"), Purpose::Play).unwrap();
        assert_eq!(searches.cancel(&page("a"), Some(Purpose::Review)), 1);
        assert_eq!(review.stopped(), Some(StopReason::Cancelled));
        assert_eq!(play.stopped(), None);
        assert_eq!(searches.cancel(&page("a"), None), 1);
        assert_eq!(play.stopped(), Some(StopReason::Cancelled));
        searches.stop_all();
        assert_eq!(other.stopped(), Some(StopReason::ServerStopping));
        assert_eq!(
            searches.begin(&page("d"), Purpose::Play).err(),
            Some(Refusal::Stopping)
        );
    }

    #[test]
    fn client_ids_are_checked() {
        let here = IpAddr::from([127, 0, 0, 1]);
        assert_eq!(Client::of(Some("tab-1_x"), here), Ok(page("tab-1_x")));
        assert_eq!(Client::of(None, here), Ok(Client::Address(here)));
        assert!(Client::of(Some("a b"), here).is_err());
        assert!(Client::of(Some(&"x".repeat(65)), here).is_err());
    }
}
