//! Small sets of card types, colors and keywords, as bit masks: the layer
//! passes copy them often.

use std::marker::PhantomData;

use crate::terms::{CardType, Color, INERT_KEYWORDS, InertKeyword, Keyword};

pub(crate) trait Flag: Copy + 'static {
    /// How many values there are (at most 256).
    const COUNT: usize;
    fn bit(self) -> usize;
    fn from_bit(bit: usize) -> Option<Self>;
}

macro_rules! flag {
    ($t:ty) => {
        impl Flag for $t {
            const COUNT: usize = <$t>::ALL.len();
            fn bit(self) -> usize {
                // ALL lists every variant once, so the position always exists.
                <$t>::ALL.iter().position(|x| *x == self).unwrap_or(0)
            }
            fn from_bit(bit: usize) -> Option<Self> {
                <$t>::ALL.get(bit).copied()
            }
        }
    };
}

flag!(CardType);
flag!(Color);

// The keywords of Keyword::ALL first, then the inert ones.
const _: () = assert!(Keyword::ALL.len() + INERT_KEYWORDS.len() <= 256);

impl Flag for Keyword {
    const COUNT: usize = Keyword::ALL.len() + INERT_KEYWORDS.len();
    fn bit(self) -> usize {
        match self {
            Keyword::Inert(k) => Keyword::ALL.len() + k.index(),
            k => Keyword::ALL.iter().position(|x| *x == k).unwrap_or(0),
        }
    }
    fn from_bit(bit: usize) -> Option<Self> {
        match bit.checked_sub(Keyword::ALL.len()) {
            None => Keyword::ALL.get(bit).copied(),
            Some(i) => InertKeyword::from_index(i).map(Keyword::Inert),
        }
    }
}

#[derive(Debug)]
pub(crate) struct Bits<T: Flag>([u64; 4], PhantomData<T>);

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
        Bits([0; 4], PhantomData)
    }

    pub fn of(items: &[T]) -> Self {
        let mut b = Self::empty();
        for i in items {
            b.insert(*i);
        }
        b
    }

    // A bit is a word of the mask and a bit in it; Flag::COUNT is at
    // most 256, so the word always exists.
    fn word(bit: usize) -> (usize, u64) {
        ((bit / 64) % 4, 1 << (bit % 64))
    }

    pub fn has(self, t: T) -> bool {
        let (w, b) = Self::word(t.bit());
        self.0[w] & b != 0
    }

    pub fn insert(&mut self, t: T) {
        let (w, b) = Self::word(t.bit());
        self.0[w] |= b;
    }

    pub fn remove(&mut self, t: T) {
        let (w, b) = Self::word(t.bit());
        self.0[w] &= !b;
    }

    pub fn contains_all(self, items: &[T]) -> bool {
        items.iter().all(|i| self.has(*i))
    }

    pub fn contains_any(self, items: &[T]) -> bool {
        items.iter().any(|i| self.has(*i))
    }

    pub fn to_vec(self) -> Vec<T> {
        (0..T::COUNT)
            .filter_map(T::from_bit)
            .filter(|t| self.has(*t))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inert_keywords_have_bits_of_their_own() {
        let all: Vec<Keyword> = (0..<Keyword as Flag>::COUNT)
            .filter_map(<Keyword as Flag>::from_bit)
            .collect();
        assert_eq!(all.len(), Keyword::ALL.len() + INERT_KEYWORDS.len());
        let mut set = Bits::empty();
        for k in &all {
            assert!(!set.has(*k), "{k} shares a bit");
            set.insert(*k);
        }
        assert_eq!(set.to_vec(), all);
        let shroud: Keyword = "shroud".parse().unwrap();
        set.remove(shroud);
        assert!(!set.has(shroud) && set.has(Keyword::Flying));
    }
}
