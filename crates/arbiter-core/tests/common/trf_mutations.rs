//! Mutations of a valid TRF file that make it contradict itself, each with the line and
//! column where the reader must report it. Shared by the core's tests and the server's
//! integration tests (included there with `#[path]`), so it uses only `std` and the core.
#![allow(dead_code)]

use arbiter_core::model::{ResultCode, StartNo};
use arbiter_core::trf::parse;
use std::collections::BTreeMap;

/// One broken copy of a file.
#[derive(Clone, Debug)]
pub struct Mutation {
    /// What was changed, for failure messages.
    pub name: String,
    /// The broken file.
    pub text: String,
    /// Where the reader must report the first problem (1-based line, column).
    pub at: (usize, usize),
}

/// A game as the file tells it: the round and the two players, `a` on the earlier line.
#[derive(Clone, Copy, Debug)]
struct Game {
    round: u32,
    a: StartNo,
    b: StartNo,
    a_result: ResultCode,
    b_result: ResultCode,
}

fn opponent_col(round: u32) -> usize {
    92 + 10 * (round as usize - 1)
}

/// A small deterministic generator (xorshift), so the mutations are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

fn set(lines: &mut [Vec<char>], line: usize, col: usize, c: char) {
    let chars = &mut lines[line];
    if chars.len() < col {
        chars.resize(col, ' ');
    }
    chars[col - 1] = c;
}

fn join(lines: &[Vec<char>]) -> String {
    let mut out = String::new();
    for l in lines {
        out.extend(l.iter());
        out.push('\n');
    }
    out
}

/// The mutations of `text` (a valid TRF file): a flipped colour, two winners, a win against a
/// draw, a dropped player line, a player twice in one round, a bye code in a game. Each kind
/// is applied to one game picked by `seed`; kinds that find nothing to change are left out.
pub fn mutations(text: &str, seed: u64) -> Vec<Mutation> {
    let Ok(t) = parse(text) else {
        return Vec::new();
    };
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let mut line_of: BTreeMap<StartNo, usize> = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        if l.len() >= 8 && l[..3].iter().collect::<String>() == "001" {
            let no: String = l[4..8].iter().collect();
            if let Ok(n) = no.trim().parse() {
                line_of.insert(n, i);
            }
        }
    }
    let mut games = Vec::new();
    for e in &t.entrants {
        for (i, r) in e.rounds.iter().enumerate() {
            let Some(o) = r.opponent else { continue };
            if line_of[&e.start_no] < line_of[&o] {
                let theirs = t.entrant(o).and_then(|x| x.rounds.get(i)).copied();
                games.push(Game {
                    round: i as u32 + 1,
                    a: e.start_no,
                    b: o,
                    a_result: r.result,
                    b_result: theirs.map_or(ResultCode::Pending, |x| x.result),
                });
            }
        }
    }
    if games.is_empty() {
        return Vec::new();
    }
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = Vec::new();
    let pick = |rng: &mut Rng, filter: &dyn Fn(&Game) -> bool| -> Option<Game> {
        let list: Vec<&Game> = games.iter().filter(|g| filter(g)).collect();
        (!list.is_empty()).then(|| *list[rng.below(list.len())])
    };

    // Flipped colour on one side: both players have the same colour.
    if let Some(g) = pick(&mut rng, &|_| true) {
        let side = if rng.below(2) == 0 { g.a } else { g.b };
        let col = opponent_col(g.round) + 5;
        let mut l = lines.clone();
        let c = l[line_of[&side]].get(col - 1).copied().unwrap_or('-');
        set(
            &mut l,
            line_of[&side],
            col,
            if c == 'w' { 'b' } else { 'w' },
        );
        out.push(Mutation {
            name: format!("colour of {side} flipped in round {}", g.round),
            text: join(&l),
            at: (line_of[&g.b] + 1, col),
        });
    }
    // Both claim the win.
    let decisive = |g: &Game| {
        matches!(
            (g.a_result, g.b_result),
            (ResultCode::Win, ResultCode::Loss) | (ResultCode::Loss, ResultCode::Win)
        )
    };
    if let Some(g) = pick(&mut rng, &decisive) {
        let loser = if g.a_result == ResultCode::Loss {
            g.a
        } else {
            g.b
        };
        let col = opponent_col(g.round) + 7;
        let mut l = lines.clone();
        set(&mut l, line_of[&loser], col, '1');
        out.push(Mutation {
            name: format!("{loser} also wins in round {}", g.round),
            text: join(&l),
            at: (line_of[&g.b] + 1, col),
        });
    }
    // A win against a draw (or a forfeit win against a played loss).
    if let Some(g) = pick(&mut rng, &|g| g.a_result == ResultCode::Draw) {
        let col = opponent_col(g.round) + 7;
        let mut l = lines.clone();
        set(&mut l, line_of[&g.a], col, '1');
        out.push(Mutation {
            name: format!("{} wins a drawn game in round {}", g.a, g.round),
            text: join(&l),
            at: (line_of[&g.b] + 1, col),
        });
    } else if let Some(g) = pick(&mut rng, &|g| g.b_result == ResultCode::Loss) {
        let col = opponent_col(g.round) + 7;
        let mut l = lines.clone();
        set(&mut l, line_of[&g.a], col, '+');
        out.push(Mutation {
            name: format!("{} wins by forfeit a played game in round {}", g.a, g.round),
            text: join(&l),
            at: (line_of[&g.b] + 1, col),
        });
    }
    // A dropped player line: the first reference to him is unknown.
    if let Some(g) = pick(&mut rng, &|_| true) {
        let gone = g.b;
        let mut l = lines.clone();
        l.remove(line_of[&gone]);
        let mut first: Option<(usize, usize)> = None;
        for (i, chars) in l.iter().enumerate() {
            if chars.len() < 3 || chars[..3].iter().collect::<String>() != "001" {
                continue;
            }
            let mut col = 92;
            while col + 3 <= chars.len() {
                let field: String = chars[col - 1..col + 3].iter().collect();
                if field.trim().parse::<StartNo>() == Ok(gone) {
                    first = Some((i + 1, col));
                    break;
                }
                col += 10;
            }
            if first.is_some() {
                break;
            }
        }
        if let Some(at) = first {
            out.push(Mutation {
                name: format!("line of player {gone} dropped"),
                text: join(&l),
                at,
            });
        }
    }
    // A player twice in one round: a's line names c, who plays d in that round.
    if let Some(g) = pick(&mut rng, &|_| true) {
        let other = games.iter().find(|h| {
            h.round == g.round && ![g.a, g.b].contains(&h.a) && ![g.a, g.b].contains(&h.b)
        });
        if let Some(h) = other {
            let col = opponent_col(g.round);
            let mut l = lines.clone();
            let text = format!("{:>4}", h.a);
            for (k, c) in text.chars().enumerate() {
                set(&mut l, line_of[&g.a], col + k, c);
            }
            out.push(Mutation {
                name: format!("{} also plays {} in round {}", h.a, g.a, g.round),
                text: join(&l),
                at: (line_of[&g.a].min(line_of[&g.b]) + 1, col),
            });
        }
    }
    // A bye code where a game is.
    if let Some(g) = pick(&mut rng, &|_| true) {
        let col = opponent_col(g.round) + 7;
        let mut l = lines.clone();
        set(&mut l, line_of[&g.a], col, 'U');
        out.push(Mutation {
            name: format!(
                "{} has a bye code against {} in round {}",
                g.a, g.b, g.round
            ),
            text: join(&l),
            at: (line_of[&g.a] + 1, col),
        });
    }
    out
}
