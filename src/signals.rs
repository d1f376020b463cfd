//! Ctrl-C and SIGTERM for the long commands: nothing they finished is
//! lost, and they stop within a second.
//!
//! One handler serves the process (the platform allows one), set by
//! [`install`]. A signal outside [`whole`] ends the process at once with
//! [`INTERRUPTED_EXIT`], after saying the last [`farewell`] on standard
//! error; inside `whole` (a file being written, a fit that keeps its best
//! epoch, a game that ends as interrupted) it is only noted, [`raised`] and
//! [`channel`] tell the work, and the process ends as soon as the
//! outermost `whole` returns. With the `signals` feature off no handler is
//! set, and a signal ends the process as it would any program.

use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::{Receiver, Sender};
use once_cell::sync::Lazy;
use parking_lot::Mutex;

/// The exit code of a command stopped by a signal (128 + SIGINT's 2, as
/// shells report it).
pub const INTERRUPTED_EXIT: u8 = 130;

/// What the handler and the work share.
struct State {
    /// Nested `whole` sections running.
    busy: u32,
    /// Said on standard error when the process ends by a signal.
    farewell: String,
    /// Called by the handler (to stop a running search at once).
    also: Option<Box<dyn Fn() + Send>>,
    /// Dropped when a signal comes, which disconnects [`channel`].
    sender: Option<Sender<()>>,
}

static STATE: Lazy<Mutex<State>> = Lazy::new(|| {
    Mutex::new(State {
        busy: 0,
        farewell: "interrupted".to_string(),
        also: None,
        sender: None,
    })
});

static RAISED: AtomicBool = AtomicBool::new(false);

static CHANNEL: Lazy<Receiver<()>> = Lazy::new(|| {
    let (sender, receiver) = crossbeam_channel::bounded(0);
    STATE.lock().sender = Some(sender);
    receiver
});

/// Sets the handler (once per process; a later call only replaces `also`),
/// which calls `also` when a signal comes, then ends the process unless a
/// [`whole`] section runs.
pub fn install(also: impl Fn() + Send + 'static) {
    Lazy::force(&CHANNEL);
    STATE.lock().also = Some(Box::new(also));
    set_handler();
}

#[cfg(feature = "signals")]
fn set_handler() {
    static SET: std::sync::Once = std::sync::Once::new();
    SET.call_once(|| {
        let _ = ctrlc::set_handler(on_signal);
    });
}

#[cfg(not(feature = "signals"))]
fn set_handler() {}

/// What the handler does.
#[cfg_attr(not(feature = "signals"), allow(dead_code))]
fn on_signal() {
    RAISED.store(true, Ordering::SeqCst);
    let mut state = STATE.lock();
    drop(state.sender.take());
    if let Some(also) = &state.also {
        also();
    }
    if state.busy == 0 {
        leave(&state.farewell);
    }
}

/// Ends the process as a signal asks.
fn leave(farewell: &str) -> ! {
    eprintln!("{farewell}");
    std::process::exit(i32::from(INTERRUPTED_EXIT));
}

/// Runs `work`, which a signal does not cut short (it is told by
/// [`raised`] and [`channel`]); when it returns and a signal has come, the
/// process ends, saying the [`farewell`].
pub fn whole<T>(work: impl FnOnce() -> T) -> T {
    STATE.lock().busy += 1;
    let done = work();
    let mut state = STATE.lock();
    state.busy -= 1;
    if state.busy == 0 && raised() {
        leave(&state.farewell);
    }
    done
}

/// Whether a signal has come.
pub fn raised() -> bool {
    RAISED.load(Ordering::SeqCst)
}

/// A channel that disconnects when a signal comes (nothing is sent on
/// it): from then on `recv` on it returns at once.
pub fn channel() -> Receiver<()> {
    CHANNEL.clone()
}

/// What to say on standard error if a signal ends the process now: what
/// was finished and how to go on.
pub fn farewell(text: impl Into<String>) {
    STATE.lock().farewell = text.into();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_signal_the_channel_stays_open_and_whole_returns() {
        install(|| {});
        assert!(!raised());
        assert_eq!(
            channel().try_recv(),
            Err(crossbeam_channel::TryRecvError::Empty)
        );
        assert_eq!(whole(|| 7), 7);
    }
}
