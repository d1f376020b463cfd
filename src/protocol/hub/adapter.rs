//! The Hub I/O loop: drives an `EngineHost` from input lines and writes
//! its answers.
//!
//! Threads: a reader thread turns the input into `Input` messages on a
//! bounded channel (end of input, or a read error, becomes `Input::End`).
//! One loop, `serve`, `select!`s over those messages and the engine's
//! events; it is the only writer of the output and flushes every line.
//!
//! Invariants:
//! - every `go` the engine accepts is answered by exactly one `done` (the
//!   engine sends exactly one `Done` per search; the loop prints each one
//!   and then joins the search thread with `wait`);
//! - while a search runs, `ping` (answered at once), `stop`, `ponder-hit`
//!   and `quit` act at once; every other command, and every error it would
//!   cause, is held and handled in order once the search has ended, at most
//!   `MAX_HELD` of them. A `stop` or `ponder-hit` that comes after a held
//!   `go` acts on the running search and is also held for that later
//!   search, which gets it as soon as it starts: `go`, `stop`, `go`,
//!   `stop` sent at once stops both searches, and no search can wait
//!   forever for a `stop` that was meant for it;
//! - `ponder-hit` reaches the engine only during a `go ponder` search that
//!   has not had one yet, so it can never restart a running clock;
//! - at the end of input every command read is still carried out: the
//!   running search and every held `go` end with their `done` (a search
//!   with no end of its own, `go analyze`, `go ponder` or `level
//!   infinite`, is stopped at once), then the loop returns; a script that
//!   ends with `stop` or `go think` gets its move;
//! - `quit` stops the search and returns at once, without a `done`;
//! - after a refused `pos`, every `go` is refused until a `pos` is taken:
//!   a GUI that missed the error never gets a move of another position;
//! - no input makes the loop panic or stop serving: bad input is answered
//!   with `error message="..."`, and only a failing output ends the loop
//!   early (nobody is listening any more).

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::time::Instant;

use crossbeam_channel::{bounded, select, unbounded, Receiver, Sender};

use super::codec::{
    format_done, format_error, format_id, format_info, format_note, format_param, parse_command,
    HubCommand, LevelState,
};
use super::numbering::{Numbering, Wire};
use crate::engine::{EngineError, EngineEvent, EngineHost, GoMode, AUTHOR, NAME, VERSION};
use crate::rules::VariantKind;

/// The longest input line read, in bytes; a longer line is skipped and
/// answered with an error.
pub const MAX_LINE: usize = 1 << 20;

/// The most commands held while a search runs; more are answered with an
/// error and dropped.
pub const MAX_HELD: usize = 4096;

/// A message from the reader thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One input line, without its line end (invalid UTF-8 is replaced),
    /// and when it was read: a `go`'s clock starts then, even if the
    /// commands before it (a `new-game` clearing the table) take a while.
    Line(String, Instant),
    /// A line longer than `MAX_LINE` bytes, skipped; its length.
    TooLong(usize),
    /// The input is closed (or could not be read).
    End,
}

/// Starts a thread that reads `input` line by line and sends each line,
/// then `Input::End`, on the returned channel.
pub fn spawn_reader<R: BufRead + Send + 'static>(input: R) -> Receiver<Input> {
    let (tx, rx) = bounded(256);
    let end = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("hub-reader".to_string())
        .spawn(move || read_lines(input, &tx));
    if spawned.is_err() {
        // Without a reader there is no input: the session ends at once.
        let _ = end.send(Input::End);
    }
    rx
}

/// Reads until the end of `input`, or until nobody receives any more.
fn read_lines<R: BufRead>(mut input: R, tx: &Sender<Input>) {
    loop {
        let message = match read_line(&mut input) {
            Ok(Some(message)) => message,
            Ok(None) | Err(_) => Input::End,
        };
        let end = message == Input::End;
        if tx.send(message).is_err() || end {
            return;
        }
    }
}

/// Reads one line, keeping at most `MAX_LINE` bytes of it; `None` at the
/// end of the input. A last line without a line end still counts.
fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<Input>> {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((length > 0).then(|| finish_line(&line, length)));
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let data = &buf[..newline.unwrap_or(buf.len())];
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&data[..data.len().min(room)]);
        length = length.saturating_add(data.len());
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(finish_line(&line, length)));
        }
    }
}

fn finish_line(line: &[u8], length: usize) -> Input {
    if length > MAX_LINE {
        Input::TooLong(length)
    } else {
        Input::Line(String::from_utf8_lossy(line).into_owned(), Instant::now())
    }
}

/// Serves the Hub protocol: reads `input` on a thread of its own, answers
/// on `out`. Returns at `quit` or at the end of the input; an error only
/// when `out` fails.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, out: W) -> io::Result<()> {
    serve(spawn_reader(input), out)
}

/// Serves the Hub protocol on messages from a reader (see `spawn_reader`),
/// answering on `out`, with a new engine. Returns at `quit`, at
/// `Input::End` or when the reader is gone; an error only when `out` fails.
pub fn serve<W: Write>(input: Receiver<Input>, out: W) -> io::Result<()> {
    let (events_tx, events) = unbounded();
    let mut session = Session {
        engine: EngineHost::new(),
        out,
        level: LevelState::default(),
        numbering: Numbering::default(),
        events_tx,
        search: None,
        held: VecDeque::new(),
        ending: false,
        refused_pos: None,
    };
    let result = session.serve(&input, &events);
    session.engine.stop();
    result
}

/// What a line asks for, once read.
enum Item {
    /// A `go`, with the moment its line was read.
    Go(GoMode, Instant),
    /// Any other command to carry out.
    Command(HubCommand),
    /// A line that only gets an error.
    Error(String),
}

/// Whether the session goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The search in progress.
struct Search {
    /// A `go ponder` still waiting for its `ponder-hit`.
    awaiting_hit: bool,
    /// Whether it runs until stopped (`go analyze`, `go ponder`, `level
    /// infinite`): at the end of input it is stopped, not waited for.
    endless: bool,
}

struct Session<W: Write> {
    engine: EngineHost,
    out: W,
    level: LevelState,
    /// The square numbering on the wire (the `numbering` parameter).
    numbering: Numbering,
    events_tx: Sender<EngineEvent>,
    search: Option<Search>,
    held: VecDeque<Item>,
    /// The input has ended: what was read is finished, then the loop ends.
    ending: bool,
    /// Why the last `pos` was refused, while no `pos` has been taken since.
    refused_pos: Option<String>,
}

impl<W: Write> Session<W> {
    fn serve(&mut self, input: &Receiver<Input>, events: &Receiver<EngineEvent>) -> io::Result<()> {
        loop {
            if self.drain_held()? == Flow::Quit {
                return Ok(());
            }
            if self.ending {
                // Everything read has been carried out but the search.
                if self.search.is_none() {
                    return Ok(());
                }
                // The session holds a sender, so the channel stays open.
                if let Ok(event) = events.recv() {
                    self.on_event(event)?;
                }
                continue;
            }
            select! {
                recv(input) -> message => {
                    let message = message.unwrap_or(Input::End);
                    if self.on_input(message)? == Flow::Quit {
                        return Ok(());
                    }
                }
                recv(events) -> event => {
                    // The session holds a sender, so the channel stays open.
                    if let Ok(event) = event {
                        self.on_event(event)?;
                    }
                }
            }
        }
    }

    /// Handles held commands in order: all of them when no search runs;
    /// during a search, only a `stop` or `ponder-hit` at the front (it was
    /// held because it came after a held `go`, which is this search).
    fn drain_held(&mut self) -> io::Result<Flow> {
        while let Some(front) = self.held.front() {
            let controls_search = matches!(
                front,
                Item::Command(HubCommand::Stop | HubCommand::PonderHit)
            );
            if self.search.is_some() && !controls_search {
                break;
            }
            let Some(item) = self.held.pop_front() else {
                break;
            };
            match item {
                Item::Command(HubCommand::Stop) if self.search.is_some() => self.engine.stop(),
                Item::Command(HubCommand::PonderHit) if self.search.is_some() => self.ponder_hit(),
                item => {
                    if self.execute(item)? == Flow::Quit {
                        return Ok(Flow::Quit);
                    }
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// Whether a `go` waits among the held commands.
    fn go_held(&self) -> bool {
        self.held.iter().any(|item| matches!(item, Item::Go(..)))
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        self.out.write_all(line.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn error(&mut self, message: &str) -> io::Result<()> {
        self.send(&format_error(message))
    }

    fn on_input(&mut self, message: Input) -> io::Result<Flow> {
        let item = match message {
            Input::Line(line, read) => match parse_command(&line) {
                Ok(Some(HubCommand::Go(mode))) => Item::Go(mode, read),
                Ok(Some(command)) => Item::Command(command),
                Ok(None) => return Ok(Flow::Continue),
                Err(e) => Item::Error(e.to_string()),
            },
            Input::TooLong(length) => Item::Error(format!(
                "a line of {length} bytes was skipped: lines are limited to {MAX_LINE} bytes"
            )),
            Input::End => {
                self.ending = true;
                if self.search.as_ref().is_some_and(|search| search.endless) {
                    self.engine.stop();
                }
                return Ok(Flow::Continue);
            }
        };
        if self.search.is_none() {
            return self.execute(item);
        }
        match item {
            Item::Command(HubCommand::Ping) => self.send("pong")?,
            Item::Command(HubCommand::Quit) => return Ok(Flow::Quit),
            // A stop or ponder-hit acts on this search at once; when it
            // follows a held go it may be meant for that later search, so
            // it also waits its turn for it.
            Item::Command(command @ (HubCommand::Stop | HubCommand::PonderHit)) => {
                if command == HubCommand::Stop {
                    self.engine.stop();
                } else {
                    self.ponder_hit();
                }
                if self.go_held() {
                    self.hold(Item::Command(command))?;
                }
            }
            item => self.hold(item)?,
        }
        Ok(Flow::Continue)
    }

    /// Keeps a command for when the search has ended, if there is room.
    fn hold(&mut self, item: Item) -> io::Result<()> {
        if self.held.len() < MAX_HELD {
            self.held.push_back(item);
            return Ok(());
        }
        self.error(&format!(
            "command dropped: {MAX_HELD} commands already wait for the search to end"
        ))
    }

    fn ponder_hit(&mut self) {
        if let Some(search) = &mut self.search {
            if search.awaiting_hit {
                search.awaiting_hit = false;
                self.engine.ponder_hit();
            }
        }
    }

    /// Starts a search in `mode` whose clock started when its line was
    /// `read`.
    fn go(&mut self, mode: GoMode, read: Instant) -> io::Result<()> {
        if let Some(why) = &self.refused_pos {
            let message = format!(
                "go: refused: the last pos was refused ({why}); send a pos the engine takes first"
            );
            return self.error(&message);
        }
        let mut limits = self.level.limits(mode);
        limits.since = Some(read);
        let endless = limits.infinite || mode == GoMode::Ponder;
        match self.engine.go(mode, limits, self.events_tx.clone()) {
            Ok(()) => {
                self.search = Some(Search {
                    awaiting_hit: mode == GoMode::Ponder,
                    endless,
                });
                if self.ending && endless {
                    // Nothing more will come to stop it.
                    self.engine.stop();
                }
                Ok(())
            }
            Err(e) => self.error(&format!("go: {e}")),
        }
    }

    /// Carries out one command while no search runs.
    fn execute(&mut self, item: Item) -> io::Result<Flow> {
        let command = match item {
            Item::Go(mode, read) => {
                self.go(mode, read)?;
                return Ok(Flow::Continue);
            }
            Item::Command(command) => command,
            Item::Error(message) => {
                self.error(&message)?;
                return Ok(Flow::Continue);
            }
        };
        match command {
            HubCommand::Hub => {
                self.send(&format_id(NAME, VERSION, AUTHOR))?;
                let mut params = self.engine.params();
                // Right after `variant`, whose numbering it sets.
                params.insert(1.min(params.len()), self.numbering.param());
                for param in params {
                    self.send(&format_param(&param))?;
                }
                self.send("wait")?;
            }
            HubCommand::Init => {
                // What the first search would otherwise build, built now.
                self.engine.prepare();
                self.send("ready")?;
            }
            HubCommand::Ping => self.send("pong")?,
            HubCommand::SetParam { name, value } if name == Numbering::PARAM => {
                match Numbering::parse(&value) {
                    Some(numbering) => self.numbering = numbering,
                    None => {
                        let names: Vec<&str> = Numbering::ALL.iter().map(|n| n.name()).collect();
                        self.error(&format!(
                            "set-param: bad value for '{name}': '{value}' is not one of {}",
                            names.join(", ")
                        ))?;
                    }
                }
            }
            HubCommand::SetParam { name, value } => {
                if let Err(e) = self.engine.set_param(&name, &value) {
                    self.error(&format!("set-param: {e}"))?;
                }
            }
            HubCommand::NewGame => {
                if let Err(e) = self.engine.new_game() {
                    self.error(&format!("new-game: {e}"))?;
                }
            }
            HubCommand::Pos { position, moves } => {
                let wire = self.wire();
                let ours: Vec<String> = moves.iter().map(|m| wire.move_text(m)).collect();
                let ours: Vec<&str> = ours.iter().map(String::as_str).collect();
                self.refused_pos = None;
                if let Err(mut e) = self.engine.set_position(&wire.position(&position), &ours) {
                    // Name the move as it was sent.
                    if let EngineError::IllegalMove { text, index, .. } = &mut e {
                        if let Some(sent) = moves.get(index.wrapping_sub(1)) {
                            text.clone_from(sent);
                        }
                    }
                    let variant = self.engine.variant().hub_name();
                    let numbering = if wire.is_identity() {
                        String::new()
                    } else {
                        format!(", numbering {}", self.numbering.name())
                    };
                    let hint = other_board(&position, self.engine.variant());
                    self.refused_pos = Some(e.to_string());
                    self.error(&format!("pos: {e} (variant {variant}{numbering}){hint}"))?;
                }
            }
            HubCommand::Level(update) => self.level.apply(&update),
            HubCommand::Go(mode) => self.go(mode, Instant::now())?,
            // Nothing runs: there is nothing to stop or to start the clock of.
            HubCommand::Stop | HubCommand::PonderHit => {}
            HubCommand::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// The translation between the wire and the engine's numbering now.
    fn wire(&self) -> Wire {
        Wire::new(self.engine.variant(), self.numbering)
    }

    fn on_event(&mut self, event: EngineEvent) -> io::Result<()> {
        let wire = self.wire();
        match event {
            EngineEvent::Info(mut info) => {
                info.pv = info.pv.iter().map(|m| wire.move_squares(m)).collect();
                self.send(&format_info(&info))
            }
            EngineEvent::Note(text) => self.send(&format_note(&text)),
            EngineEvent::Done { best, ponder } => {
                self.engine.wait();
                self.search = None;
                let best = best.map(|m| wire.move_squares(&m));
                let ponder = ponder.map(|m| wire.move_squares(&m));
                self.send(&format_done(best.as_ref(), ponder.as_ref()))
            }
        }
    }
}

/// A hint for a Hub position string that has the length of another
/// board's: the variants that board plays, to be chosen first.
fn other_board(position: &str, current: VariantKind) -> String {
    let length = position.trim().chars().count();
    if position.contains(':') || length == current.hub_length() {
        return String::new();
    }
    let fitting: Vec<&str> = VariantKind::with_hub_length(length)
        .into_iter()
        .map(VariantKind::hub_name)
        .collect();
    match fitting.as_slice() {
        [] => String::new(),
        names => format!(
            "; {length} characters is a position of another board: set the variant first, \
             set-param name=variant value={}",
            names.join("|")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// The text of a line read, or what else was read.
    fn text(read: Option<Input>) -> Result<String, Option<Input>> {
        match read {
            Some(Input::Line(line, _)) => Ok(line),
            other => Err(other),
        }
    }

    #[test]
    fn lines_are_read_with_or_without_a_last_line_end() {
        let mut input = Cursor::new(b"ping\r\n\nhub".to_vec());
        assert_eq!(text(read_line(&mut input).unwrap()), Ok("ping\r".into()));
        assert_eq!(text(read_line(&mut input).unwrap()), Ok("".into()));
        assert_eq!(text(read_line(&mut input).unwrap()), Ok("hub".into()));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn an_overlong_line_is_skipped_and_the_next_one_read() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nping\n");
        let mut input = Cursor::new(data);
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Input::TooLong(MAX_LINE + 10))
        );
        assert_eq!(text(read_line(&mut input).unwrap()), Ok("ping".into()));
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let mut input = Cursor::new(b"pi\xffng\n".to_vec());
        let line = text(read_line(&mut input).unwrap()).expect("a line");
        assert!(line.starts_with("pi") && line.ends_with("ng"));
    }
}
