//! tempo's criterion benchmarks (`cargo bench`; `benches/` of this crate):
//! perft, move generation, evaluation and search nodes. Each checks what it
//! measures (a perft count, the bench's node count), so a change that is
//! fast but wrong fails here. This library holds the positions they share.

/// International positions from the opening to the endgame, for the move
/// generation and evaluation benchmarks.
pub const INTERNATIONAL: [&str; 8] = [
    "W:W31-50:B1-20",
    "W:W27,30,31,33,34,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,16,17,18,19,20,25",
    "W:W26,33,34,36,38,39,40,41,42,43,45,46,47,48,50:B1,2,3,4,5,6,7,8,9,10,11,12,15,20,22,27",
    "W:WK2,28,31,34,37,40,41,42,43,45,46,47,48,49,50:B1,3,4,5,9,10,15,17,18,21,25",
    "W:W33,34,36,37,39,40,43,45,46,47:B1,2,6,7,8,11,13,16,18,19",
    "W:W16,23,25,31,34,36,38,39,40,41,43,44,46,47,48:B14,20,37",
    "W:W30,34,45:B2,5,6,8,10,12,13,15,K17,21",
    "W:WK18,26,27,35:B11,39,43",
];
