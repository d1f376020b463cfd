//! The protocols that drive the engine from outside: parse what a GUI
//! (`hub`) or a remote program (`dxp`) sends, call `engine::EngineHost`,
//! format what it answers.
//!
//! Each protocol keeps a pure codec (text in, typed commands out; typed
//! events in, text out) apart from its I/O loop, so the codec can be tested
//! on the specification's examples and the loop on scripted sessions. The
//! I/O loop of a protocol is the only code that writes its output stream.

pub mod dxp;
pub mod hub;
