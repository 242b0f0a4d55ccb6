//! Sets of cells as bit sets, in several widths.
//!
//! The engine is generic over [`CellSet`] so that ordinary boards use one `u64` per set and larger
//! boards an array of words: two up to 128 cells, three up to 192 (Webball has 170), five up to
//! 320 (the cube surface has 296 cells), eight up to 512 (`u128` is implemented too, but slower
//! than two words). A board whose cells past the 64th are all transit cells (Boholy's poles) uses
//! [`Standing64`], one word that never holds those cells.
//! The choice is made once, when a game is loaded (`engine.rs`).

/// A set of cell indices below `CAPACITY`.
pub trait CellSet: Copy + Eq + Default + std::fmt::Debug + Send + Sync + 'static {
    const CAPACITY: usize;
    /// Whether the board may have cells past `CAPACITY` (transit cells, [`Standing64`]), which
    /// the few tests that must see them take from the tables' lists: a constant, so that the
    /// other widths compile no such test.
    const CLIPPED: bool = false;
    /// Word `k` of the set: cells `64 * k` to `64 * k + 63` as bits (`k` below `CAPACITY / 64`).
    fn word(&self, k: usize) -> u64;
    /// Adds the cells `64 * k + b` for every bit `b` of `bits`.
    fn or_word(&mut self, k: usize, bits: u64);
    fn has(&self, i: usize) -> bool;
    fn insert(&mut self, i: usize);
    fn remove(&mut self, i: usize);
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn and_not(self, o: Self) -> Self;
    fn is_empty(&self) -> bool;
    fn count(&self) -> u32;
    /// Removes and returns the lowest member.
    fn pop(&mut self) -> Option<usize>;
    /// How many members are below `i` (a member's place in the set, for tables kept per member).
    fn rank(&self, i: usize) -> usize;

    fn single(i: usize) -> Self {
        let mut s = Self::default();
        s.insert(i);
        s
    }
    fn intersects(self, o: Self) -> bool {
        !self.and(o).is_empty()
    }
    fn from_cells(cells: impl IntoIterator<Item = usize>) -> Self {
        let mut s = Self::default();
        for c in cells {
            s.insert(c);
        }
        s
    }
    fn iter(self) -> Members<Self> {
        Members(self, 0)
    }
    /// Calls `f` with each member, lowest first, word by word: where the loop's work is small,
    /// cheaper than [`CellSet::iter`] on wide sets, whose `pop` looks at the words from the
    /// first for each member (the royal piece's destinations tested for leaps and lines:
    /// Janggi -3.4 instructions a leaf, Webball with riders -3.8, Shogi -1.1). Not for every
    /// walk: as `iter`'s way for two words, it made most two-word boards dearer (Nelson +2.0,
    /// Grand Chess +1.9). One word walks as `iter` does (word by word, the one-word boards'
    /// counts compiled 0.1 to 0.2 dearer).
    #[inline(always)]
    fn each(self, mut f: impl FnMut(usize)) {
        if Self::CAPACITY <= 64 {
            // (One word: as `iter`.)
            for c in self.iter() {
                f(c);
            }
            return;
        }
        for k in 0..Self::CAPACITY / 64 {
            let mut w = self.word(k);
            while w != 0 {
                f(k * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
    /// Removes and returns the lowest member of a set that [`Members`] walks, `word` words of
    /// which it has passed (see `Wide::pop_from`).
    #[inline(always)]
    fn pop_from(&mut self, word: &mut usize) -> Option<usize> {
        let _ = word;
        self.pop()
    }
}

/// Iterator over the members of a set, lowest first (and the word it has reached).
pub struct Members<B>(B, usize);

impl<B: CellSet> Iterator for Members<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.0.pop_from(&mut self.1)
    }
}

macro_rules! native_set {
    ($t:ty, $bits:expr) => {
        impl CellSet for $t {
            const CAPACITY: usize = $bits;
            #[inline(always)]
            fn word(&self, k: usize) -> u64 {
                // `k` is 0 for `u64`, 0 or 1 for `u128`.
                (*self >> ((k * 64) & ($bits - 1))) as u64
            }
            #[inline(always)]
            fn or_word(&mut self, k: usize, bits: u64) {
                *self |= (bits as $t) << ((k * 64) & ($bits - 1));
            }
            #[inline(always)]
            fn has(&self, i: usize) -> bool {
                (*self >> i) & 1 != 0
            }
            #[inline(always)]
            fn insert(&mut self, i: usize) {
                *self |= (1 as $t) << i;
            }
            #[inline(always)]
            fn remove(&mut self, i: usize) {
                *self &= !((1 as $t) << i);
            }
            #[inline(always)]
            fn and(self, o: Self) -> Self {
                self & o
            }
            #[inline(always)]
            fn or(self, o: Self) -> Self {
                self | o
            }
            #[inline(always)]
            fn and_not(self, o: Self) -> Self {
                self & !o
            }
            #[inline(always)]
            fn is_empty(&self) -> bool {
                *self == 0
            }
            #[inline(always)]
            fn count(&self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn rank(&self, i: usize) -> usize {
                (*self & (((1 as $t) << i) - 1)).count_ones() as usize
            }
            #[inline(always)]
            fn pop(&mut self) -> Option<usize> {
                if *self == 0 {
                    None
                } else {
                    let i = self.trailing_zeros() as usize;
                    *self &= *self - 1;
                    Some(i)
                }
            }
        }
    };
}

native_set!(u64, 64);
native_set!(u128, 128);

/// A set of up to `64 * W` cells. The word index is clamped (masked by `W - 1` when `W` is a power
/// of two), so it needs no bounds check on the hot path; cells are always below the capacity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wide<const W: usize>(pub [u64; W]);

impl<const W: usize> Wide<W> {
    #[inline(always)]
    fn index(i: usize) -> usize {
        if W.is_power_of_two() {
            (i >> 6) & (W - 1)
        } else {
            (i >> 6).min(W - 1)
        }
    }
}

impl<const W: usize> Default for Wide<W> {
    fn default() -> Self {
        Wide([0; W])
    }
}

impl<const W: usize> CellSet for Wide<W> {
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn word(&self, k: usize) -> u64 {
        self.0[Self::index(k << 6)]
    }
    #[inline]
    fn or_word(&mut self, k: usize, bits: u64) {
        self.0[Self::index(k << 6)] |= bits;
    }
    #[inline]
    fn has(&self, i: usize) -> bool {
        (self.0[Self::index(i)] >> (i & 63)) & 1 != 0
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        self.0[Self::index(i)] |= 1 << (i & 63);
    }
    #[inline]
    fn remove(&mut self, i: usize) {
        self.0[Self::index(i)] &= !(1 << (i & 63));
    }
    #[inline]
    fn and(mut self, o: Self) -> Self {
        for k in 0..W {
            self.0[k] &= o.0[k];
        }
        self
    }
    #[inline]
    fn or(mut self, o: Self) -> Self {
        for k in 0..W {
            self.0[k] |= o.0[k];
        }
        self
    }
    #[inline]
    fn and_not(mut self, o: Self) -> Self {
        for k in 0..W {
            self.0[k] &= !o.0[k];
        }
        self
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn rank(&self, i: usize) -> usize {
        let k = Self::index(i);
        let below: u32 = self.0[..k].iter().map(|w| w.count_ones()).sum();
        (below + (self.0[k] & ((1u64 << (i & 63)) - 1)).count_ones()) as usize
    }
    #[inline]
    fn pop(&mut self) -> Option<usize> {
        for k in 0..W {
            let w = self.0[k];
            if w != 0 {
                self.0[k] = w & (w - 1);
                return Some(k * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }
    /// With three words, the words are shifted down as each empties (`word` counts those
    /// passed), so that the first is always the one read: indexed by constants, a walked set's
    /// words stay in registers, where an index that moves on kept them in memory (Webball -6.3
    /// instructions a leaf; docs/performance.md). With more, the shifts cost more than they
    /// save in the `orbis` binary (the 8x8 cubes +0.7 to +1.6): `word` indexes the word
    /// reached, the lower ones empty.
    #[inline]
    fn pop_from(&mut self, word: &mut usize) -> Option<usize> {
        if W <= 2 {
            return self.pop();
        }
        if W > 3 {
            while *word < W {
                let w = self.0[*word];
                if w != 0 {
                    self.0[*word] = w & (w - 1);
                    return Some(*word * 64 + w.trailing_zeros() as usize);
                }
                *word += 1;
            }
            return None;
        }
        loop {
            let w = self.0[0];
            if w != 0 {
                self.0[0] = w & (w - 1);
                return Some(*word * 64 + w.trailing_zeros() as usize);
            }
            if self.0[1..].iter().all(|&w| w == 0) {
                return None;
            }
            for k in 0..W - 1 {
                self.0[k] = self.0[k + 1];
            }
            self.0[W - 1] = 0;
            *word += 1;
        }
    }
}

/// A set of the first 64 cells of a board whose other cells are all transit cells: no piece
/// ever stands on one and no move ends there, so no set needs to hold one, and such a board
/// (Boholy's 64 squares and two poles) costs one word a set, not two. The cells past 64 are
/// never members: adding one does nothing and testing one answers no; a run of them is empty
/// (it never blocks). A cell that must be tested all the same (a pole that must not
/// be attacked) is taken from the tables' lists, never from a set (`Game::passed`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Standing64(pub u64);

impl CellSet for Standing64 {
    const CAPACITY: usize = 64;
    const CLIPPED: bool = true;
    // `k` is 0, as for `u64`: `Game::new` empties the runs of cells past the capacity and puts
    // them in word 0.
    #[inline(always)]
    fn word(&self, _k: usize) -> u64 {
        self.0
    }
    #[inline(always)]
    fn or_word(&mut self, _k: usize, bits: u64) {
        self.0 |= bits;
    }
    #[inline(always)]
    fn has(&self, i: usize) -> bool {
        i < 64 && (self.0 >> i) & 1 != 0
    }
    #[inline(always)]
    fn insert(&mut self, i: usize) {
        if i < 64 {
            self.0 |= 1 << i;
        }
    }
    #[inline(always)]
    fn remove(&mut self, i: usize) {
        if i < 64 {
            self.0 &= !(1 << i);
        }
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Standing64(self.0 & o.0)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Standing64(self.0 | o.0)
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        Standing64(self.0 & !o.0)
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.0.count_ones()
    }
    #[inline(always)]
    fn rank(&self, i: usize) -> usize {
        if i < 64 {
            self.0.rank(i)
        } else {
            self.0.count_ones() as usize
        }
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        self.0.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: CellSet>() {
        let cells = [0usize, 5, 40, B::CAPACITY - 1];
        let s = B::from_cells(cells);
        assert_eq!(s.count(), 4);
        assert!(s.has(40) && !s.has(41));
        assert_eq!(s.iter().collect::<Vec<_>>(), cells.to_vec());
        // (On the wide sets: a first word with no member, and members in two later words.)
        let late = [B::CAPACITY / 2, B::CAPACITY - 2, B::CAPACITY - 1];
        assert_eq!(B::from_cells(late).iter().collect::<Vec<_>>(), late.to_vec());
        let t = s.and_not(B::single(5));
        assert!(!t.has(5) && t.has(0));
        assert!(s.intersects(B::single(B::CAPACITY - 1)));
        assert!(B::default().is_empty());
        assert_eq!(B::from_cells([0, 5, 40]).count(), 3);
        assert_eq!(cells.map(|c| s.rank(c)), [0, 1, 2, 3]);
        assert_eq!((s.rank(6), s.rank(39), s.rank(41)), (2, 2, 3));
        for k in 0..B::CAPACITY / 64 {
            let bits = s.word(k);
            assert_eq!(bits.count_ones(), cells.iter().filter(|&&c| c / 64 == k).count() as u32);
            let mut t = B::default();
            t.or_word(k, bits);
            assert_eq!(t, s.and(B::from_cells(k * 64..k * 64 + 64)));
        }
    }

    #[test]
    fn all_widths_behave_alike() {
        exercise::<u64>();
        exercise::<u128>();
        exercise::<Wide<2>>();
        exercise::<Wide<3>>();
        exercise::<Wide<5>>();
        exercise::<Wide<8>>();
        exercise::<Standing64>();
    }

    /// The cells past a [`Standing64`]'s 64 are never members.
    #[test]
    fn standing_sets_leave_the_cells_past_64_out() {
        let mut s = Standing64::from_cells([3, 64, 65, 100]);
        assert_eq!(s, Standing64::single(3));
        assert!(!s.has(64) && !s.has(65));
        s.remove(64);
        assert_eq!((s.count(), s.rank(65)), (1, 1));
    }
}
