//! DXP, the DamExchange Protocol: how International (10x10) draughts
//! programs play each other over TCP.
//!
//! - `codec`: the pure message codec and the NUL framer (no I/O);
//! - `session`: one connection's games as a state machine over a `Link`,
//!   keeping each game under the rules and clocks of its GAMEREQ and asking
//!   the `EngineHost` for our moves;
//! - `net`: the TCP `Link` (listen or connect), bounded in frame size,
//!   queue length and time.
//!
//! Layering: `dxp` uses `engine`, `game`, `rules` and the PDN writer of
//! `pdn`; nothing below it knows about it. Only `net` touches a socket.
//! What we send and how we react to each message is documented in the DXP
//! section of `protocol.md`.

pub mod codec;
pub mod net;
pub mod session;
