//! The CPU check at start: the build may use instructions beyond baseline
//! x86-64 (see `.cargo/config.toml`), and a CPU without them must get a
//! clear message, not an illegal-instruction crash in the middle of a game.

/// The instruction-set extensions this build was compiled to use that the
/// running CPU lacks (empty when all is well, and always on other
/// architectures).
pub fn missing_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! require {
            ($($feature:tt),*) => {
                $(
                    if cfg!(target_feature = $feature)
                        && !std::arch::is_x86_feature_detected!($feature)
                    {
                        missing.push($feature);
                    }
                )*
            };
        }
        require!("popcnt", "sse3", "ssse3", "sse4.1", "sse4.2", "avx", "avx2", "bmi1", "bmi2");
    }
    missing
}

/// An error message when the CPU cannot run this build.
pub fn check() -> Result<(), String> {
    verdict(&missing_features())
}

fn verdict(missing: &[&str]) -> Result<(), String> {
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "this build needs CPU instructions that this processor lacks ({}); \
             rebuild for it with RUSTFLAGS=\"-C target-cpu=native\" cargo build --release",
            missing.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_that_built_the_tests_can_run_them() {
        assert_eq!(missing_features(), Vec::<&str>::new());
        assert!(check().is_ok());
    }

    #[test]
    fn a_missing_feature_is_named_with_the_way_out() {
        let e = verdict(&["popcnt", "sse4.2"]).unwrap_err();
        assert!(e.contains("(popcnt, sse4.2)"), "{e}");
        assert!(e.contains("target-cpu=native"), "{e}");
    }
}
