//! Ctrl-C and termination signals for the long commands: the command is
//! told, stops what runs, writes what it finished and exits with 130.
//!
//! One handler serves the process (the platform allows one): `install`
//! sets it once and hands out what the command waits on, a flag and a
//! channel that disconnects when a signal comes, so that any number of
//! `select!`s see it. With the `signals` feature off the handler is never
//! set and a signal ends the process as it would any program.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crossbeam_channel::Receiver;

/// The exit code of a command stopped by a signal (128 + SIGINT's 2, as
/// shells report it).
pub const INTERRUPTED_EXIT: u8 = 130;

/// What a command sees of the signals: set once a signal has come.
#[derive(Clone, Debug)]
pub struct Interrupted {
    raised: Arc<AtomicBool>,
    closed: Receiver<()>,
}

impl Interrupted {
    /// Whether a signal has come.
    pub fn raised(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }

    /// A channel that disconnects when a signal comes (nothing is ever
    /// sent on it): `recv` on it returns at once from then on.
    pub fn channel(&self) -> Receiver<()> {
        self.closed.clone()
    }
}

/// Sets the handler: a signal sets the flag, disconnects the channel and
/// calls `also` (to stop a running search at once). Without the `signals`
/// feature, or when a handler was set already in this process (tests
/// running commands in one process), nothing is set and the `Interrupted`
/// returned is never raised.
pub fn install(also: impl Fn() + Send + 'static) -> Interrupted {
    let raised = Arc::new(AtomicBool::new(false));
    let (sender, closed) = crossbeam_channel::bounded::<()>(0);
    set_handler(Arc::clone(&raised), sender, also);
    Interrupted { raised, closed }
}

#[cfg(feature = "signals")]
fn set_handler(
    raised: Arc<AtomicBool>,
    sender: crossbeam_channel::Sender<()>,
    also: impl Fn() + Send + 'static,
) {
    let sender = Arc::new(parking_lot::Mutex::new(Some(sender)));
    let held = Arc::clone(&sender);
    let set = ctrlc::set_handler(move || {
        raised.store(true, Ordering::SeqCst);
        drop(held.lock().take());
        also();
    });
    if set.is_err() {
        // No handler: the channel must stay open for the life of the
        // process, though the handler's copy of the sender is gone.
        std::mem::forget(sender);
    }
}

#[cfg(not(feature = "signals"))]
fn set_handler(
    raised: Arc<AtomicBool>,
    sender: crossbeam_channel::Sender<()>,
    also: impl Fn() + Send + 'static,
) {
    // The channel must stay open for as long as the command runs: keep
    // its sender alive for the life of the process.
    let _ = (raised, also);
    std::mem::forget(sender);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupted_not_raised_keeps_its_channel_open() {
        let interrupted = install(|| {});
        assert!(!interrupted.raised());
        assert_eq!(
            interrupted.channel().try_recv(),
            Err(crossbeam_channel::TryRecvError::Empty)
        );
    }
}
