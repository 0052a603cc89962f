//! Small sets of card types, colors and keywords, as bit masks: the layer
//! passes copy them often.

use std::marker::PhantomData;

use crate::terms::{CardType, Color, Keyword};

pub(crate) trait Flag: Copy + 'static {
    const ALL: &'static [Self];
    fn bit(self) -> u32;
}

macro_rules! flag {
    ($t:ty) => {
        impl Flag for $t {
            const ALL: &'static [Self] = &<$t>::ALL;
            fn bit(self) -> u32 {
                // ALL lists every variant once, so the position always exists.
                <$t>::ALL.iter().position(|x| *x == self).unwrap_or(0) as u32
            }
        }
    };
}

flag!(CardType);
flag!(Color);
flag!(Keyword);

#[derive(Debug)]
pub(crate) struct Bits<T: Flag>(u32, PhantomData<T>);

impl<T: Flag> Clone for Bits<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Flag> Copy for Bits<T> {}

impl<T: Flag> PartialEq for Bits<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<T: Flag> Eq for Bits<T> {}

impl<T: Flag> Bits<T> {
    pub fn empty() -> Self {
        Bits(0, PhantomData)
    }

    pub fn of(items: &[T]) -> Self {
        let mut b = Self::empty();
        for i in items {
            b.insert(*i);
        }
        b
    }

    pub fn has(self, t: T) -> bool {
        self.0 & (1 << t.bit()) != 0
    }

    pub fn insert(&mut self, t: T) {
        self.0 |= 1 << t.bit();
    }

    pub fn remove(&mut self, t: T) {
        self.0 &= !(1 << t.bit());
    }

    pub fn contains_all(self, items: &[T]) -> bool {
        items.iter().all(|i| self.has(*i))
    }

    pub fn contains_any(self, items: &[T]) -> bool {
        items.iter().any(|i| self.has(*i))
    }

    pub fn to_vec(self) -> Vec<T> {
        T::ALL.iter().copied().filter(|t| self.has(*t)).collect()
    }
}
