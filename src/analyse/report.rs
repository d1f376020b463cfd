//! The HTML report of analysed games: one self-contained page (no script,
//! no network, no file beside it) that reads on a phone as on a desk. Per
//! game: the players and the result, each side's summary, the evaluation
//! over the game as an SVG graph with the marked moves on it, the moves
//! with their marks, and at each mistake and blunder a board diagram (SVG)
//! of the position before it, the move played drawn as a red arrow and the
//! better move as a green one.

use std::fmt::Write as _;

use crate::game::Game;
use crate::pdn::move_text;
use crate::rules::notation::squares_of;
use crate::rules::{Geometry, Move, Piece, Position, Rules, Side, Square};

use super::annotate::{line_moves, summarise, white_view, Mark};
use super::{centimen, mate_plies, Record};

/// Scores beyond this many men are drawn at the edge of the graph.
const GRAPH_MEN: f64 = 4.0;

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The value of tag `name`, or `default`.
fn tag<'a>(tags: &'a [(String, String)], name: &str, default: &'a str) -> &'a str {
    tags.iter()
        .find(|(n, _)| n == name)
        .map_or(default, |(_, v)| v.as_str())
}

/// The whole page around the games' `sections`.
pub fn page(title: &str, sections: &[String]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    for section in sections {
        out.push_str(section);
    }
    out.push_str(
        "<footer>Scores in men from White's side; #N: a forced win in N plies \
         (#-N for Black). Marks by the score a move lost against the best one: \
         ?! from 0.30, ? from 0.80, ?? from 2.00.</footer>\n</body>\n</html>\n",
    );
    out
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;\
max-width:900px;padding:12px;color:#1d232a;background:#fafaf7;line-height:1.45}\
h1{font-size:1.5em;margin:.3em 0}h2{font-size:1.2em;margin:1.4em 0 .2em}\
section{background:#fff;border:1px solid #e2e2dc;border-radius:10px;padding:12px 16px;margin:16px 0}\
.meta{color:#5b6470;margin:0 0 .6em}table{border-collapse:collapse;margin:.4em 0 .8em}\
td,th{padding:3px 10px;text-align:left;border-bottom:1px solid #eee}\
svg{display:block;width:100%;height:auto}.graph{max-width:860px}\
.moves{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em;word-spacing:2px}\
.moves span,.moves a{white-space:nowrap}.moves .n{color:#8a929c}.m1{background:#fff3bf}.m2{background:#ffd8a8}.m3{background:#ffc9c9;font-weight:bold}\
.moves a{color:inherit;text-decoration:none}.diagrams{display:flex;flex-wrap:wrap;gap:16px}\
figure{margin:0;flex:1 1 300px;max-width:420px}figcaption{font-size:.9em;margin-top:4px}\
.good{color:#2b8a3e}.bad{color:#c92a2a}footer{color:#5b6470;font-size:.85em;margin:2em 0}";

/// The section of one analysed game: `game` with its `tags` and its
/// `records` (one a position, in order); `index` numbers the game.
pub fn game_section<R: Rules>(
    tags: &[(String, String)],
    game: &Game<R>,
    records: &[Record],
    index: usize,
) -> String {
    let mut out = String::new();
    let white = tag(tags, "White", "White");
    let black = tag(tags, "Black", "Black");
    let _ = writeln!(
        out,
        "<section id=\"game{index}\">\n<h2>Game {index}: {} – {} &nbsp;{}</h2>",
        escape(white),
        escape(black),
        escape(tag(tags, "Result", "*"))
    );
    let event: Vec<String> = ["Event", "Site", "Date"]
        .iter()
        .map(|name| tag(tags, name, ""))
        .filter(|v| !v.is_empty() && *v != "?")
        .map(escape)
        .collect();
    let depth = records.iter().map(|r| r.depth).max().unwrap_or(0);
    let _ = writeln!(
        out,
        "<p class=\"meta\">{}{} plies, analysed to depth {depth}</p>",
        if event.is_empty() {
            String::new()
        } else {
            format!("{} · ", event.join(" · "))
        },
        game.moves().len()
    );
    out.push_str("<table><tr><th></th><th>average loss</th>");
    for mark in Mark::ALL {
        let _ = write!(out, "<th>{}</th>", mark.symbol());
    }
    out.push_str("</tr>\n");
    for (name, side) in [(white, Side::White), (black, Side::Black)] {
        let summary = summarise(records)[side.index()];
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{:.2}</td>",
            escape(name),
            summary.average_loss()
        );
        for n in summary.marks {
            let _ = write!(out, "<td>{n}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out.push_str(&graph(records, index));
    out.push_str(&moves_html::<R>(game, records, index));
    out.push_str(&diagrams::<R>(game, records, index));
    out.push_str("</section>\n");
    out
}

/// A score of `side`'s view as White sees it, in men, clamped for the
/// graph (a forced win at the edge).
fn graph_men(score: i32, side: Side) -> f64 {
    let white = if side == Side::White { score } else { -score };
    match mate_plies(white) {
        Some(p) if p >= 0 => GRAPH_MEN,
        Some(_) => -GRAPH_MEN,
        None => (centimen(white) as f64 / 100.0).clamp(-GRAPH_MEN, GRAPH_MEN),
    }
}

/// The evaluation graph: the score of each position from White's side,
/// White's advantage shaded above the middle line, the marked moves as dots.
fn graph(records: &[Record], index: usize) -> String {
    let (width, height, pad) = (860.0, 220.0, 16.0);
    let plies = records.len().max(2) - 1;
    let x = |ply: usize| pad + (width - 2.0 * pad) * ply as f64 / plies as f64;
    let y = |men: f64| height / 2.0 - (height / 2.0 - pad) * men / GRAPH_MEN;
    let points: Vec<(f64, f64)> = records
        .iter()
        .map(|r| (x(r.ply), y(graph_men(r.score, r.side))))
        .collect();
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"graph\" viewBox=\"0 0 {width} {height}\" role=\"img\" \
         aria-label=\"evaluation graph of game {index}\">\
         <rect width=\"{width}\" height=\"{height}\" rx=\"8\" fill=\"#2f343a\"/>"
    );
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        let mut area = format!("M{:.1},{:.1}", first.0, height / 2.0);
        for (px, py) in &points {
            let _ = write!(area, " L{px:.1},{py:.1}");
        }
        let _ = write!(area, " L{:.1},{:.1} Z", last.0, height / 2.0);
        let _ = write!(
            out,
            "<path d=\"{area}\" fill=\"#f1f3f5\" fill-opacity=\"0.85\"/>"
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{pad}\" y1=\"{mid}\" x2=\"{right}\" y2=\"{mid}\" stroke=\"#868e96\" stroke-width=\"1\"/>",
        mid = height / 2.0,
        right = width - pad
    );
    for men in [-2.0, 2.0] {
        let _ = write!(
            out,
            "<line x1=\"{pad}\" y1=\"{yy:.1}\" x2=\"{right}\" y2=\"{yy:.1}\" stroke=\"#868e96\" \
             stroke-width=\"0.5\" stroke-dasharray=\"4 4\"/>\
             <text x=\"{tx}\" y=\"{ty:.1}\" font-size=\"11\" fill=\"#adb5bd\">{men:+}</text>",
            yy = y(men),
            right = width - pad,
            tx = pad + 2.0,
            ty = y(men) - 3.0
        );
    }
    let line: Vec<String> = points
        .iter()
        .map(|(px, py)| format!("{px:.1},{py:.1}"))
        .collect();
    let _ = write!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#4dabf7\" stroke-width=\"2\"/>",
        line.join(" ")
    );
    for record in records {
        let Some(played) = &record.played else {
            continue;
        };
        let Some(mark) = Mark::of(played.loss) else {
            continue;
        };
        let after = graph_men(played.score, record.side);
        let colour = match mark {
            Mark::Inaccuracy => "#fcc419",
            Mark::Mistake => "#ff922b",
            Mark::Blunder => "#fa5252",
        };
        let _ = write!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\" stroke=\"#212529\">\
             <title>ply {}: {}{} ({})</title></circle>",
            x(record.ply + 1),
            y(after),
            record.ply + 1,
            escape(&played.mv),
            mark.symbol(),
            white_view(played.score, record.side)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The moves, numbered, each marked one coloured (and linked to its
/// diagram where it has one), its score in a tooltip.
fn moves_html<R: Rules>(game: &Game<R>, records: &[Record], index: usize) -> String {
    let mut out = String::from("<p class=\"moves\">");
    let mut pos = *game.start();
    let mut number = 1;
    for (ply, &mv) in game.moves().iter().enumerate() {
        let leads = pos.side_to_move() == R::FIRST_SIDE;
        if leads || ply == 0 {
            let dots = if leads { "." } else { "..." };
            let _ = write!(out, "<span class=\"n\">{number}{dots}</span> ");
        }
        let record = records.iter().find(|r| r.ply == ply);
        let played = record.and_then(|r| r.played.as_ref());
        let mark = played.and_then(|p| Mark::of(p.loss));
        let text = escape(&move_text(&pos, mv));
        let title = played.map_or(String::new(), |p| {
            format!(" title=\"{}\"", white_view(p.score, pos.side_to_move()))
        });
        match mark {
            Some(mark) => {
                let class = mark as usize + 1;
                let body = format!("{text}{}", mark.symbol());
                if mark >= Mark::Mistake {
                    let _ = write!(
                        out,
                        "<a href=\"#g{index}p{ply}\" class=\"m{class}\"{title}>{body}</a> "
                    );
                } else {
                    let _ = write!(out, "<span class=\"m{class}\"{title}>{body}</span> ");
                }
            }
            None => {
                let _ = write!(out, "<span{title}>{text}</span> ");
            }
        }
        if !leads {
            number += 1;
        }
        pos = pos.play(mv);
    }
    out.push_str("</p>\n");
    out
}

/// A diagram at each mistake and blunder.
fn diagrams<R: Rules>(game: &Game<R>, records: &[Record], index: usize) -> String {
    let mut figures = Vec::new();
    let mut pos = *game.start();
    let mut number = 1;
    for (ply, &mv) in game.moves().iter().enumerate() {
        let record = records.iter().find(|r| r.ply == ply);
        if let Some(record) = record {
            if let Some(played) = &record.played {
                if Mark::of(played.loss) >= Some(Mark::Mistake) {
                    figures.push(figure(&pos, mv, record, number, index));
                }
            }
        }
        if pos.side_to_move() != R::FIRST_SIDE {
            number += 1;
        }
        pos = pos.play(mv);
    }
    if figures.is_empty() {
        return "<p class=\"meta\">No mistake or blunder.</p>\n".to_string();
    }
    format!("<div class=\"diagrams\">\n{}</div>\n", figures.concat())
}

/// The diagram of the position before the marked move `mv` of `record`,
/// move number `move_number` of game `index`.
fn figure<R: Rules>(
    pos: &Position<R>,
    mv: Move,
    record: &Record,
    move_number: usize,
    index: usize,
) -> String {
    let played = record.played.as_ref().expect("a judged move");
    let mark = Mark::of(played.loss).expect("a marked move");
    let line = line_moves(pos, &record.pv);
    let best = line.first().copied();
    let dots = if pos.side_to_move() == R::FIRST_SIDE {
        "."
    } else {
        "..."
    };
    let mut caption = format!(
        "{move_number}{dots} <span class=\"bad\">{}{}</span> ({})",
        escape(&move_text(pos, mv)),
        mark.symbol(),
        white_view(played.score, pos.side_to_move())
    );
    if let Some(best) = best {
        let mut after = *pos;
        let words: Vec<String> = line
            .iter()
            .map(|&m| {
                let text = move_text(&after, m);
                after = after.play(m);
                text
            })
            .collect();
        let _ = write!(
            caption,
            "; better <span class=\"good\">{}</span> ({}): {}",
            escape(&move_text(pos, best)),
            white_view(record.score, pos.side_to_move()),
            escape(&words.join(" "))
        );
    }
    let id = format!("g{index}p{}", record.ply);
    format!(
        "<figure id=\"{id}\">{}<figcaption>{caption}</figcaption></figure>\n",
        board_svg(pos, &[(mv, PLAYED), (best.unwrap_or(mv), BETTER)], &id)
    )
}

/// The centre of square `n` on a board of `R`, in board units (a square is
/// 1 wide; White's side at the bottom).
fn centre<R: Rules>(n: u8) -> Option<(f64, f64)> {
    let sq = Square::new(n)?;
    let (row, file) = <R::Geometry as Geometry>::row_file(sq);
    Some((file as f64 + 0.5, row as f64 + 0.5))
}

/// The colour of the arrow of the move played.
const PLAYED: &str = "#e03131";
/// The colour of the arrow of the better move.
const BETTER: &str = "#2f9e44";

/// The board of `pos` as SVG, each of `arrows` (a move, a colour) drawn
/// from its start to its end square; `id` makes the arrowheads' ids unique
/// in the page.
pub fn board_svg<R: Rules>(pos: &Position<R>, arrows: &[(Move, &str)], id: &str) -> String {
    let n = <R::Geometry as Geometry>::ROWS;
    let size = n as f64;
    let mut heads = String::new();
    for (i, (_, colour)) in arrows.iter().enumerate() {
        let _ = write!(
            heads,
            "<marker id=\"{id}h{i}\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"3.5\" \
             markerHeight=\"3.5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{colour}\"/></marker>"
        );
    }
    let mut out = format!(
        "<svg viewBox=\"-0.15 -0.15 {s} {s}\" role=\"img\" aria-label=\"board\">\
         <defs>{heads}</defs>\
         <rect x=\"-0.15\" y=\"-0.15\" width=\"{s}\" height=\"{s}\" fill=\"#5c3d2e\" rx=\"0.1\"/>\
         <rect width=\"{size}\" height=\"{size}\" fill=\"#f0d9b5\"/>",
        s = size + 0.3
    );
    for number in 1..=<R::Geometry as Geometry>::SQUARES {
        let Ok(number) = u8::try_from(number) else {
            continue;
        };
        let Some((cx, cy)) = centre::<R>(number) else {
            continue;
        };
        let _ = write!(
            out,
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"1\" height=\"1\" fill=\"#b58863\"/>\
             <text x=\"{:.2}\" y=\"{:.2}\" font-size=\"0.22\" fill=\"#f0d9b5\" \
             fill-opacity=\"0.8\">{number}</text>",
            cx - 0.5,
            cy - 0.5,
            cx - 0.46,
            cy - 0.28
        );
        let Some(piece) = Square::new(number).and_then(|sq| pos.piece_at(sq)) else {
            continue;
        };
        let (side, king) = match piece {
            Piece::Man(side) => (side, false),
            Piece::King(side) => (side, true),
        };
        let (fill, stroke) = match side {
            Side::White => ("#f8f9fa", "#495057"),
            Side::Black => ("#212529", "#000"),
        };
        let _ = write!(
            out,
            "<circle cx=\"{cx:.2}\" cy=\"{cy:.2}\" r=\"0.38\" fill=\"{fill}\" stroke=\"{stroke}\" \
             stroke-width=\"0.05\"/>"
        );
        if king {
            let ring = if side == Side::White {
                "#c92a2a"
            } else {
                "#fcc419"
            };
            let _ = write!(
                out,
                "<circle cx=\"{cx:.2}\" cy=\"{cy:.2}\" r=\"0.2\" fill=\"none\" stroke=\"{ring}\" \
                 stroke-width=\"0.08\"/>"
            );
        }
    }
    for (i, &(mv, colour)) in arrows.iter().enumerate() {
        let squares = squares_of::<R>(mv);
        if let (Some(from), Some(to)) = (centre::<R>(squares.from), centre::<R>(squares.to)) {
            let _ = write!(
                out,
                "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"{colour}\" \
                 stroke-width=\"0.12\" stroke-opacity=\"0.85\" marker-end=\"url(#{id}h{i})\"/>",
                from.0, from.1, to.0, to.1
            );
        }
    }
    out.push_str("</svg>");
    out
}
