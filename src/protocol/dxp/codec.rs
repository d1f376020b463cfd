//! The DXP message codec: parse and format each message, and cut a byte
//! stream into NUL-terminated frames. Pure: no I/O, no game knowledge.
//!
//! Layouts (field[width]; integers zero-padded, strings space-padded):
//!
//! ```text
//! R version[2] name[32] follower-colour[1] minutes[3] moves[3] start[1]
//!   [colour-to-move[1] board[50]]                                GAMEREQ
//! A name[32] code[1]                                             GAMEACC
//! M seconds[4] from[2] to[2] count[2] captured[2]*count          MOVE
//! E reason[1] stop[1]                                            GAMEEND
//! C text                                                         CHAT
//! B move-number[3] colour-to-move[1]                             BACKREQ
//! K code[1]                                                      BACKACC
//! ```
//!
//! Invariants:
//! - `parse` accepts exactly the layouts above and returns a `DxpError` for
//!   anything else; it never panics, whatever the bytes.
//! - A message body (without its NUL) holds at most `MAX_MESSAGE` bytes,
//!   none of them a control byte; `format` of any value produces such a
//!   body, and `parse(&m.format()) == Ok(m)` for every value whose fields
//!   fit their widths (names of at most 32 printable ASCII characters
//!   without surrounding spaces, chat of at most 254 printable ASCII
//!   characters, numbers within their digits, squares 1..=50, refusal
//!   codes 1..=9).
//! - Text fields (names, chat) keep printable ASCII; a byte above 127 in
//!   them is read as `?` (some programs send Latin-1 names). Numeric and
//!   code fields accept only their documented characters.
//! - A `Framer` never holds more than `MAX_MESSAGE` bytes: a longer frame
//!   is reported once as `TooLong` and skipped up to its NUL.

use std::fmt;

use crate::rules::{Piece, Side};

/// The most bytes a message may have, its NUL terminator excluded (so a
/// frame is at most 256 bytes).
pub const MAX_MESSAGE: usize = 255;
/// Width of the name fields of GAMEREQ and GAMEACC.
pub const NAME_WIDTH: usize = 32;
/// Squares of the 10x10 board, the only board DXP carries.
pub const SQUARES: usize = 50;
/// The protocol version this codec speaks.
pub const VERSION: u8 = 1;

/// Why bytes are not a DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DxpError {
    /// An empty frame (a NUL with nothing before it).
    Empty,
    /// A frame longer than `MAX_MESSAGE` bytes.
    TooLong {
        /// Bytes seen before giving up (at least `MAX_MESSAGE + 1`).
        length: usize,
    },
    /// Bytes left at the end of the stream with no NUL after them.
    Unterminated {
        /// How many bytes were left.
        length: usize,
    },
    /// A control byte (NUL included) inside a message.
    BadByte {
        /// Its index in the message.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A first character that names no message type.
    UnknownType(char),
    /// A message whose length does not fit its type.
    BadLength {
        /// The message type.
        kind: &'static str,
        /// The length (or lengths) the layout allows.
        expected: String,
        /// The length found.
        found: usize,
    },
    /// A numeric field that holds something other than digits.
    BadDigits {
        /// The field.
        field: &'static str,
        /// What it held.
        text: String,
    },
    /// A field whose characters are allowed but whose value is not
    /// (a colour other than `W`/`Z`, a square outside 1..=50, ...).
    BadValue {
        /// The field.
        field: &'static str,
        /// What it held.
        text: String,
    },
}

impl fmt::Display for DxpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DxpError::Empty => f.write_str("empty message"),
            DxpError::TooLong { length } => write!(
                f,
                "message longer than {MAX_MESSAGE} bytes ({length} bytes without a NUL)"
            ),
            DxpError::Unterminated { length } => {
                write!(f, "{length} bytes at the end of the stream without a NUL")
            }
            DxpError::BadByte { index, byte } => {
                write!(f, "control byte 0x{byte:02x} at index {index}")
            }
            DxpError::UnknownType(c) => write!(f, "unknown message type '{}'", c.escape_default()),
            DxpError::BadLength {
                kind,
                expected,
                found,
            } => write!(f, "{kind} must be {expected} bytes long, not {found}"),
            DxpError::BadDigits { field, text } => {
                write!(f, "{field} must be digits, not '{text}'")
            }
            DxpError::BadValue { field, text } => write!(f, "bad {field} '{text}'"),
        }
    }
}

impl std::error::Error for DxpError {}

/// A position sent with a GAMEREQ (start `B`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The side to move.
    pub side: Side,
    /// What stands on squares 1..=50, index 0 being square 1.
    pub squares: [Option<Piece>; SQUARES],
}

/// GAMEREQ: the initiator proposes a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// Protocol version (1 is the one in use).
    pub version: u8,
    /// The initiator's name.
    pub name: String,
    /// The colour the follower is to play.
    pub follower: Side,
    /// Thinking time per side, in minutes (0..=999).
    pub minutes: u16,
    /// Moves per time period, 0 for the whole game (0..=999).
    pub moves: u16,
    /// The start position, `None` for the initial one.
    pub start: Option<Setup>,
}

/// The follower's answer to a GAMEREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// `0`: the game is on.
    Accepted,
    /// `1`: the protocol version is not the one expected.
    BadVersion,
    /// `2`: not this game (time, position...), but another one perhaps.
    NotThisGame,
    /// `3`: no game at all.
    NoGames,
}

/// A move as DXP carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxpMove {
    /// Seconds the mover used (0..=9999).
    pub seconds: u16,
    /// Start square.
    pub from: u8,
    /// End square.
    pub to: u8,
    /// Captured squares, in the order sent.
    pub captured: Vec<u8>,
}

/// Why a game ended, from the sender's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: unknown, or the game was interrupted.
    Unknown,
    /// `1`: the sender loses.
    SenderLoses,
    /// `2`: a draw.
    Draw,
    /// `3`: the sender wins.
    SenderWins,
}

/// Whether the sender of a GAMEEND will play another game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopCode {
    /// `0`: ready for another game.
    Continue,
    /// `1`: no further games; the connection is to be closed.
    Stop,
}

/// The answer to a BACKREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackAnswer {
    /// `0`: the moves are taken back.
    Accepted,
    /// Any other digit: refused (`1` is the usual "not supported", `2`
    /// "continue the game").
    Refused(u8),
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DxpMessage {
    /// `R`: a game request.
    GameReq(GameRequest),
    /// `A`: the answer to a game request.
    GameAcc {
        /// The follower's name.
        name: String,
        /// Accepted, or why not.
        answer: Acceptance,
    },
    /// `M`: a move.
    Move(DxpMove),
    /// `E`: the game is over.
    GameEnd {
        /// Why, from the sender's view.
        reason: EndReason,
        /// Whether another game may follow.
        stop: StopCode,
    },
    /// `C`: free text.
    Chat(String),
    /// `B`: take moves back to move `move_number` with `side` to move.
    BackReq {
        /// The move number (0..=999).
        move_number: u16,
        /// The side to move there.
        side: Side,
    },
    /// `K`: the answer to a BACKREQ.
    BackAcc(BackAnswer),
}

/// DXP's letter for a colour: `W` white, `Z` (zwart) black.
fn colour_char(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

/// A value DXP sends as one digit: its index in `CODES`.
trait DigitCode: Copy + PartialEq + 'static {
    /// Every value, in the order of its digit (`0` first).
    const CODES: &'static [Self];

    /// The digit that stands for this value.
    fn digit(self) -> char {
        let index = Self::CODES.iter().position(|&c| c == self);
        char::from(b'0' + index.expect("every value has a digit") as u8)
    }
}

impl DigitCode for Acceptance {
    const CODES: &'static [Self] = &[
        Acceptance::Accepted,
        Acceptance::BadVersion,
        Acceptance::NotThisGame,
        Acceptance::NoGames,
    ];
}

impl DigitCode for EndReason {
    const CODES: &'static [Self] = &[
        EndReason::Unknown,
        EndReason::SenderLoses,
        EndReason::Draw,
        EndReason::SenderWins,
    ];
}

impl DigitCode for StopCode {
    const CODES: &'static [Self] = &[StopCode::Continue, StopCode::Stop];
}

/// DXP's letter for what stands on a square.
fn piece_char(piece: Option<Piece>) -> char {
    match piece {
        None => 'e',
        Some(Piece::Man(Side::White)) => 'w',
        Some(Piece::Man(Side::Black)) => 'z',
        Some(Piece::King(Side::White)) => 'W',
        Some(Piece::King(Side::Black)) => 'Z',
    }
}

/// Keeps printable ASCII, writes `?` for anything else, at most `width`
/// characters.
fn clean_text(text: &str, width: usize) -> String {
    text.chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .take(width)
        .collect()
}

/// Appends `value` as exactly `width` digits, clamped to the largest
/// value that fits.
fn push_number(out: &mut String, value: u32, width: usize) {
    let largest = 10u32.pow(width as u32) - 1;
    out.push_str(&format!("{:0width$}", value.min(largest)));
}

impl DxpMessage {
    /// The message body, without the NUL terminator. Names are padded or
    /// cut to 32 characters, chat text cut to fit `MAX_MESSAGE`, numbers
    /// clamped to their field; characters outside printable ASCII become
    /// `?`.
    pub fn format(&self) -> Vec<u8> {
        let mut out = String::new();
        match self {
            DxpMessage::GameReq(req) => {
                out.push('R');
                push_number(&mut out, u32::from(req.version), 2);
                out.push_str(&format!(
                    "{:<NAME_WIDTH$}",
                    clean_text(&req.name, NAME_WIDTH)
                ));
                out.push(colour_char(req.follower));
                push_number(&mut out, u32::from(req.minutes), 3);
                push_number(&mut out, u32::from(req.moves), 3);
                match &req.start {
                    None => out.push('A'),
                    Some(setup) => {
                        out.push('B');
                        out.push(colour_char(setup.side));
                        out.extend(setup.squares.iter().map(|&p| piece_char(p)));
                    }
                }
            }
            DxpMessage::GameAcc { name, answer } => {
                out.push('A');
                out.push_str(&format!("{:<NAME_WIDTH$}", clean_text(name, NAME_WIDTH)));
                out.push(answer.digit());
            }
            DxpMessage::Move(mv) => {
                out.push('M');
                push_number(&mut out, u32::from(mv.seconds), 4);
                push_number(&mut out, u32::from(mv.from), 2);
                push_number(&mut out, u32::from(mv.to), 2);
                let captured = &mv.captured[..mv.captured.len().min(99)];
                push_number(&mut out, captured.len() as u32, 2);
                for &sq in captured {
                    push_number(&mut out, u32::from(sq), 2);
                }
            }
            DxpMessage::GameEnd { reason, stop } => {
                out.push('E');
                out.push(reason.digit());
                out.push(stop.digit());
            }
            DxpMessage::Chat(text) => {
                out.push('C');
                out.push_str(&clean_text(text, MAX_MESSAGE - 1));
            }
            DxpMessage::BackReq { move_number, side } => {
                out.push('B');
                push_number(&mut out, u32::from(*move_number), 3);
                out.push(colour_char(*side));
            }
            DxpMessage::BackAcc(answer) => {
                out.push('K');
                match answer {
                    BackAnswer::Accepted => out.push('0'),
                    BackAnswer::Refused(code) => {
                        out.push(char::from(b'0' + (*code).clamp(1, 9)));
                    }
                }
            }
        }
        out.into_bytes()
    }

    /// Reads one message body (the bytes before its NUL).
    pub fn parse(bytes: &[u8]) -> Result<DxpMessage, DxpError> {
        if bytes.is_empty() {
            return Err(DxpError::Empty);
        }
        if bytes.len() > MAX_MESSAGE {
            return Err(DxpError::TooLong {
                length: bytes.len(),
            });
        }
        if let Some(index) = bytes.iter().position(|&b| b < 0x20 || b == 0x7f) {
            return Err(DxpError::BadByte {
                index,
                byte: bytes[index],
            });
        }
        let fields = Fields { bytes };
        match bytes[0] {
            b'R' => parse_gamereq(&fields),
            b'A' => {
                fields.expect_len("GAMEACC", &[1 + NAME_WIDTH + 1])?;
                Ok(DxpMessage::GameAcc {
                    name: fields.text(1, NAME_WIDTH).trim().to_string(),
                    answer: fields.code("acceptance code", 33)?,
                })
            }
            b'M' => parse_move(&fields),
            b'E' => {
                fields.expect_len("GAMEEND", &[3])?;
                Ok(DxpMessage::GameEnd {
                    reason: fields.code("end reason", 1)?,
                    stop: fields.code("stop code", 2)?,
                })
            }
            b'C' => Ok(DxpMessage::Chat(fields.text(1, bytes.len() - 1))),
            b'B' => {
                fields.expect_len("BACKREQ", &[5])?;
                Ok(DxpMessage::BackReq {
                    move_number: fields.number("move number", 1, 3)? as u16,
                    side: fields.colour("colour to move", 4)?,
                })
            }
            b'K' => {
                fields.expect_len("BACKACC", &[2])?;
                match fields.byte(1) {
                    b'0' => Ok(DxpMessage::BackAcc(BackAnswer::Accepted)),
                    d @ b'1'..=b'9' => Ok(DxpMessage::BackAcc(BackAnswer::Refused(d - b'0'))),
                    _ => Err(fields.bad_value("take-back code", 1, 1)),
                }
            }
            other => Err(DxpError::UnknownType(char::from(other))),
        }
    }
}

/// Length of a GAMEREQ with the initial position.
const GAMEREQ_SHORT: usize = 1 + 2 + NAME_WIDTH + 1 + 3 + 3 + 1;
/// Length of a GAMEREQ carrying a position.
const GAMEREQ_LONG: usize = GAMEREQ_SHORT + 1 + SQUARES;

fn parse_gamereq(fields: &Fields<'_>) -> Result<DxpMessage, DxpError> {
    fields.expect_len("GAMEREQ", &[GAMEREQ_SHORT, GAMEREQ_LONG])?;
    let version = fields.number("version", 1, 2)? as u8;
    let name = fields.text(3, NAME_WIDTH).trim().to_string();
    let follower = fields.colour("follower colour", 35)?;
    let minutes = fields.number("time", 36, 3)? as u16;
    let moves = fields.number("moves", 39, 3)? as u16;
    let start = match (fields.byte(42), fields.bytes.len()) {
        (b'A', GAMEREQ_SHORT) => None,
        (b'B', GAMEREQ_LONG) => {
            let side = fields.colour("colour to move", 43)?;
            let mut squares = [None; SQUARES];
            for (i, square) in squares.iter_mut().enumerate() {
                *square = match fields.byte(44 + i) {
                    b'e' => None,
                    b'w' => Some(Piece::Man(Side::White)),
                    b'z' => Some(Piece::Man(Side::Black)),
                    b'W' => Some(Piece::King(Side::White)),
                    b'Z' => Some(Piece::King(Side::Black)),
                    _ => return Err(fields.bad_value("board square", 44 + i, 1)),
                };
            }
            Some(Setup { side, squares })
        }
        (b'A', _) | (b'B', _) => {
            let expected = if fields.byte(42) == b'A' {
                GAMEREQ_SHORT
            } else {
                GAMEREQ_LONG
            };
            return Err(DxpError::BadLength {
                kind: "GAMEREQ",
                expected: expected.to_string(),
                found: fields.bytes.len(),
            });
        }
        _ => return Err(fields.bad_value("start position code", 42, 1)),
    };
    Ok(DxpMessage::GameReq(GameRequest {
        version,
        name,
        follower,
        minutes,
        moves,
        start,
    }))
}

fn parse_move(fields: &Fields<'_>) -> Result<DxpMessage, DxpError> {
    let len = fields.bytes.len();
    if len < 11 {
        return Err(DxpError::BadLength {
            kind: "MOVE",
            expected: "11 + 2 per captured piece".to_string(),
            found: len,
        });
    }
    let seconds = fields.number("time", 1, 4)? as u16;
    let from = fields.square("from square", 5)?;
    let to = fields.square("to square", 7)?;
    let count = fields.number("capture count", 9, 2)? as usize;
    fields.expect_len("MOVE", &[11 + 2 * count])?;
    let captured = (0..count)
        .map(|i| fields.square("captured square", 11 + 2 * i))
        .collect::<Result<Vec<u8>, DxpError>>()?;
    Ok(DxpMessage::Move(DxpMove {
        seconds,
        from,
        to,
        captured,
    }))
}

/// Field access over a message already checked for length bounds and
/// control bytes; every index is checked again, so no access can panic.
struct Fields<'a> {
    bytes: &'a [u8],
}

impl Fields<'_> {
    fn byte(&self, index: usize) -> u8 {
        self.bytes.get(index).copied().unwrap_or(0)
    }

    fn slice(&self, start: usize, width: usize) -> &[u8] {
        let end = (start + width).min(self.bytes.len());
        self.bytes.get(start.min(end)..end).unwrap_or(&[])
    }

    /// The field as text, bytes above 127 read as `?`.
    fn text(&self, start: usize, width: usize) -> String {
        self.slice(start, width)
            .iter()
            .map(|&b| if b.is_ascii() { char::from(b) } else { '?' })
            .collect()
    }

    fn expect_len(&self, kind: &'static str, allowed: &[usize]) -> Result<(), DxpError> {
        if allowed.contains(&self.bytes.len()) {
            return Ok(());
        }
        let expected = allowed
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" or ");
        Err(DxpError::BadLength {
            kind,
            expected,
            found: self.bytes.len(),
        })
    }

    fn bad_value(&self, field: &'static str, start: usize, width: usize) -> DxpError {
        DxpError::BadValue {
            field,
            text: self.text(start, width),
        }
    }

    fn number(&self, field: &'static str, start: usize, width: usize) -> Result<u32, DxpError> {
        let digits = self.slice(start, width);
        if digits.len() != width || !digits.iter().all(u8::is_ascii_digit) {
            return Err(DxpError::BadDigits {
                field,
                text: self.text(start, width),
            });
        }
        Ok(digits
            .iter()
            .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')))
    }

    fn square(&self, field: &'static str, start: usize) -> Result<u8, DxpError> {
        let n = self.number(field, start, 2)?;
        if n == 0 || n as usize > SQUARES {
            return Err(self.bad_value(field, start, 2));
        }
        Ok(n as u8)
    }

    /// The one-digit field at `index`: the value of `T` it stands for.
    fn code<T: DigitCode>(&self, field: &'static str, index: usize) -> Result<T, DxpError> {
        let digit = usize::from(self.byte(index).wrapping_sub(b'0'));
        T::CODES
            .get(digit)
            .copied()
            .ok_or_else(|| self.bad_value(field, index, 1))
    }

    fn colour(&self, field: &'static str, index: usize) -> Result<Side, DxpError> {
        match self.byte(index) {
            b'W' => Ok(Side::White),
            b'Z' => Ok(Side::Black),
            _ => Err(self.bad_value(field, index, 1)),
        }
    }
}

/// Cuts a byte stream into NUL-terminated frames. Holds at most
/// `MAX_MESSAGE` bytes; a longer frame is reported once and skipped up to
/// its NUL.
#[derive(Debug, Default)]
pub struct Framer {
    buffer: Vec<u8>,
    /// Inside an oversized frame that was already reported.
    skipping: bool,
}

impl Framer {
    /// An empty framer.
    pub fn new() -> Framer {
        Framer::default()
    }

    /// Takes the next bytes read; returns every frame they complete, in
    /// order (the body without its NUL), and a `TooLong` error for each
    /// oversized frame.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Result<Vec<u8>, DxpError>> {
        let mut out = Vec::new();
        for &b in bytes {
            if b == 0 {
                if self.skipping {
                    self.skipping = false;
                } else {
                    out.push(Ok(std::mem::take(&mut self.buffer)));
                }
                continue;
            }
            if self.skipping {
                continue;
            }
            if self.buffer.len() == MAX_MESSAGE {
                self.buffer.clear();
                self.skipping = true;
                out.push(Err(DxpError::TooLong {
                    length: MAX_MESSAGE + 1,
                }));
                continue;
            }
            self.buffer.push(b);
        }
        out
    }

    /// The stream has ended: an error if a frame was left without its NUL.
    pub fn finish(&self) -> Result<(), DxpError> {
        if self.buffer.is_empty() {
            Ok(())
        } else {
            Err(DxpError::Unterminated {
                length: self.buffer.len(),
            })
        }
    }
}
