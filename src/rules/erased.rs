//! A value whose type names its variant (a `Game<R>`, an `Egdb<R>`) held
//! without that type, and given back as it: the one way the crate erases
//! the variant of a value. (Behaviour whose variant is chosen at run time
//! is a trait object instead: the engine's game, Python's board.)

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use super::{Rules, VariantKind};

/// A family of types, one for each variant: `Of<R>` is the family's type
/// for variant `R` (for example the games, `Of<R> = Game<R>`).
pub trait ByVariant: 'static {
    /// The family's type for variant `R`.
    type Of<R: Rules>: Send + Sync + 'static;
}

/// A value of family `F` for a variant known only at run time: its
/// variant is kept, and [`Erased::get`] gives the value back as the
/// family's type for that variant (and nothing for another). Cloning
/// shares the value.
pub struct Erased<F: ByVariant> {
    kind: VariantKind,
    value: Arc<dyn Any + Send + Sync>,
    family: PhantomData<fn() -> F>,
}

impl<F: ByVariant> Erased<F> {
    /// Erases the variant of `value`.
    pub fn new<R: Rules>(value: F::Of<R>) -> Erased<F> {
        Erased {
            kind: R::KIND,
            value: Arc::new(value),
            family: PhantomData,
        }
    }

    /// The variant of the value.
    pub fn variant(&self) -> VariantKind {
        self.kind
    }

    /// The value, if it is of variant `R`.
    pub fn get<R: Rules>(&self) -> Option<&F::Of<R>> {
        self.value.downcast_ref()
    }

    /// The value shared, if it is of variant `R`.
    pub fn get_shared<R: Rules>(&self) -> Option<Arc<F::Of<R>>> {
        Arc::clone(&self.value).downcast().ok()
    }
}

impl<F: ByVariant> Clone for Erased<F> {
    fn clone(&self) -> Self {
        Erased {
            kind: self.kind,
            value: Arc::clone(&self.value),
            family: PhantomData,
        }
    }
}

impl<F: ByVariant> fmt::Debug for Erased<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Erased({})", self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Brazilian, International, Position};

    /// The positions of each variant.
    struct Positions;

    impl ByVariant for Positions {
        type Of<R: Rules> = Position<R>;
    }

    #[test]
    fn a_value_comes_back_as_its_own_variant_only() {
        let erased = Erased::<Positions>::new(Position::<Brazilian>::start());
        assert_eq!(erased.variant(), VariantKind::Brazilian);
        assert_eq!(
            erased.get::<Brazilian>(),
            Some(&Position::<Brazilian>::start())
        );
        assert!(erased.get::<International>().is_none());
        let shared = erased.clone().get_shared::<Brazilian>().unwrap();
        assert_eq!(*shared, Position::<Brazilian>::start());
        assert!(erased.get_shared::<International>().is_none());
    }
}
