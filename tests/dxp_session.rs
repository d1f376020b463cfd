//! DXP sessions in-process, over channels: a scripted opponent checks each
//! reaction of the follower and the initiator (acceptance codes, illegal
//! moves, take-backs, game ends by the rules and by GAMEEND, staying up for
//! the next game), and two sessions play a whole game against each other.

use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use tempo::engine::EngineHost;
use tempo::game::Game;
use tempo::protocol::dxp::codec::{
    Acceptance, BackAnswer, DxpMessage, DxpMove, EndReason, GameRequest, Setup, StopCode,
};
use tempo::protocol::dxp::session::{
    run_session, GameLog, GamePlan, Incoming, Link, LinkError, Role, SessionConfig, SessionEnd,
};
use tempo::rules::notation::parse_fen;
use tempo::rules::{International, Piece, Position, Side};

/// One end of an in-memory connection; every message goes through the
/// codec (format, then parse) on its way.
struct PipeLink {
    to_peer: Sender<Incoming>,
    from_peer: Receiver<Incoming>,
}

impl Link for PipeLink {
    fn send(&mut self, message: &DxpMessage) -> Result<(), LinkError> {
        let parsed = DxpMessage::parse(&message.format()).map_err(|e| LinkError(e.to_string()))?;
        self.to_peer
            .send(Incoming::Message(parsed))
            .map_err(|e| LinkError(e.to_string()))
    }

    fn incoming(&self) -> Receiver<Incoming> {
        self.from_peer.clone()
    }
}

fn pipe() -> (PipeLink, PipeLink) {
    let (a_tx, a_rx) = crossbeam_channel::unbounded();
    let (b_tx, b_rx) = crossbeam_channel::unbounded();
    (
        PipeLink {
            to_peer: b_tx,
            from_peer: a_rx,
        },
        PipeLink {
            to_peer: a_tx,
            from_peer: b_rx,
        },
    )
}

fn config(role: Role) -> SessionConfig {
    SessionConfig {
        name: "tempo-test".into(),
        role,
        max_move_time: Some(Duration::from_millis(20)),
        idle_timeout: Duration::from_secs(20),
    }
}

/// Waits for the end of `session`, which the peer must have stopped, and
/// returns its games.
fn games_until_the_peer_stops(
    session: thread::JoinHandle<(SessionEnd, Vec<GameLog>)>,
) -> Vec<GameLog> {
    let (end, games) = session.join().unwrap();
    assert_eq!(end, SessionEnd::PeerStopped);
    games
}

/// Runs a session on its own thread; returns its end and its games.
fn spawn(config: SessionConfig, link: PipeLink) -> thread::JoinHandle<(SessionEnd, Vec<GameLog>)> {
    spawn_with(config, link, crossbeam_channel::never())
}

/// Runs a session that `interrupt` can stop on its own thread.
fn spawn_with(
    config: SessionConfig,
    mut link: PipeLink,
    interrupt: Receiver<()>,
) -> thread::JoinHandle<(SessionEnd, Vec<GameLog>)> {
    thread::spawn(move || {
        let mut engine = EngineHost::new();
        engine.set_param("hash", "4").expect("hash");
        let mut games = Vec::new();
        let end = run_session(
            &config,
            &mut engine,
            &mut link,
            &mut std::io::sink(),
            &mut |g: &GameLog| games.push(g.clone()),
            &interrupt,
        )
        .expect("session error");
        (end, games)
    })
}

/// The scripted opponent.
struct Peer {
    link: PipeLink,
}

impl Peer {
    fn send(&mut self, message: DxpMessage) {
        self.link.send(&message).expect("send");
    }

    fn receive(&self) -> DxpMessage {
        match self.link.from_peer.recv_timeout(Duration::from_secs(20)) {
            Ok(Incoming::Message(m)) => m,
            other => panic!("expected a message, got {other:?}"),
        }
    }

    fn expect_quiet(&self) {
        if let Ok(m) = self.link.from_peer.recv_timeout(Duration::from_millis(300)) {
            panic!("unexpected {m:?}");
        }
    }

    fn request(&mut self, follower: Side, start: Option<&str>) -> Acceptance {
        self.send(DxpMessage::GameReq(GameRequest {
            version: 1,
            name: "peer".into(),
            follower,
            minutes: 1,
            moves: 0,
            start: start.map(setup),
        }));
        match self.receive() {
            DxpMessage::GameAcc { name, answer } => {
                assert_eq!(name, "tempo-test");
                answer
            }
            other => panic!("expected GAMEACC, got {other:?}"),
        }
    }

    /// Asks to take back to move `move_number` with `side` to move; the
    /// engine's answer.
    fn take_back(&mut self, move_number: u16, side: Side) -> BackAnswer {
        self.send(DxpMessage::BackReq { move_number, side });
        match self.receive() {
            DxpMessage::BackAcc(answer) => answer,
            other => panic!("expected BACKACC, got {other:?}"),
        }
    }

    /// Receives the engine's GAMEEND, which must give `reason` and ask for
    /// another game, and answers with `answer` and `stop`.
    fn answer_game_end(&mut self, reason: EndReason, answer: EndReason, stop: StopCode) {
        assert_eq!(self.receive(), game_end(reason, StopCode::Continue));
        self.send(game_end(answer, stop));
    }

    /// Receives the engine's move and plays it in `game`.
    fn engine_move(&self, game: &mut Game<International>) {
        match self.receive() {
            DxpMessage::Move(mv) => {
                let text = hub_text(&mv);
                game.play_text(&text)
                    .unwrap_or_else(|e| panic!("engine move {text}: {e}"));
            }
            other => panic!("expected MOVE, got {other:?}"),
        }
    }
}

fn hub_text(mv: &DxpMove) -> String {
    let sep = if mv.captured.is_empty() { "-" } else { "x" };
    let mut text = format!("{}{sep}{}", mv.from, mv.to);
    for c in &mv.captured {
        text.push_str(&format!("x{c}"));
    }
    text
}

fn setup(fen: &str) -> Setup {
    let pos: Position<International> = parse_fen(fen).expect("fen");
    let mut squares = [None; 50];
    for (sq, piece) in pos.piece_list() {
        squares[sq.get() as usize - 1] = Some(piece);
    }
    Setup {
        side: pos.side_to_move(),
        squares,
    }
}

fn quiet(seconds: u16, from: u8, to: u8) -> DxpMessage {
    DxpMessage::Move(DxpMove {
        seconds,
        from,
        to,
        captured: vec![],
    })
}

fn game_end(reason: EndReason, stop: StopCode) -> DxpMessage {
    DxpMessage::GameEnd { reason, stop }
}

/// Stopped mid-game (Ctrl-C), the session ends within a second: the game
/// is logged as interrupted and the opponent gets a GAMEEND that stops.
#[test]
fn an_interrupt_ends_the_game_as_interrupted_and_logs_it() {
    let (ours, theirs) = pipe();
    let (stop, interrupt) = crossbeam_channel::bounded::<()>(0);
    let mut cfg = config(Role::Follower);
    cfg.max_move_time = Some(Duration::from_secs(30));
    let session = spawn_with(cfg, ours, interrupt);
    let mut peer = Peer { link: theirs };
    // The engine is White and thinks for up to 30 s on its first move.
    assert_eq!(peer.request(Side::White, None), Acceptance::Accepted);
    thread::sleep(Duration::from_millis(300));
    let stopped = std::time::Instant::now();
    drop(stop);
    let (end, games) = session.join().unwrap();
    assert!(
        stopped.elapsed() < Duration::from_secs(1),
        "{:?}",
        stopped.elapsed()
    );
    assert_eq!(end, SessionEnd::Interrupted);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].result, "*");
    assert!(
        games[0].termination.contains("interrupted"),
        "{}",
        games[0].termination
    );
    assert!(
        games[0].pdn().contains("[Result \"*\"]"),
        "{}",
        games[0].pdn()
    );
    // The engine's first move may have gone before the stop.
    loop {
        match peer.receive() {
            DxpMessage::Move(_) => continue,
            DxpMessage::GameEnd { stop, .. } => {
                assert_eq!(stop, StopCode::Stop);
                break;
            }
            other => panic!("expected GAMEEND, got {other:?}"),
        }
    }
}

/// A peer that sends nothing at all is said so soon, with the likely
/// mistake, rather than after the idle timeout of a game.
#[test]
fn a_peer_that_never_speaks_is_named_so() {
    let (ours, _theirs) = pipe();
    let mut cfg = config(Role::Follower);
    cfg.idle_timeout = Duration::from_secs(1);
    let (end, games) = spawn(cfg, ours).join().unwrap();
    assert!(games.is_empty());
    assert_eq!(
        end,
        SessionEnd::NeverHeard {
            waited: Duration::from_secs(1),
            follower: true
        }
    );
    assert!(end.to_string().contains("--initiator"), "{end}");
}

#[test]
fn the_follower_refuses_what_it_cannot_play_and_survives_an_illegal_move() {
    let (ours, theirs) = pipe();
    let session = spawn(config(Role::Follower), ours);
    let mut peer = Peer { link: theirs };

    peer.send(DxpMessage::GameReq(GameRequest {
        version: 2,
        name: "peer".into(),
        follower: Side::White,
        minutes: 1,
        moves: 0,
        start: None,
    }));
    assert!(matches!(
        peer.receive(),
        DxpMessage::GameAcc {
            answer: Acceptance::BadVersion,
            ..
        }
    ));
    // Black to move with no black piece: decided before it starts.
    assert_eq!(
        peer.request(Side::Black, Some("B:W31,32:B")),
        Acceptance::NotThisGame
    );
    // Two men on one square cannot be sent; a white man on the crowning row can.
    let mut bad = setup("W:W31:B1");
    bad.squares[2] = Some(Piece::Man(Side::White));
    peer.send(DxpMessage::GameReq(GameRequest {
        version: 1,
        name: "peer".into(),
        follower: Side::Black,
        minutes: 1,
        moves: 0,
        start: Some(bad),
    }));
    assert!(matches!(
        peer.receive(),
        DxpMessage::GameAcc {
            answer: Acceptance::NotThisGame,
            ..
        }
    ));

    // Game 1: we play White, the engine Black. A legal move, a chat, then
    // a move from an empty square.
    assert_eq!(peer.request(Side::Black, None), Acceptance::Accepted);
    let mut game = Game::<International>::new(Position::start());
    peer.send(quiet(1, 32, 28));
    game.play_text("32-28").unwrap();
    peer.send(DxpMessage::Chat("good luck".into()));
    peer.engine_move(&mut game);
    peer.send(quiet(0, 25, 20));
    peer.answer_game_end(
        EndReason::SenderWins,
        EndReason::SenderLoses,
        StopCode::Continue,
    );
    peer.expect_quiet();

    // Game 2 on the same connection: a malformed move also forfeits.
    assert_eq!(peer.request(Side::Black, None), Acceptance::Accepted);
    peer.send(quiet(0, 32, 28));
    let mut game = Game::<International>::new(Position::start());
    game.play_text("32-28").unwrap();
    peer.engine_move(&mut game);
    peer.link
        .to_peer
        .send(Incoming::Malformed {
            frame: "M00x".into(),
            error: tempo::protocol::dxp::codec::DxpError::Empty,
        })
        .unwrap();
    peer.answer_game_end(
        EndReason::SenderWins,
        EndReason::SenderLoses,
        StopCode::Stop,
    );

    let games = games_until_the_peer_stops(session);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.our_side, Side::Black);
        assert_eq!(g.result, "0-1", "{}", g.termination);
        assert!(g.termination.contains("illegal move"), "{}", g.termination);
        assert_eq!(g.moves.len(), 2);
        assert!(g.pdn().contains("[Result \"0-1\"]"));
    }
}

#[test]
fn take_backs_are_honoured_when_possible_and_the_peer_can_give_up() {
    let (ours, theirs) = pipe();
    let session = spawn(config(Role::Follower), ours);
    let mut peer = Peer { link: theirs };
    // The engine plays White and moves first.
    assert_eq!(peer.request(Side::White, None), Acceptance::Accepted);
    let mut game = Game::<International>::new(Position::start());
    peer.engine_move(&mut game);
    peer.send(quiet(0, 19, 23));
    game.play_text("19-23").unwrap();
    peer.engine_move(&mut game);
    // Beyond the game: refused.
    assert_eq!(peer.take_back(5, Side::White), BackAnswer::Refused(1));
    // Back to move 1 with Black to move: only White's first move stays.
    assert_eq!(peer.take_back(1, Side::Black), BackAnswer::Accepted);
    game.undo();
    game.undo();
    peer.send(quiet(0, 18, 22));
    game.play_text("18-22").unwrap();
    peer.engine_move(&mut game);
    // Back to the start, White (the engine) to move: it moves again.
    assert_eq!(peer.take_back(1, Side::White), BackAnswer::Accepted);
    let mut game = Game::<International>::new(Position::start());
    peer.engine_move(&mut game);
    peer.send(game_end(EndReason::SenderLoses, StopCode::Stop));
    assert_eq!(
        peer.receive(),
        game_end(EndReason::SenderWins, StopCode::Continue)
    );
    let games = games_until_the_peer_stops(session);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 1);
    assert_eq!(games[0].result, "1-0");
}

#[test]
fn a_game_ended_by_the_rules_sends_gameend_with_the_right_reason() {
    let (ours, theirs) = pipe();
    let session = spawn(config(Role::Follower), ours);
    let mut peer = Peer { link: theirs };
    // The engine (White) takes the last black piece: it wins.
    assert_eq!(
        peer.request(Side::White, Some("W:W28:B23")),
        Acceptance::Accepted
    );
    // (The seconds the move took depend on the machine's load, not checked.)
    let DxpMessage::Move(mv) = peer.receive() else {
        panic!("expected MOVE");
    };
    assert_eq!((mv.from, mv.to, mv.captured), (28, 19, vec![23]));
    peer.answer_game_end(
        EndReason::SenderWins,
        EndReason::SenderLoses,
        StopCode::Continue,
    );
    // Next game: the peer (Black) takes the engine's last piece.
    assert_eq!(
        peer.request(Side::White, Some("B:W28:B22,23")),
        Acceptance::Accepted
    );
    peer.send(DxpMessage::Move(DxpMove {
        seconds: 0,
        from: 23,
        to: 32,
        captured: vec![28],
    }));
    peer.answer_game_end(
        EndReason::SenderLoses,
        EndReason::SenderWins,
        StopCode::Stop,
    );
    let games = games_until_the_peer_stops(session);
    let results: Vec<&str> = games.iter().map(|g| g.result).collect();
    assert_eq!(results, ["1-0", "0-1"]);
    assert!(
        games[1].pdn().contains("[FEN \"B:W28:B22,23\"]"),
        "{}",
        games[1].pdn()
    );
}

#[test]
fn the_initiator_proposes_its_plan_and_answers_a_gameend() {
    let (ours, theirs) = pipe();
    let plan = GamePlan {
        our_side: Side::Black,
        minutes: 3,
        moves: 40,
        start: None,
        games: 2,
        alternate: true,
    };
    let session = spawn(config(Role::Initiator(plan)), ours);
    let mut peer = Peer { link: theirs };
    let DxpMessage::GameReq(request) = peer.receive() else {
        panic!("expected GAMEREQ");
    };
    assert_eq!(
        (request.version, request.name.as_str(), request.follower),
        (1, "tempo-test", Side::White)
    );
    assert_eq!(
        (request.minutes, request.moves, request.start),
        (3, 40, None)
    );
    peer.send(DxpMessage::GameAcc {
        name: "peer".into(),
        answer: Acceptance::Accepted,
    });
    peer.send(quiet(0, 32, 28));
    let mut game = Game::<International>::new(Position::start());
    game.play_text("32-28").unwrap();
    peer.engine_move(&mut game);
    // A draw offered by GAMEEND ends the game; another one follows.
    peer.send(game_end(EndReason::Draw, StopCode::Continue));
    assert_eq!(
        peer.receive(),
        game_end(EndReason::Draw, StopCode::Continue)
    );
    let DxpMessage::GameReq(request) = peer.receive() else {
        panic!("expected the second GAMEREQ");
    };
    assert_eq!(request.follower, Side::Black);
    peer.send(DxpMessage::GameAcc {
        name: "peer".into(),
        answer: Acceptance::NotThisGame,
    });
    let (end, games) = session.join().unwrap();
    assert_eq!(end, SessionEnd::Refused(Acceptance::NotThisGame));
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].result, "1/2-1/2");
    assert_eq!(
        games[0].names,
        ["tempo-test".to_string(), "peer".to_string()]
    );
}

#[test]
fn two_sessions_play_a_whole_game_and_agree() {
    let (a, b) = pipe();
    let plan = GamePlan {
        our_side: Side::White,
        minutes: 1,
        moves: 0,
        start: Some(parse_fen("W:W31-50:B1-20").unwrap()),
        games: 1,
        alternate: false,
    };
    let initiator = spawn(config(Role::Initiator(plan)), a);
    let follower = spawn(config(Role::Follower), b);
    let (end_i, games_i) = initiator.join().unwrap();
    let (end_f, games_f) = follower.join().unwrap();
    assert_eq!(end_i, SessionEnd::PlanDone);
    assert_eq!(end_f, SessionEnd::PeerStopped);
    assert_eq!((games_i.len(), games_f.len()), (1, 1));
    let (gi, gf) = (&games_i[0], &games_f[0]);
    assert_eq!(gi.moves, gf.moves);
    assert_eq!(gi.result, gf.result);
    assert_ne!(gi.result, "*", "{}", gi.termination);
    assert_eq!(gi.termination, gf.termination);
    let mut game = Game::<International>::new(Position::start());
    for &mv in &gi.moves {
        game.play(mv).expect("a legal move");
    }
    assert_eq!(game.result().score(), gi.result);
}

/// The engine takes a game as typed values (what a DXP session hands it):
/// the position follows, a move that is not legal is refused and names its
/// place, a position of another variant is refused, and each refusal keeps
/// the game as it was.
#[test]
fn the_engine_takes_a_typed_game() {
    let mut engine = EngineHost::new();
    let start = Position::<International>::start();
    let game = Game::replay(start, "32-28 19-23 28x19").expect("a legal opening");
    engine
        .set_game(start, game.moves())
        .expect("legal moves are taken");
    let after = engine.position_string();
    assert_eq!(after, tempo::rules::notation::to_hub(game.position()));
    let err = engine
        .set_game(start, &[game.moves()[0], game.moves()[0]])
        .expect_err("32-28 twice is not legal");
    assert!(err.to_string().contains("move 2 '32-28'"), "{err}");
    let brazilian = Position::<tempo::rules::Brazilian>::start();
    let err = engine
        .set_game(brazilian, &[])
        .expect_err("the engine plays International");
    assert!(err.to_string().contains("variant"), "{err}");
    assert_eq!(engine.position_string(), after);
}
