//! The moves of an analysed game judged, and the game written back as PDN
//! with the judgement in it.
//!
//! A played move is marked by the score it lost against the best move (the
//! `loss` of its `Played`, in hundredths of a man):
//!
//! | mark | name       | loss             |
//! |------|------------|------------------|
//! | `?!` | inaccuracy | from `INACCURACY` |
//! | `?`  | mistake    | from `MISTAKE`   |
//! | `??` | blunder    | from `BLUNDER`   |
//!
//! A move that throws away a forced win, or walks into a forced loss, loses
//! far more than `BLUNDER` on that scale (a win counts as 1000 men less its
//! distance), so it is always a blunder.
//!
//! The annotated PDN keeps the game's tags (an `Annotator` tag is added),
//! opens with a comment summing up each side (average loss, marks), and
//! writes after every move a comment with the score after it, from White's
//! view, in men (`{+0.15}`), or the distance to a forced win in plies
//! (`{#12}` White wins, `{#-12}` Black wins). A marked move is followed by
//! the better move and its line as a variation.

use crate::game::Game;
use crate::pdn::{move_text, write_tag};
use crate::rules::notation::parse_move;
use crate::rules::{Move, Position, Rules, Side};

use super::{centimen, mate_plies, Record};

/// The least loss of an inaccuracy (`?!`), hundredths of a man.
pub const INACCURACY: i64 = 30;
/// The least loss of a mistake (`?`), hundredths of a man.
pub const MISTAKE: i64 = 80;
/// The least loss of a blunder (`??`), hundredths of a man.
pub const BLUNDER: i64 = 200;

/// The judgement of a move that lost enough to be marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// `?!`: lost at least `INACCURACY`.
    Inaccuracy,
    /// `?`: lost at least `MISTAKE`.
    Mistake,
    /// `??`: lost at least `BLUNDER`.
    Blunder,
}

impl Mark {
    /// Every mark, mildest first.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The mark a move losing `loss` hundredths of a man earns, if any.
    pub fn of(loss: i64) -> Option<Mark> {
        match loss {
            l if l >= BLUNDER => Some(Mark::Blunder),
            l if l >= MISTAKE => Some(Mark::Mistake),
            l if l >= INACCURACY => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    /// The PDN symbol: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The word for it, plural when `count` is not 1.
    pub fn word(self, count: usize) -> &'static str {
        match (self, count == 1) {
            (Mark::Inaccuracy, true) => "inaccuracy",
            (Mark::Inaccuracy, false) => "inaccuracies",
            (Mark::Mistake, true) => "mistake",
            (Mark::Mistake, false) => "mistakes",
            (Mark::Blunder, true) => "blunder",
            (Mark::Blunder, false) => "blunders",
        }
    }
}

/// How one side played a game: its judged moves, their summed loss, and
/// how many of each mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Moves judged.
    pub moves: usize,
    /// Their losses summed, hundredths of a man (a loss counts at most
    /// `BLUNDER * 5`, so that one thrown-away win does not drown the rest).
    pub loss: i64,
    /// How many of each mark, in the order of `Mark::ALL`.
    pub marks: [usize; 3],
}

impl SideSummary {
    /// The average loss a move, in men.
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.loss as f64 / self.moves as f64 / 100.0
        }
    }

    /// One line for people: `average loss 0.12, 2 inaccuracies, 1 mistake, 0 blunders`.
    pub fn describe(&self) -> String {
        let marks: Vec<String> = Mark::ALL
            .iter()
            .zip(self.marks)
            .map(|(mark, n)| format!("{n} {} ({})", mark.word(n), mark.symbol()))
            .collect();
        format!(
            "average loss {:.2} over {} moves, {}",
            self.average_loss(),
            self.moves,
            marks.join(", ")
        )
    }
}

/// The summary of White's and Black's moves (indexed by `Side::index`).
pub fn summarise(records: &[Record]) -> [SideSummary; 2] {
    let mut sides = [SideSummary::default(); 2];
    for record in records {
        let Some(played) = &record.played else {
            continue;
        };
        let side = &mut sides[record.side.index()];
        side.moves += 1;
        side.loss += played.loss.min(BLUNDER * 5);
        if let Some(mark) = Mark::of(played.loss) {
            side.marks[mark as usize] += 1;
        }
    }
    sides
}

/// A search score of `side`'s view as White sees it, as text: men with a
/// sign (`+0.15`), or a forced win in plies (`#12` for White, `#-12` for
/// Black).
pub fn white_view(score: i32, side: Side) -> String {
    let white = if side == Side::White { score } else { -score };
    match mate_plies(white) {
        Some(plies) if plies >= 0 => format!("#{plies}"),
        Some(plies) => format!("#-{}", -plies),
        None => format!("{:+.2}", centimen(white) as f64 / 100.0),
    }
}

/// The moves of `texts` (Hub notation, as a record's line holds them)
/// played from `pos`, as far as they are legal.
pub fn line_moves<R: Rules>(pos: &Position<R>, texts: &[String]) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut pos = *pos;
    for text in texts {
        let Ok(mv) = parse_move(&pos, text) else {
            break;
        };
        moves.push(mv);
        pos = pos.play(mv);
    }
    moves
}

/// Move numbering as PDN writes it: a number before each move of the side
/// that starts the game (`12. 32-28`), and `12...` before a move of the
/// other side only where a line starts with it (a game or a variation).
/// The main line takes no `12...` after a variation: each of its numbers
/// then appears once, which pydraughts' `PDNReader` needs (it drops a
/// repeated number wherever its digits appear, `25.` inside `125.` too).
struct Numbering {
    number: usize,
}

impl Numbering {
    /// The words of `moves` from `pos`, numbered from `self`, the first
    /// one numbered whichever side plays it.
    fn line<R: Rules>(&self, pos: &Position<R>, moves: &[Move]) -> Vec<String> {
        let mut number = Numbering {
            number: self.number,
        };
        let mut pos = *pos;
        let mut words = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            number.prefix(&pos, i == 0, &mut words);
            words.push(move_text(&pos, mv));
            number.after(&pos);
            pos = pos.play(mv);
        }
        words
    }

    /// Pushes the number of the move about to be played in `pos`, if it
    /// takes one (`force`: even for the second side).
    fn prefix<R: Rules>(&self, pos: &Position<R>, force: bool, words: &mut Vec<String>) {
        if pos.side_to_move() == R::FIRST_SIDE {
            words.push(format!("{}.", self.number));
        } else if force {
            words.push(format!("{}...", self.number));
        }
    }

    /// Counts the move just played in `pos`.
    fn after<R: Rules>(&mut self, pos: &Position<R>) {
        if pos.side_to_move() != R::FIRST_SIDE {
            self.number += 1;
        }
    }
}

/// `game` as annotated PDN (see the module documentation), given its
/// `records` (one a position, in order) and its original `tags`;
/// `annotator` names the analysis in the `Annotator` tag.
pub fn annotated_pdn<R: Rules>(
    tags: &[(String, String)],
    game: &Game<R>,
    records: &[Record],
    annotator: &str,
) -> String {
    let mut out = String::new();
    for (name, value) in tags.iter().filter(|(name, _)| name != "Annotator") {
        write_tag(&mut out, name, value);
    }
    write_tag(&mut out, "Annotator", annotator);
    out.push('\n');
    let [white, black] = summarise(records);
    let mut words = vec![format!(
        "{{White: {}. Black: {}.}}",
        white.describe(),
        black.describe()
    )];
    let mut numbering = Numbering { number: 1 };
    let mut pos = *game.start();
    for (ply, &mv) in game.moves().iter().enumerate() {
        let record = records.iter().find(|r| r.ply == ply);
        let played = record.and_then(|r| r.played.as_ref());
        let mark = played.and_then(|p| Mark::of(p.loss));
        numbering.prefix(&pos, ply == 0, &mut words);
        let symbol = mark.map_or("", Mark::symbol);
        words.push(format!("{}{symbol}", move_text(&pos, mv)));
        if let Some(played) = played {
            words.push(format!(
                "{{{}}}",
                white_view(played.score, pos.side_to_move())
            ));
        }
        if let (Some(_), Some(record)) = (mark, record) {
            let line = line_moves(&pos, &record.pv);
            if line.first().is_some_and(|&best| best != mv) {
                let mut variation = numbering.line(&pos, &line);
                let score = white_view(record.score, pos.side_to_move());
                variation[1] = format!("{} {{{score}}}", variation[1]);
                words.push(format!("({})", variation.join(" ")));
            }
        }
        numbering.after(&pos);
        pos = pos.play(mv);
    }
    let result = tags
        .iter()
        .find(|(name, _)| name == "Result")
        .map_or("*", |(_, value)| value.as_str());
    words.push(result.to_string());
    // A move number stays on the line of its move.
    let mut glued: Vec<String> = Vec::new();
    for word in words {
        match glued.last_mut() {
            Some(last) if last.ends_with('.') => {
                last.push(' ');
                last.push_str(&word);
            }
            _ => glued.push(word),
        }
    }
    let mut line = String::new();
    for word in glued {
        if !line.is_empty() && line.len() + word.len() >= 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::of(INACCURACY - 1), None);
        assert_eq!(Mark::of(INACCURACY), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of(MISTAKE), Some(Mark::Mistake));
        assert_eq!(Mark::of(BLUNDER), Some(Mark::Blunder));
        assert_eq!(Mark::of(99_000), Some(Mark::Blunder));
        assert_eq!(Mark::Mistake.symbol(), "?");
        assert_eq!(Mark::Blunder.word(2), "blunders");
    }

    #[test]
    fn scores_read_from_white_s_side() {
        use crate::search::MATE;
        assert_eq!(white_view(15, Side::White), "+0.15");
        assert_eq!(white_view(15, Side::Black), "-0.15");
        assert_eq!(white_view(0, Side::Black), "+0.00");
        assert_eq!(white_view(MATE - 12, Side::White), "#12");
        assert_eq!(white_view(MATE - 12, Side::Black), "#-12");
    }
}
