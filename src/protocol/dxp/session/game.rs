//! One DXP game, from the first move to the GAMEEND: our searches, the
//! opponent's messages, the clock and the end of the game.

use std::time::{Duration, Instant};

use crossbeam_channel::{never, select, Receiver};

use super::{
    After, GameLog, GameSpec, Incoming, Session, SessionEnd, SessionError, EVENT_ROOM,
    NO_CLOCK_MOVE_TIME, OVERRUN, REPLY_WAIT,
};
use crate::engine::{EngineError, EngineEvent, GoMode, Limits};
use crate::game::{Clock, Game, GameResult, TimeControl};
use crate::protocol::dxp::codec::{
    Acceptance, BackAnswer, DxpMessage, DxpMove, EndReason, StopCode,
};
use crate::rules::notation::{find_move, format_move, squares_of, to_fen, MoveSquares};
use crate::rules::{International, Move, MoveStyle, Side};
/// The limits of our next search under `clock`, never longer than `cap`.
fn limits_under(clock: &Clock, cap: Option<Duration>) -> Limits {
    let limits = Limits::for_clock(clock);
    match (cap, limits.budget().hard) {
        (Some(cap), Some(hard)) if cap < hard => Limits {
            move_time: Some(cap),
            ..Limits::default()
        },
        _ => limits,
    }
}

/// A search in progress.
struct Search {
    events: Receiver<EngineEvent>,
    started: Instant,
    /// Stop the search if it is still running then.
    deadline: Instant,
    stopping: bool,
}

/// A game in progress.
struct Play {
    spec: GameSpec,
    game: Game<International>,
    clock: Clock,
    search: Option<Search>,
    /// When we last heard from the opponent or sent it a move.
    last_activity: Instant,
    /// The stop code of the GAMEEND we send for this game.
    our_stop: StopCode,
}

/// How a game ended.
struct Ending {
    result: &'static str,
    termination: String,
}

/// What a message does to a game.
enum Step {
    /// The game goes on.
    Continue,
    /// The game is over; a GAMEEND was exchanged (or the link is gone).
    Over(Ending, After),
}

/// The PDN score of a win for `side`.
fn win_for(side: Side) -> &'static str {
    match side {
        Side::White => "1-0",
        Side::Black => "0-1",
    }
}

/// The GAMEEND reason that states `result` from `side`'s view.
fn reason_for(result: GameResult, side: Side) -> EndReason {
    match result {
        GameResult::Ongoing => EndReason::Unknown,
        GameResult::Draw(_) => EndReason::Draw,
        GameResult::WhiteWins(_) if side == Side::White => EndReason::SenderWins,
        GameResult::BlackWins(_) if side == Side::Black => EndReason::SenderWins,
        GameResult::WhiteWins(_) | GameResult::BlackWins(_) => EndReason::SenderLoses,
    }
}

impl Session<'_> {
    /// Plays one accepted game to its end and logs it.
    pub(super) fn play(
        &mut self,
        spec: GameSpec,
        opponent: &str,
        our_stop: StopCode,
    ) -> Result<After, SessionError> {
        self.engine.new_game()?;
        let index = self.games;
        self.games += 1;
        let names = [self.config.name.clone(), opponent.to_string()];
        let (white, black) = match spec.our_side {
            Side::White => (&names[0], &names[1]),
            Side::Black => (&names[1], &names[0]),
        };
        let line = format!(
            "game {}: {white} - {black}, {} min, {} moves per period, start {}",
            index + 1,
            spec.minutes,
            spec.moves,
            to_fen(&spec.start)
        );
        self.say(&line);
        let mut play = Play {
            game: Game::with_settings(spec.start, self.engine.draw_settings()),
            clock: Clock::new(TimeControl::dxp(
                spec.minutes,
                spec.moves,
                self.config.max_move_time.unwrap_or(NO_CLOCK_MOVE_TIME),
            )),
            spec,
            search: None,
            last_activity: Instant::now(),
            our_stop,
        };
        let outcome = self.run_game(&mut play, opponent);
        // Whatever happened, no search outlives its game.
        self.stop_search(&mut play);
        let (ending, after) = outcome?;
        self.say(&format!(
            "game {} over: {} ({})",
            index + 1,
            ending.result,
            ending.termination
        ));
        (self.on_game)(&GameLog {
            index,
            our_side: play.spec.our_side,
            names,
            start: play.spec.start,
            moves: play.game.moves().to_vec(),
            result: ending.result,
            termination: ending.termination,
        });
        Ok(after)
    }

    fn run_game(
        &mut self,
        play: &mut Play,
        opponent: &str,
    ) -> Result<(Ending, After), SessionError> {
        loop {
            let result = play.game.result();
            if result.is_over() {
                let ending = Ending {
                    result: result.score(),
                    termination: result.describe(),
                };
                return self.send_end(play, reason_for(result, play.spec.our_side), ending);
            }
            let our_turn = play.game.position().side_to_move() == play.spec.our_side;
            if our_turn && play.search.is_none() {
                if let Err(e) = self.start_search(play) {
                    let ending = Ending {
                        result: "*",
                        termination: format!("our engine failed: {e}"),
                    };
                    return self.send_end(play, EndReason::Unknown, ending);
                }
            }
            let (events, deadline) = match &play.search {
                Some(s) if s.stopping => {
                    (s.events.clone(), Instant::now() + self.config.idle_timeout)
                }
                Some(s) => (s.events.clone(), s.deadline),
                None => {
                    let period = Duration::from_secs(u64::from(play.spec.minutes) * 60);
                    (
                        never(),
                        play.last_activity + period + self.config.idle_timeout,
                    )
                }
            };
            let incoming = self.incoming.clone();
            let interrupt = self.interrupt.clone();
            let wait = deadline.saturating_duration_since(Instant::now());
            let pending = self.pending.take();
            let item = if let Some(item) = pending {
                Some(item)
            } else {
                select! {
                    recv(interrupt) -> _ => {
                        self.interrupted = true;
                        let ending = Ending {
                            result: "*",
                            termination: "interrupted: we were stopped (Ctrl-C or a \
                                          termination signal)"
                                .to_string(),
                        };
                        play.our_stop = StopCode::Stop;
                        let (ending, _) = self.send_end(play, EndReason::Unknown, ending)?;
                        return Ok((ending, After::End(SessionEnd::Interrupted)));
                    }
                    recv(events) -> event => {
                        if let Some(step) = self.on_event(play, event.ok())? {
                            return Ok(step);
                        }
                        continue;
                    }
                    recv(incoming) -> item => Some(item.unwrap_or_else(|_| {
                        Incoming::Closed("the link is gone".to_string())
                    })),
                    default(wait) => None,
                }
            };
            let Some(item) = item else {
                if let Some(search) = play.search.as_mut() {
                    // Our search overran its budget: stop it and take its move.
                    search.stopping = true;
                    self.engine.stop();
                    continue;
                }
                let silence = Instant::now().saturating_duration_since(play.last_activity);
                let ending = Ending {
                    result: "*",
                    termination: format!("{opponent} was silent for {} s", silence.as_secs()),
                };
                play.our_stop = StopCode::Stop;
                let (ending, _) = self.send_end(play, EndReason::Unknown, ending)?;
                return Ok((ending, After::End(SessionEnd::Silent(silence))));
            };
            play.last_activity = Instant::now();
            if let Step::Over(ending, after) = self.in_game(play, item, opponent)? {
                return Ok((ending, after));
            }
        }
    }

    /// Starts a search for our move.
    fn start_search(&mut self, play: &mut Play) -> Result<(), EngineError> {
        self.engine.set_game(play.spec.start, play.game.moves())?;
        let limits = limits_under(&play.clock, self.config.max_move_time);
        let budget = limits.budget().hard.unwrap_or(NO_CLOCK_MOVE_TIME);
        let (tx, rx) = crossbeam_channel::bounded(EVENT_ROOM);
        let started = Instant::now();
        self.engine.go(GoMode::Think, limits, tx)?;
        play.search = Some(Search {
            events: rx,
            started,
            deadline: started + budget + OVERRUN,
            stopping: false,
        });
        Ok(())
    }

    /// Stops the search, if any, and waits for its end.
    fn stop_search(&mut self, play: &mut Play) {
        if let Some(search) = play.search.take() {
            self.engine.stop();
            // The search sends `Done` and drops its sender; draining to the
            // disconnection waits exactly for that.
            for _ in search.events.iter() {}
            self.engine.wait();
        }
    }

    /// An engine event: plays our move when the search is done. Returns the
    /// end of the game if that brings it.
    fn on_event(
        &mut self,
        play: &mut Play,
        event: Option<EngineEvent>,
    ) -> Result<Option<(Ending, After)>, SessionError> {
        let best = match event {
            Some(EngineEvent::Info(_) | EngineEvent::Note(_)) => return Ok(None),
            Some(EngineEvent::Done { best, .. }) => best,
            None => None,
        };
        let Some(search) = play.search.take() else {
            return Ok(None);
        };
        let used = search.started.elapsed();
        self.engine.wait();
        let found = best
            .as_ref()
            .and_then(|m: &MoveSquares| find_move(play.game.position(), m));
        let Some(mv) = found else {
            let ending = Ending {
                result: "*",
                termination: format!("our engine gave no legal move ({best:?})"),
            };
            return self.send_end(play, EndReason::Unknown, ending).map(Some);
        };
        play.clock.spend(used);
        let MoveSquares { from, to, captured } = squares_of::<International>(mv);
        if play.game.play(mv).is_err() {
            let ending = Ending {
                result: "*",
                termination: "our engine's move was refused by the rules".to_string(),
            };
            return self.send_end(play, EndReason::Unknown, ending).map(Some);
        }
        self.send(&DxpMessage::Move(DxpMove {
            seconds: used.as_secs_f64().round().min(9999.0) as u16,
            from,
            to,
            captured,
        }))?;
        play.last_activity = Instant::now();
        let name = self.config.name.clone();
        self.say_move(play, mv, &name, Some(used));
        Ok(None)
    }

    /// A progress line for a move just played: `  ply 7, white (tempo):
    /// 32-28, 1.3 s`, so that a game is followed as it goes.
    fn say_move(&mut self, play: &Play, mv: Move, who: &str, used: Option<Duration>) {
        let ply = play.game.moves().len();
        let side = match play.game.position().side_to_move() {
            Side::White => "black",
            Side::Black => "white",
        };
        let text = format_move::<International>(mv, MoveStyle::Short);
        let time = used.map_or(String::new(), |t| format!(", {:.1} s", t.as_secs_f64()));
        self.say(&format!("  ply {ply}, {side} ({who}): {text}{time}"));
    }

    /// A message received during a game.
    fn in_game(
        &mut self,
        play: &mut Play,
        item: Incoming,
        opponent: &str,
    ) -> Result<Step, SessionError> {
        let message = match item {
            Incoming::Message(message) => message,
            Incoming::Closed(why) => {
                let ending = Ending {
                    result: "*",
                    termination: format!("connection closed: {why}"),
                };
                return Ok(Step::Over(ending, After::End(SessionEnd::Closed(why))));
            }
            Incoming::Malformed { frame, error } if frame.starts_with('M') => {
                return self.illegal(play, opponent, &format!("'{frame}' ({error})"));
            }
            Incoming::Malformed { frame, error } => {
                self.say(&format!("ignored malformed message '{frame}': {error}"));
                return Ok(Step::Continue);
            }
        };
        match message {
            DxpMessage::Move(mv) => {
                let our_turn = play.game.position().side_to_move() == play.spec.our_side;
                let text = DxpMessage::Move(mv.clone()).format();
                let text = String::from_utf8_lossy(&text).into_owned();
                if our_turn {
                    return self.illegal(play, opponent, &format!("'{text}' out of turn"));
                }
                let squares = MoveSquares {
                    from: mv.from,
                    to: mv.to,
                    captured: mv.captured.clone(),
                };
                match find_move(play.game.position(), &squares) {
                    Some(legal) => {
                        if play.game.play(legal).is_err() {
                            return self.illegal(play, opponent, &format!("'{text}'"));
                        }
                        let seconds = Duration::from_secs(u64::from(mv.seconds));
                        self.say_move(play, legal, opponent, Some(seconds));
                    }
                    None => return self.illegal(play, opponent, &format!("'{text}'")),
                }
            }
            DxpMessage::GameEnd { reason, stop } => {
                self.stop_search(play);
                let result = play.game.result();
                let (our_reason, ending) = if result.is_over() {
                    let ending = Ending {
                        result: result.score(),
                        termination: result.describe(),
                    };
                    (reason_for(result, play.spec.our_side), ending)
                } else {
                    match reason {
                        EndReason::SenderLoses => (
                            EndReason::SenderWins,
                            Ending {
                                result: win_for(play.spec.our_side),
                                termination: format!("{opponent} gave up"),
                            },
                        ),
                        EndReason::Draw => (
                            EndReason::Draw,
                            Ending {
                                result: "1/2-1/2",
                                termination: format!("{opponent} declared a draw"),
                            },
                        ),
                        EndReason::SenderWins => (
                            EndReason::Unknown,
                            Ending {
                                result: "*",
                                termination: format!(
                                    "{opponent} claimed a win the rules do not give"
                                ),
                            },
                        ),
                        EndReason::Unknown => (
                            EndReason::Unknown,
                            Ending {
                                result: "*",
                                termination: format!("{opponent} interrupted the game"),
                            },
                        ),
                    }
                };
                self.send(&DxpMessage::GameEnd {
                    reason: our_reason,
                    stop: play.our_stop,
                })?;
                let after = if stop == StopCode::Stop {
                    After::End(SessionEnd::PeerStopped)
                } else {
                    After::Continue
                };
                return Ok(Step::Over(ending, after));
            }
            DxpMessage::BackReq { move_number, side } => {
                let answer = self.take_back(play, move_number, side);
                self.send(&DxpMessage::BackAcc(answer))?;
            }
            DxpMessage::Chat(text) => self.say(&format!("chat from {opponent}: {text}")),
            DxpMessage::GameReq(_) => {
                self.send(&DxpMessage::GameAcc {
                    name: self.config.name.clone(),
                    answer: Acceptance::NotThisGame,
                })?;
            }
            other @ (DxpMessage::GameAcc { .. } | DxpMessage::BackAcc(_)) => {
                self.say(&format!("ignored during a game: {other:?}"));
            }
        }
        Ok(Step::Continue)
    }

    /// The opponent sent a move that cannot be played: it forfeits.
    fn illegal(
        &mut self,
        play: &mut Play,
        opponent: &str,
        what: &str,
    ) -> Result<Step, SessionError> {
        let ending = Ending {
            result: win_for(play.spec.our_side),
            termination: format!("{opponent} sent an illegal move {what}"),
        };
        let (ending, after) = self.send_end(play, EndReason::SenderWins, ending)?;
        Ok(Step::Over(ending, after))
    }

    /// Takes moves back to move `move_number` with `side` to move, when the
    /// game has got that far.
    fn take_back(&mut self, play: &mut Play, move_number: u16, side: Side) -> BackAnswer {
        let black_first = play.game.start().side_to_move() == Side::Black;
        let ply = (i64::from(move_number) - 1) * 2 + i64::from(side == Side::Black)
            - i64::from(black_first);
        let Ok(ply) = usize::try_from(ply) else {
            return BackAnswer::Refused(1);
        };
        if move_number == 0 || ply > play.game.moves().len() {
            return BackAnswer::Refused(1);
        }
        self.stop_search(play);
        while play.game.moves().len() > ply {
            play.game.undo();
        }
        self.say(&format!("took back to move {move_number}, {side} to move"));
        BackAnswer::Accepted
    }

    /// Sends our GAMEEND and waits (a bounded time) for the answer.
    fn send_end(
        &mut self,
        play: &mut Play,
        reason: EndReason,
        ending: Ending,
    ) -> Result<(Ending, After), SessionError> {
        self.stop_search(play);
        let stop = play.our_stop;
        self.send(&DxpMessage::GameEnd { reason, stop })?;
        let deadline = Instant::now() + REPLY_WAIT.min(self.config.idle_timeout);
        loop {
            let Some(item) = self.next_before(deadline) else {
                if self.interrupted {
                    return Ok((ending, After::End(SessionEnd::Interrupted)));
                }
                self.say("no GAMEEND came back");
                return Ok((ending, After::Continue));
            };
            match item {
                Incoming::Message(DxpMessage::GameEnd { stop, .. }) => {
                    let after = if stop == StopCode::Stop {
                        After::End(SessionEnd::PeerStopped)
                    } else {
                        After::Continue
                    };
                    return Ok((ending, after));
                }
                Incoming::Closed(why) => {
                    return Ok((ending, After::End(SessionEnd::Closed(why))));
                }
                Incoming::Message(DxpMessage::GameReq(_)) => {
                    // The opponent moved on without answering: the next
                    // wait handles its request.
                    self.pending = Some(item);
                    return Ok((ending, After::Continue));
                }
                Incoming::Message(DxpMessage::Move(_)) => {
                    self.say("ignored a move sent after the game ended");
                }
                other => {
                    if let Some(end) = self.outside_game(other)? {
                        return Ok((ending, After::End(end)));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_bounds_a_long_clock() {
        let cap = Some(Duration::from_millis(50));
        let clock = Clock::new(TimeControl::dxp(60, 0, NO_CLOCK_MOVE_TIME));
        assert_eq!(
            limits_under(&clock, cap).move_time,
            Some(Duration::from_millis(50))
        );
        assert_eq!(
            limits_under(&clock, None).time,
            Some(Duration::from_secs(3600))
        );
    }
}
