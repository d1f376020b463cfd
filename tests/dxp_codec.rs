//! DXP codec: the spec's example messages round-trip (every message type),
//! malformed ones are refused with a clear error and never a panic, and the
//! framer handles partial reads, several messages in one read, a missing
//! terminator and oversized frames.

use proptest::prelude::*;
use tempo::protocol::dxp::codec::{
    Acceptance, BackAnswer, DxpError, DxpMessage, DxpMove, EndReason, Framer, GameRequest, Setup,
    StopCode, MAX_MESSAGE,
};
use tempo::rules::{Piece, Side};

fn parse(text: &str) -> Result<DxpMessage, DxpError> {
    DxpMessage::parse(text.as_bytes())
}

/// Parses `text`, checks the expected value, and formats it back to the
/// same bytes.
fn round_trip(text: &str, expected: DxpMessage) {
    let parsed = parse(text).unwrap_or_else(|e| panic!("'{text}' refused: {e}"));
    assert_eq!(parsed, expected, "{text}");
    assert_eq!(String::from_utf8(parsed.format()).unwrap(), text);
}

#[test]
fn the_spec_examples_round_trip() {
    round_trip(
        "R01Tornado voor Windows 4.0        W060065A",
        DxpMessage::GameReq(GameRequest {
            version: 1,
            name: "Tornado voor Windows 4.0".into(),
            follower: Side::White,
            minutes: 60,
            moves: 65,
            start: None,
        }),
    );
    round_trip(
        "AKingsrow                        0",
        DxpMessage::GameAcc {
            name: "Kingsrow".into(),
            answer: Acceptance::Accepted,
        },
    );
    round_trip(
        "M0003322800",
        DxpMessage::Move(DxpMove {
            seconds: 3,
            from: 32,
            to: 28,
            captured: vec![],
        }),
    );
    round_trip(
        "M0002192300",
        DxpMessage::Move(DxpMove {
            seconds: 2,
            from: 19,
            to: 23,
            captured: vec![],
        }),
    );
    round_trip(
        "M000128190123",
        DxpMessage::Move(DxpMove {
            seconds: 1,
            from: 28,
            to: 19,
            captured: vec![23],
        }),
    );
    round_trip(
        "E20",
        DxpMessage::GameEnd {
            reason: EndReason::Draw,
            stop: StopCode::Continue,
        },
    );
}

#[test]
fn every_other_message_type_round_trips() {
    round_trip(
        "CWhat do you think about move 35?",
        DxpMessage::Chat("What do you think about move 35?".into()),
    );
    round_trip("C", DxpMessage::Chat(String::new()));
    round_trip(
        "B005Z",
        DxpMessage::BackReq {
            move_number: 5,
            side: Side::Black,
        },
    );
    round_trip("K0", DxpMessage::BackAcc(BackAnswer::Accepted));
    round_trip("K1", DxpMessage::BackAcc(BackAnswer::Refused(1)));
    round_trip("K2", DxpMessage::BackAcc(BackAnswer::Refused(2)));
    for (code, answer) in [
        ('1', Acceptance::BadVersion),
        ('2', Acceptance::NotThisGame),
        ('3', Acceptance::NoGames),
    ] {
        round_trip(
            &format!("A{:<32}{code}", "Scan 3.1"),
            DxpMessage::GameAcc {
                name: "Scan 3.1".into(),
                answer,
            },
        );
    }
    for (text, reason, stop) in [
        ("E01", EndReason::Unknown, StopCode::Stop),
        ("E10", EndReason::SenderLoses, StopCode::Continue),
        ("E31", EndReason::SenderWins, StopCode::Stop),
    ] {
        round_trip(text, DxpMessage::GameEnd { reason, stop });
    }
    // A capture of three pieces (squares in the order sent).
    round_trip(
        "M0120474803423731",
        DxpMessage::Move(DxpMove {
            seconds: 120,
            from: 47,
            to: 48,
            captured: vec![42, 37, 31],
        }),
    );
}

/// The start position as pydraughts sends it (start `B`).
fn initial_board() -> String {
    format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
}

#[test]
fn a_game_request_with_a_position_round_trips() {
    let text = format!("R01{:<32}W001000BW{}", "DXP Client", initial_board());
    let mut squares = [None; 50];
    for (i, sq) in squares.iter_mut().enumerate() {
        *sq = match i {
            0..=19 => Some(Piece::Man(Side::Black)),
            30..=49 => Some(Piece::Man(Side::White)),
            _ => None,
        };
    }
    round_trip(
        &text,
        DxpMessage::GameReq(GameRequest {
            version: 1,
            name: "DXP Client".into(),
            follower: Side::White,
            minutes: 1,
            moves: 0,
            start: Some(Setup {
                side: Side::White,
                squares,
            }),
        }),
    );
    let kings = format!("R01{:<32}Z010040BZ{}", "x", "eWeZ".repeat(12) + "ee");
    let DxpMessage::GameReq(req) = parse(&kings).unwrap() else {
        panic!("not a GAMEREQ");
    };
    let setup = req.start.unwrap();
    assert_eq!(setup.side, Side::Black);
    assert_eq!(setup.squares[1], Some(Piece::King(Side::White)));
    assert_eq!(setup.squares[3], Some(Piece::King(Side::Black)));
}

fn assert_refused(text: &[u8], check: impl Fn(&DxpError) -> bool) {
    match DxpMessage::parse(text) {
        Ok(m) => panic!("{:?} was read as {m:?}", String::from_utf8_lossy(text)),
        Err(e) => {
            assert!(
                check(&e),
                "{:?}: unexpected error {e:?}",
                String::from_utf8_lossy(text)
            );
            assert!(!e.to_string().is_empty());
        }
    }
}

#[test]
fn wrong_lengths_are_refused() {
    let req = format!("R01{:<32}W060065A", "Tornado");
    for text in [
        "E2",
        "E200",
        "AKingsrow0",
        "M00033228",
        "M000332280",
        "M00012819012",
        "M0001281901230",
        "B05Z",
        "B0005Z",
        "K",
        "K00",
        &req[..req.len() - 1],
        &format!("{req} "),
        &format!("{req}W"),
        &format!("R01{:<32}W060065B", "x"),
        &format!("R01{:<32}W060065BW{}", "x", "e".repeat(49)),
    ] {
        assert_refused(text.as_bytes(), |e| matches!(e, DxpError::BadLength { .. }));
    }
}

#[test]
fn bad_digits_are_refused() {
    for text in [
        "M00a3322800",
        "M0003 32800",
        "M000332280a",
        "M00032-2800",
        "M0001281901x3",
        &format!("R0x{:<32}W060065A", "x"),
        &format!("R01{:<32}W06 065A", "x"),
        &format!("R01{:<32}W060+65A", "x"),
        "B0a5Z",
    ] {
        assert_refused(text.as_bytes(), |e| matches!(e, DxpError::BadDigits { .. }));
    }
}

#[test]
fn bad_values_are_refused() {
    for text in [
        "E40",
        "E22",
        "Ex0",
        "M0003992800",
        "M0003002800",
        "M0003325100",
        "M000128190100",
        "B005B",
        "K ",
        &format!("A{:<32}4", "x"),
        &format!("R01{:<32}B060065A", "x"),
        &format!("R01{:<32}W060065C", "x"),
        &format!("R01{:<32}W060065BX{}", "x", initial_board()),
        &format!("R01{:<32}W060065BW{}x", "x", &initial_board()[1..]),
    ] {
        assert_refused(text.as_bytes(), |e| matches!(e, DxpError::BadValue { .. }));
    }
}

#[test]
fn unknown_types_control_bytes_and_empty_frames_are_refused() {
    for text in ["X", "r01", "m0003322800", "0", " E20"] {
        assert_refused(text.as_bytes(), |e| matches!(e, DxpError::UnknownType(_)));
    }
    assert_refused(b"E2\x01", |e| {
        matches!(e, DxpError::BadByte { index: 2, byte: 1 })
    });
    assert_refused(b"E\x0020", |e| {
        matches!(e, DxpError::BadByte { index: 1, .. })
    });
    assert_refused(b"", |e| *e == DxpError::Empty);
    let long = vec![b'C'; MAX_MESSAGE + 1];
    assert_refused(&long, |e| matches!(e, DxpError::TooLong { .. }));
    let longest = vec![b'C'; MAX_MESSAGE];
    assert!(DxpMessage::parse(&longest).is_ok());
}

#[test]
fn latin1_names_are_read_with_question_marks() {
    let mut bytes = b"A".to_vec();
    bytes.extend_from_slice(b"Dam 2.0 \xe9t\xe9");
    bytes.resize(33, b' ');
    bytes.push(b'0');
    assert_eq!(
        DxpMessage::parse(&bytes).unwrap(),
        DxpMessage::GameAcc {
            name: "Dam 2.0 ?t?".into(),
            answer: Acceptance::Accepted
        }
    );
}

#[test]
fn formatting_keeps_every_field_in_its_width() {
    let message = DxpMessage::GameReq(GameRequest {
        version: 1,
        name: "a name that is much longer than thirty-two characters, é".into(),
        follower: Side::Black,
        minutes: 5000,
        moves: 40,
        start: None,
    });
    let text = String::from_utf8(message.format()).unwrap();
    assert_eq!(text.len(), 43);
    assert_eq!(&text[35..42], "Z999040");
    assert!(DxpMessage::parse(text.as_bytes()).is_ok());
    let chat = DxpMessage::Chat("x\u{7}".repeat(400));
    let bytes = chat.format();
    assert_eq!(bytes.len(), MAX_MESSAGE);
    assert!(DxpMessage::parse(&bytes).is_ok());
}

/// Feeds `chunks` to a framer and parses what comes out.
fn frames(chunks: &[&[u8]]) -> Vec<Result<DxpMessage, DxpError>> {
    let mut framer = Framer::new();
    let mut out = Vec::new();
    for chunk in chunks {
        for frame in framer.push(chunk) {
            out.push(frame.and_then(|f| DxpMessage::parse(&f)));
        }
    }
    out
}

#[test]
fn partial_reads_and_several_messages_per_read_are_framed() {
    let stream = b"M0003322800\0E20\0CHi\0";
    let whole = frames(&[stream]);
    let bytewise: Vec<&[u8]> = stream.chunks(1).collect();
    let split = frames(&[&stream[..5], &stream[5..14], &stream[14..]]);
    let expected = vec![
        Ok(DxpMessage::Move(DxpMove {
            seconds: 3,
            from: 32,
            to: 28,
            captured: vec![],
        })),
        Ok(DxpMessage::GameEnd {
            reason: EndReason::Draw,
            stop: StopCode::Continue,
        }),
        Ok(DxpMessage::Chat("Hi".into())),
    ];
    assert_eq!(whole, expected);
    assert_eq!(frames(&bytewise), expected);
    assert_eq!(split, expected);
}

#[test]
fn a_missing_terminator_is_reported_at_the_end_of_the_stream() {
    let mut framer = Framer::new();
    assert!(framer.push(b"E20").is_empty());
    assert_eq!(framer.finish(), Err(DxpError::Unterminated { length: 3 }));
    let mut framer = Framer::new();
    assert_eq!(framer.push(b"E20\0").len(), 1);
    assert_eq!(framer.finish(), Ok(()));
}

#[test]
fn an_oversized_frame_is_reported_once_and_skipped() {
    let mut stream = vec![b'C'; 1000];
    stream.extend_from_slice(b"\0E31\0");
    for chunk_size in [1, 7, 300, 2000] {
        let chunks: Vec<&[u8]> = stream.chunks(chunk_size).collect();
        let out = frames(&chunks);
        assert_eq!(out.len(), 2, "chunks of {chunk_size}");
        assert!(matches!(out[0], Err(DxpError::TooLong { .. })));
        assert_eq!(
            out[1],
            Ok(DxpMessage::GameEnd {
                reason: EndReason::SenderWins,
                stop: StopCode::Stop
            })
        );
    }
    // An empty frame is a frame, and refused by the parser.
    assert_eq!(frames(&[b"\0"]), vec![Err(DxpError::Empty)]);
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

fn name() -> impl Strategy<Value = String> {
    "[!-~]([ -~]{0,30}[!-~])?"
}

fn message() -> impl Strategy<Value = DxpMessage> {
    let piece = prop_oneof![
        Just(None),
        side().prop_map(|s| Some(Piece::Man(s))),
        side().prop_map(|s| Some(Piece::King(s))),
    ];
    let setup = (side(), proptest::collection::vec(piece, 50)).prop_map(|(side, v)| Setup {
        side,
        squares: v.try_into().unwrap(),
    });
    prop_oneof![
        (
            0u8..100,
            name(),
            side(),
            0u16..1000,
            0u16..1000,
            proptest::option::of(setup)
        )
            .prop_map(|(version, name, follower, minutes, moves, start)| {
                DxpMessage::GameReq(GameRequest {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    start,
                })
            }),
        (
            name(),
            prop_oneof![
                Just(Acceptance::Accepted),
                Just(Acceptance::BadVersion),
                Just(Acceptance::NotThisGame),
                Just(Acceptance::NoGames)
            ]
        )
            .prop_map(|(name, answer)| DxpMessage::GameAcc { name, answer }),
        (
            0u16..10000,
            1u8..=50,
            1u8..=50,
            proptest::collection::vec(1u8..=50, 0..20)
        )
            .prop_map(|(seconds, from, to, captured)| DxpMessage::Move(DxpMove {
                seconds,
                from,
                to,
                captured
            })),
        (0u8..4, any::<bool>()).prop_map(|(r, s)| DxpMessage::GameEnd {
            reason: [
                EndReason::Unknown,
                EndReason::SenderLoses,
                EndReason::Draw,
                EndReason::SenderWins
            ][r as usize],
            stop: if s {
                StopCode::Stop
            } else {
                StopCode::Continue
            },
        }),
        "[ -~]{0,200}".prop_map(DxpMessage::Chat),
        (0u16..1000, side())
            .prop_map(|(move_number, side)| DxpMessage::BackReq { move_number, side }),
        (0u8..10).prop_map(|c| DxpMessage::BackAcc(if c == 0 {
            BackAnswer::Accepted
        } else {
            BackAnswer::Refused(c)
        })),
    ]
}

proptest! {
    #[test]
    fn any_valid_message_round_trips(m in message()) {
        let bytes = m.format();
        prop_assert!(bytes.len() <= MAX_MESSAGE);
        prop_assert_eq!(DxpMessage::parse(&bytes), Ok(m));
    }

    #[test]
    fn any_bytes_parse_or_fail_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = DxpMessage::parse(&bytes);
        let mut framer = Framer::new();
        for frame in framer.push(&bytes).into_iter().flatten() {
            prop_assert!(frame.len() <= MAX_MESSAGE);
            let _ = DxpMessage::parse(&frame);
        }
    }

    #[test]
    fn mutated_messages_parse_or_fail_without_panic(m in message(), at in any::<usize>(), byte in any::<u8>()) {
        let mut bytes = m.format();
        if !bytes.is_empty() {
            let i = at % bytes.len();
            bytes[i] = byte;
        }
        let _ = DxpMessage::parse(&bytes);
    }
}
