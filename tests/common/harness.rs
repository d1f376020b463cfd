//! The test harness of the files whose tests need a program the machine
//! may lack: each such test is run where the program is, and reported as
//! ignored elsewhere, the reason printed where the user sees it, never as
//! passed unchecked. Under CI (`CI` set) nothing is ignored for want of a
//! program, so a missing install fails there.
//!
//! A file that uses it has `harness = false` in Cargo.toml and a `main`
//! that hands its tests to [`run`].

#![allow(dead_code)]

use libtest_mimic::{Arguments, Trial};

/// What a test needs besides the built binary: a program the machine may
/// lack (`browser::missing`, `python::missing` say why it is not there).
#[derive(Clone, Copy, Debug)]
pub struct Need {
    /// The program, as the note names it.
    pub name: &'static str,
    /// Why it cannot be had on this machine, if it cannot.
    pub missing: fn() -> Option<String>,
}

/// One test: its name, what it needs (`None`: nothing) and its body
/// (which panics to fail).
pub type Test = (&'static str, Option<Need>, fn());

/// Runs `tests` under the command line's arguments (`--ignored`, a
/// filter, ...) and exits with the result.
pub fn run(tests: &[Test]) -> ! {
    let args = Arguments::from_args();
    let in_ci = std::env::var_os("CI").is_some();
    // Each program looked for once: (its name, why it is missing).
    let mut looked: Vec<(&str, Option<String>)> = Vec::new();
    let trials = tests
        .iter()
        .map(|&(name, need, body)| {
            let missing = match need {
                Some(need) if !in_ci => {
                    if !looked.iter().any(|(n, _)| *n == need.name) {
                        looked.push((need.name, (need.missing)()));
                    }
                    looked
                        .iter()
                        .find(|(n, _)| *n == need.name)
                        .and_then(|(_, why)| why.clone())
                }
                _ => None,
            };
            let trial = Trial::test(name, move || {
                body();
                Ok(())
            });
            trial.with_ignored_flag(missing.is_some())
        })
        .collect();
    for (program, why) in &looked {
        if let Some(why) = why {
            let count = tests
                .iter()
                .filter(|(_, need, _)| need.is_some_and(|n| n.name == *program))
                .count();
            println!("note: {count} test(s) that need {program} ignored here: {why}");
        }
    }
    libtest_mimic::run(&args, trials).exit()
}
